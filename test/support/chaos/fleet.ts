/**
 * The chaos suite's fleet: 50 pods (30 GPU, 20 CPU; network, global and persistent
 * mounts; public templates; catalog placement with fallbacks), 2 serverless endpoints and 3 SSH
 * keys, as the config of test/chaos/program, and the emulator capacity it needs.
 */
import { createHash } from "node:crypto";
import type { RunningEmulator } from "../emulator.js";

export const A40 = "NVIDIA A40";
export const RTX4090 = "NVIDIA GeForce RTX 4090";
export const L40S = "NVIDIA L40S";
export const A100 = "NVIDIA A100 80GB PCIe";
export const A5000 = "NVIDIA RTX A5000";
export const L4 = "NVIDIA L4";

export interface PodEntry {
  name: string;
  args: Record<string, unknown>;
  secretEnv?: boolean;
}

export interface EndpointEntry {
  name: string;
  args: Record<string, unknown>;
  secretEnv?: boolean;
}

export interface Fleet {
  sshKeys: { name: string; publicKey: string }[];
  pods: PodEntry[];
  endpoints: EndpointEntry[];
}

/** A well-formed ed25519 authorized_keys line, the same for the same seed. */
export function publicKey(seed: string, comment: string): string {
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    return b;
  };
  const type = Buffer.from("ssh-ed25519");
  const material = createHash("sha256").update(seed).digest();
  const blob = Buffer.concat([u32(type.length), type, u32(material.length), material]);
  return `ssh-ed25519 ${blob.toString("base64")} ${comment}`;
}

const pad = (i: number) => String(i).padStart(2, "0");

/** The fleet as the first `up` deploys it. Every pod's name is its resource name. */
export function initialFleet(): Fleet {
  const pods: PodEntry[] = [];
  const add = (kind: string, count: number, args: (n: number) => Record<string, unknown>, secret = false) => {
    for (let k = 0; k < count; k += 1) {
      const name = `chaos-${pad(pods.length + 1)}-${kind}`;
      pods.push({ name, args: { name, ...args(k) }, ...(secret && k % 2 === 0 ? { secretEnv: true } : {}) });
    }
  };
  const image = "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04";
  const cpuImage = "runpod/base:0.6.2-cpu";
  // GPU pods
  add("a40", 8, () => ({ image, gpu: { id: A40 }, ports: ["22/tcp"], env: { ROLE: "trainer" } }), true);
  add("fallback", 6, () => ({
    image,
    gpu: { id: RTX4090 },
    placement: { gpuTypeIds: [L40S], regions: ["NORTH_AMERICA", "EUROPE"] },
  }));
  add("netvol", 4, () => ({
    image,
    gpu: { id: A100 },
    mounts: { network: [{ volumeId: "nv-tx3-datasets", path: "/data" }] },
  }));
  add("torch", 4, () => ({ templateId: "runpod-torch-v240", gpu: { id: L40S } }));
  add("persist", 4, () => ({
    image,
    gpu: { id: A5000 },
    mounts: { persistent: { size: 20, path: "/workspace" } },
  }));
  add("ssh", 4, () => ({
    image,
    gpu: { id: L4 },
    ports: ["22/tcp"],
    startSsh: true,
    mounts: { global: [{ volumeId: "gv-shared-cache", path: "/cache" }] },
  }));
  // CPU pods
  add(
    "cpu",
    8,
    () => ({
      image: cpuImage,
      cpu: { id: "cpu3c", vcpuCount: 2 },
      placement: { regions: ["NORTH_AMERICA", "EUROPE"] },
      env: { ROLE: "batch" },
    }),
    true,
  );
  add("cpuvol", 6, () => ({
    image: cpuImage,
    cpu: { id: "cpu3g", vcpuCount: 4 },
    mounts: { network: [{ volumeId: "nv-ro1-models", path: "/models" }] },
  }));
  add("cputpl", 6, () => ({ templateId: "runpod-ubuntu-cpu", cpu: { id: "cpu5c", vcpuCount: 2 } }));

  return {
    sshKeys: [
      { name: "key-alice", publicKey: publicKey("alice", "alice@laptop") },
      { name: "key-bob", publicKey: publicKey("bob", "bob@desktop") },
      { name: "key-ci", publicKey: publicKey("ci", "ci@runner") },
    ],
    pods,
    endpoints: [
      {
        name: "chaos-sdxl",
        args: {
          name: "chaos-sdxl",
          templateId: "runpod-worker-sdxl",
          gpu: { pools: ["ADA_24"] },
          workers: { max: 2 },
          env: { MODEL: "sdxl" },
        },
        secretEnv: true,
      },
      {
        name: "chaos-vllm",
        args: {
          name: "chaos-vllm",
          templateId: "vllm-worker",
          gpu: { pools: ["AMPERE_80"] },
          workers: { max: 1 },
        },
      },
    ],
  };
}

/** An in-place edit: new images for 11 pods, a new env value, more workers, a key's new comment. */
export function updatedFleet(fleet: Fleet): Fleet {
  const next = structuredClone(fleet);
  for (const p of next.pods) {
    if (/-(a40|netvol|cpuvol)$/.test(p.name) && Number(p.name.slice(6, 8)) % 2 === 1) {
      p.args.image = `${String(p.args.image)}-patched`;
    }
    if (p.name.endsWith("-cpu")) p.args.env = { ROLE: "batch-v2" };
  }
  const sdxl = next.endpoints[0];
  if (sdxl) sdxl.args.workers = { max: 3 };
  const alice = next.sshKeys[0];
  if (alice) alice.publicKey = publicKey("alice", "alice@new-laptop");
  return next;
}

/** Edits that replace: another GPU type for 4 pods, more vCPUs for 3, new material for one key. */
export function replacedFleet(fleet: Fleet): Fleet {
  const next = structuredClone(fleet);
  for (const p of next.pods.filter((x) => x.name.endsWith("-a40")).slice(0, 4)) p.args.gpu = { id: L40S };
  for (const p of next.pods.filter((x) => x.name.endsWith("-cpu")).slice(0, 3)) {
    p.args.cpu = { id: "cpu3c", vcpuCount: 4 };
  }
  const ci = next.sshKeys[2];
  if (ci) ci.publicKey = publicKey("ci-rotated", "ci@runner");
  return next;
}

/**
 * Stock for the whole fleet, several times over; and one pair the catalog rates HIGH but that has
 * nothing free: capacity that vanished between the catalog read and the create.
 */
export function provision(emu: RunningEmulator): void {
  const stock: [string, string][] = [
    ["US-KS-2", A40],
    ["EU-RO-1", A40],
    ["US-GA-1", RTX4090],
    ["EU-RO-1", RTX4090],
    ["EUR-IS-1", RTX4090],
    ["US-KS-2", L40S],
    ["EU-SE-1", L40S],
    ["US-TX-3", A100],
    ["US-GA-1", A5000],
    ["CA-MTL-1", L4],
  ];
  for (const [dataCenterId, gpuTypeId] of stock) {
    emu.control.setCapacity({ dataCenterId, gpuTypeId, total: 64, free: 40 });
  }
  emu.control.setCapacity({ dataCenterId: "US-TX-3", gpuTypeId: RTX4090, free: 0, availability: "HIGH" });
}
