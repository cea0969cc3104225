/**
 * What every resource's check, diff and error paths share: structural comparison, the command
 * fields, internal inputs, and errors that name the resource they are about.
 */
import type * as pulumi from "@pulumi/pulumi";
import { ERROR_CODES, isRunpodApiError } from "../client/errors.js";
import type { CheckFailure } from "../validation/check-failure.js";
import { sameValue } from "../validation/compare.js";
import { containsUnknown, isUnknown } from "../validation/unknown.js";
import { applyCommand, type CommandFields, decodeArgs } from "./container.js";

/**
 * The input in which a resource class lists the env keys the program gave as plain text (names
 * only; provider/dynamic/secret-inputs.ts). One underscore, not the two of the provider's other
 * internal inputs: the engine keeps `__`-prefixed properties from policy packs, and the env-secrets
 * policy reads this one. check() leaves it out of the inputs it validates (withoutInternal).
 */
export const PLAIN_ENV_KEYS = "_plainEnvKeys";

/** Whether an input is set and known: preview leaves some unknown, and a rule cannot judge those yet. */
export function isKnown(v: unknown): boolean {
  return v !== undefined && !isUnknown(v);
}

/** The inputs a user wrote: without the provider's internal properties and undefined values. */
export function withoutInternal(props: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(props).filter(([k, v]) => !k.startsWith("__") && k !== PLAIN_ENV_KEYS && v !== undefined),
  );
}

/**
 * Whether `args`/`cmd`/`entrypoint` in the inputs describe another command than the recorded
 * `args`: compared as the decoded command, so the same command written another way is no change.
 */
export function commandChanged(news: CommandFields, priorArgs: string | undefined): boolean {
  if (news.args === undefined && news.cmd === undefined && news.entrypoint === undefined) return false;
  if (containsUnknown([news.args, news.cmd, news.entrypoint])) return true;
  const next = applyCommand(priorArgs ?? "", news);
  return "error" in next || !sameValue(decodeArgs(next.args), decodeArgs(priorArgs ?? ""));
}

/** `cmd` and `entrypoint` outputs: as the API returned them, else decoded from `args`. */
export function commandOutputs(
  args: string,
  cmd: readonly string[] | null | undefined,
  entrypoint: readonly string[] | null | undefined,
): { cmd: string[]; entrypoint: string[] } {
  const decoded = decodeArgs(args);
  return { cmd: [...(cmd ?? decoded.cmd)], entrypoint: [...(entrypoint ?? decoded.entrypoint)] };
}

/**
 * The error with the resource it is about in front (`Pod trainer: …`), once. Secret values are
 * already out of it: the client removes the key and the request's env values from everything
 * built from an answer (provider/client/responses.ts).
 */
export function errorAbout(what: string, err: unknown): Error {
  const e = err instanceof Error ? err : new Error(String(err));
  if (!e.message.startsWith(`${what}:`)) e.message = `${what}: ${e.message}`;
  return e;
}

/** How a resource is named in its errors: `Pod trainer`, from its inputs or outputs, else its id. */
export type Labeller = (props: Record<string, unknown> | undefined, id?: string) => string;

/** `<Type> <name>`, for resources that have a `name`: takes their typed inputs and outputs as they are. */
export const byName =
  (type: string) =>
  (props: { readonly name?: unknown } | undefined, id?: string): string =>
    `${type} ${typeof props?.name === "string" ? props.name : (id ?? "?")}`;

/**
 * A failure as the engine prints it. The engine looks the failing value up by the property name
 * among the top-level inputs (`property disk value {0} has a problem: ...`); a nested path such as
 * `mounts.persistent`, or a property the program left out, finds nothing there and reads
 * `value {<nil>}`. Such a failure is reported on the resource instead, its path leading the
 * reason: `resource 'trainer' has a problem: mounts.persistent: cannot be combined with ...`.
 */
function forTheEngine(failure: CheckFailure, news: object): CheckFailure {
  return failure.property === "" || Object.hasOwn(news, failure.property)
    ? { property: failure.property, reason: failure.reason }
    : { property: "", reason: `${failure.property}: ${failure.reason}` };
}

/** `check`'s answer: the inputs as given, with the failures when there are any. */
export function checkResult<T>(news: T, failures: CheckFailure[]): pulumi.dynamic.CheckResult<T> {
  return failures.length > 0
    ? { inputs: news, failures: failures.map((f) => forTheEngine(f, news as object)) }
    : { inputs: news };
}

