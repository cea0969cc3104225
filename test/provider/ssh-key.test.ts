/** SshKey against the emulator: read-merge-write under one lock, verified, never touching unmanaged keys. */
import { describe, expect, it } from "vitest";
import type { SshKeyOutputs } from "../../provider/resources/ssh-key/types.js";
import { apiFor, type RunningEmulator } from "../support/emulator.js";
import {
  emulatorClock,
  emulatorUrls,
  freshEmulatorForEachTest,
  type HostProviders,
  useRuntime,
} from "../support/provider.js";

let Key: HostProviders["SshKey"];
const key = (n: number, comment = `key${n}@test`) =>
  `ssh-ed25519 ${Buffer.concat([Buffer.from([0, 0, 0, 11]), Buffer.from("ssh-ed25519"), Buffer.from([0, 0, 0, 32]), Buffer.alloc(32, n)]).toString("base64")} ${comment}`;
const UNMANAGED = key(99, "someone-else@console");

let emu: RunningEmulator;
let progress: string[];
freshEmulatorForEachTest({ seed: { sshKeys: [UNMANAGED] } }, (t) => {
  ({ emu, progress } = t);
  Key = t.providers.SshKey;
});

describe("SshKey", () => {
  it("registers keys created concurrently in one deployment, and keeps keys it does not manage", async () => {
    const created = await Promise.all([1, 2, 3].map((n) => Key.create({ publicKey: key(n) })));
    expect(await apiFor(emu).sshKeys.get()).toEqual([UNMANAGED, key(1), key(2), key(3)]);
    expect(created.map((c) => (c.outs as SshKeyOutputs).comment)).toEqual([
      "key1@test",
      "key2@test",
      "key3@test",
    ]);
    expect(emu.control.requests().summary.byRoute["PUT /v2/account/ssh-keys"]).toBe(3);
  });

  it("does not register a key twice", async () => {
    await Key.create({ publicKey: key(1) });
    await Key.create({ publicKey: key(1, "same key, other comment") });
    expect(await apiFor(emu).sshKeys.get()).toEqual([UNMANAGED, key(1)]);
  });

  it("deletes only its own key, concurrently with other deletes", async () => {
    const a = await Key.create({ publicKey: key(1) });
    const b = await Key.create({ publicKey: key(2) });
    await Promise.all([Key.delete(a.id, a.outs as SshKeyOutputs), Key.delete(b.id, b.outs as SshKeyOutputs)]);
    expect(await apiFor(emu).sshKeys.get()).toEqual([UNMANAGED]);
  });

  it("refresh notices a key removed elsewhere", async () => {
    const a = await Key.create({ publicKey: key(1) });
    const before = await Key.read(a.id, a.outs as SshKeyOutputs);
    await apiFor(emu).sshKeys.put([UNMANAGED]);
    expect([before.id, await Key.read(a.id, a.outs as SshKeyOutputs)]).toEqual([a.id, {}]);
  });

  it("rewrites a changed comment in place; new key material is a replacement", async () => {
    const a = await Key.create({ publicKey: key(1) });
    const olds = a.outs as SshKeyOutputs;
    const comment = await Key.diff(a.id, olds, { publicKey: key(1, "renamed") });
    const material = await Key.diff(a.id, olds, { publicKey: key(2) });
    await Key.update(a.id, olds, { publicKey: key(1, "renamed") });
    expect([comment, material.replaces, await apiFor(emu).sshKeys.get()]).toEqual([
      { changes: true, replaces: [], updates: ["publicKey"], deleteBeforeReplace: false },
      ["publicKey"],
      [UNMANAGED, key(1, "renamed")],
    ]);
  });

  describe("held by several stacks", () => {
    const [X, Y] = ["aaaaaaaaaaaa", "bbbbbbbbbbbb"];
    const held = (line: string, ...holders: string[]) =>
      `${line} runpod-dynamic-holders=${holders.join(",")}`;

    it("stays on the account until the last stack that declares it lets go", async () => {
      const x = await Key.create({ publicKey: key(1), __holder: X });
      const y = await Key.create({ publicKey: key(1), __holder: Y });
      const both = await apiFor(emu).sshKeys.get();
      await Key.delete(x.id, x.outs as SshKeyOutputs);
      const one = await apiFor(emu).sshKeys.get();
      const read = await Key.read(y.id, y.outs as SshKeyOutputs);
      await Key.delete(y.id, y.outs as SshKeyOutputs);
      expect([both, one, read.props, await apiFor(emu).sshKeys.get()]).toEqual([
        [UNMANAGED, held(key(1), X, Y)],
        [UNMANAGED, held(key(1), Y)],
        y.outs,
        [UNMANAGED],
      ]);
      expect(progress.filter((l) => l.includes("SshKey key1@test"))).toEqual([
        `runpod SshKey key1@test: registered ${x.id}`,
        `runpod SshKey key1@test: registered ${x.id}`,
        `runpod SshKey key1@test: ${x.id} stays on the account: another stack declares it`,
        `runpod SshKey key1@test: removed ${x.id}`,
      ]);
    });

    it("a key the account had before any stack: put back as it was when the last one lets go", async () => {
      const x = await Key.create({ publicKey: UNMANAGED, __holder: X });
      const marked = await apiFor(emu).sshKeys.get();
      await Key.delete(x.id, x.outs as SshKeyOutputs);
      expect([marked, await apiFor(emu).sshKeys.get()]).toEqual([
        [held(UNMANAGED, "account", X)],
        [UNMANAGED],
      ]);
    });

    it("a mark another writer dropped: refresh shows it, and the next update puts it back", async () => {
      const x = await Key.create({ publicKey: key(1), __holder: X });
      await Key.create({ publicKey: key(1), __holder: Y });
      // A write of the set read before X's mark was added lands after it (a race with another stack).
      await apiFor(emu).sshKeys.put([UNMANAGED, held(key(1), Y)]);
      const refreshed = await Key.read(x.id, x.outs as SshKeyOutputs);
      const drift = await Key.diff(x.id, refreshed.props as SshKeyOutputs, {
        publicKey: key(1),
        __holder: X,
      });
      await Key.update(x.id, refreshed.props as SshKeyOutputs, { publicKey: key(1), __holder: X });
      expect([
        (refreshed.props as SshKeyOutputs).__unmarked,
        drift.changes,
        await apiFor(emu).sshKeys.get(),
      ]).toEqual([true, true, [UNMANAGED, held(key(1), Y, X)]]);
    });

    it("declared with other comments by two stacks: neither rewrites the shared line, nor sees drift", async () => {
      await Key.create({ publicKey: key(1), __holder: X });
      const y = await Key.create({ publicKey: key(1, "key1@work"), __holder: Y });
      const read = await Key.read(y.id, y.outs as SshKeyOutputs);
      const drift = await Key.diff(y.id, read.props as SshKeyOutputs, {
        publicKey: key(1, "key1@work"),
        __holder: Y,
      });
      await Key.update(y.id, y.outs as SshKeyOutputs, { publicKey: key(1, "key1@desk"), __holder: Y });
      expect([drift.changes, (read.props as SshKeyOutputs).comment, await apiFor(emu).sshKeys.get()]).toEqual(
        [false, "key1@work", [UNMANAGED, held(key(1), X, Y)]],
      );
    });

    it("updated after being renamed with an alias: keeps the holder in state, and its delete removes the key", async () => {
      const x = await Key.create({ publicKey: key(1), __holder: X });
      const renamed = await Key.update(x.id, x.outs as SshKeyOutputs, {
        publicKey: key(1, "key1@renamed"),
        __holder: "cccccccccccc",
      });
      await Key.delete(x.id, renamed.outs as SshKeyOutputs);
      expect(await apiFor(emu).sshKeys.get()).toEqual([UNMANAGED]);
    });

    it("one made before keys had holders, updated, then deleted: the key it made goes", async () => {
      const legacy = { publicKey: key(1), fingerprint: "", keyType: "ssh-ed25519", comment: "key1@test" };
      await apiFor(emu).sshKeys.put([UNMANAGED, key(1)]);
      const updated = await Key.update("", legacy, { publicKey: key(1, "key1@new"), __holder: X });
      const marked = await apiFor(emu).sshKeys.get();
      await Key.delete("", updated.outs as SshKeyOutputs);
      expect([marked, await apiFor(emu).sshKeys.get()]).toEqual([
        [UNMANAGED, held(key(1, "key1@new"), X)],
        [UNMANAGED],
      ]);
    });

    it("one made before keys had holders (none in state): removed unless a stack holds it", async () => {
      const legacy = { publicKey: key(1), fingerprint: "", keyType: "ssh-ed25519", comment: "key1@test" };
      await Key.create({ publicKey: key(1), __holder: Y });
      await Key.delete("", legacy);
      const kept = await apiFor(emu).sshKeys.get();
      await apiFor(emu).sshKeys.put([UNMANAGED, key(1)]);
      await Key.delete("", legacy);
      expect([kept, await apiFor(emu).sshKeys.get()]).toEqual([[UNMANAGED, held(key(1), Y)], [UNMANAGED]]);
    });
  });

  describe("a write of the set that may have landed, then a failure", () => {
    /** A host whose requests give up after 200 ms: the set's first PUT answers after 400 ms (and lands). */
    function slowFirstWrite() {
      const runtime = useRuntime({
        apiKey: emu.apiKey,
        ...emulatorUrls(emu),
        clock: emulatorClock(emu),
        clientOptions: { retry: { minTimeoutMs: 1, maxTimeoutMs: 2, randomize: false }, deadlineMs: 200 },
      });
      emu.control.addFault({ method: "PUT", path: "^/v2/account/ssh-keys$", latencyMs: 400, times: 1 });
      return runtime;
    }

    /** Every read of the set fails from the moment the slow PUT has landed. */
    function readsFailOnceWritten(): void {
      const log = emu.state.log;
      const add = log.add.bind(log);
      log.add = (entry) => {
        add(entry);
        if (entry.route === "PUT /v2/account/ssh-keys" && entry.status === 200) {
          emu.control.addFault({ method: "GET", path: "^/v2/account/ssh-keys$", status: 500 });
          log.add = add;
        }
      };
    }

    it("a create is recorded in state with its key named, and the next update finishes it", async () => {
      const { providers, context } = slowFirstWrite();
      readsFailOnceWritten();
      const failed = await providers.SshKey.create({ publicKey: key(1), __holder: "aaaaaaaaaaaa" }).then(
        () => undefined,
        (e: Error & { id?: string; properties?: SshKeyOutputs }) => e,
      );
      const onAccount = emu.control.snapshot().sshKeys;
      emu.control.clearFaults();
      await providers.SshKey.update(String(failed?.id), failed?.properties as SshKeyOutputs, {
        publicKey: key(1),
        __holder: "aaaaaaaaaaaa",
      });
      context.close();
      expect([
        failed?.id?.startsWith("SHA256:"),
        failed?.properties?.__holder,
        failed?.message,
        onAccount,
        await apiFor(emu).sshKeys.get(),
      ]).toEqual([
        true,
        "aaaaaaaaaaaa",
        expect.stringMatching(/^SshKey key1@test: .*SHA256:.*recorded in state/),
        [UNMANAGED, `${key(1)} runpod-dynamic-holders=aaaaaaaaaaaa`],
        [UNMANAGED, `${key(1)} runpod-dynamic-holders=aaaaaaaaaaaa`],
      ]);
    });

    it("a delete fails saying its write may have landed, and deleting again finishes it", async () => {
      const a = await Key.create({ publicKey: key(1) });
      const { providers, context } = slowFirstWrite();
      readsFailOnceWritten();
      const failed = await providers.SshKey.delete(a.id, a.outs as SshKeyOutputs).then(
        () => undefined,
        (e: Error) => e.message,
      );
      emu.control.clearFaults();
      await providers.SshKey.delete(a.id, a.outs as SshKeyOutputs);
      context.close();
      expect([failed, await apiFor(emu).sshKeys.get()]).toEqual([
        expect.stringMatching(
          /^SshKey key1@test: letting go of SHA256:\S+ failed .* may have landed .*deleting it again/,
        ),
        [UNMANAGED],
      ]);
    });
  });

  it("uses the key's SHA256 fingerprint as its id", async () => {
    const a = await Key.create({ publicKey: key(1) });
    expect(a.id).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
  });
});
