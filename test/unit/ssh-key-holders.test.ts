/**
 * Who holds a key of the account's SSH key set (provider/resources/ssh-key/holders.ts), as tables:
 * what a stack's create, update and delete make of the registered line, and that each is a fixed
 * point (applied to its own result it changes nothing), which is how a write is verified.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadDist } from "../support/dist.js";

const { hold, release, splitHolders } = loadDist<
  typeof import("../../provider/resources/ssh-key/holders.js")
>("provider/resources/ssh-key/holders.js");
const { parsePublicKey } = loadDist<typeof import("../../provider/resources/ssh-key/check.js")>(
  "provider/resources/ssh-key/check.js",
);

const material = (n: number) =>
  Buffer.concat([
    Buffer.from([0, 0, 0, 11]),
    Buffer.from("ssh-ed25519"),
    Buffer.from([0, 0, 0, 32]),
    Buffer.alloc(32, n),
  ]).toString("base64");
const LINE = `ssh-ed25519 ${material(1)} me@laptop`;
const OTHER = `ssh-ed25519 ${material(2)} someone@console`;
const KEY = parsePublicKey(LINE) ?? (undefined as never);
const X = "aaaaaaaaaaaa";
const Y = "bbbbbbbbbbbb";
const held = (...holders: string[]) => `${LINE} runpod-dynamic-holders=${holders.join(",")}`;

describe("a stack holding a key (create)", () => {
  it.each([
    ["the account does not have it: added, held by the stack", [OTHER], X, [OTHER, held(X)]],
    [
      "the account had it before any stack: the account stays a holder",
      [LINE, OTHER],
      X,
      [held("account", X), OTHER],
    ],
    ["another stack holds it: one more holder", [held(Y)], X, [held(Y, X)]],
    ["this stack already holds it: nothing changes", [held(Y, X)], X, [held(Y, X)]],
    ["a caller with no holder: added as written", [], undefined, [LINE]],
  ])("%s", (_case, keys, holder, after) => {
    expect(hold(keys, KEY, holder, "create")).toEqual(after);
  });
});

describe("a stack holding a key it has in state (update)", () => {
  const RENAMED = `ssh-ed25519 ${material(1)} me@new-laptop`;
  const renamed = (...holders: string[]) => `${RENAMED} runpod-dynamic-holders=${holders.join(",")}`;
  it.each([
    ["held by this stack alone: the new comment is written", [held(X), OTHER], X, [renamed(X), OTHER]],
    // Made before keys had holders: the line is this resource's own, not the account's.
    ["found without holders: marked, no account, and rewritten", [LINE], X, [renamed(X)]],
    ["shared with another stack: the line keeps its text", [held(Y, X)], X, [held(Y, X)]],
    ["the account had it first: the line keeps its text", [held("account", X)], X, [held("account", X)]],
    ["its mark lost to another writer: put back, the shared text kept", [held(Y)], X, [held(Y, X)]],
    ["gone from the account: added again", [OTHER], X, [OTHER, renamed(X)]],
  ])("%s", (_case, keys, holder, after) => {
    const key = parsePublicKey(RENAMED) ?? (undefined as never);
    expect(hold(keys, key, holder, "update")).toEqual(after);
  });
});

describe("a stack letting go of a key (delete)", () => {
  it.each([
    [
      "another stack still holds it: only this mark comes off",
      [held(X, Y), OTHER],
      X,
      [held(Y), OTHER],
      "held",
    ],
    ["the account had it before: put back as it was found", [held("account", X)], X, [LINE], "restored"],
    ["the last holder: removed", [OTHER, held(X)], X, [OTHER], "removed"],
    ["already let go, another stack holds it: nothing changes", [held(Y)], X, [held(Y)], "held"],
    ["already let go, the account's own: nothing changes", [LINE], X, [LINE], "restored"],
    ["not on the account", [OTHER], X, [OTHER], "absent"],
    // State written before keys had holders: removed as before, unless a stack holds it.
    ["no holder, a stack holds it: stays", [held(Y)], undefined, [held(Y)], "held"],
    ["no holder, nobody marked it: removed", [LINE, OTHER], undefined, [OTHER], "removed"],
  ])("%s", (_case, keys, holder, after, kind) => {
    const r = release(keys, KEY, holder);
    expect([r.keys, r.released.kind]).toEqual([after, kind]);
  });
});

describe("every change is a fixed point: applied to its own result it writes nothing", () => {
  const holder = fc.constantFrom(X, Y, "cccccccccccc", undefined);
  // What the provider writes: a bare line, or one held by at least one stack (the account alone
  // is never written: the last stack puts the line back as it was found).
  const line = fc.oneof(
    fc.constant(LINE),
    fc
      .tuple(fc.boolean(), fc.subarray([X, Y, "cccccccccccc"], { minLength: 1 }))
      .map(([account, stacks]) => held(...(account ? ["account"] : []), ...stacks)),
  );
  const keySet = fc
    .tuple(fc.option(line, { nil: undefined }), fc.boolean())
    .map(([mine, other]) => [...(mine ? [mine] : []), ...(other ? [OTHER] : [])]);

  it.each([
    ["hold (create)", (keys: string[], h: string | undefined) => hold(keys, KEY, h, "create")],
    ["hold (update)", (keys: string[], h: string | undefined) => hold(keys, KEY, h, "update")],
    ["release", (keys: string[], h: string | undefined) => release(keys, KEY, h).keys],
  ])("%s", (_name, change) => {
    fc.assert(
      fc.property(keySet, holder, (keys, h) => {
        const once = change(keys, h);
        expect(change(once, h)).toEqual(once);
      }),
    );
  });

  it("a line's holders are read back as written", () => {
    expect(splitHolders(held("account", X, Y))).toEqual({ line: LINE, holders: ["account", X, Y] });
  });
});
