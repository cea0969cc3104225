/**
 * `Cluster` (type `pulumi-nodejs:dynamic/runpod:Cluster`): an instant cluster, 2 to 250 identical
 * GPU pods in one data center on a private network, managed through `{base_url}/v2/clusters`.
 *
 * Create waits until every member pod is RUNNING, through the shared pod watcher (one pod list for
 * every waiting pod, cluster members included). Only the name changes in place (the API's update
 * is a rename); everything else replaces. Delete terminates the members and waits until they are
 * gone. Member pods are not `Pod` resources: the API refuses changes to them (409).
 *
 * The API takes the container settings directly and no template id: with `templateId`, the
 * template's image, args, disk, ports and env are read and sent, the program's own values winning
 * (env merged per key), as a template is applied elsewhere.
 */
import * as pulumi from "@pulumi/pulumi";
import { ERROR_CODES, isRunpodApiError } from "../client/errors.js";
import type { ClusterType, PodStatus } from "../client/vocabulary.js";
import { api, configureRuntime, now, watcher } from "../host/context.js";
import { createOnce } from "../host/create-once.js";
import { elapsed, progress } from "../host/progress.js";
import { WaitFailure } from "../host/watcher.js";
import { thinProvider } from "../program/thin.js";
import { createBody } from "./cluster-body.js";
import { checkCluster } from "./cluster-check.js";
import { diffCluster } from "./cluster-diff.js";
import { clusterOutputs, inputsFromOutputs } from "./cluster-outputs.js";
import { untilAllRunning } from "./cluster-wait.js";
import {
  byName,
  checkResult,
  createdSince,
  diffResult,
  named,
  optionInputs,
  partialFailure,
  unlessGone,
  withSecretOutputs,
} from "./common.js";

export { checkCluster } from "./cluster-check.js";
export { diffCluster } from "./cluster-diff.js";

export const CLUSTER_TYPE = "pulumi-nodejs:dynamic/runpod:Cluster";

/** Checked inputs of a Cluster, as `check` accepts them and the provider sees them. */
export interface ClusterInputs {
  name: string;
  type: ClusterType;
  compute: { gpuTypeId: string; gpuCountPerPod: number; podCount: number };
  templateId?: string | undefined;
  image?: string | undefined;
  args?: string | undefined;
  disk?: number | undefined;
  env?: Record<string, string> | undefined;
  ports?: string[] | undefined;
  dataCenterIds?: string[] | undefined;
  mounts?: { network?: { volumeId: string; path: string }[] | undefined } | undefined;
  startJupyter?: boolean | undefined;
  startSsh?: boolean | undefined;
  timeouts?: { create?: number | undefined; delete?: number | undefined } | undefined;
  onCreateFailure?: "terminate" | "keep" | undefined;
  adoptId?: string | undefined;
}

type In<T> = pulumi.Input<T>;
type InList<T> = pulumi.Input<pulumi.Input<T>[]>;

/** How the program describes an instant cluster. Every field may be a Pulumi Input. */
export interface ClusterArgs {
  /** Changes in place. */
  name: In<string>;
  /** `TRAINING` (generic distributed training), `SLURM`, `RAY` or `APPLICATION`. */
  type: In<"APPLICATION" | "TRAINING" | "SLURM" | "RAY">;
  /** Every member pod is alike: `podCount` (2-250) pods with `gpuCountPerPod` GPUs of `gpuTypeId`. */
  compute: In<{ gpuTypeId: In<string>; gpuCountPerPod: In<number>; podCount: In<number> }>;
  /** A template (yours or a public one) whose image, args, disk, ports and env the pods start from. */
  templateId?: In<string>;
  /** Container image of every pod. Required unless `templateId` is set. */
  image?: In<string>;
  args?: In<string>;
  disk?: In<number>;
  /** Stored as secrets in state. */
  env?: In<Record<string, In<string>>>;
  ports?: InList<string>;
  /** Preferred data centers; the cluster is always in one. */
  dataCenterIds?: InList<string>;
  /** A `NetworkVolume` every pod mounts (the cluster is then placed in its data center). */
  mounts?: In<{ network?: InList<{ volumeId: In<string>; path: In<string> }> }>;
  startJupyter?: In<boolean>;
  /** Injects the account's SSH keys into every pod: make the cluster `dependsOn` its `SshKey`s. */
  startSsh?: In<boolean>;
  /** Seconds. @default { create: 1200, delete: 600 } */
  timeouts?: In<{ create?: In<number>; delete?: In<number> }>;
  /** A cluster whose pods never all run is deleted (billing stops) or kept (in state). @default "terminate" */
  onCreateFailure?: In<"terminate" | "keep">;
  /** Adopt this existing cluster instead of creating one. */
  adoptId?: In<string>;
}

