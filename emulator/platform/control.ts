/**
 * The control plane for tests and benchmarks: reset, seed, clock, capacity, settings, rate-limit
 * policy, fault rules, request log, out-of-band changes, what containers of an image do, and the
 * logs pods and serverless workers have written. Available in-process as methods and, when
 * enabled, over HTTP under `/__emulator/` on base_url (off by default):
 *
 * - `POST /reset`, `POST /seed`, `GET|POST /clock`, `GET|PUT /settings`, `PUT /rate-limit`,
 *   `PUT /capacity`, `GET|POST|DELETE /faults`, `GET|DELETE /requests`, `POST /keys`, `GET /state`
 * - `POST /pods/{id}/status` `{status}`: force a pod's status
 * - `GET|PUT|DELETE /pods/{id}/load`: a pod's scripted utilization over time, PUT with the timeline
 *   (`{segments: [{atMs, gpu, gpuMemory?, cpu, memory?}], repeatEveryMs?, startsAt?}`, pods/load.ts)
 * - `GET /containers`; `PUT /containers` with one rule (`{image, kind, runMs?, exitCode?, sizeGb?,
 *   lines?}`, pods/containers.ts); `DELETE /containers?image=<the rule's image>`
 * - `GET /pods/{id}/logs`: every line the pod has logged so far
 * - `GET /pods/{id}/environment`: its container's variables as its last boot took them, secret
 *   references resolved: each one's sha256 and the secrets it named, never a value
 * - `GET /serverless/{id}/workers/{index}/logs`: a worker slot's lines and its worker id
 */
import { z } from "zod";
import { environmentDigest } from "../account/secret-references.js";
import { secretView } from "../account/secrets.js";
import { templateView } from "../account/templates.js";
import { HttpError, notFound } from "../http/errors.js";
import type { FaultRuleInput } from "../http/faults.js";
import type { WindowPolicy } from "../http/rate-limit.js";
import { type Reply, safeDecode } from "../http/routing.js";
import { type LogLine, podLog } from "../pods/containers.js";
import { findPod, forceStatus } from "../pods/lifecycle.js";
import { podView } from "../pods/view.js";
import { Availability } from "../schemas/catalog.js";
import { POD_STATUSES, type PodStatus } from "../schemas/common.js";
import { ContainerBehaviour } from "../schemas/container-behaviour.js";
import { PodLoadTimeline, type PodLoadTimelineInput } from "../schemas/pod-load.js";
import type { SeedInput } from "../seed/schema.js";
import { findEndpoint } from "../serverless/endpoints.js";
import { v2View } from "../serverless/routes.js";
import { workerLog } from "../serverless/worker-log.js";
import { workerIdFor } from "../serverless/workers.js";
import type { LoadTimeline, PodRecord } from "../store/pod-records.js";
import { stockKey } from "../store/records.js";
import { DEFAULT_SETTINGS, type Settings, SettingsSchema } from "../store/settings.js";
import type { EmulatorState } from "./state.js";

const CapacityChange = z.strictObject({
  dataCenterId: z.string(),
  gpuTypeId: z.string().optional(),
  cpuFlavorId: z.string().optional(),
  free: z.int().min(0).optional(),
  total: z.int().min(0).optional(),
  /** What the catalog reports regardless of real stock; null goes back to the real level. */
  availability: Availability.nullable().optional(),
});
export type CapacityChange = z.input<typeof CapacityChange>;

const SettingsChange = SettingsSchema.partial();

const ApiKeyOptionsSchema = z.strictObject({
  userId: z.string().min(1).optional(),
  teamId: z.string().min(1).optional(),
  rateLimitExempt: z.boolean().optional(),
});
/** Who a key added through the control plane belongs to, and whether it is rate-limit exempt. */
export type ApiKeyOptions = z.input<typeof ApiKeyOptionsSchema>;

const Policy = z
  .array(z.strictObject({ name: z.string(), quota: z.int().min(1), seconds: z.int().min(1) }))
  .min(1);

const isoLine = (l: LogLine) => ({ ts: new Date(l.ts).toISOString(), source: l.source, line: l.line });

export class EmulatorControl {
  constructor(private readonly state: EmulatorState) {}

  /** Back to the seed (the default one, or `seed` overrides): resources, settings, faults, log, quotas. */
  reset(seed?: Partial<SeedInput>): void {
    this.state.load(seed);
    this.state.settings = { ...DEFAULT_SETTINGS };
    this.state.faults.reset();
    this.state.log.clear();
  }

