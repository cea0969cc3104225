/** SshKey against the emulator: read-merge-write under one lock, verified, never touching unmanaged keys. */
import { describe, expect, it } from "vitest";
import type { SshKeyOutputs } from "../../provider/resources/ssh-key/types.js";
import { apiFor, type RunningEmulator } from "../support/emulator.js";
import { freshEmulatorForEachTest, type HostProviders } from "../support/provider.js";

let Key: HostProviders["SshKey"];
const key = (n: number, comment = `key${n}@test`) =>
  `ssh-ed25519 ${Buffer.concat([Buffer.from([0, 0, 0, 11]), Buffer.from("ssh-ed25519"), Buffer.from([0, 0, 0, 32]), Buffer.alloc(32, n)]).toString("base64")} ${comment}`;
const UNMANAGED = key(99, "someone-else@console");

let emu: RunningEmulator;
freshEmulatorForEachTest({ seed: { sshKeys: [UNMANAGED] } }, (t) => {
  ({ emu } = t);
  Key = t.providers.SshKey;
});

describe("SshKey", () => {
  it("registers keys created concurrently in one deployment, and keeps keys it does not manage", async () => {
    const created = await Promise.all([1, 2, 3].map((n) => Key.create({ publicKey: key(n) })));
    expect(await apiFor(emu).getSshKeys()).toEqual([UNMANAGED, key(1), key(2), key(3)]);
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
    expect(await apiFor(emu).getSshKeys()).toEqual([UNMANAGED, key(1)]);
  });

  it("deletes only its own key, concurrently with other deletes", async () => {
    const a = await Key.create({ publicKey: key(1) });
    const b = await Key.create({ publicKey: key(2) });
    await Promise.all([Key.delete(a.id, a.outs as SshKeyOutputs), Key.delete(b.id, b.outs as SshKeyOutputs)]);
    expect(await apiFor(emu).getSshKeys()).toEqual([UNMANAGED]);
  });

  it("refresh notices a key removed elsewhere", async () => {
    const a = await Key.create({ publicKey: key(1) });
    const before = await Key.read(a.id, a.outs as SshKeyOutputs);
    await apiFor(emu).putSshKeys([UNMANAGED]);
    expect([before.id, await Key.read(a.id, a.outs as SshKeyOutputs)]).toEqual([a.id, {}]);
  });

  it("rewrites a changed comment in place; new key material is a replacement", async () => {
    const a = await Key.create({ publicKey: key(1) });
    const olds = a.outs as SshKeyOutputs;
    const comment = await Key.diff(a.id, olds, { publicKey: key(1, "renamed") });
    const material = await Key.diff(a.id, olds, { publicKey: key(2) });
    await Key.update(a.id, olds, { publicKey: key(1, "renamed") });
    expect([comment, material.replaces, await apiFor(emu).getSshKeys()]).toEqual([
      { changes: true, replaces: [], deleteBeforeReplace: false },
      ["publicKey"],
      [UNMANAGED, key(1, "renamed")],
    ]);
  });

  it("uses the key's SHA256 fingerprint as its id", async () => {
    const a = await Key.create({ publicKey: key(1) });
    expect(a.id).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
  });
});