export interface ClusterMember {
  podId: string;
  status: PodStatus;
  rank: number | null;
  role: string | null;
  ip: string | null;
}

export interface ClusterOutputs {
  clusterId: string;
  name: string;
  type: ClusterType;
  compute: { gpuTypeId: string; gpuCountPerPod: number; podCount: number };
  /** As the program gave it: the API keeps the template only for a create that named one. */
  templateId: string | null;
  /** The create-time settings as the program gave them (none can change after create). */
  image: string | null;
  args: string | null;
  disk: number | null;
  ports: string[] | null;
  dataCenterIds: string[] | null;
  mounts: ClusterInputs["mounts"] | null;
  startJupyter: boolean;
  startSsh: boolean;
  dataCenterId: string | null;
  /** The member pods, by rank. */
  members: ClusterMember[];
  primary: { podId: string; status: PodStatus; sshEndpoint: string | null } | null;
  network: { cidr: string } | null;
  /** The env keys the program declared (secret). */
  env: Record<string, string>;
  createdAt: string;
  timeouts: ClusterInputs["timeouts"] | null;
}

/**
 * An instant cluster.
 * @example
 * const cluster = new Cluster("trainers", {
 *   name: "trainers",
 *   type: "TRAINING",
 *   compute: { gpuTypeId: "NVIDIA H100 80GB HBM3", gpuCountPerPod: 8, podCount: 4 },
 *   image: "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
 *   mounts: { network: [{ volumeId: datasets.id, path: "/data" }] },
 * });
 * export const primary = cluster.primary;
 */
export class Cluster extends pulumi.dynamic.Resource {
  declare readonly clusterId: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly type: pulumi.Output<ClusterType>;
  declare readonly dataCenterId: pulumi.Output<string | null>;
  declare readonly members: pulumi.Output<ClusterMember[]>;
  declare readonly primary: pulumi.Output<ClusterOutputs["primary"]>;
  declare readonly network: pulumi.Output<ClusterOutputs["network"]>;
  declare readonly env: pulumi.Output<Record<string, string>>;
  declare readonly createdAt: pulumi.Output<string>;

  constructor(name: string, args: ClusterArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(
      thinProvider("Cluster"),
      name,
      {
        clusterId: undefined,
        dataCenterId: undefined,
        members: undefined,
        primary: undefined,
        network: undefined,
        createdAt: undefined,
        ...args,
        ...optionInputs(opts),
      },
      withSecretOutputs(opts, "env"),
      "runpod",
      "Cluster",
    );
  }
}

// ---------------------------------------------------------------- the provider

const label = byName("Cluster");

/** Seconds create waits for every member to run, and delete for every member to go. */
const DEFAULT_TIMEOUTS = { create: 1200, delete: 600 };
const timeoutsOf = (t: ClusterInputs["timeouts"] | null | undefined) => ({
  create: t?.create ?? DEFAULT_TIMEOUTS.create,
  delete: t?.delete ?? DEFAULT_TIMEOUTS.delete,
});

/** Clusters this process created or adopted: an unanswered create never takes one of them twice. */
const claimed = new Set<string>();

