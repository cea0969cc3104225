/**
 * What a pod's wait looks at besides its status, in two parts.
 *
 * **Ready**: when a pod is done, past RUNNING: its public ports mapped, or a probe passing. Ports
 * and public IPs arrive some time after RUNNING (slower on community cloud), and a model server
 * answers long after its container started, so RUNNING alone is often not what a deployment needs.
 * Probes go to the pod, never to the API, so they cost no quota: HTTP through the pod's proxy
 * address (`runpod:proxyUrl`), TCP to the public address `runtime.ports` shows.
 *
 * **Will never start**: the wait fails within seconds, not at its timeout, when the pod's log says
 * the image cannot be pulled (unknown, private without credentials, larger than the disk) or the
 * container keeps exiting (a crash loop). The service never gives up on such a pod: it retries
 * the pull, or restarts the container, with the pod STARTING and billed.
 *
 * The log stream (`GET /v2/pods/{id}/logs`) costs one request and stays open, so it is opened only
 * when the status looks wrong: a pod not up `afterSeconds` after it was placed, or one seen going
 * from RUNNING back to STARTING (a restart). Pods of one image and registry credential pull the
 * same thing, so among slow pods one per image reads its log at a time, and once one runs, its slow
 * siblings only wait (a restart still opens a pod's own log): 200 slow pods cost one log request.
 * A log is opened only while half of every quota window is unused, so creates and status reads
 * never wait for it. An API without the log route (404) leaves the wait on status alone. A pod of
 * a kind never seen arrive may have its log read from the start by the pod watcher, to see when it
 * runs (start-signals.ts): those lines are judged here too, and no second stream is opened.
 */
import { connect } from "node:net";
import { request } from "undici";
import type { RunpodApi } from "../client/api.js";
import type { Clock } from "../client/clock.js";
import { FAILURE_CODES, hasFailureCode, messageOf, redact } from "../client/errors.js";
import type { RateLimitBudget } from "../client/rate-limit.js";
import type { Pod, PodLogLine, PodStatus } from "../client/schemas/pods.js";
import { type ContainerFailureKind, judgeLog } from "./log-verdict.js";

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

export interface FailFastOptions {
  /** Follow the log at all. @default true */
  readonly logs: boolean;
  /** Seconds a placed pod may take to come up before its log is read. @default 15 */
  readonly afterSeconds: number;
  /** Container exits within `crashLoopWindow` seconds that make a crash loop. @default 3 */
  readonly crashLoopRestarts: number;
  /** @default 300 */
  readonly crashLoopWindow: number;
}

export const FAIL_FAST_DEFAULTS: FailFastOptions = {
  logs: true,
  afterSeconds: 15,
  crashLoopRestarts: 3,
  crashLoopWindow: 300,
};

/** The options a Pod's `failFast` input asks for, the defaults filling what it leaves out. */
export function failFastOptions(
  input: { [K in keyof FailFastOptions]?: FailFastOptions[K] | undefined } = {},
): FailFastOptions {
  return {
    logs: input.logs ?? FAIL_FAST_DEFAULTS.logs,
    afterSeconds: input.afterSeconds ?? FAIL_FAST_DEFAULTS.afterSeconds,
    crashLoopRestarts: input.crashLoopRestarts ?? FAIL_FAST_DEFAULTS.crashLoopRestarts,
    crashLoopWindow: input.crashLoopWindow ?? FAIL_FAST_DEFAULTS.crashLoopWindow,
  };
}

/** The log said the container cannot start. `lines` are the decisive log lines, secrets scrubbed. */
export class ContainerFailure extends Error {
  override readonly name = "ContainerFailure";
  readonly code = FAILURE_CODES.CONTAINER_FAILED;
  constructor(
    readonly podId: string,
    readonly kind: ContainerFailureKind,
    readonly lines: readonly string[],
    message: string,
  ) {
    super(message);
  }
}

/** Whether an error is a ContainerFailure, by its code (works across module copies). */
export function isContainerFailure(err: unknown): err is ContainerFailure {
  return hasFailureCode(err, FAILURE_CODES.CONTAINER_FAILED);
}

/** A slow pod's log is opened only while every quota window has this much of its quota left. */
const SPARE_FRACTION = 0.5;

/**
 * Per image and registry credential, in one provider host (its context, context.ts): the pod whose
 * log is being read for pull errors, or "pulls" once a pod of it ran.
 */
export type ImagePulls = Map<string, ContainerWatch | "pulls">;

/** Log lines kept per pod: the stream's backfill plus what follows, enough for any window. */
const KEPT_LINES = 500;

