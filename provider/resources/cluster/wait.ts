/**
 * Waiting for a Cluster's member pods to run, through the shared pod watcher (one pod list for
 * every waiting pod, cluster members included).
 */
import type { Cluster as ApiCluster } from "../../client/schemas/clusters.js";
import type { Pod as ApiPod } from "../../client/schemas/pods.js";
import type { HostContext } from "../../host/context.js";
import { elapsed } from "../../host/context.js";

/** The member pods, once the cluster lists as many as it should have (members appear as they are placed). */
async function membersOf(ctx: HostContext, c: ApiCluster, deadline: number): Promise<ApiPod[]> {
  for (;;) {
    const pods = await ctx.api.clusters.pods(c.id);
    if (pods.length >= c.compute.podCount || ctx.now() >= deadline) return pods;
    await ctx.sleep(2000);
  }
}

/**
 * Waits through the shared watcher until every member is RUNNING; the first failure ends the wait.
 * Progress is reported as about `what`.
 */
export async function untilAllRunning(
  ctx: HostContext,
  c: ApiCluster,
  what: string,
  timeoutSeconds: number,
): Promise<ApiPod[]> {
  const started = ctx.now();
  const deadline = started + timeoutSeconds * 1000;
  const pods = await membersOf(ctx, c, deadline);
  if (pods.length < c.compute.podCount) {
    throw new Error(
      `only ${pods.length} of ${c.compute.podCount} member pods appeared within ${timeoutSeconds} s`,
    );
  }
  let running = pods.filter((p) => p.status === "RUNNING").length;
  const ready = await Promise.all(
    pods.map(async (p) => {
      if (p.status === "RUNNING") return p;
      const pod = await ctx.watcher.waitFor({
        podId: p.id,
        target: "RUNNING",
        timeoutMs: Math.max(0, deadline - ctx.now()),
        clusterMember: true,
      });
      running += 1;
      ctx.progress(what, `${running}/${pods.length} pods RUNNING (${elapsed(ctx.now() - started)})`);
      return pod ?? p;
    }),
  );
  return ready;
}