/** The object a read asks for, or undefined when the API answers 404 (it is gone); any other error throws. */
export async function unlessGone<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (err) {
    if (isRunpodApiError(err, ERROR_CODES.NOT_FOUND)) return undefined;
    throw err;
  }
}

/**
 * A read's answer: the outputs, and the inputs the next diff compares (`ReadResult` types them as
 * outputs; they are inputs).
 */
export function readResult<O, I>(id: string, outs: O, inputs: I): pulumi.dynamic.ReadResult<O> {
  return { id, props: outs, inputs: inputs as unknown as O };
}

/** Every non-null field of what a read was given (earlier outputs or a get's inputs): what it knows of the inputs. */
export function knownFields<I>(prior: object | undefined): Partial<I> {
  return Object.fromEntries(Object.entries(prior ?? {}).filter(([, v]) => v !== null)) as Partial<I>;
}

/** A failure after the API accepted a create: the host records it in state as partially created. */
export function partialFailure(id: string, properties: object, message: string): Error {
  return Object.assign(new Error(message), { id, properties, reasons: [message] });
}

/** A resource's diff table: the properties that force a replacement and those updated in place. */
export interface DiffTable {
  readonly replaces: readonly string[];
  readonly updates: readonly string[];
  readonly deleteBeforeReplace?: boolean;
}

/** The input that carries the program's `replaceOnChanges` resource option to the provider. */
export const REPLACE_ON_CHANGES = "__replaceOnChanges";

/** The input that tells `read` the program asked for an existing object by id (`get`, or the `id` option). */
export const READ_BY_ID = "__readById";

/**
 * The env of an object read by id, as declared inputs: every key it holds (each value left to the
 * outputs) but those the service adds at create, `PUBLIC_KEY` (startSsh) and `JUPYTER_PASSWORD`
 * (startJupyter; contract, CreatePodRequest), and `also`.
 */
export function envKeysOf(
  env: Readonly<Record<string, string>>,
  also: readonly string[] = [],
): Record<string, string> {
  const added = ["PUBLIC_KEY", "JUPYTER_PASSWORD", ...also];
  return Object.fromEntries(
    Object.keys(env)
      .filter((k) => !added.includes(k))
      .map((k) => [k, ""]),
  );
}

/**
 * A read's answer when the API does not have the object: gone on a refresh (the engine drops it
 * from state), an error for a resource read by id, which the engine would otherwise record with
 * no outputs. `noun` is what the API calls it (`pod`, `network volume`).
 */
export function missingObject<O>(
  noun: string,
  id: string,
  given: object | undefined,
): pulumi.dynamic.ReadResult<O> {
  if ((given as Record<string, unknown> | undefined)?.[READ_BY_ID] === true) {
    throw new Error(
      `no ${noun} has the id ${id} (or this API key cannot see it): a get reads an existing ${noun} and never creates one.`,
    );
  }
  return {};
}

/** Whether the option path `path` (`image`, `gpu`, `mounts.network`, `*`) covers the property `changed`. */
function covers(path: string, changed: string): boolean {
  return path === "*" || changed === path || changed.startsWith(`${path}.`) || changed.startsWith(`${path}[`);
}

/**
 * The engine's answer for a diff table, with the program's `replaceOnChanges` applied: an update
 * of a covered property becomes a replacement. `updates` are the properties changed in place: the
 * dynamic-provider host has no field for them; the provider plugin answers them as its detailed
 * diff (provider/plugin/server.ts).
 */
export function diffResult(
  table: DiffTable,
  news: object,
): pulumi.dynamic.DiffResult & { readonly updates: readonly string[] } {
  const paths = (news as Record<string, unknown>)[REPLACE_ON_CHANGES];
  const replaceOn = Array.isArray(paths) ? paths.filter((p): p is string => typeof p === "string") : [];
  const promoted = table.updates.filter((u) => replaceOn.some((p) => covers(p, u)));
  const replaces = [...table.replaces, ...promoted.filter((u) => !table.replaces.includes(u))];
  return {
    changes: table.replaces.length + table.updates.length > 0,
    replaces,
    updates: table.updates.filter((u) => !replaces.includes(u)),
    deleteBeforeReplace: table.deleteBeforeReplace ?? false,
  };
}
