/** The Cluster provider: check, diff, create, read, update and delete, as the provider host runs them. */
import type * as pulumi from "@pulumi/pulumi";
import { createOnce } from "../../client/create-once.js";
import { ERROR_CODES, isRunpodApiError, messageOf } from "../../client/errors.js";
import { bindToHost } from "../../host/bind.js";
import type { HostContext } from "../../host/context.js";
import { elapsed } from "../../host/context.js";
import {
  byName,
  checkResult,
  diffResult,
  envKeysOf,
  knownFields,
  missingObject,
  readResult,
  unlessGone,
} from "../common.js";
import { adopt, failCreate } from "../create-outcomes.js";
import { createBody } from "./body.js";
import { checkCluster } from "./check.js";
import { diffCluster } from "./diff.js";
import { CLUSTER } from "./fields.js";
import { clusterOutputs, inputsFromOutputs } from "./outputs.js";
import type { ClusterInputs, ClusterMember, ClusterOutputs } from "./types.js";
import { untilAllRunning } from "./wait.js";

const label = byName("Cluster");

/** Seconds create waits for every member to run, and delete for every member to go. */
const DEFAULT_TIMEOUTS = { create: 1200, delete: 600 };
const timeoutsOf = (t: ClusterInputs["timeouts"] | null | undefined) => ({
  create: t?.create ?? DEFAULT_TIMEOUTS.create,
  delete: t?.delete ?? DEFAULT_TIMEOUTS.delete,
});

/** @internal The provider host's side of Cluster; programs reach it only through the thin provider. */
export class ClusterProvider {
  async check(_olds: ClusterInputs, news: ClusterInputs) {
    return checkResult(news, checkCluster(news as unknown as Record<string, unknown>));
  }

  async diff(_id: string, olds: ClusterOutputs, news: ClusterInputs) {
    return diffResult(diffCluster(olds, news), news);
  }

  async create(
    ctx: HostContext,
    inputs: ClusterInputs,
  ): Promise<pulumi.dynamic.CreateResult<ClusterOutputs>> {
    if (inputs.adoptId) return this.adopt(ctx, inputs.adoptId, inputs);
    const timeouts = timeoutsOf(inputs.timeouts);
    const body = await createBody(ctx.api, inputs);
    const c = await createOnce({
      what: `a cluster named ${body.name}`,
      create: () => ctx.api.clusters.create(body),
      list: () => ctx.api.clusters.list(),
      matches: (x) => x.name === body.name && x.type === body.type,
      claimed: ctx.claims.clusters,
      clock: ctx.clock,
    });
    ctx.progress(
      label(inputs),
      `created ${c.id}: ${c.compute.podCount} pods with ${c.compute.gpuCountPerPod}x ${c.compute.gpuTypeId}`,
    );
    // From here on the cluster exists and bills: every failure names it, and it is either deleted
    // or recorded in state.
    try {
      const pods = await untilAllRunning(ctx, c, label(inputs), timeouts.create);
      return { id: c.id, outs: clusterOutputs(await ctx.api.clusters.get(c.id), pods, inputs) };
    } catch (err) {
      const why = messageOf(err);
      return failCreate({
        what: label(inputs),
        noun: "cluster",
        id: c.id,
        failed: `did not become ready (${why})`,
        keptFailed: `not every pod became ready (${why})`,
        keep: inputs.onCreateFailure === "keep",
        outputs: async (kept) =>
          clusterOutputs(c, kept ? await ctx.api.clusters.pods(c.id).catch(() => []) : [], inputs),
        remove: () => this.deleteAndWait(ctx, c.id, timeouts.delete),
        removal: "delete",
      });
    }
  }

  private adopt(ctx: HostContext, id: string, inputs: ClusterInputs) {
    return adopt(ctx, {
      what: label(inputs),
      noun: "cluster",
      id,
      read: async () => ({ c: await ctx.api.clusters.get(id), pods: await ctx.api.clusters.pods(id) }),
      plan: ({ c, pods }) => {
        const current = clusterOutputs(c, pods, inputs);
        const { replaces } = diffCluster(current, { ...inputs, templateId: undefined, env: current.env });
        if (replaces.length > 0) {
          return {
            refused: `it differs from the inputs in ${replaces.join(", ")}, which cannot change after create`,
          };
        }
        // The API's update of a cluster is a rename.
        return c.name === inputs.name
          ? {}
          : { write: async () => ({ c: await ctx.api.clusters.rename(id, inputs.name), pods }) };
      },
      claims: ctx.claims.clusters,
      outputs: ({ c, pods }) => clusterOutputs(c, pods, inputs),
    });
  }

  async read(
    ctx: HostContext,
    id: string,
    props?: ClusterOutputs,
  ): Promise<pulumi.dynamic.ReadResult<ClusterOutputs>> {
    const c = await unlessGone(ctx.api.clusters.get(id));
    if (!c) return missingObject("cluster", id, props);
    const pods = await ctx.api.clusters.pods(id);
    // On refresh `props` are the old outputs: their env keys are the declared ones. On a get they
    // are the program's inputs, and a get without env takes every key the members were given.
    const refresh = props !== undefined && "clusterId" in props;
    const priorInputs = knownFields<ClusterInputs>(props);
    if (!refresh && (!priorInputs.env || Object.keys(priorInputs.env).length === 0))
      priorInputs.env = envKeysOf(pods[0]?.env ?? {});
    const outs = clusterOutputs(c, pods, priorInputs);
    return readResult(id, outs, inputsFromOutputs(outs, priorInputs));
  }

  /** A rename: the only change a cluster takes in place. */
  async update(ctx: HostContext, id: string, _olds: ClusterOutputs, news: ClusterInputs) {
    const c = await ctx.api.clusters.rename(id, news.name);
    return { outs: clusterOutputs(c, await ctx.api.clusters.pods(id), news) };
  }

  /** DELETE (404 is success), then waits until every member pod is gone. */
  async delete(ctx: HostContext, id: string, props: ClusterOutputs): Promise<void> {
    const started = ctx.now();
    const existed = await this.deleteAndWait(ctx, id, timeoutsOf(props?.timeouts).delete, props?.members);
    if (existed)
      ctx.progress(label(props, id), `${id} deleted with its pods (${elapsed(ctx.now() - started)})`);
  }

  private async deleteAndWait(
    ctx: HostContext,
    id: string,
    timeoutSeconds: number,
    known: readonly ClusterMember[] = [],
  ) {
    let members = known.map((m) => m.podId);
    try {
      members = (await ctx.api.clusters.pods(id)).map((p) => p.id);
    } catch (err) {
      if (!isRunpodApiError(err, ERROR_CODES.NOT_FOUND)) throw err;
      return false;
    }
    try {
      await ctx.api.clusters.delete(id);
    } catch (err) {
      if (isRunpodApiError(err, ERROR_CODES.NOT_FOUND)) return false;
      throw err;
    }
    await Promise.all(
      members.map((podId) =>
        ctx.watcher.waitFor({ podId, target: "GONE", timeoutMs: timeoutSeconds * 1000, clusterMember: true }),
      ),
    );
    return true;
  }
}

/** @internal */
export const clusterProvider = bindToHost(CLUSTER, new ClusterProvider(), label);
