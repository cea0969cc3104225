/**
 * A request body as the client sends it: compact JSON (`JSON.stringify`, no whitespace) in UTF-8.
 * request.ts sends and size-guards every body in this form, and the Pod check sizes a create body
 * with it, so the check and the guard agree byte for byte on the pods' limit (docs/api-model.md,
 * Limits).
 */

export interface EncodedBody {
  /** What goes on the wire. */
  readonly text: string;
  /** Its length in bytes: what the API's size limit counts. */
  readonly bytes: number;
}

export function encodeBody(body: unknown): EncodedBody {
  const text = JSON.stringify(body);
  return { text, bytes: Buffer.byteLength(text, "utf8") };
}
