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
import { spawn } from "node:child_process";
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import {
  grpc,
  message,
  nodeRequire,
  type ProviderHost,
  provproto,
  rpc,
  Struct,
  startProviderHost,
} from "./grpc.js";

// biome-ignore lint/suspicious/noExplicitAny: generated protobuf stubs are untyped JavaScript
type Any = any;

const { Empty } = nodeRequire("google-protobuf/google/protobuf/empty_pb") as Any;
const resrpc = nodeRequire("@pulumi/pulumi/proto/resource_grpc_pb") as Any;
const resproto = nodeRequire("@pulumi/pulumi/proto/resource_pb") as Any;
const enginerpc = nodeRequire("@pulumi/pulumi/proto/engine_grpc_pb") as Any;
const engineproto = nodeRequire("@pulumi/pulumi/proto/engine_pb") as Any;

export const SECRET_SIG = "4dabf18193072939515e22adb298388d";
export const SECRET_VALUE = "1b47061264138c4ac30d75fd1eb44270";
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const { DIFF_UNKNOWN, DIFF_NONE, DIFF_SOME } = provproto.DiffResponse.DiffChanges;

export const isSecret = (v: unknown): v is { value: unknown } =>
  v !== null && typeof v === "object" && (v as Record<string, unknown>)[SECRET_SIG] === SECRET_VALUE;
const secret = (value: unknown) => ({ [SECRET_SIG]: SECRET_VALUE, value });

export interface ResourceState {
  urn: string;
  type: string;
  name: string;
  custom: boolean;
  id: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  /** Top-level output keys stored as secrets. */
  secretKeys: string[];
  dependencies: string[];
}

/** A stack's state: resources in registration order, and the stack outputs. */
export class StackState {
  resources = new Map<string, ResourceState>();
  outputs: Record<string, unknown> = {};
  /**
   * Replaced resources whose delete failed. As in the real engine's state (`delete: true`), they
   * stay known, and the next run deletes them first.
   */
  pendingDeletes: ResourceState[] = [];

  /** JSON with every secret value encrypted (AES-256-GCM), as a state file would hold it. */
  toJSON(key: Buffer): string {
    const seal = (v: unknown) => {
      const iv = randomBytes(12);
      const c = createCipheriv("aes-256-gcm", key, iv);
      const data = Buffer.concat([c.update(JSON.stringify(v), "utf8"), c.final()]);
      return {
        [SECRET_SIG]: SECRET_VALUE,
        ciphertext: Buffer.concat([iv, c.getAuthTag(), data]).toString("base64"),
      };
    };
    const resources = [...this.resources.values(), ...this.pendingDeletes].map((r, i) => ({
      ...r,
      ...(i >= this.resources.size ? { delete: true } : {}),
      inputs: Object.fromEntries(
        Object.entries(r.inputs).map(([k, v]) => [k, isSecret(v) ? seal(v.value) : v]),
      ),
      outputs: Object.fromEntries(
        Object.entries(r.outputs).map(([k, v]) => [k, r.secretKeys.includes(k) ? seal(v) : v]),
      ),
    }));
    const outputs = Object.fromEntries(
      Object.entries(this.outputs).map(([k, v]) => [k, isSecret(v) ? seal(v.value) : v]),
    );
    return JSON.stringify({ version: 1, resources, outputs }, null, 2);
  }

  static fromJSON(text: string, key: Buffer): StackState {
    const open = (v: unknown): unknown => {
      if (!isSecret(v) || typeof (v as Record<string, unknown>).ciphertext !== "string") return v;
      const raw = Buffer.from((v as unknown as { ciphertext: string }).ciphertext, "base64");
      const d = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
      d.setAuthTag(raw.subarray(12, 28));
      return JSON.parse(Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString("utf8"));
    };
    const parsed = JSON.parse(text) as {
      resources: (ResourceState & { delete?: boolean })[];
      outputs: Record<string, unknown>;
    };
    const state = new StackState();
    for (const { delete: pending, ...r } of parsed.resources) {
      const opened: ResourceState = {
        ...r,
        inputs: Object.fromEntries(
          Object.entries(r.inputs).map(([k, v]) => [k, isSecret(v) ? secret(open(v)) : v]),
        ),
        outputs: Object.fromEntries(Object.entries(r.outputs).map(([k, v]) => [k, open(v)])),
      };
      if (pending) state.pendingDeletes.push(opened);
      else state.resources.set(r.urn, opened);
    }
    state.outputs = Object.fromEntries(
      Object.entries(parsed.outputs).map(([k, v]) => [k, isSecret(v) ? secret(open(v)) : v]),
    );
    return state;
  }

