/**
 * The provider plugin's gRPC service: Pulumi's ResourceProvider protocol on the generated stubs of
 * @pulumi/pulumi, in front of the same providers the dynamic provider serves
 * (provider/host/resource-providers.ts). This file translates and nothing else: tokens to
 * resources, Structs to plain values and back (values.ts), what a resource class adds in the
 * program (marks.ts), errors to gRPC statuses. Written on the stubs rather than on
 * `@pulumi/pulumi/provider`'s server because that one ignores the configuration it is sent, answers
 * no detailed diff, cannot read for `pulumi import` and leaves outputs unmarked
 * (docs/plugin.md, "Why a server of its own").
 */
import * as pulumi from "@pulumi/pulumi";
import { CONFIG_NAMESPACES } from "../client/config.js";
import { secretFields } from "../fields/derive.js";
import type { ProviderHost } from "../host/provider-host.js";
import { pulumiRequire } from "../host/pulumi-require.js";
import type { ResourceProviders } from "../host/resource-providers.js";
import { READ_BY_ID } from "../resources/common.js";
import { declarationOf, type ResourceKind } from "../resources/declarations.js";
import { runpodTypeName } from "../resources/type-tokens.js";
import { sameValue } from "../validation/compare.js";
import { invoke } from "./invokes.js";
import { withProgramInputs } from "./marks.js";
import { FUNCTIONS, RESOURCES } from "./tokens.js";
import { fromStruct, plainKeysOf, toStruct } from "./values.js";

// biome-ignore lint/suspicious/noExplicitAny: generated protobuf stubs are untyped JavaScript
type Any = any;

const grpc = pulumiRequire("@grpc/grpc-js") as Any;
const provproto = pulumiRequire("@pulumi/pulumi/proto/provider_pb") as Any;
const plugproto = pulumiRequire("@pulumi/pulumi/proto/plugin_pb") as Any;
const statusproto = pulumiRequire("@pulumi/pulumi/proto/status_pb") as Any;
const emptyproto = pulumiRequire("google-protobuf/google/protobuf/empty_pb") as Any;
const anyproto = pulumiRequire("google-protobuf/google/protobuf/any_pb") as Any;

/** @internal */
export const { ResourceProviderService } = pulumiRequire("@pulumi/pulumi/proto/provider_grpc_pb") as Any;

/** @internal What the service answers with: the host, its resources' providers, the package's version and schema. */
export interface PluginOptions {
  readonly host: ProviderHost;
  readonly providers: ResourceProviders;
  readonly version: string;
  readonly schema: string;
}

/** The kind a request is about, from its type (or its URN's): one of the package's resources. */
function kindOf(req: Any): ResourceKind {
  const type: string = req.getType?.() || String(req.getUrn()).split("::")[2]?.split("$").pop() || "";
  const name = runpodTypeName(type);
  if (!name || !(RESOURCES as readonly string[]).includes(name)) {
    throw new Error(`runpod-dynamic has no resource type ${type}`);
  }
  return name as ResourceKind;
}

/** The properties to mark secret in an answer: the kind's secret fields and what arrived secret. */
function secretsOf(kind: ResourceKind, ...arrived: ReadonlySet<string>[]): Set<string> {
  const fields = secretFields(declarationOf(kind));
  return new Set([...fields.inputs, ...fields.outputs, ...arrived.flatMap((s) => [...s])]);
}

/**
 * A gRPC error for `err`. One the API accepted a create for (it carries the object's id) is
 * answered as ErrorResourceInitFailed, so the engine records the object in state as partly
 * created instead of losing it.
 */
function statusOf(err: unknown, secret: ReadonlySet<string>): Any {
  const e = err instanceof Error ? err : new Error(String(err));
  const metadata = new grpc.Metadata();
  const failed = e as Error & { id?: string; properties?: object; reasons?: string[] };
  if (failed.id) {
    const detail = new provproto.ErrorResourceInitFailed();
    detail.setId(failed.id);
    detail.setProperties(toStruct(failed.properties, secret));
    detail.setReasonsList(failed.reasons ?? [e.message]);
    const details = new anyproto.Any();
    details.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    const status = new statusproto.Status();
    status.setCode(grpc.status.UNKNOWN);
    status.setMessage(e.message);
    status.addDetails(details);
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  }
  return { code: grpc.status.UNKNOWN, details: e.message, message: e.message, metadata };
}

/** A unary handler from an async function; an error it throws is answered with `secret` marked. */
function unary(
  handle: (req: Any) => Promise<Any>,
  secretFor: (req: Any) => ReadonlySet<string> = () => new Set(),
): (call: Any, callback: Any) => void {
  return (call, callback) => {
    handle(call.request).then(
      (response) => callback(null, response),
      (err) => {
        let secret: ReadonlySet<string> = new Set();
        try {
          secret = secretFor(call.request);
        } catch {}
        callback(statusOf(err, secret));
      },
    );
  };
}

