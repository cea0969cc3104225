/**
 * RunPod's public v2 API description (OpenAPI 3.1.0), the repository's copy (test/fixtures/api/README.md
 * says where and when it was taken). Test code only: nothing that ships reads it.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../dist.js";

export const DESCRIPTION_PATH = join(REPO_ROOT, "test", "fixtures", "api", "runpod-openapi-v2.json");

/** A JSON Schema (2020-12) as the description writes it. */
export type Schema = { readonly [keyword: string]: unknown };

export interface Parameter {
  readonly name: string;
  readonly in: "path" | "query" | "header" | "cookie";
  readonly required?: boolean;
  readonly style?: string;
  readonly explode?: boolean;
  readonly schema?: Schema;
}

export interface MediaType {
  readonly schema?: Schema;
  readonly examples?: Readonly<Record<string, { readonly value?: unknown }>>;
}

export interface Header {
  readonly required?: boolean;
  readonly schema?: Schema;
}

export interface Response {
  readonly headers?: Readonly<Record<string, Header | Reference>>;
  readonly content?: Readonly<Record<string, MediaType>>;
}

export interface Reference {
  readonly $ref: string;
}

export interface Operation {
  readonly operationId: string;
  readonly parameters?: readonly (Parameter | Reference)[];
  readonly requestBody?: {
    readonly required?: boolean;
    readonly content: Readonly<Record<string, MediaType>>;
  };
  readonly responses: Readonly<Record<string, Response | Reference>>;
}

export const HTTP_METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type PathItem = { readonly parameters?: readonly (Parameter | Reference)[] } & {
  readonly [M in HttpMethod]?: Operation;
};

export interface Description {
  readonly openapi: string;
  readonly info: { readonly title: string; readonly version: string };
  readonly paths: Readonly<Record<string, PathItem>>;
  readonly components: {
    readonly schemas: Readonly<Record<string, Schema>>;
    readonly responses?: Readonly<Record<string, Response>>;
    readonly headers?: Readonly<Record<string, Header>>;
    readonly parameters?: Readonly<Record<string, Parameter>>;
  };
}

/** The description's bytes. */
export function descriptionBytes(path = DESCRIPTION_PATH): Buffer {
  return readFileSync(path);
}

/** The sha256 of the description, in hex. */
export function descriptionSha256(path = DESCRIPTION_PATH): string {
  return createHash("sha256").update(descriptionBytes(path)).digest("hex");
}

/** A fresh, mutable copy of the description (the overlay edits its copy, never the file). */
export function loadDescription(path = DESCRIPTION_PATH): Description {
  return JSON.parse(descriptionBytes(path).toString("utf8")) as Description;
}

/** Every operation of the description: method in upper case, path template, operationId. */
export function describedOperations(
  description: Description,
): { method: string; template: string; operationId: string }[] {
  const out: { method: string; template: string; operationId: string }[] = [];
  for (const [template, item] of Object.entries(description.paths)) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (op) out.push({ method: method.toUpperCase(), template, operationId: op.operationId });
    }
  }
  return out;
}

export function isReference(value: unknown): value is Reference {
  return typeof value === "object" && value !== null && typeof (value as Reference).$ref === "string";
}

/** The value at a local JSON pointer (`#/components/...`) of the description. */
export function resolvePointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith("#/")) throw new Error(`only local references are supported, got ${ref}`);
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (typeof node !== "object" || node === null || !(key in node)) {
      throw new Error(`${ref} does not resolve in the description`);
    }
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Follows `$ref` until a non-reference object. */
export function deref<T>(root: unknown, value: T | Reference): T {
  let node: unknown = value;
  for (let hops = 0; isReference(node); hops += 1) {
    if (hops > 20) throw new Error("reference cycle");
    node = resolvePointer(root, node.$ref);
  }
  return node as T;
}

/** A JSON pointer token (RFC 6901). */
export function pointerToken(key: string | number): string {
  return String(key).replace(/~/g, "~0").replace(/\//g, "~1");
}