  /** Replaces the resources with a seed's, keeping settings, faults and the log. */
  loadSeed(seed: Partial<SeedInput>): void {
    this.state.load(seed);
  }

  now(): number {
    return this.state.now();
  }

  advance(ms: number): void {
    this.state.clock.advance(ms);
  }

  setClockScale(scale: number): void {
    this.state.clock.setScale(scale);
  }

  setSettings(change: Partial<Settings>): Settings {
    const parsed = SettingsChange.parse(change);
    const defined = Object.fromEntries(Object.entries(parsed).filter(([, v]) => v !== undefined));
    this.state.settings = { ...this.state.settings, ...defined };
    return this.state.settings;
  }

  setRateLimitPolicy(policy: readonly WindowPolicy[]): void {
    this.state.limiter.setPolicy(Policy.parse(policy));
  }

  setCapacity(input: CapacityChange): void {
    const change = CapacityChange.parse(input);
    if (!change.gpuTypeId === !change.cpuFlavorId)
      throw new HttpError(400, "give exactly one of gpuTypeId or cpuFlavorId");
    if (change.gpuTypeId) {
      const key = stockKey(change.dataCenterId, change.gpuTypeId);
      const stock = this.state.gpuStock.get(key) ?? {
        total: 0,
        free: 0,
        cudaVersions: ["12.4"],
        ramPerGpu: 64,
        vcpuPerGpu: 8,
      };
      if (change.total !== undefined) stock.total = change.total;
      if (change.free !== undefined) stock.free = change.free;
      if (change.availability === null) delete stock.availability;
      else if (change.availability !== undefined) stock.availability = change.availability;
      this.state.gpuStock.set(key, stock);
      return;
    }
    const key = stockKey(change.dataCenterId, change.cpuFlavorId as string);
    const stock = this.state.cpuStock.get(key) ?? { totalVcpu: 0, free: 0 };
    if (change.total !== undefined) stock.totalVcpu = change.total;
    if (change.free !== undefined) stock.free = change.free;
    this.state.cpuStock.set(key, stock);
  }

  addFault(rule: FaultRuleInput): number {
    return this.state.faults.add(rule);
  }

  clearFaults(): void {
    this.state.faults.clear();
  }

  requests() {
    return { entries: this.state.log.all(), summary: this.state.log.summary() };
  }

  clearRequests(): void {
    this.state.log.clear();
  }

  /**
   * Adds an API key: optionally without access to some pools (403), belonging to a user (the
   * default user otherwise), created inside a team, or rate-limit exempt (account/accounts.ts).
   *
   * @example control.addApiKey("rpa_MEMBER", [], { userId: "user_alice", rateLimitExempt: true })
   */
  addApiKey(
    key: string,
    forbidden: { dataCenterId?: string; gpuTypeId?: string }[] = [],
    options: ApiKeyOptions = {},
  ): void {
    const parsed = ApiKeyOptionsSchema.parse(options);
    this.state.apiKeys.set(key, {
      key,
      forbidden,
      ...(parsed.userId === undefined ? {} : { userId: parsed.userId }),
      ...(parsed.teamId === undefined ? {} : { teamId: parsed.teamId }),
      rateLimitExempt: parsed.rateLimitExempt ?? false,
    });
  }

  /** Forces a pod into a status out of band (a crash to ERROR, a stop to EXITED). */
  setPodStatus(id: string, status: PodStatus): Record<string, unknown> {
    const pod = this.requirePod(id);
    if (!POD_STATUSES.includes(status))
      throw new HttpError(400, `control plane: status must be one of ${POD_STATUSES.join(", ")}`);
    forceStatus(this.state, pod, status);
    return podView(this.state, pod);
  }

  /**
   * Scripts pod `id`'s utilization over time, replacing any timeline it had: what its `runtime`
   * reports while it is RUNNING (pods/load.ts). Offset 0 is `startsAt`, the emulator's now by
   * default. The timeline is kept across stop and start; a reset drops it with the pod, and a
   * terminated pod's goes with the pod once its grace period ends.
   *
   * @example control.setPodLoad(id, { segments: [{ atMs: 0, gpu: 95, cpu: 30 }, { atMs: 8 * HOUR, gpu: 0, cpu: 2 }], repeatEveryMs: DAY })
   */
  setPodLoad(id: string, timeline: PodLoadTimelineInput): LoadTimeline {
    const pod = this.requirePod(id);
    const parsed = PodLoadTimeline.parse(timeline);
    pod.loadTimeline = {
      startsAt: parsed.startsAt ?? this.state.now(),
      segments: parsed.segments,
      ...(parsed.repeatEveryMs === undefined ? {} : { repeatEveryMs: parsed.repeatEveryMs }),
    };
    return structuredClone(pod.loadTimeline);
  }

