/** The Pod provider: check, diff, create, read, update and delete, each a few steps of the other files here. */
import type * as pulumi from "@pulumi/pulumi";
import { ERROR_CODES, isRunpodApiError, messageOf } from "../../client/errors.js";
import type { Pod as ApiPod } from "../../client/schemas/pods.js";
import { bindToHost } from "../../host/bind.js";
import type { HostContext } from "../../host/context.js";
import { elapsed } from "../../host/context.js";
import { isWaitFailure } from "../../host/wait-failure.js";
import { checkResult, diffResult, envKeysOf, missingObject, partialFailure, readResult } from "../common.js";
import { adopt, failCreate } from "../create-outcomes.js";
import { checkPod } from "./check.js";
import { desiredStatusOf, diffPod, stoppedOutsideNow } from "./diff.js";
import { POD } from "./fields.js";
import { compareWithInputs, startPod, terminateDuplicates } from "./start.js";
import {
  CREATE_KEY,
  CREATE_KEY_ENV,
  createKeyIn,
  inputsFromOutputs,
  oneTimeCreateKey,
  podOutputs,
  stripNulls,
  toGpuInput,
  updateBody,
} from "./translate.js";
import type { PodInputs, PodOutputs } from "./types.js";
import { label, timeoutsOf } from "./types.js";
import { resumePod, stopPod, terminateAndWait, waitUntilReady } from "./wait.js";

/** @internal The provider host's side of Pod; programs reach it only through the thin provider. */
export class PodProvider {
  async check(_olds: PodInputs, news: PodInputs): Promise<pulumi.dynamic.CheckResult<PodInputs>> {
    return checkResult(news, checkPod(news as unknown as Record<string, unknown>));
  }

  /** Pure; the host claims the pod it is asked about (`bindToHost` below, with `claimShown: "pods"`). */
  async diff(_id: string, olds: PodOutputs, news: PodInputs): Promise<pulumi.dynamic.DiffResult> {
    return diffResult(diffPod(olds, news), news);
  }

  async create(ctx: HostContext, inputs: PodInputs): Promise<pulumi.dynamic.CreateResult<PodOutputs>> {
    const timeouts = timeoutsOf(inputs.timeouts);
    if (inputs.adoptId) return this.adopt(ctx, inputs.adoptId, inputs);

    // A program always gives the key (provider/dynamic/inputs.ts). A caller in this process that
    // gives none still gets one for this create, which tells apart the pod an unanswered request
    // made; no later run can compute it again, so it resumes nothing.
    const given = createKeyIn(inputs);
    const key = { value: given ?? oneTimeCreateKey(), resumes: given !== undefined };
    const { pod, unanswered } = await startPod(ctx, inputs, key, timeouts.delete);
    try {
      return await this.untilReady(ctx, pod, inputs, timeouts);
    } finally {
      if (unanswered.length > 0) {
        await terminateDuplicates(ctx, inputs, key.value, pod.id, unanswered, timeouts.delete);
      }
    }
  }

  /** Waits for a pod the API accepted; on failure terminates it (or keeps it in state), naming it. */
  private async untilReady(
    ctx: HostContext,
    pod: ApiPod,
    inputs: PodInputs,
    timeouts: ReturnType<typeof timeoutsOf>,
  ): Promise<pulumi.dynamic.CreateResult<PodOutputs>> {
    // From here on the pod exists and bills: every failure names it, and it is either
    // terminated or recorded in state.
    let last: ApiPod = pod;
    try {
      const target = inputs.waitFor ?? "RUNNING";
      if (target !== "NONE")
        last = (await waitUntilReady(ctx, pod, inputs, target, timeouts.create, true)) ?? last;
      if (inputs.desiredStatus === "STOPPED") last = await stopPod(ctx, last, inputs, timeouts.create);
      if (inputs.locked) last = await ctx.api.pods.update(pod.id, { locked: true });
      return { id: pod.id, outs: podOutputs(last, inputs) };
    } catch (err) {
      if (isWaitFailure(err) && err.lastPod) last = err.lastPod;
      const why =
        isWaitFailure(err) && err.reason === "TIMEOUT"
          ? `pod ${pod.id} did not reach ${inputs.waitFor ?? "RUNNING"} within timeouts.create (${timeouts.create} s)`
          : messageOf(err);
      const failed = `did not become ready (${why}; last status ${last.status})`;
      return failCreate({
        what: label(inputs),
        noun: "pod",
        id: pod.id,
        failed,
        keep: inputs.onCreateFailure === "keep",
        outputs: () => podOutputs(last, inputs),
        remove: () => terminateAndWait(ctx, pod.id, timeouts.delete),
        removal: "terminate",
      });
    }
  }

  /** `adoptId`: take over an existing pod instead of creating one, then apply what differs in place. */
  private adopt(ctx: HostContext, id: string, inputs: PodInputs) {
    return adopt(ctx, {
      what: label(inputs),
      noun: "pod",
      id,
      read: () => ctx.api.pods.get(id),
      plan: (pod) => {
        // What the pod really is: its own GPU type, not the one the inputs ask for.
        const { blocking, adopted } = compareWithInputs(pod, inputs, pod.gpu?.id ?? null);
        if (blocking.length > 0) {
          return {
            refused: `it differs from the inputs in ${blocking.join(", ")}, which cannot change in place`,
          };
        }
        const body = updateBody(adopted, inputs, pod.env);
        return Object.keys(body).length > 0 ? { write: () => ctx.api.pods.update(id, body) } : {};
      },
      claims: ctx.claims.pods,
      outputs: (pod) => podOutputs(pod, inputs),
    });
  }

