/**
 * The store with a seed loaded into it: the `EmulatorState` the package exports. Loading asks the
 * API areas for the seed's resources (platform/seed-resources.ts: its pods through the pod
 * lifecycle, its clusters with their member pods, its endpoints and volumes), which is why it sits
 * above them while the store itself (store/store.ts) stays below every behaviour module.
 */
import { DEFAULT_USER_ID } from "../account/accounts.js";
import { mergeSeed } from "../seed/default.js";
import type { SeedInput } from "../seed/schema.js";
import { stockKey, type TemplateRecord } from "../store/records.js";
import { Store, type StoreOptions } from "../store/store.js";
import { seedCluster, seedEndpoint, seedPod, seedVolume } from "./seed-resources.js";

export class EmulatorState extends Store {
  constructor(options: StoreOptions & { seed?: Partial<SeedInput> } = {}) {
    super(options);
    this.load(options.seed);
  }

  /**
   * Replaces every resource with the seed's (seed-resources.ts: the seeded pods, endpoints and
   * clusters with their member pods included) and starts the usage ledger over, so what the seed
   * holds bills from now on. Settings, faults and the log are kept.
   */
  load(overrides?: Partial<SeedInput>): void {
    this.seed = mergeSeed(overrides);
    const s = this.seed;
    this.gpuTypeById = new Map(s.gpuTypes.map((g) => [g.id, g]));
    this.cpuFlavorById = new Map(s.cpuFlavors.map((f) => [f.id, f]));
    this.dataCenterById = new Map(s.dataCenters.map((d) => [d.id, d]));
    this.pods.clear();
    this.endpoints.clear();
    this.jobs.clear();
    // A seeded template of the user's own (`source` "user") is the account's its `account` names.
    this.templates = new Map(
      s.templates.map((t): [string, TemplateRecord] => {
        const copy: TemplateRecord = structuredClone(t);
        if (t.source === "user") copy.account = t.account ?? DEFAULT_USER_ID;
        return [t.id, copy];
      }),
    );
    this.usage.clear();
    this.networkVolumes.clear();
    for (const v of s.networkVolumes) seedVolume(this, v);
    this.sshKeys = new Map([[DEFAULT_USER_ID, [...s.sshKeys]]]);
    this.apiKeys = new Map(s.apiKeys.map((k) => [k.key, k]));
    this.teams = new Map(s.teams.map((t) => [t.id, t]));
    this.gpuStock = new Map(
      s.gpuStock.map((g) => [
        stockKey(g.dataCenterId, g.gpuTypeId),
        {
          total: g.total,
          free: g.free ?? g.total,
          cudaVersions: [...g.cudaVersions],
          ramPerGpu: g.ramPerGpu,
          vcpuPerGpu: g.vcpuPerGpu,
          ...(g.availability ? { availability: g.availability } : {}),
        },
      ]),
    );
    this.cpuStock = new Map(
      s.cpuStock.map((c) => [
        stockKey(c.dataCenterId, c.cpuFlavorId),
        { totalVcpu: c.totalVcpu, free: c.free ?? c.totalVcpu },
      ]),
    );
    this.registries = new Map(s.registries.map((r) => [r.id, { ...r, account: DEFAULT_USER_ID }]));
    this.delegations.clear();
    this.secrets.clear();
    this.containerBehaviours = s.containerBehaviours.map((b) => ({ ...b }));
    this.clusters.clear();
    // The seed's clusters and their member pods: readable, members listed with includeClusterPods.
    for (const c of s.clusters) seedCluster(this, c);
    s.pods.forEach((p, i) => {
      seedPod(this, p, i);
    });
    for (const e of s.endpoints) seedEndpoint(this, e);
    this.limiter.reset();
  }
}
