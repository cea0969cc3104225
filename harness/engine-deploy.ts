/**
 * `pulumi up` and preview in the stand-in engine (harness/engine.ts): the ResourceMonitor and
 * Engine services the program talks to, and the Check, Diff, Create, Update and Delete calls made
 * for each resource it registers.
 */
import { spawn } from "node:child_process";
import {
  type DeployOptions,
  detailsOf,
  type Operation,
  type OpKind,
  partialFailure,
  providerDelete,
  startHost,
} from "./engine-host.js";
import { deletionOrder, plainInputs, type ResourceState, secret, unwrap } from "./engine-state.js";
import { grpc, message, nodeRequire, provproto, rpc, Struct } from "./grpc.js";

// biome-ignore lint/suspicious/noExplicitAny: generated protobuf stubs are untyped JavaScript
type Any = any;

const { Empty } = nodeRequire("google-protobuf/google/protobuf/empty_pb") as Any;
const resrpc = nodeRequire("@pulumi/pulumi/proto/resource_grpc_pb") as Any;
const resproto = nodeRequire("@pulumi/pulumi/proto/resource_pb") as Any;
const enginerpc = nodeRequire("@pulumi/pulumi/proto/engine_grpc_pb") as Any;
const engineproto = nodeRequire("@pulumi/pulumi/proto/engine_pb") as Any;
const { DIFF_UNKNOWN, DIFF_NONE, DIFF_SOME } = provproto.DiffResponse.DiffChanges;

export interface DeployResult {
  readonly code: number | null;
  readonly ops: Operation[];
  readonly stackOutputs: Record<string, unknown>;
  /** Program errors and check failures, for assertions on messages. */
  readonly errors: string[];
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