/**
 * Watches one pod's container while its wait runs; `onFailure` is called at most once. Feed it
 * every read of the pod the wait makes (the watcher's reads, so it costs nothing until it opens
 * the log); `close` when the wait ends.
 */
export class ContainerWatch {
  private readonly abort = new AbortController();
  private opened = false;
  private placedAt: number | undefined;
  private last: PodStatus | undefined;
  private readonly lines: PodLogLine[] = [];
  /** Set while a RUNNING pod must stay up: any exit after it is a crash loop (`expectUp`). */
  private upSince: number | undefined;

  constructor(
    private readonly api: RunpodApi,
    private readonly clock: Clock,
    /** The budget of the API the log stream goes to: a log opens only while it has room to spare. */
    private readonly budget: RateLimitBudget,
    /** What the host knows of each image's pulls. */
    private readonly images: ImagePulls,
    private readonly podId: string,
    /** What the pod pulls, and where to: its image, registry credential and container disk. */
    private readonly pulls: string,
    private readonly options: FailFastOptions,
    /** Values the quoted lines must never show (the API key, secret env values). */
    private readonly secrets: readonly string[],
    private readonly onFailure: (failure: ContainerFailure) => void,
  ) {}

  /** Every read of the pod while its wait runs. */
  observe(status: PodStatus): void {
    if (!this.options.logs || this.opened || this.abort.signal.aborted) return;
    const restarted = this.last === "RUNNING" && status === "STARTING";
    this.last = status;
    if (restarted) {
      this.open();
      return;
    }
    if (status === "RUNNING") this.images.set(this.pulls, "pulls");
    if (status !== "STARTING") return;
    this.placedAt ??= this.clock.now();
    // Slow to come up: worth a look, unless the image is known to pull or a sibling is being
    // looked at, and once the quota has room for it.
    const image = this.images.get(this.pulls);
    if (
      image === undefined &&
      this.clock.now() - this.placedAt >= this.options.afterSeconds * 1000 &&
      this.budget.hasSpare(SPARE_FRACTION)
    ) {
      this.images.set(this.pulls, this);
      this.open();
    }
  }

  /**
   * From now on the pod must stay up: an exit logged at or after `since` (the API's clock, when the
   * container started RUNNING) is a crash loop at once. `restarted` says a read already saw it
   * restart: then the log is read now, whatever the status looks like.
   */
  expectUp(since: number, restarted = false): void {
    this.upSince = since;
    if (restarted && this.options.logs && !this.opened && !this.abort.signal.aborted) this.open();
  }

  /**
   * A line of the pod's log that the pod watcher read (it follows one pod of a kind never seen
   * arrive, start-signals.ts): judged as a line of a log this watch opened, and while such lines
   * come this pod is the look at its image, so that neither it nor a sibling opens another.
   */
  observeLine(line: PodLogLine): void {
    if (!this.options.logs || this.opened || this.abort.signal.aborted) return;
    if (this.images.get(this.pulls) === undefined) this.images.set(this.pulls, this);
    this.judge(line);
  }

  close(): void {
    this.abort.abort();
    // A sibling takes over the look at the image, unless this pod showed that it pulls.
    if (this.images.get(this.pulls) === this) this.images.delete(this.pulls);
  }

  private open(): void {
    this.opened = true;
    void this.follow().catch(() => undefined);
  }

  private async follow(): Promise<void> {
    // The stream's backfill gives again any line the watcher handed on.
    this.lines.length = 0;
    try {
      for await (const line of this.api.pods.logs(this.podId, { tail: 200 }, { signal: this.abort.signal })) {
        if (this.judge(line)) return;
      }
    } catch {
      // Fail-fast is a shortcut, never a new way to fail: an API without the log route (404), or
      // a stream that broke, leaves the wait to the pod's status.
    }
  }

  /** Adds `line` to what the log said; true once that says the container cannot start (reported, closed). */
  private judge(line: PodLogLine): boolean {
    this.lines.push(line);
    if (this.lines.length > KEPT_LINES) this.lines.splice(0, this.lines.length - KEPT_LINES);
    const verdict = judgeLog(this.lines, this.options, this.upSince);
    if (!verdict) return false;
    const quoted = verdict.lines.map((l) => redact(l, this.secrets));
    this.onFailure(
      new ContainerFailure(
        this.podId,
        verdict.kind,
        quoted,
        `pod ${this.podId} cannot start: ${verdict.advice}. From its log:\n${quoted.map((l) => `    ${l}`).join("\n")}`,
      ),
    );
    this.close();
    return true;
  }
}
