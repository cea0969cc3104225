/**
 * SSH keys, one `SshKey` per key. The API replaces the whole key set on every write; the provider
 * reads, merges and verifies under a lock, so these keys are all registered and keys this stack
 * does not manage are left alone. A pod receives the keys registered when it is created, so it
 * depends on them.
 */
import * as pulumi from "@pulumi/pulumi";
import { Pod, SshKey } from "runpod-dynamic";

const config = new pulumi.Config();

// Demo keys so the program runs as is; use your own .pub files.
const alice = new SshKey("alice", {
  publicKey:
    config.get("aliceKey") ??
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGFsaWNlYWxpY2VhbGljZWFsaWNlYWxpY2VhbGljZWFs alice@laptop",
});
const bob = new SshKey("bob", {
  publicKey:
    config.get("bobKey") ??
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGJvYmJvYmJvYmJvYmJvYmJvYmJvYmJvYmJvYmJv bob@desktop",
});

const pod = new Pod(
  "devbox",
  {
    name: "devbox",
    image: "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
    gpu: { id: "NVIDIA GeForce RTX 4090" },
    ports: ["22/tcp"],
    startSsh: true,
    // Done once SSH answers on its public address, which comes some seconds after RUNNING.
    readiness: { check: "TCP", port: 22 },
  },
  { dependsOn: [alice, bob] },
);

export const fingerprints = [alice.fingerprint, bob.fingerprint];
export const sshDirect = pod.ssh.apply((s) => s.direct?.command ?? null);