  save(path: string, key: Buffer): void {
    writeFileSync(path, this.toJSON(key));
  }

  static load(path: string, key: Buffer): StackState {
    return StackState.fromJSON(readFileSync(path, "utf8"), key);
  }
}

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

export interface DeployResult {
  readonly code: number | null;
  readonly ops: Operation[];
  readonly stackOutputs: Record<string, unknown>;
  /** Program errors and check failures, for assertions on messages. */
  readonly errors: string[];
}

function startHost(options: DeployOptions): Promise<ProviderHost> {
  const log = options.log ?? (() => undefined);
  return startProviderHost({
    config: options.config,
    cwd: options.programDir,
    env: { ...options.env, PULUMI_NODEJS_PROJECT: options.project, PULUMI_PROJECT: options.project },
    onOutput: (text) => log(`[host] ${text.trimEnd()}`),
  });
}

/** Delete, with the stored outputs and inputs, as the engine sends it. */
function providerDelete(host: ProviderHost, r: ResourceState): Promise<unknown> {
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

/** Removes secret wrappers at any depth (dynamic providers do not accept secrets). */
function reveal(v: unknown): { value: unknown; secret: boolean } {
  if (isSecret(v)) return { value: reveal(v.value).value, secret: true };
  if (Array.isArray(v)) {
    const items = v.map(reveal);
    return { value: items.map((i) => i.value), secret: items.some((i) => i.secret) };
  }
  if (v !== null && typeof v === "object") {
    const entries = Object.entries(v).map(([k, x]) => [k, reveal(x)] as const);
    return {
      value: Object.fromEntries(entries.map(([k, x]) => [k, x.value])),
      secret: entries.some(([, x]) => x.secret),
    };
  }
  return { value: v, secret: false };
}

/** Plain inputs, and the top-level keys that held a secret anywhere inside (the engine re-marks those outputs). */
const unwrap = (props: Record<string, unknown>) => {
  const secretKeys: string[] = [];
  const plain: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(props)) {
    const r = reveal(v);
    if (r.secret) secretKeys.push(k);
    plain[k] = r.value;
  }
  return { plain, secretKeys };
};

function detailsOf(err: Any): string {
  return err?.details ?? err?.message ?? String(err);
}