  async read(
    ctx: HostContext,
    id: string,
    props?: PodOutputs,
  ): Promise<pulumi.dynamic.ReadResult<PodOutputs>> {
    let pod: ApiPod;
    try {
      pod = await ctx.podReads.get(id);
    } catch (err) {
      if (isRunpodApiError(err, ERROR_CODES.NOT_FOUND)) return missingObject("pod", id, props);
      throw err;
    }
    if (pod.status === "TERMINATED") return missingObject("pod", id, props);
    ctx.claims.pods.add(id);
    const prior = (props ?? {}) as Partial<PodOutputs> & Partial<PodInputs>;
    // On refresh `props` are the old outputs; on get they are the program's inputs. Either way its
    // env keys are the declared ones; for a get without env, every key the service did not inject.
    const declaredEnv =
      prior.env && Object.keys(prior.env).length > 0
        ? prior.env
        : props && "status" in props
          ? {}
          : envKeysOf(pod.env, [CREATE_KEY_ENV]);
    const priorInputs = {
      ...(prior as Record<string, unknown>),
      env: declaredEnv,
      ...(prior.gpu ? { gpu: { ...toGpuInput(prior.gpu), id: prior.requestedGpuId ?? prior.gpu.id } } : {}),
      ...(typeof prior.requestedGlobalNetworking === "boolean"
        ? { globalNetworking: prior.requestedGlobalNetworking }
        : {}),
      templateId: prior.templateId ?? undefined,
      dataCenterIds: prior.dataCenterIds ?? undefined,
      placement: prior.placement ?? undefined,
      timeouts: prior.timeouts ?? undefined,
    } as unknown as Partial<PodInputs>;
    const outs = podOutputs(pod, stripNulls(priorInputs), stoppedOutsideNow(pod.status, props));
    // The pod's own create key goes back into the inputs, as the program declares it.
    const key = pod.env[CREATE_KEY_ENV];
    const inputs = {
      ...inputsFromOutputs(outs, stripNulls(priorInputs)),
      ...(key !== undefined && CREATE_KEY.test(key) ? { __createKey: key } : {}),
    };
    return readResult(id, outs, inputs);
  }

  async update(
    ctx: HostContext,
    id: string,
    olds: PodOutputs,
    news: PodInputs,
  ): Promise<pulumi.dynamic.UpdateResult<PodOutputs>> {
    ctx.claims.pods.add(id);
    ctx.podReads.forget(id);
    const timeouts = timeoutsOf(news.timeouts);
    // PATCH replaces the whole env, so the pod's current env is read only when env changes; PATCH
    // answers with the pod.
    const current = diffPod(olds, news).updates.includes("env") ? await ctx.api.pods.get(id) : undefined;
    const body = updateBody(olds, news, current?.env ?? {});
    let pod: ApiPod;
    if (Object.keys(body).length === 0) {
      pod = current ?? (await ctx.api.pods.get(id));
    } else {
      try {
        pod = await ctx.api.pods.update(id, body);
      } catch (err) {
        if (isRunpodApiError(err, ERROR_CODES.CONFLICT)) {
          throw new Error(`${label(news)}: pod ${id} cannot be changed: ${err.detail ?? err.message}`);
        }
        throw err;
      }
    }
    if (body.globalNetworking !== undefined) {
      ctx.progress(
        label(news),
        `${id}: the globalNetworking change takes effect at the pod's next start or restart`,
      );
    }
    const desired = news.desiredStatus ?? "RUNNING";
    // A pod with autostop that was stopped outside the stack stays stopped (diff.ts, desiredStatusOf).
    const parked = news.autostop != null && stoppedOutsideNow(pod.status, olds);
    let stoppedHere = false;
    if (desiredStatusOf(pod.status, desired, parked) !== desired) {
      stoppedHere = desired === "STOPPED";
      pod = stoppedHere ? await stopPod(ctx, pod, news, timeouts.update) : await resumePod(ctx, pod, news);
    }
    if (pod.status === "STARTING" || pod.status === "PROVISIONING") {
      try {
        pod = (await waitUntilReady(ctx, pod, news, "RUNNING", timeouts.update)) ?? pod;
      } catch (err) {
        const last = isWaitFailure(err) && err.lastPod ? err.lastPod : pod;
        throw partialFailure(
          id,
          podOutputs(last, news),
          `${label(news)}: pod ${id} was updated but did not come back to RUNNING (${messageOf(err)}).`,
        );
      }
    }
    return { outs: podOutputs(pod, news, !stoppedHere && stoppedOutsideNow(pod.status, olds)) };
  }

  async delete(ctx: HostContext, id: string, props: PodOutputs): Promise<void> {
    ctx.podReads.forget(id);
    const name = label(props, id);
    const started = ctx.now();
    let existed: boolean;
    try {
      existed = await terminateAndWait(ctx, id, timeoutsOf(props?.timeouts).delete);
    } catch (err) {
      if (isRunpodApiError(err, ERROR_CODES.CONFLICT)) {
        const hint = props?.cluster
          ? `it belongs to cluster ${props.cluster.id}; delete the cluster through /v2/clusters/${props.cluster.id}`
          : "it is locked; set locked: false and run `pulumi up` first, then destroy";
        throw new Error(`${name}: pod ${id} cannot be deleted: ${hint}. (${err.detail ?? err.message})`);
      }
      throw err;
    }
    ctx.claims.pods.delete(id);
    if (existed) ctx.progress(name, `${id} deleted (${elapsed(ctx.now() - started)})`);
  }
}

/** @internal */
export const podProvider = bindToHost(POD, new PodProvider(), label, {
  claimShown: "pods",
  pacesCreates: true,
});
