import { expect } from "vitest";
import { apiFor } from "../support/emulator.js";
import { exampleSuite } from "./example-suite.js";

const ALICE = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGFsaWNlYWxpY2VhbGljZWFsaWNlYWxpY2VhbGljZWFs";
const CAROL = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGNhcm9sY2Fyb2xjYXJvbGNhcm9sY2Fyb2xjYXJvbGNh carol@tablet";

exampleSuite(
  {
    example: "ssh-keys",
    writes: { up: 3, update: 1, replace: 2, destroy: 2 },
    resources: ["alice", "bob", "devbox"],
    afterUp: (out) => {
      expect(out.fingerprints).toEqual([
        expect.stringMatching(/^SHA256:/),
        expect.stringMatching(/^SHA256:/),
      ]);
      expect(out.sshDirect).toMatch(/^ssh root@/);
    },
    // The same key with a new comment is rewritten in place; new key material replaces.
    update: { config: { "runpod-ssh-keys:aliceKey": `${ALICE} alice@new-laptop` }, updated: ["alice"] },
    replace: { config: { "runpod-ssh-keys:bobKey": CAROL }, replaced: { bob: ["publicKey"] } },
    drift: {
      change: async (emu) => {
        const api = apiFor(emu);
        await api.sshKeys.put((await api.sshKeys.get()).filter((k) => !k.startsWith(ALICE)));
      },
      drifted: {},
      gone: ["alice"],
    },
  },
  61,
);