  /** Pod `id`'s load timeline with its `startsAt` resolved, or null when it reports the constant figures. */
  podLoad(id: string): LoadTimeline | null {
    const timeline = this.requirePod(id).loadTimeline;
    return timeline ? structuredClone(timeline) : null;
  }

  /** Drops pod `id`'s load timeline: it reports the constant figures again. */
  removePodLoad(id: string): void {
    delete this.requirePod(id).loadTimeline;
  }

  /**
   * What containers of `image` do from now on (pods/containers.ts): an exact reference or a `prefix*`.
   * The rule goes first, replacing any rule for the same `image`; pods already booted keep their
   * script until their next boot (create, start, restart, or a PATCH that restarts them).
   *
   * @example control.setContainerBehaviour({ image: "acme/trainer:*", kind: "crashLoop", runMs: 5000 })
   */
  setContainerBehaviour(rule: ContainerBehaviour): ContainerBehaviour[] {
    const parsed = ContainerBehaviour.parse(rule);
    this.state.containerBehaviours = [
      parsed,
      ...this.state.containerBehaviours.filter((r) => r.image !== parsed.image),
    ];
    return this.containerBehaviours();
  }

  /** Removes the rule for `image` (exactly as it was given); images it matched start normally again. */
  removeContainerBehaviour(image: string): ContainerBehaviour[] {
    this.state.containerBehaviours = this.state.containerBehaviours.filter((r) => r.image !== image);
    return this.containerBehaviours();
  }

  containerBehaviours(): ContainerBehaviour[] {
    return this.state.containerBehaviours.map((r) => ({ ...r }));
  }

  /** Every line pod `id` has logged up to now, as the log stream would send them (ts as ISO). */
  podLogs(id: string): { ts: string; source: string; line: string }[] {
    return podLog(this.requirePod(id), this.state.now()).map(isoLine);
  }

  /**
   * Pod `id`'s container environment as its last boot took it: each variable's sha256 (of the
   * value with secret references resolved) and the secrets it named. Values are never shown, so a
   * test compares digests.
   */
  podEnvironment(id: string): ReturnType<typeof environmentDigest> {
    const boot = this.requirePod(id).boots.at(-1);
    return boot ? environmentDigest(boot.environment) : [];
  }

  /** Every line a serverless worker has logged up to now (`index` is its slot, 0-based). */
  workerLogs(
    endpointId: string,
    index: number,
  ): { workerId: string; lines: { ts: string; source: string; line: string }[] } {
    const e = findEndpoint(this.state, endpointId);
    if (!e) throw notFound(`Endpoint '${endpointId}' was not found.`);
    return {
      workerId: workerIdFor(e.id, index),
      lines: workerLog(this.state, e, index, this.state.now()).map(isoLine),
    };
  }

  /**
   * Everything the emulator holds, as the API would show it, for invariant checks. Each pod also
   * has `runningAt`: its `startedAt` as emulator ms (null before it first ran), for benchmarks.
   */
  snapshot() {
    const s = this.state;
    const pods = [...s.pods.keys()]
      .map((id) => findPod(s, id))
      .filter((p) => p !== undefined)
      .map((p) => ({ ...podView(s, p), runningAt: p.startedAt }));
    return {
      now: s.now(),
      pods,
      sshKeys: [...s.sshKeys.values()].flat(),
      endpoints: [...s.endpoints.values()].map((e) => v2View(s, e)),
      registries: [...s.registries.values()].map((r) => ({ id: r.id, name: r.name })),
      secrets: [...s.secrets.values()].map(secretView),
      clusters: [...s.clusters.values()].map((c) => ({ ...c })),
      networkVolumes: [...s.networkVolumes.values()].map(({ account: _account, ...v }) => v),
      templates: [...s.templates.values()].filter((t) => t.source === "user").map(templateView),
      jobs: [...s.jobs.values()],
      faultsApplied: Object.fromEntries(s.faults.applied),
    };
  }

  /** Pod `id`, whichever account owns it, or 404. */
  private requirePod(id: string): PodRecord {
    const pod = findPod(this.state, id);
    if (!pod) throw notFound(`Pod '${id}' was not found.`);
    return pod;
  }

  /** The HTTP form of the methods above. Bad input answers 400 with the reason. */
  handle(method: string, path: string, query: URLSearchParams, body: unknown): Reply {
    try {
      return this.dispatch(method, path, query, body);
    } catch (err) {
      if (err instanceof z.ZodError) {
        throw new HttpError(
          400,
          `control plane: ${err.issues.map((i) => `${i.path.join(".") || "$"}: ${i.message}`).join("; ")}`,
        );
      }
      throw err;
    }
  }

