/**
 * How the host hands a resource's provider to the engine: bound to the host's context, with every
 * error naming its resource, and what a check, a diff or a create leads to done around them. Host
 * side only: resources/common.ts, which program-side declarations reach, must not name the context.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ResourceDeclaration } from "../fields/declaration.js";
import { coerceScalars } from "../fields/derive.js";
import type { Field } from "../fields/nodes.js";
import { errorAbout, type Labeller } from "../resources/common.js";
import type { Claims, HostContext } from "./context.js";
import type { EnginePacing } from "./engine-pacing.js";

/** The methods of a provider that talk to the API: each is handed the host's context first. */
type Operation = "create" | "read" | "update" | "delete";

/**
 * A resource's provider as the host holds it (`provider/resources/<name>/provider.ts`): `check`
 * and `diff` are pure functions of the engine's arguments; create, read, update and delete take
 * the host's context (`provider/host/context.ts`) before them.
 */
export interface HostedProvider {
  check(olds: never, news: never): Promise<pulumi.dynamic.CheckResult>;
  diff(id: string, olds: never, news: never): Promise<pulumi.dynamic.DiffResult>;
}

/** Where a bound provider finds its host's state (provider/host/provider-host.ts; a test's own context). */
export interface HostSource {
  /** The context an operation runs on; it fails when the configuration cannot make one. */
  context(): HostContext;
  readonly claims: Claims;
  /** Creates that hold an engine slot until ready, and the checks announcing them (`pacesCreates`). */
  readonly pacing: EnginePacing;
  /** Where progress lines go, without a context (what `diff` says). */
  progress(resource: string, message: string): void;
}

/** What the host does around a provider's pure `check` and `diff`, and around its `create`. */
export interface HostEffects<P extends HostedProvider> {
  /**
   * Claims the id of every object `diff` is asked about in this set: it is in state, so no create
   * of this host may take it over as left by an interrupted run (a replacement's create carries
   * the same create key as what it replaces; provider/resources/pod/start.ts).
   */
  readonly claimShown?: keyof Claims;
  /**
   * A create of this type holds an engine slot until what it made is ready (a pod): the host
   * counts these creates, and the checks that announce them (a check without old inputs that
   * passed: the engine will ask to create it when it has a slot), to see when the engine rather
   * than the quota paces them (engine-pacing.ts).
   */
  readonly pacesCreates?: boolean;
  /** A line for the user about what the change will do (preview has no other channel). */
  readonly note?: (olds: Parameters<P["diff"]>[1], news: Parameters<P["diff"]>[2]) => string | undefined;
}

/** A hosted provider with the engine's call shape: the context comes from where it was bound. */
export type ForEngine<P extends HostedProvider> = Pick<P, "check" | "diff"> & {
  [K in Operation & keyof P]: P[K] extends (ctx: HostContext, ...args: infer A) => infer R
    ? (...args: A) => R
    : never;
};

/**
 * Hands a provider to the engine on its host: `check` of the inputs as `declaration` types them,
 * announcing the creates the host paces,
 * `diff` claiming what it is shown and printing the provider's note, and create, read, update and
 * delete run on the host's context with every error naming the resource. One place, so `check`
 * and `diff` stay pure functions and no path of any resource escapes what is done around them.
 */
export function bindToHost<P extends HostedProvider>(
  declaration: ResourceDeclaration,
  provider: P,
  label: Labeller,
  effects: HostEffects<P> = {},
): (host: HostSource) => ForEngine<P> {
  const fields = declaration.fields.inputs;
  return (host) =>
    ({
      check: checkAnnouncingCreates(fields, provider, host, effects),
      diff: diffClaimingShown(provider, host, label, effects),
      ...operationsOnContext(provider, host, label, effects),
    }) as unknown as ForEngine<P>;
}

const propsOf = (x: unknown) => x as Record<string, unknown> | undefined;

/**
 * `check` of the inputs as declared: a number or boolean where a field declares a string is taken
 * as that string first, as YAML and some SDKs send a value written without quotes (an env value
 * `4`); the checked inputs the engine records hold the string. It tells the host's pacing when it
 * passes for a new resource of a kind whose creates it paces: the engine will ask to create it
 * when it has a slot (engine-pacing.ts).
 */
function checkAnnouncingCreates<P extends HostedProvider>(
  fields: readonly Field[],
  provider: P,
  host: HostSource,
  effects: HostEffects<P>,
) {
  return async (olds: never, news: never) => {
    const inputs = coerceScalars(fields, (propsOf(news) ?? {}) as Record<string, unknown>);
    const result = await provider.check(olds, inputs as never);
    const isNew = Object.keys(propsOf(olds) ?? {}).length === 0;
    if (effects.pacesCreates && isNew && !result.failures?.length) host.pacing.checkedNew();
    return result;
  };
}

/** `diff`, claiming the id it is asked about (`claimShown`) and printing the provider's `note`. */
function diffClaimingShown<P extends HostedProvider>(
  provider: P,
  host: HostSource,
  label: Labeller,
  effects: HostEffects<P>,
) {
  return async (id: string, olds: never, news: never) => {
    const result = await provider.diff(id, olds, news);
    if (id && effects.claimShown) host.claims[effects.claimShown].add(id);
    const note = effects.note?.(olds, news);
    if (note !== undefined) host.progress(label(propsOf(news)), note);
    return result;
  };
}

/**
 * Create, read, update and delete, each given the host's context first and each error naming the
 * resource it is about. The context is asked for inside each call, so a configuration no context
 * can be made from (a bad base URL) fails the operation, naming the resource, as every other error
 * does. A create the host paces holds an engine slot through the pacing.
 */
function operationsOnContext<P extends HostedProvider>(
  provider: P,
  host: HostSource,
  label: Labeller,
  effects: HostEffects<P>,
): Record<string, (...args: unknown[]) => Promise<unknown>> {
  const methods = provider as unknown as Record<
    string,
    ((...args: unknown[]) => Promise<unknown>) | undefined
  >;
  const subjects: Record<Operation, (args: unknown[]) => string> = {
    create: ([inputs]) => label(propsOf(inputs)),
    read: ([id, outs]) => label(propsOf(outs), id as string),
    update: ([id, _olds, news]) => label(propsOf(news), id as string),
    delete: ([id, outs]) => label(propsOf(outs), id as string),
  };
  const operations: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const [operation, subject] of Object.entries(subjects)) {
    const method = methods[operation];
    if (!method) continue;
    const paced = operation === "create" && effects.pacesCreates === true;
    operations[operation] = async (...args: unknown[]) => {
      try {
        const ctx = host.context();
        const run = () => method.call(provider, ctx, ...args);
        return await (paced ? host.pacing.create(run, ctx.v2Budget) : run());
      } catch (err) {
        throw errorAbout(subject(args), err);
      }
    };
  }
  return operations;
}