export class ClusterProvider implements pulumi.dynamic.ResourceProvider<ClusterInputs, ClusterOutputs> {
  async configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
    configureRuntime(req);
  }

  async check(_olds: ClusterInputs, news: ClusterInputs) {
    return checkResult(news, checkCluster(news as unknown as Record<string, unknown>));
  }

  async diff(_id: string, olds: ClusterOutputs, news: ClusterInputs) {
    return diffResult(diffCluster(olds, news), news);
  }

  async create(inputs: ClusterInputs): Promise<pulumi.dynamic.CreateResult<ClusterOutputs>> {
    if (inputs.adoptId) return this.adopt(inputs.adoptId, inputs);
    const timeouts = timeoutsOf(inputs.timeouts);
    const body = await createBody(inputs);
    const c = await createOnce({
      what: `a cluster named ${body.name}`,
      create: () => api().createCluster(body),
      list: () => api().listClusters(),
      matches: (x, sentAt) =>
        x.name === body.name && x.type === body.type && createdSince(x.createdAt, sentAt),
      claimed,
    });
    progress(
      label(inputs),
      `created ${c.id}: ${c.compute.podCount} pods with ${c.compute.gpuCountPerPod}x ${c.compute.gpuTypeId}`,
    );
    // From here on the cluster exists and bills: every failure names it, and it is either deleted
    // or recorded in state.
    try {
      const pods = await untilAllRunning(c, label(inputs), timeouts.create);
      return { id: c.id, outs: clusterOutputs(await api().getCluster(c.id), pods, inputs) };
    } catch (err) {
      const why = err instanceof WaitFailure || err instanceof Error ? err.message : String(err);
      if (inputs.onCreateFailure === "keep") {
        const pods = await api()
          .listClusterPods(c.id)
          .catch(() => []);
        throw partialFailure(
          c.id,
          clusterOutputs(c, pods, inputs),
          `${label(inputs)}: cluster ${c.id} was created but not every pod became ready (${why}). It was kept as you asked (onCreateFailure: "keep") and is recorded in state; it bills until you delete it.`,
        );
      }
      try {
        await this.deleteAndWait(c.id, timeouts.delete);
      } catch (cleanup) {
        throw partialFailure(
          c.id,
          clusterOutputs(c, [], inputs),
          `${label(inputs)}: cluster ${c.id} did not become ready (${why}) and deleting it failed too (${cleanup instanceof Error ? cleanup.message : String(cleanup)}). It is recorded in state; run \`pulumi destroy\` or delete cluster ${c.id} in the RunPod console, as it may still bill.`,
        );
      }
      throw new Error(
        `${label(inputs)}: cluster ${c.id} did not become ready (${why}). It was deleted so it does not bill; set onCreateFailure: "keep" to keep a failed cluster for inspection.`,
      );
    }
  }

  private async adopt(id: string, inputs: ClusterInputs) {
    let c = await unlessGone(api().getCluster(id));
    if (!c) throw new Error(`adoptId ${id}: no such cluster (or this API key cannot see it).`);
    const pods = await api().listClusterPods(id);
    const current = clusterOutputs(c, pods, inputs);
    const { replaces } = diffCluster(current, { ...inputs, templateId: undefined, env: current.env });
    if (replaces.length > 0) {
      throw new Error(
        `adoptId ${id} cannot be adopted: it differs from the inputs in ${replaces.join(", ")}, which cannot change after create.`,
      );
    }
    if (c.name !== inputs.name) c = await api().renameCluster(id, inputs.name);
    claimed.add(id);
    progress(label(inputs), `adopted existing cluster ${id}`);
    return { id, outs: clusterOutputs(c, pods, inputs) };
  }

  async read(id: string, props?: ClusterOutputs): Promise<pulumi.dynamic.ReadResult<ClusterOutputs>> {
    const c = await unlessGone(api().getCluster(id));
    if (!c) return {};
    const prior = (props ?? {}) as Partial<ClusterOutputs> & Partial<ClusterInputs>;
    const priorInputs = Object.fromEntries(
      Object.entries(prior).filter(([, v]) => v !== null),
    ) as Partial<ClusterInputs>;
    const outs = clusterOutputs(c, await api().listClusterPods(id), priorInputs);
    return { id, props: outs, inputs: inputsFromOutputs(outs, priorInputs) as unknown as ClusterOutputs };
  }

  /** A rename: the only change a cluster takes in place. */
  async update(id: string, _olds: ClusterOutputs, news: ClusterInputs) {
    const c = await api().renameCluster(id, news.name);
    return { outs: clusterOutputs(c, await api().listClusterPods(id), news) };
  }

  /** DELETE (404 is success), then waits until every member pod is gone. */
  async delete(id: string, props: ClusterOutputs): Promise<void> {
    const started = now();
    const existed = await this.deleteAndWait(id, timeoutsOf(props?.timeouts).delete, props?.members);
    if (existed) progress(label(props, id), `${id} deleted with its pods (${elapsed(now() - started)})`);
  }

  private async deleteAndWait(id: string, timeoutSeconds: number, known: readonly ClusterMember[] = []) {
    let members = known.map((m) => m.podId);
    try {
      members = (await api().listClusterPods(id)).map((p) => p.id);
    } catch (err) {
      if (!isRunpodApiError(err, ERROR_CODES.NOT_FOUND)) throw err;
      return false;
    }
    try {
      await api().deleteCluster(id);
    } catch (err) {
      if (isRunpodApiError(err, ERROR_CODES.NOT_FOUND)) return false;
      throw err;
    }
    await Promise.all(
      members.map((podId) =>
        watcher().waitFor({ podId, target: "GONE", timeoutMs: timeoutSeconds * 1000, clusterMember: true }),
      ),
    );
    return true;
  }
}

export const clusterProvider = named(new ClusterProvider(), label);
