/**
 * The Pod response object (docs/api-model.md, Pods) as
 * the emulator answers it, settled at the emulator's now.
 */

import type { PodAction, PodStatus } from "../schemas/common.js";
import type { ContainerRecord, PodRecord } from "../store/pod-records.js";
import type { Store } from "../store/store.js";
import { readCommand } from "./command.js";
import { settle, validActions } from "./lifecycle.js";
import { runtimeUtilization } from "./load.js";
import { publicAddress } from "./ports.js";

/** How to reach a pod over SSH: through the proxy, or straight to its public address. */
export interface SshEndpoint {
  host: string;
  port: number;
  username: string;
  command: string;
}

/**
 * One pod as `GET /v2/pods/{id}` answers it. A type alias, not an interface, so it stays a plain
 * JSON record to code that takes any response body.
 */
export type PodView = ContainerRecord & {
  id: string;
  name: string;
  status: PodStatus;
  actions: PodAction[];
  entrypoint: string[];
  cmd: string[];
  gpu?: { id: string; count: number; vcpuCount: number; memory: number };
  cpu?: { id: string | undefined; vcpuCount: number; memory: number };
  cloud: PodRecord["cloud"];
  dataCenterId: string;
  cudaVersion: string | null;
  ssh: { proxy: SshEndpoint | null; direct: SshEndpoint | null };
  cluster?: NonNullable<PodRecord["cluster"]>;
  template: null;
  cost: number;
  locked: boolean;
  globalNetworking: { enabled: boolean; ip?: string; internalDns?: string };
  runtime: {
    uptime: number;
    gpus: { util: number; memoryUtil: number }[];
    cpu: { util: number };
    memory: { util: number };
    ports: { private: number; public: number | null; type: string | undefined; ip: string | null }[];
  } | null;
  createdAt: string;
  startedAt: string | null;
};

const iso = (ms: number) => new Date(ms).toISOString();

export function podView(state: Store, pod: PodRecord): PodView {
  settle(state, pod);
  const now = state.now();
  const placed = pod.status !== "PROVISIONING" && pod.status !== "TERMINATED";
  const running = pod.status === "RUNNING";
  const { entrypoint, cmd } = readCommand(pod.args);
  const m = pod.machine;
  const tcpPorts = pod.ports.filter((p) => p.endsWith("/tcp")).map((p) => Number(p.split("/")[0]));
  const ssh22 = running ? publicAddress(state, pod, 22, now) : undefined;
  return {
    id: pod.id,
    name: pod.name,
    status: pod.status,
    actions: validActions(pod),
    image: pod.image,
    args: pod.args,
    entrypoint,
    cmd,
    disk: pod.disk,
    mounts: pod.mounts,
    ports: pod.ports,
    env: pod.env,
    registry: pod.registry,
    ...(pod.gpu
      ? { gpu: { id: pod.gpu.id, count: pod.gpu.count, vcpuCount: m.vcpuCount, memory: m.memoryGb } }
      : { cpu: { id: pod.cpu?.id, vcpuCount: m.vcpuCount, memory: m.memoryGb } }),
    cloud: pod.cloud,
    dataCenterId: m.dataCenterId,
    cudaVersion: placed || pod.status === "EXITED" ? m.cudaVersion : null,
    ssh: {
      proxy: placed
        ? {
            host: "ssh.runpod.io",
            port: 22,
            username: `${pod.id}-64410b3e`,
            command: `ssh ${pod.id}-64410b3e@ssh.runpod.io -i ~/.ssh/id_ed25519`,
          }
        : null,
      direct:
        running && tcpPorts.includes(22) && ssh22
          ? {
              host: ssh22.ip,
              port: ssh22.port,
              username: "root",
              command: `ssh root@${ssh22.ip} -p ${ssh22.port} -i ~/.ssh/id_ed25519`,
            }
          : null,
    },
    ...(pod.cluster ? { cluster: clusterView(pod) } : {}),
    template: null,
    cost: pod.status === "EXITED" || pod.status === "TERMINATED" ? 0.0 : pod.costPerHour,
    locked: pod.locked,
    globalNetworking: pod.globalNetworking
      ? { enabled: true, ip: globalIp(pod.id), internalDns: `${pod.id}.runpod.internal` }
      : { enabled: false },
    runtime: running
      ? {
          uptime: Math.floor((now - (pod.startedAt ?? now)) / 1000),
          ...runtimeUtilization(pod, now),
          ports: pod.ports.map((p) => {
            const [port, type] = p.split("/");
            const priv = Number(port);
            const at = type === "tcp" ? publicAddress(state, pod, priv, now) : undefined;
            return { private: priv, public: at?.port ?? null, type, ip: at?.ip ?? null };
          }),
        }
      : null,
    createdAt: iso(pod.createdAt),
    startedAt: pod.startedAt === null ? null : iso(pod.startedAt),
  };
}

/** A member's rank and overlay address are assigned during provisioning: null and omitted before. */
function clusterView(pod: PodRecord): NonNullable<PodRecord["cluster"]> {
  const c = pod.cluster as NonNullable<PodRecord["cluster"]>;
  if (pod.status !== "PROVISIONING") return c;
  return { id: c.id, rank: null, ...(c.role === undefined ? {} : { role: c.role }) };
}

function globalIp(id: string): string {
  let h = 0;
  for (const c of id) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return `10.${(h >>> 16) & 0xff}.${(h >>> 8) & 0xff}.${(h & 0xfe) + 1}`;
}