/** How a detailed diff names a change of `path`: added, deleted or updated, and whether it replaces. */
function propertyDiff(path: string, olds: object, news: object, replaces: boolean): Any {
  const top = path.split(/[.[]/)[0] ?? path;
  const had =
    (olds as Record<string, unknown>)[top] !== undefined && (olds as Record<string, unknown>)[top] !== null;
  const has =
    (news as Record<string, unknown>)[top] !== undefined && (news as Record<string, unknown>)[top] !== null;
  const Kind = provproto.PropertyDiff.Kind;
  const diff = new provproto.PropertyDiff();
  diff.setKind(
    !had && has
      ? replaces
        ? Kind.ADD_REPLACE
        : Kind.ADD
      : had && !has
        ? replaces
          ? Kind.DELETE_REPLACE
          : Kind.DELETE
        : replaces
          ? Kind.UPDATE_REPLACE
          : Kind.UPDATE,
  );
  diff.setInputdiff(true);
  return diff;
}

/** @internal The ResourceProvider service's methods. */
export function providerService(options: PluginOptions): Record<string, (call: Any, callback: Any) => void> {
  const { host, providers } = options;
  /** The provider's id (the stack's identity for marks.ts); unknown in a preview before it exists. */
  let identity: string | undefined;

  return {
    getPluginInfo: unary(async () => {
      const info = new plugproto.PluginInfo();
      info.setVersion(options.version);
      return info;
    }),

    getSchema: unary(async (req) => {
      if (req.getVersion() !== 0) throw new Error(`unsupported schema version ${req.getVersion()}`);
      const response = new provproto.GetSchemaResponse();
      response.setSchema(options.schema);
      return response;
    }),

    checkConfig: unary(async (req) => {
      const response = new provproto.CheckResponse();
      response.setInputs(req.getNews());
      return response;
    }),

    // A change of settings never replaces the provider: that would replace every resource of it.
    diffConfig: unary(async (req) => {
      const olds = fromStruct(req.getOlds()).values;
      const news = fromStruct(req.getNews()).values;
      const keys = [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter(
        (k) => k !== "version" && !sameValue(olds[k], news[k]),
      );
      const response = new provproto.DiffResponse();
      response.setChanges(
        keys.length > 0
          ? provproto.DiffResponse.DiffChanges.DIFF_SOME
          : provproto.DiffResponse.DiffChanges.DIFF_NONE,
      );
      response.setDiffsList(keys);
      return response;
    }),

    configure: unary(async (req) => {
      const id = req.getId?.() as string | undefined;
      identity = id && id !== pulumi.runtime.unknownValue ? id : undefined;
      const settings = fromStruct(req.getArgs()).values;
      const variables = req.getVariablesMap();
      host.configure(
        {
          config: {
            // The settings as values: a boolean set in YAML arrives as one, a string as text.
            get: (key) => {
              const field = key.slice(key.indexOf(":") + 1);
              return settings[field] ?? variables.get(`${CONFIG_NAMESPACES.plugin}:config:${field}`);
            },
          },
        },
        CONFIG_NAMESPACES.plugin,
      );
      const response = new provproto.ConfigureResponse();
      response.setAcceptsecrets(true);
      response.setAcceptresources(false);
      response.setAcceptoutputs(false);
      // Creates and updates are not previewed: the engine shows a new object's outputs as unknown.
      response.setSupportspreview(false);
      return response;
    }),

    check: unary(async (req) => {
      const kind = kindOf(req);
      const olds = fromStruct(req.getOlds());
      const news = fromStruct(req.getNews());
      const inputs = withProgramInputs(kind, news.values, {
        identity,
        urn: req.getUrn(),
        plainEnvKeys: plainKeysOf(req.getNews(), "env"),
      });
      const result = await providers[kind].check(olds.values as never, inputs as never);
      const response = new provproto.CheckResponse();
      response.setInputs(toStruct(result.inputs ?? inputs, secretsOf(kind, news.secret)));
      response.setFailuresList(
        (result.failures ?? []).map((f) => {
          const failure = new provproto.CheckFailure();
          failure.setProperty(f.property);
          failure.setReason(f.reason);
          return failure;
        }),
      );
      return response;
    }),

    diff: unary(async (req) => {
      const kind = kindOf(req);
      const olds = fromStruct(req.getOlds()).values;
      const news = fromStruct(req.getNews()).values;
      const result = (await providers[kind].diff(req.getId(), olds as never, news as never)) as {
        changes?: boolean;
        replaces?: string[];
        updates?: readonly string[];
        stables?: string[];
        deleteBeforeReplace?: boolean;
      };
      const replaces = result.replaces ?? [];
      const updates = result.updates ?? [];
      const changed = result.changes === true;
      const response = new provproto.DiffResponse();
      const { DIFF_SOME, DIFF_NONE, DIFF_UNKNOWN } = provproto.DiffResponse.DiffChanges;
      response.setChanges(result.changes === undefined ? DIFF_UNKNOWN : changed ? DIFF_SOME : DIFF_NONE);
      response.setReplacesList(replaces);
      response.setStablesList(result.stables ?? []);
      response.setDeletebeforereplace(result.deleteBeforeReplace === true);
      response.setDiffsList([...new Set([...replaces, ...updates].map((p) => p.split(/[.[]/)[0] ?? p))]);
      // A change the table names property by property is shown that way (and the engine applies
      // `replaceOnChanges` to it); one it does not is answered without detail.
      if (!changed || replaces.length + updates.length > 0) {
        response.setHasdetaileddiff(true);
        const detailed = response.getDetaileddiffMap();
        for (const path of replaces) detailed.set(path, propertyDiff(path, olds, news, true));
        for (const path of updates) detailed.set(path, propertyDiff(path, olds, news, false));
      }
      return response;
    }),

    create: unary(
      async (req) => {
        const kind = kindOf(req);
        const inputs = fromStruct(req.getProperties());
        const response = new provproto.CreateResponse();
        if (req.getPreview()) {
          response.setProperties(toStruct(inputs.values, secretsOf(kind, inputs.secret)));
          return response;
        }
        const result = await providers[kind].create(inputs.values as never);
        response.setId(result.id);
        response.setProperties(toStruct(result.outs, secretsOf(kind, inputs.secret)));
        return response;
      },
      (req) => secretsOf(kindOf(req), fromStruct(req.getProperties()).secret),
    ),

    read: unary(async (req) => {
      const kind = kindOf(req);
      const state = fromStruct(req.getProperties());
      const inputs = fromStruct(req.getInputs());
      // No state: a `get` of an SDK or `pulumi import`, reading an object by id, which must exist.
      const given = Object.keys(state.values).length > 0 ? state.values : { [READ_BY_ID]: true };
      const result = await providers[kind].read(req.getId(), given as never);
      const response = new provproto.ReadResponse();
      if (!result.id) return response;
      const secret = secretsOf(kind, state.secret, inputs.secret);
      const readInputs = {
        ...(((result as { inputs?: object }).inputs ?? inputs.values) as Record<string, unknown>),
      };
      delete readInputs[READ_BY_ID];
      response.setId(result.id);
      response.setProperties(toStruct(result.props, secret));
      response.setInputs(toStruct(readInputs, secret));
      return response;
    }),

    update: unary(
      async (req) => {
        const kind = kindOf(req);
        const olds = fromStruct(req.getOlds());
        const news = fromStruct(req.getNews());
        const update = (providers[kind] as { update?: unknown }).update as
          | ((id: string, olds: never, news: never) => Promise<{ outs?: object }>)
          | undefined;
        if (!update) throw new Error(`${kind} is never updated in place`);
        const result = await update(req.getId(), olds.values as never, news.values as never);
        const response = new provproto.UpdateResponse();
        response.setProperties(toStruct(result.outs ?? {}, secretsOf(kind, olds.secret, news.secret)));
        return response;
      },
      (req) => secretsOf(kindOf(req), fromStruct(req.getNews()).secret),
    ),

    delete: unary(async (req) => {
      const kind = kindOf(req);
      const remove = (providers[kind] as { delete?: unknown }).delete as
        | ((id: string, props: never) => Promise<void>)
        | undefined;
      if (remove) await remove(req.getId(), fromStruct(req.getProperties()).values as never);
      return new emptyproto.Empty();
    }),

    invoke: unary(async (req) => {
      const name = runpodTypeName(req.getTok()) ?? "";
      const fn = FUNCTIONS.find((f) => f.name === name);
      if (!fn) throw new Error(`runpod-dynamic has no function ${req.getTok()}`);
      const answer = await invoke(host.context().api, fn.name, fromStruct(req.getArgs()).values);
      const response = new provproto.InvokeResponse();
      response.setReturn(toStruct(answer));
      return response;
    }),

    getMapping: unary(async () => new provproto.GetMappingResponse()),
    getMappings: unary(async () => new provproto.GetMappingsResponse()),
    cancel: unary(async () => new emptyproto.Empty()),
    attach: unary(async () => new emptyproto.Empty()),
  };
}