/** Runs `pulumi up` (or preview) of the program once. */
export async function deploy(options: DeployOptions & { readonly dryRun?: boolean }): Promise<DeployResult> {
  const { state, stack, project, dryRun = false } = options;
  const log = options.log ?? (() => undefined);
  const host = await startHost(options);
  const ops: Operation[] = [];
  const errors: string[] = [];
  const seen = new Set<string>();
  const stackOutputs: Record<string, unknown> = {};
  let rootUrn = "";
  const P = <T = Any>(method: string, Cls: Any, fields: Record<string, unknown>) =>
    rpc<T>(host.client, method, message(Cls, fields));

  const deleteResource = async (r: ResourceState) => {
    if (!dryRun) await providerDelete(host, r);
  };

  async function register(req: Any): Promise<{ urn: string; id: string; object: Record<string, unknown> }> {
    const type: string = req.getType();
    const name: string = req.getName();
    const parent: string = req.getParent();
    const urn = `urn:pulumi:${stack}::${project}::${parent && parent !== rootUrn && !parent.endsWith("pulumi:pulumi:Stack") ? `${parent.split("::")[2]}$` : ""}${type}::${name}`;
    seen.add(urn);
    if (!req.getCustom()) {
      if (type === "pulumi:pulumi:Stack") rootUrn = urn;
      return { urn, id: "", object: {} };
    }
    if (!type.startsWith("pulumi-nodejs:dynamic"))
      throw new Error(`this engine only runs dynamic resources, not ${type}`);
    const { plain: news0, secretKeys } = unwrap(req.getObject().toJavaScript());
    const additional: string[] = req.getAdditionalsecretoutputsList();
    const prev = state.resources.get(urn);
    const checked = await P("check", provproto.CheckRequest, {
      urn,
      type,
      name,
      olds: prev ? plainInputs(prev) : {},
      news: news0,
    });
    const failures = checked.getFailuresList().map((f: Any) => `${f.getProperty()}: ${f.getReason()}`);
    if (failures.length > 0) throw new Error(`${type} ${name} is invalid: ${failures.join("; ")}`);
    const news = checked.getInputs().toJavaScript();

    const create = async (): Promise<{ id: string; outputs: Record<string, unknown> }> => {
      if (dryRun) return { id: "", outputs: news };
      const res = await P("create", provproto.CreateRequest, { urn, type, name, properties: news }).catch(
        (err: Any) => {
          const partial = partialFailure(err);
          if (partial) {
            // The engine records a partially created resource so the next run knows it.
            state.resources.set(urn, entry(partial.id, partial.properties));
          }
          throw err;
        },
      );
      return { id: res.getId(), outputs: res.getProperties().toJavaScript() };
    };
    const entry = (id: string, outputs: Record<string, unknown>): ResourceState => ({
      urn,
      type,
      name,
      custom: true,
      id,
      inputs: Object.fromEntries(
        Object.entries(news).map(([k, v]) => [k, secretKeys.includes(k) ? secret(v) : v]),
      ),
      outputs,
      secretKeys: [...new Set([...secretKeys, ...additional])].filter((k) => k in outputs),
      dependencies: req.getDependenciesList(),
    });

    let op: OpKind = "same";
    let detail: string[] = [];
    let id = prev?.id ?? "";
    let outputs = prev?.outputs ?? {};
    if (!prev) {
      op = "create";
      ({ id, outputs } = await create());
    } else {
      const d = await P("diff", provproto.DiffRequest, {
        id,
        urn,
        type,
        name,
        olds: prev.outputs,
        oldInputs: plainInputs(prev),
        news,
      });
      let changes = d.getChanges();
      if (changes === DIFF_UNKNOWN)
        changes = JSON.stringify(plainInputs(prev)) === JSON.stringify(news) ? DIFF_NONE : DIFF_SOME;
      if (changes === DIFF_SOME && d.getReplacesList().length > 0) {
        op = "replace";
        detail = d.getReplacesList();
        if (d.getDeletebeforereplace()) {
          await deleteResource(prev);
          ({ id, outputs } = await create());
        } else {
          ({ id, outputs } = await create());
          try {
            await deleteResource(prev);
          } catch (err) {
            // The replacement exists and is recorded; the old resource waits for the next run.
            if (!dryRun) {
              state.resources.set(urn, entry(id, outputs));
              state.pendingDeletes.push(prev);
            }
            throw err;
          }
        }
      } else if (changes === DIFF_SOME) {
        op = "update";
        outputs = dryRun
          ? news
          : (
              await P("update", provproto.UpdateRequest, {
                id,
                urn,
                type,
                name,
                olds: prev.outputs,
                oldInputs: plainInputs(prev),
                news,
              })
            )
              .getProperties()
              .toJavaScript();
      }
    }
    ops.push({ op, name, type, detail });
    const record = entry(id, outputs);
    if (!dryRun) state.resources.set(urn, record);
    const object = Object.fromEntries(
      Object.entries(outputs).map(([k, v]) => [k, record.secretKeys.includes(k) ? secret(v) : v]),
    );
    return { urn, id, object };
  }

  const monitor = {
    supportsFeature: (call: Any, cb: Any) => {
      const r = new resproto.SupportsFeatureResponse();
      r.setHassupport(["secrets"].includes(call.request.getId()));
      cb(null, r);
    },
    registerResource: (call: Any, cb: Any) => {
      register(call.request).then(
        ({ urn, id, object }) => {
          const r = new resproto.RegisterResourceResponse();
          r.setUrn(urn);
          r.setId(id);
          r.setObject(Struct.fromJavaScript(object));
          cb(null, r);
        },
        (err: Any) => {
          const text = detailsOf(err);
          errors.push(text);
          log(`[engine] ${call.request.getName()}: ${text}`);
          cb({ code: grpc.status.UNKNOWN, details: text });
        },
      );
    },
    registerResourceOutputs: (call: Any, cb: Any) => {
      if (call.request.getUrn() === rootUrn)
        Object.assign(stackOutputs, call.request.getOutputs()?.toJavaScript() ?? {});
      cb(null, new Empty());
    },
  };
  const engine = {
    log: (call: Any, cb: Any) => {
      const text = call.request.getMessage();
      // Debug messages carry whole RegisterResource requests (with __provider): keep them out.
      if (call.request.getSeverity() !== engineproto.LogSeverity.DEBUG) log(`[log] ${text}`);
      if (call.request.getSeverity() === engineproto.LogSeverity.ERROR) errors.push(text);
      cb(null, new Empty());
    },
    getRootResource: (_call: Any, cb: Any) => {
      const r = new engineproto.GetRootResourceResponse();
      r.setUrn(rootUrn);
      cb(null, r);
    },
    setRootResource: (call: Any, cb: Any) => {
      rootUrn = call.request.getUrn();
      cb(null, new engineproto.SetRootResourceResponse());
    },
  };
  const server = new grpc.Server();
  server.addService(resrpc.ResourceMonitorService, monitor);
  server.addService(enginerpc.EngineService, engine);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e: Error | null, p: number) =>
      e ? reject(e) : resolve(p),
    ),
  );
  const addr = `127.0.0.1:${port}`;
  try {
    if (!dryRun) {
      for (const r of [...state.pendingDeletes]) {
        try {
          await deleteResource(r);
          state.pendingDeletes.splice(state.pendingDeletes.indexOf(r), 1);
          ops.push({ op: "delete", name: r.name, type: r.type, detail: [] });
        } catch (err) {
          errors.push(detailsOf(err));
          log(`[engine] ${r.name}: ${detailsOf(err)}`);
        }
      }
    }
    const args = [
      nodeRequire.resolve("@pulumi/pulumi/cmd/run"),
      `--monitor=${addr}`,
      `--engine=${addr}`,
      `--project=${project}`,
      `--stack=${stack}`,
      `--pwd=${options.programDir}`,
      "--parallel=16",
      ...(dryRun ? ["--dry-run"] : []),
      ".",
    ];
    const code = await new Promise<number | null>((resolve) => {
      const p = spawn(process.execPath, args, {
        cwd: options.programDir,
        env: {
          ...process.env,
          ...options.env,
          PULUMI_NODEJS_TYPESCRIPT: "true",
          PULUMI_NODEJS_TRANSPILE_ONLY: "true",
          PULUMI_CONFIG: JSON.stringify(options.config),
          PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(options.secretKeys ?? []),
        },
      });
      p.stdout.on("data", (d: Buffer) => log(`[program] ${d.toString().trimEnd()}`));
      p.stderr.on("data", (d: Buffer) => log(`[program] ${d.toString().trimEnd()}`));
      p.on("exit", resolve);
    });
    if (code === 0) {
      // What the program no longer declares goes, dependents before what they depend on.
      for (const r of deletionOrder([...state.resources.values()].filter((r) => !seen.has(r.urn)))) {
        await deleteResource(r);
        ops.push({ op: "delete", name: r.name, type: r.type, detail: [] });
        if (!dryRun) state.resources.delete(r.urn);
      }
      if (!dryRun) state.outputs = { ...stackOutputs };
    }
    return { code, ops, stackOutputs, errors };
  } finally {
    server.forceShutdown();
    host.close();
  }
}

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

