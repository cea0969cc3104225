/**
 * A small stand-in for the Pulumi engine, for whole-program tests and the README's main job on
 * machines without the Pulumi CLI (docs/real-engine.md says what the real one does differently).
 *
 * What is real: the program runs under `@pulumi/pulumi`'s own runner (`cmd/run`, the same code
 * `pulumi up` execs), every resource operation goes through the real dynamic-provider host
 * (`cmd/dynamic-provider`) over gRPC, and the provider code is the installed package.
 *
 * What this engine does: hosts the ResourceMonitor and Engine gRPC services, calls Check, Diff,
 * Create, Update, Delete and Read in the order the engine does, keeps state (in memory, or in a
 * JSON file whose secret values are encrypted), re-marks secret outputs (same-named secret inputs
 * and `additionalSecretOutputs`), and deletes what a program no longer declares, dependents first.
 *
 * What it does NOT model (test code, not an engine): explicit and default providers other than
 * dynamic resources; component resources beyond accepting their registration; aliases,
 * `protect`, `ignoreChanges`, `replaceOnChanges`, `retainOnDelete`, `deletedWith`, targets,
 * `customTimeouts`, transforms and hooks; the parallel step DAG (operations run as the program
 * registers them, and a replaced resource's old copy is deleted right after its replacement is
 * created rather than at the end; if that delete fails, the old copy is kept as a pending delete
 * and deleted first by the next run, as the real engine does); `Pod.get`/ReadResource and invokes;
 * policy packs; stack references; pending creates (an interrupted create leaves nothing in this
 * state, which is what the real engine ends up with after dropping it); detailed diffs. Assertions
 * in tests are about the provider's behaviour, not about engine semantics.
 */

import { type DeployOptions, type Operation, providerDelete, startHost } from "./engine-host.js";
import { deletionOrder, isSecretInput, plainInputs, secret } from "./engine-state.js";
import { message, provproto, rpc } from "./grpc.js";

export { type DeployResult, deploy } from "./engine-deploy.js";
export type { DeployOptions, Operation, OpKind } from "./engine-host.js";
export {
  isSecret,
  type ResourceState,
  SECRET_SIG,
  SECRET_VALUE,
  StackState,
  UNKNOWN,
} from "./engine-state.js";

// biome-ignore lint/suspicious/noExplicitAny: generated protobuf stubs are untyped JavaScript
type Any = any;

/** `pulumi refresh`: Read every resource with its stored outputs; report drift and deletions. */
export async function refresh(options: DeployOptions): Promise<{ ops: Operation[] }> {
  const host = await startHost(options);
  const ops: Operation[] = [];
  try {
    for (const r of [...options.state.resources.values()]) {
      const res = await rpc<Any>(
        host.client,
        "read",
        message(provproto.ReadRequest, {
          id: r.id,
          urn: r.urn,
          type: r.type,
          properties: r.outputs,
          inputs: plainInputs(r),
        }),
      );
      if (!res.getId()) {
        options.state.resources.delete(r.urn);
        ops.push({ op: "gone", name: r.name, type: r.type, detail: [] });
        continue;
      }
      const outputs = res.getProperties().toJavaScript();
      const changed = Object.keys({ ...r.outputs, ...outputs })
        .filter((k) => !k.startsWith("__"))
        .filter((k) => JSON.stringify(r.outputs[k]) !== JSON.stringify(outputs[k]))
        .filter((k) => !VOLATILE.includes(k));
      ops.push({ op: changed.length > 0 ? "drift" : "refresh", name: r.name, type: r.type, detail: changed });
      const inputs = res.getInputs()?.toJavaScript();
      options.state.resources.set(r.urn, {
        ...r,
        outputs,
        ...(inputs
          ? {
              inputs: Object.fromEntries(
                Object.entries(inputs).map(([k, v]) => [k, isSecretInput(r, k) ? secret(v) : v]),
              ),
            }
          : {}),
      });
    }
    return { ops };
  } finally {
    host.close();
  }
}

/** Outputs that move on their own (live metrics, cost, timestamps): not drift. */
const VOLATILE = ["runtime", "cost", "status", "actions", "startedAt", "ssh", "cudaVersion"];

/** `pulumi destroy`: delete everything, dependents first. */
export async function destroy(options: DeployOptions): Promise<{ ops: Operation[] }> {
  const host = await startHost(options);
  const ops: Operation[] = [];
  try {
    for (const r of [...options.state.pendingDeletes]) {
      await providerDelete(host, r);
      options.state.pendingDeletes.splice(options.state.pendingDeletes.indexOf(r), 1);
      ops.push({ op: "delete", name: r.name, type: r.type, detail: [] });
    }
    for (const r of deletionOrder([...options.state.resources.values()])) {
      await providerDelete(host, r);
      options.state.resources.delete(r.urn);
      ops.push({ op: "delete", name: r.name, type: r.type, detail: [] });
    }
    options.state.outputs = {};
    return { ops };
  } finally {
    host.close();
  }
}