  private dispatch(method: string, path: string, query: URLSearchParams, body: unknown): Reply {
    const route = `${method} ${path.replace(/^\/__emulator/, "")}`;
    const ok = (b: unknown = { ok: true }): Reply => ({ status: 200, body: b });
    const obj = (body ?? {}) as Record<string, unknown>;
    const podMatch = /^POST \/pods\/([^/]+)\/status$/.exec(route);
    const podId = podMatch ? safeDecode(podMatch[1] ?? "") : undefined;
    if (podId !== undefined) return ok(this.setPodStatus(podId, obj.status as PodStatus));
    const logMatch = /^GET \/pods\/([^/]+)\/logs$/.exec(route);
    const logPodId = logMatch ? safeDecode(logMatch[1] ?? "") : undefined;
    if (logPodId !== undefined) return ok({ lines: this.podLogs(logPodId) });
    const envMatch = /^GET \/pods\/([^/]+)\/environment$/.exec(route);
    const envPodId = envMatch ? safeDecode(envMatch[1] ?? "") : undefined;
    if (envPodId !== undefined) return ok({ variables: this.podEnvironment(envPodId) });
    const loadMatch = /^(GET|PUT|DELETE) \/pods\/([^/]+)\/load$/.exec(route);
    const loadPodId = loadMatch ? safeDecode(loadMatch[2] ?? "") : undefined;
    if (loadPodId !== undefined) {
      if (method === "PUT") return ok({ timeline: this.setPodLoad(loadPodId, obj as PodLoadTimelineInput) });
      if (method === "DELETE") this.removePodLoad(loadPodId);
      return ok({ timeline: this.podLoad(loadPodId) });
    }
    const workerMatch = /^GET \/serverless\/([^/]+)\/workers\/(\d+)\/logs$/.exec(route);
    const workerEndpoint = workerMatch ? safeDecode(workerMatch[1] ?? "") : undefined;
    if (workerEndpoint !== undefined) return ok(this.workerLogs(workerEndpoint, Number(workerMatch?.[2])));
    switch (route) {
      case "POST /reset":
        this.reset(obj.seed as Partial<SeedInput> | undefined);
        return ok();
      case "POST /seed":
        this.loadSeed(obj as Partial<SeedInput>);
        return ok();
      case "GET /clock":
        return ok({ now: this.now(), scale: this.state.clock.rate });
      case "POST /clock":
        if (typeof obj.scale === "number") this.setClockScale(obj.scale);
        if (typeof obj.advanceMs === "number") this.advance(obj.advanceMs);
        return ok({ now: this.now(), scale: this.state.clock.rate });
      case "PUT /settings":
        return ok(this.setSettings(obj as Partial<Settings>));
      case "GET /settings":
        return ok(this.state.settings);
      case "PUT /rate-limit":
        this.setRateLimitPolicy(obj.windows as WindowPolicy[]);
        return ok();
      case "PUT /capacity":
        this.setCapacity(obj as CapacityChange);
        return ok();
      case "POST /faults":
        return ok({ id: this.addFault(obj as FaultRuleInput) });
      case "GET /faults":
        return ok({
          rules: this.state.faults.list(),
          applied: Object.fromEntries(this.state.faults.applied),
        });
      case "DELETE /faults":
        this.clearFaults();
        return ok();
      case "GET /requests":
        return ok(query.get("summary") === "true" ? this.requests().summary : this.requests());
      case "DELETE /requests":
        this.clearRequests();
        return ok();
      case "POST /keys":
        this.addApiKey(
          String(obj.key),
          (obj.forbidden as { dataCenterId?: string; gpuTypeId?: string }[]) ?? [],
          { userId: obj.userId, teamId: obj.teamId, rateLimitExempt: obj.rateLimitExempt } as ApiKeyOptions,
        );
        return ok();
      case "GET /state":
        return ok(this.snapshot());
      case "GET /containers":
        return ok({ rules: this.containerBehaviours() });
      case "PUT /containers":
        return ok({ rules: this.setContainerBehaviour(obj as ContainerBehaviour) });
      case "DELETE /containers": {
        const image = query.get("image");
        if (image === null) throw new HttpError(400, "control plane: DELETE /containers needs ?image=");
        return ok({ rules: this.removeContainerBehaviour(image) });
      }
      default:
        throw new HttpError(404, `No control route ${route}.`);
    }
  }
}
