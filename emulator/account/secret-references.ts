/**
 * `{{ RUNPOD_SECRET_<name> }}` in a container's environment, as a pod's boot takes it: every
 * reference in a value is replaced by the secret's value at that moment, so a rotation reaches a
 * pod at its next boot (start, restart, a PATCH that restarts the container) and a running
 * container keeps what it started with. The pod's record and every answer keep the env as written.
 *
 * A reference to a name the account has no secret of is left as written, and the pod's system log
 * says so when the container is created. RunPod documents only that a deleted secret's references
 * "no longer resolve to a value"; keeping the text (rather than failing the pod or emptying the
 * variable) is this emulator's choice, and the container still starts (docs/api-differences.md).
 *
 * Values never leave the emulator: the log a pod serves is scrubbed of every value its boots
 * took (`scrubSecrets`), and the control plane shows a variable's sha256, not its value.
 */

import { createHash } from "node:crypto";
import { secretNamed } from "../store/lookups.js";
import type { BootEnvironment } from "../store/pod-records.js";
import type { Store } from "../store/store.js";

/** A reference: the name as the create route's pattern allows it, blanks inside the braces optional. */
const REFERENCE = /\{\{\s*RUNPOD_SECRET_([a-zA-Z_][a-zA-Z0-9_.\-/]*)\s*\}\}/g;

/** What the text a scrubbed value becomes. */
export const SCRUBBED = "[secret]";

/** The environment a container booted now with `env` gets, from the secrets of `account`. */
export function bootEnvironment(
  state: Store,
  account: string,
  env: Readonly<Record<string, string>>,
): BootEnvironment {
  const variables: Record<string, string> = {};
  const secretValues = new Set<string>();
  const references: BootEnvironment["references"][number][] = [];
  for (const [variable, value] of Object.entries(env)) {
    variables[variable] = value.replace(REFERENCE, (text, name: string) => {
      const secret = secretNamed(state, name, account);
      references.push({ variable, secret: name, resolved: secret !== undefined });
      if (!secret) return text;
      secretValues.add(secret.value);
      return secret.value;
    });
  }
  return { variables, secretValues: [...secretValues], references };
}

/** The system log's line for a reference the account has no secret for. */
export function unresolvedLine(ref: { variable: string; secret: string }): string {
  return `env ${ref.variable}: no secret named '${ref.secret}'; the variable keeps its {{ RUNPOD_SECRET_${ref.secret} }} text`;
}

/** A container's printed line with `${NAME}` taken from its environment, as a shell's echo would. */
export function expandVariables(line: string, variables: Readonly<Record<string, string>>): string {
  return line.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_text, name: string) => variables[name] ?? "");
}

/** `line` with every occurrence of each value replaced; longest first, so a value inside another goes with it. */
export function scrubSecrets(line: string, values: readonly string[]): string {
  let out = line;
  for (const v of [...values].sort((a, b) => b.length - a.length)) out = out.split(v).join(SCRUBBED);
  return out;
}

/** What the control plane shows of a boot's environment: each variable's sha256 and the secrets it named. */
export function environmentDigest(env: BootEnvironment) {
  return Object.entries(env.variables).map(([name, value]) => ({
    name,
    sha256: createHash("sha256").update(value).digest("hex"),
    secrets: env.references
      .filter((r) => r.variable === name)
      .map(({ secret, resolved }) => ({ secret, resolved })),
  }));
}