function plainInputs(r: ResourceState): Record<string, unknown> {
  return unwrap(r.inputs).plain;
}

function isSecretInput(r: ResourceState, key: string): boolean {
  return isSecret(r.inputs[key]);
}

/** Reverse registration order, with every resource after the ones that depend on it. */
function deletionOrder(resources: ResourceState[]): ResourceState[] {
  const out: ResourceState[] = [];
  const pending = [...resources].reverse();
  while (pending.length > 0) {
    const index = pending.findIndex((r) => !pending.some((o) => o !== r && o.dependencies.includes(r.urn)));
    const [next] = pending.splice(index < 0 ? 0 : index, 1);
    if (next) out.push(next);
  }
  return out;
}

function partialFailure(err: Any): { id: string; properties: Record<string, unknown> } | undefined {
  const raw = err?.metadata?.get?.("grpc-status-details-bin")?.[0];
  if (!raw) return undefined;
  const statusproto = nodeRequire("@pulumi/pulumi/proto/status_pb") as Any;
  const status = statusproto.Status.deserializeBinary(raw);
  const any = status.getDetailsList()[0];
  if (!any) return undefined;
  const detail = provproto.ErrorResourceInitFailed.deserializeBinary(any.getValue());
  return { id: detail.getId(), properties: detail.getProperties()?.toJavaScript() ?? {} };
}
