/**
 * What identifies a stack's objects (docs/decisions.md): a pod's create key and an SSH key's holder
 * are derived from the stack instance's identity, which its StackIdentity draws once and its state
 * keeps, and from the resource's place in the stack. A stack instance is modelled here by the
 * identity its first `up` drew.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadDist } from "../support/dist.js";

const { stackIdentityProvider, STACK_IDENTITY } = loadDist<
  typeof import("../../provider/resources/stack-identity/provider.js")
>("provider/resources/stack-identity/provider.js");
const { createKeyOf, CREATE_KEY } = loadDist<typeof import("../../provider/resources/pod/translate.js")>(
  "provider/resources/pod/translate.js",
);
const { holderOf, HOLDER } = loadDist<typeof import("../../provider/resources/ssh-key/holders.js")>(
  "provider/resources/ssh-key/holders.js",
);

/** A new stack instance: `pulumi stack init` on any backend, then an `up` that creates its identity. */
const newStackInstance = async () => (await stackIdentityProvider.create()).id;
/** The same stack instance in a later run: the engine reads the identity back from its state. */
const nextRun = async (identity: string) => (await stackIdentityProvider.read(identity, {})).id ?? "";

const COMPONENT = "urn:pulumi:dev::trainers::my:Fleet::gpu";

describe("a stack's identity", () => {
  it("is 128 random bits, never changed by a later program", async () => {
    const identity = await newStackInstance();
    expect([
      STACK_IDENTITY.test(identity),
      await nextRun(identity),
      await stackIdentityProvider.diff(),
    ]).toEqual([true, identity, { changes: false }]);
  });
});

describe("create keys and SSH key holders", () => {
  // Each row: how the second resource relates to the first (a pod `trainer` at the stack's root in
  // the first stack instance), and whether it gets the same key.
  it.each([
    ["the same stack instance in the next run (after an interrupted one)", "next run", "", "trainer", true],
    // Same project, stack and names on another backend, or the stack removed and initialised again
    // under its old name: either way a new instance, which draws its own identity
    // (test/engine/stack-isolation.test.ts runs both through the real CLI).
    ["another stack instance with the same names", "new instance", "", "trainer", false],
    ["another resource of the same stack", "next run", "", "evaluator", false],
    ["the same name under a component of the same stack", "next run", COMPONENT, "trainer", false],
  ] as const)("%s: same key %s", async (_case, instance, parent, name, same) => {
    const first = await newStackInstance();
    const second = instance === "next run" ? await nextRun(first) : await newStackInstance();
    const keys = [createKeyOf(first, "", "trainer"), createKeyOf(second, parent, name)];
    const holders = [holderOf(first, "", "trainer"), holderOf(second, parent, name)];
    expect([
      keys.every((k) => CREATE_KEY.test(k)),
      holders.every((h) => HOLDER.test(h)),
      keys[0] === keys[1],
      holders[0] === holders[1],
    ]).toEqual([true, true, same, same]);
  });

  it("two stack instances never share a key or a holder, whatever their resources are called", () => {
    const identity = fc.stringMatching(/^[0-9a-f]{32}$/);
    const place = fc.record({ parent: fc.constantFrom("", COMPONENT), name: fc.string({ minLength: 1 }) });
    fc.assert(
      fc.property(identity, identity, place, place, (one, other, a, b) => {
        fc.pre(one !== other);
        expect([
          createKeyOf(one, a.parent, a.name) === createKeyOf(other, b.parent, b.name),
          holderOf(one, a.parent, a.name) === holderOf(other, b.parent, b.name),
        ]).toEqual([false, false]);
      }),
    );
  });
});
