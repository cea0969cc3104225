/**
 * The stand-in engine's side of the provider host (harness/engine.ts): starting the real
 * dynamic-provider host, the operations every command shares, and reading its errors.
 */

import { plainInputs, type ResourceState, type StackState } from "./engine-state.js";
import { message, nodeRequire, type ProviderHost, provproto, rpc, startProviderHost } from "./grpc.js";

// biome-ignore lint/suspicious/noExplicitAny: generated protobuf stubs are untyped JavaScript
type Any = any;

export type OpKind = "create" | "update" | "replace" | "same" | "delete" | "refresh" | "drift" | "gone";
export interface Operation {
  readonly op: OpKind;
  readonly name: string;
  readonly type: string;
  /** For replace: the properties that forced it; for drift: the outputs that changed. */
  readonly detail: readonly string[];
}

export interface DeployOptions {
  readonly programDir: string;
  readonly project: string;
  readonly stack: string;
  /** Stack config, namespaced (`runpod:apiKey`, `<project>:image`). */
  readonly config: Readonly<Record<string, string>>;
  readonly secretKeys?: readonly string[];
  readonly state: StackState;
  /** Environment for the program and the provider host. */
  readonly env?: Readonly<Record<string, string>>;
  /** Called with every line the program, the host and the engine log print. */
  readonly log?: (line: string) => void;
}

/** The real dynamic-provider host, with the stack's config, in the program's folder. */
export function startHost(options: DeployOptions): Promise<ProviderHost> {
  const log = options.log ?? (() => undefined);
  return startProviderHost({
    config: options.config,
    cwd: options.programDir,
    env: { ...options.env, PULUMI_NODEJS_PROJECT: options.project, PULUMI_PROJECT: options.project },
    onOutput: (text) => log(`[host] ${text.trimEnd()}`),
  });
}

/** Delete, with the stored outputs and inputs, as the engine sends it. */
export function providerDelete(host: ProviderHost, r: ResourceState): Promise<unknown> {
  return rpc(
    host.client,
    "delete",
    message(provproto.DeleteRequest, {
      id: r.id,
      urn: r.urn,
      type: r.type,
      properties: r.outputs,
      oldInputs: plainInputs(r),
    }),
  );
}

/** The message of a gRPC or provider error, as the engine prints it. */
export function detailsOf(err: Any): string {
  return err?.details ?? err?.message ?? String(err);
}

/** The id and outputs a failed create carries when the resource was partly created. */
export function partialFailure(err: Any): { id: string; properties: Record<string, unknown> } | undefined {
  const raw = err?.metadata?.get?.("grpc-status-details-bin")?.[0];
  if (!raw) return undefined;
  const statusproto = nodeRequire("@pulumi/pulumi/proto/status_pb") as Any;
  const status = statusproto.Status.deserializeBinary(raw);
  const any = status.getDetailsList()[0];
  if (!any) return undefined;
  const detail = provproto.ErrorResourceInitFailed.deserializeBinary(any.getValue());
  return { id: detail.getId(), properties: detail.getProperties()?.toJavaScript() ?? {} };
}
