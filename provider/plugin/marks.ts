/**
 * What a TypeScript resource class adds to its inputs in the program, which the provider plugin
 * adds in `check` instead: a generated SDK sends the declared inputs only.
 *
 * The stack's identity is the provider's own id, a random UUID the engine draws when it creates the
 * provider resource and keeps in state (`ConfigureRequest.id`), where the dynamic provider has a
 * StackIdentity resource (docs/decisions.md, "What identifies a stack's objects"). A resource's
 * place in the stack is its URN, unique in the stack. In a preview of a stack whose provider is not
 * made yet the id is unknown, and no mark is added: nothing is created in a preview.
 */

import type { Field } from "../fields/nodes.js";
import { PLAIN_ENV_KEYS } from "../resources/common.js";
import { declarationOf, type ResourceKind } from "../resources/declarations.js";
import { createKeyOf } from "../resources/pod/translate.js";
import { holderOf } from "../resources/ssh-key/holders.js";

/**
 * Whether an input is a secret env map whose plain keys the plugin records: the env-secrets
 * policy reads which of its values the program gave as plain text. The plugin marks the whole map
 * secret itself (check answers it secret, so state keeps it encrypted), and the schema leaves it
 * unmarked (schema-types.ts), so that an SDK sends each value with the program's own marker
 * instead of wrapping the map, which would hide which values were plain.
 */
export function tracksPlainKeys(field: Field | undefined): boolean {
  return field?.name === "env" && field.shape.kind === "map" && field.meta.secret === true;
}

const hasSecretEnv = (kind: ResourceKind) => tracksPlainKeys(declarationOf(kind).fields.input.env);

export interface PluginInputsContext {
  /** The provider's id, when known. */
  readonly identity: string | undefined;
  readonly urn: string;
  /** The env keys whose values the program sent as plain text. */
  readonly plainEnvKeys: readonly string[];
}

/** `news` with what the resource class would have added program-side. */
export function withProgramInputs(
  kind: ResourceKind,
  news: Record<string, unknown>,
  context: PluginInputsContext,
): Record<string, unknown> {
  const added: Record<string, unknown> = {};
  if (context.identity !== undefined && kind === "Pod") {
    added.__createKey = createKeyOf(context.identity, context.urn, "");
  }
  if (context.identity !== undefined && kind === "SshKey") {
    added.__holder = holderOf(context.identity, context.urn, "");
  }
  if (hasSecretEnv(kind) && news.env !== undefined) added[PLAIN_ENV_KEYS] = [...context.plainEnvKeys];
  return { ...news, ...added };
}
