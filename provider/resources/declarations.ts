/**
 * Every resource a program declares, by its declaration (each resource's fields.ts), in the order
 * the schema, the SDKs and the reference list them. What differs between the two doors is not
 * here: both read the same declarations.
 */
import type { ResourceDeclaration } from "../fields/declaration.js";
import { CLUSTER } from "./cluster/fields.js";
import { NETWORK_VOLUME } from "./network-volume/fields.js";
import { POD } from "./pod/fields.js";
import { REGISTRY } from "./registry/fields.js";
import { SECRET } from "./secret/fields.js";
import { SERVERLESS_ENDPOINT } from "./serverless-endpoint/fields.js";
import { SERVERLESS_JOB } from "./serverless-job/fields.js";
import { SSH_KEY } from "./ssh-key/fields.js";
import { TEMPLATE } from "./template/fields.js";

export const DECLARATIONS = [
  POD,
  SERVERLESS_ENDPOINT,
  SERVERLESS_JOB,
  SSH_KEY,
  NETWORK_VOLUME,
  TEMPLATE,
  REGISTRY,
  SECRET,
  CLUSTER,
] as const satisfies readonly ResourceDeclaration[];

/** The resource types a program declares (StackIdentity is the provider's own bookkeeping). */
export type ResourceKind = (typeof DECLARATIONS)[number]["kind"];

/** The declaration of `kind`. */
export function declarationOf(kind: ResourceKind): ResourceDeclaration {
  const found = DECLARATIONS.find((d) => d.kind === kind);
  if (!found) throw new Error(`runpod-dynamic declares no resource ${kind}`);
  return found;
}
