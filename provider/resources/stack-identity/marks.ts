/**
 * What a stack marks the objects it may have to recognise later with: a hash of its identity
 * (provider/dynamic/stack-identity.ts), the kind of resource, and the resource's place in the
 * stack (parent and name). It means nothing outside this provider and names no stack, project or
 * person; only the stack that holds the identity can compute it again.
 */
import { createHash } from "node:crypto";

/** 32 hex digits, the same for the same stack identity, kind, parent and name, and for no other. */
export function stackMark(kind: string, stackIdentity: string, parentUrn: string, name: string): string {
  return createHash("sha256")
    .update([`runpod-dynamic:${kind}`, stackIdentity, parentUrn, name].join("\0"))
    .digest("hex")
    .slice(0, 32);
}
