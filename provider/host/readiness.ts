/**
 * When a pod is done, past RUNNING: its public ports mapped, or a probe passing. Ports and public
 * IPs arrive some time after RUNNING (slower on community cloud), and a model server answers long
 * after its container started, so RUNNING alone is often not what a deployment needs.
 *
 * Probes go to the pod, never to the API, so they cost no quota: HTTP through the pod's proxy
 * address (`runpod:proxyUrl`), TCP to the public address `runtime.ports` shows. The pod's status
 * is still read by the shared watcher, one list request per interval for every waiting pod.
 */
import { connect } from "node:net";
import { request } from "undici";
import type { Clock } from "../client/clock.js";
import { messageOf } from "../client/errors.js";
import type { Pod } from "../client/schemas/pods.js";

export interface Readiness {
  /** What done means. `RUNNING` is the status alone. @default "RUNNING" */
  readonly check?: "RUNNING" | "PORTS" | "HTTP" | "TCP" | undefined;
  /** HTTP and TCP: the pod's private port (`8888` for `8888/http`, `22` for `22/tcp`). */
  readonly port?: number | undefined;
  /** HTTP: the path that must answer 2xx. @default "/" */
  readonly path?: string | undefined;
  /** Seconds the check may take once the pod is RUNNING, within the create or update timeout. */
  readonly timeout?: number | undefined;
  /**
   * Seconds the container must stay up once RUNNING, with no restart, before the pod is done: a
   * container that exits and is restarted shows RUNNING while it is up, so RUNNING alone would
   * report a crash-looping pod as created. 0 turns it off. @default 30
   */
  readonly settle?: number | undefined;
}

/** The settle time when a pod's readiness says none: short next to a GPU pod's provisioning. */
export const DEFAULT_SETTLE_SECONDS = 30;

/** Between two probes of one pod, on the provider's clock. */
const PROBE_INTERVAL_MS = 2000;
/** One probe's own limit, in real time: it talks to the pod over the network. */
const PROBE_TIMEOUT_MS = 5000;
/** Progress while probing: a line when the answer changes, else at most this often. */
const PROGRESS_EVERY_MS = 10_000;

/** The public address of a pod's `<port>/tcp`, once `runtime.ports` shows one. */
export function publicTcp(pod: Pod, port: number): { ip: string; port: number } | undefined {
  const entry = pod.runtime?.ports?.find((p) => p.private === port && p.type === "tcp");
  return entry?.ip && entry.public ? { ip: entry.ip, port: entry.public } : undefined;
}

/** Whether every exposed `<port>/tcp` has its public address (HTTP ports go through the proxy). */
export function portsMapped(pod: Pod): boolean {
  if (pod.status !== "RUNNING") return false;
  const tcp = (pod.ports ?? []).filter((p) => p.endsWith("/tcp")).map((p) => Number(p.split("/")[0]));
  return tcp.every((port) => publicTcp(pod, port) !== undefined);
}

/** The pod's HTTP port as the outside reaches it. */
export function proxyAddress(proxyUrl: string, podId: string, port: number, path = "/"): string {
  const base = proxyUrl.replace("{podId}", podId).replace("{port}", String(port));
  return `${base}${path.startsWith("/") ? path : `/${path}`}`;
}

/** One HTTP probe: "ok", or what answered instead ("503", "ECONNREFUSED"). */
async function probeHttp(url: string): Promise<string> {
  try {
    const res = await request(url, {
      method: "GET",
      headersTimeout: PROBE_TIMEOUT_MS,
      bodyTimeout: PROBE_TIMEOUT_MS,
    });
    await res.body.dump();
    return res.statusCode >= 200 && res.statusCode < 300 ? "ok" : String(res.statusCode);
  } catch (err) {
    return (err as { code?: string }).code ?? messageOf(err);
  }
}

/** One TCP probe: "ok" once a connection is accepted. */
function probeTcp(address: { ip: string; port: number }): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: address.ip, port: address.port });
    const finish = (result: string) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(PROBE_TIMEOUT_MS, () => finish("no answer"));
    socket.once("connect", () => finish("ok"));
    socket.once("error", (err) => finish((err as { code?: string }).code ?? err.message));
  });
}

/** What the check is about, as progress lines and errors name it. */
export function describeReadiness(r: Readiness): string {
  switch (r.check) {
    case undefined:
    case "RUNNING":
      return "RUNNING";
    case "PORTS":
      return "its public ports";
    case "HTTP":
      return `${r.port}/http ${r.path ?? "/"}`;
    case "TCP":
      return `${r.port}/tcp`;
  }
}

/**
 * Probes until one passes: resolves with nothing, or never if `signal` aborts first (the caller
 * races it with the pod's own wait, which owns the deadline). `latest` is the pod as last read.
 */
export async function probeUntilReady(
  /** The service's clock, and where HTTP ports are reached (the `proxyUrl` setting). */
  host: { readonly clock: Clock; readonly proxyUrl: string },
  r: Readiness & { check: "HTTP" | "TCP" },
  podId: string,
  latest: () => Pod,
  /** Every probe's answer, and a progress line when it is worth one. */
  report: (line: string | undefined, answer: string) => void,
  signal: AbortSignal,
): Promise<void> {
  const port = r.port ?? 0;
  const started = host.clock.now();
  let lastAnswer = "";
  let lastReport = 0;
  while (!signal.aborted) {
    const pod = latest();
    let answer: string;
    if (pod.status !== "RUNNING") answer = pod.status;
    else if (r.check === "HTTP") answer = await probeHttp(proxyAddress(host.proxyUrl, podId, port, r.path));
    else {
      const address = publicTcp(pod, port);
      answer = address ? await probeTcp(address) : "no public address yet";
    }
    if (answer === "ok") return;
    const t = host.clock.now();
    const worthALine = answer !== lastAnswer || t - lastReport >= PROGRESS_EVERY_MS;
    report(
      worthALine
        ? `RUNNING, waiting for ${describeReadiness(r)}: ${answer} (${Math.round((t - started) / 1000)} s)`
        : undefined,
      answer,
    );
    if (worthALine) {
      lastAnswer = answer;
      lastReport = t;
    }
    await host.clock.sleep(PROBE_INTERVAL_MS, signal).catch(() => undefined);
  }
}
