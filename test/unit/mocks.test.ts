/**
 * A program's own unit tests under Pulumi's mocks (`pulumi.runtime.setMocks`), which register no
 * stack resource: a Pod and an SshKey still register, with one stack identity for both, and the
 * pod's create key and the key's holder derive from it as in a real run.
 */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { loadDist } from "../support/dist.js";
import { providerLib } from "../support/provider.js";

const { createKeyOf } = loadDist<typeof import("../../provider/resources/pod/translate.js")>(
  "provider/resources/pod/translate.js",
);
const { holderOf } = loadDist<typeof import("../../provider/resources/ssh-key/holders.js")>(
  "provider/resources/ssh-key/holders.js",
);

const IDENTITY = "0123456789abcdef0123456789abcdef";
const KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGFsaWNlYWxpY2VhbGljZWFsaWNlYWxpY2VhbGljZWFs me@laptop";

/** Resolves with an output's value (mocks resolve every output). */
const resolved = <T>(o: pulumi.Output<T>) => new Promise<T>((resolve) => o.apply(resolve));

describe("under Pulumi's mocks", () => {
  it("a Pod and an SshKey register, with one stack identity, and their marks derive from it", async () => {
    const registered: { type: string; name: string; inputs: Record<string, unknown> }[] = [];
    await pulumi.runtime.setMocks(
      {
        newResource: (args) => {
          registered.push({ type: args.type, name: args.name, inputs: args.inputs });
          return {
            id: args.type.endsWith(":StackIdentity") ? IDENTITY : `${args.name}-id`,
            state: args.inputs,
          };
        },
        call: (args) => args.inputs,
      },
      "trainers",
      "dev",
      false,
    );
    const pod = new providerLib.Pod("trainer", {
      name: "trainer",
      image: "img:1",
      gpu: { id: "NVIDIA A40" },
    });
    const key = new providerLib.SshKey("laptop", { publicKey: KEY });
    await Promise.all([resolved(pod.id), resolved(key.id)]);
    const inputsOf = (name: string) => registered.find((r) => r.name === name)?.inputs;
    expect([
      registered.filter((r) => r.type.endsWith(":StackIdentity")).map((r) => r.name),
      inputsOf("trainer")?.__createKey,
      inputsOf("laptop")?.__holder,
    ]).toEqual([["runpod-dynamic"], createKeyOf(IDENTITY, "", "trainer"), holderOf(IDENTITY, "", "laptop")]);
  });
});
