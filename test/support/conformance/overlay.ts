/**
 * Where the API contract is wider than, or differs from, RunPod's v2 description, as patches
 * applied to a copy of the description before anything is validated against it. The contract wins
 * where the two disagree; every entry names the section of docs/api-model.md (the API's written model) it comes from.
 * docs/api-differences.md lists every difference found, including those that need no patch. Routes
 * RunPod's newer reference documents and our copy of the description predates are added the same
 * way (`NEWER_ROUTES`).
 *
 * Each patch checks that the description still says what the entry corrects ("add" needs the key
 * absent, "replace" needs the old value, "absent" needs nothing there): when the description
 * catches up, applying the overlay throws, naming the entry to drop.
 */
import { isDeepStrictEqual } from "node:util";
import { type Description, resolvePointer } from "./description.js";

export type OverlayPatch =
  /** Adds `key` to the object at `at`; the key must not be there yet. */
  | { readonly op: "add"; readonly at: string; readonly key: string; readonly value: unknown }
  /** Replaces the value at `at`, which must equal `expect`. */
  | { readonly op: "replace"; readonly at: string; readonly expect: unknown; readonly value: unknown }
  /** Appends to the array at `at`. */
  | { readonly op: "append"; readonly at: string; readonly value: unknown }
  /** Asserts that nothing is at `at` (the description does not say this yet). */
  | { readonly op: "absent"; readonly at: string };

export interface OverlayEntry {
  readonly id: string;
  /** The section of docs/api-model.md the difference comes from. */
  readonly model: string;
  /** What differs, and why the patch is what it is. */
  readonly reason: string;
  readonly patches: readonly OverlayPatch[];
}

const stringArray = { type: "array", items: { type: "string" } } as const;
const podMountsRef = { $ref: "#/components/schemas/PodMounts" } as const;
const mountsRef = { $ref: "#/components/schemas/Mounts" } as const;

export const OVERLAY: readonly OverlayEntry[] = [
  {
    id: "container-command",
    model: "Container config",
    reason:
      "The contract's container config (shared by templates, pods and serverless endpoints) has `cmd` and " +
      "`entrypoint`, arrays of strings encoded into `args`, accepted in create and update bodies and " +
      "returned beside `args`. The description's ContainerConfig has only `args`, and its request bodies " +
      "are closed, so without this a body carrying `cmd` would be reported. Added to ContainerConfig (not " +
      "BaseContainerConfig), so clusters, which the contract does not cover, stay as described.",
    patches: [
      {
        op: "add",
        at: "#/components/schemas/ContainerConfig/allOf/1/properties",
        key: "cmd",
        value: stringArray,
      },
      {
        op: "add",
        at: "#/components/schemas/ContainerConfig/allOf/1/properties",
        key: "entrypoint",
        value: stringArray,
      },
    ],
  },
  {
    id: "gpu-placement-filters",
    model: "GPU request; Limits",
    reason:
      "The contract's create-time GPU object accepts `minRamPerGpu` and `minVcpuCountPerGpu` (integers >= 1, " +
      "placement filters); the description's CreateGpuConfig is closed and lacks both.",
    patches: [
      {
        op: "add",
        at: "#/components/schemas/CreateGpuConfig/allOf/1/properties",
        key: "minRamPerGpu",
        value: { type: "integer", minimum: 1 },
      },
      {
        op: "add",
        at: "#/components/schemas/CreateGpuConfig/allOf/1/properties",
        key: "minVcpuCountPerGpu",
        value: { type: "integer", minimum: 1 },
      },
    ],
  },
  {
    id: "pod-gpu-allocation",
    model: "Pods",
    reason:
      "The contract's GPU config in a pod response requires `vcpuCount` and `memory` (numbers >= 1, totals " +
      "across the pod's GPUs); the description's GpuConfig has neither. Applied to the pod response's `gpu` " +
      "only: the create-time GPU object must not accept them.",
    patches: [
      { op: "absent", at: "#/components/schemas/GpuConfig/properties/vcpuCount" },
      {
        op: "append",
        at: "#/components/schemas/Pod/allOf/1/properties/gpu/allOf",
        value: {
          type: "object",
          required: ["vcpuCount", "memory"],
          properties: { vcpuCount: { type: "number", minimum: 1 }, memory: { type: "number", minimum: 1 } },
        },
      },
    ],
  },
  {
    id: "pod-global-mounts",
    model: "Mounts; Limits",
    reason:
      "The contract's pod mounts have a third kind, `global` (at most one entry: `volumeId` required, `path` " +
      "optional with a default on create, no other properties), combinable with `network`. The description's " +
      "Mounts is closed to `persistent` and `network`. A PodMounts schema with all three replaces Mounts in " +
      "the pod create, update and response; clusters keep the described Mounts.",
    patches: [
      { op: "absent", at: "#/components/schemas/Mounts/properties/global" },
      {
        op: "add",
        at: "#/components/schemas",
        key: "GlobalMount",
        value: {
          type: "object",
          required: ["volumeId"],
          additionalProperties: false,
          properties: { volumeId: { type: "string" }, path: { type: "string" } },
        },
      },
      {
        op: "add",
        at: "#/components/schemas",
        key: "PodMounts",
        value: {
          type: "object",
          additionalProperties: false,
          properties: {
            persistent: { $ref: "#/components/schemas/PersistentMount" },
            network: { type: "array", maxItems: 1, items: { $ref: "#/components/schemas/NetworkMount" } },
            global: { type: "array", maxItems: 1, items: { $ref: "#/components/schemas/GlobalMount" } },
          },
        },
      },
      {
        op: "replace",
        at: "#/components/schemas/CreatePodRequest/allOf/1/properties/mounts",
        expect: mountsRef,
        value: podMountsRef,
      },
      {
        op: "replace",
        at: "#/components/schemas/UpdatePodRequest/allOf/1/properties/mounts",
        expect: mountsRef,
        value: podMountsRef,
      },
      {
        op: "replace",
        at: "#/components/schemas/Pod/allOf/1/properties/mounts",
        expect: mountsRef,
        value: podMountsRef,
      },
    ],
  },
  {
    id: "retry-after-required",
    model: "Errors; Limits",
    reason:
      "The contract says a 429 carries `Retry-After` (integer seconds); the description lists the header " +
      "on TooManyRequestsError but, by OpenAPI's default, as optional.",
    patches: [
      {
        op: "add",
        at: "#/components/responses/TooManyRequestsError/headers/Retry-After",
        key: "required",
        value: true,
      },
    ],
  },
];

/**
 * Where the description contradicts itself, so that following its own examples would be reported.
 * Not contract differences: each names its evidence in the description instead.
 */
export interface Erratum {
  readonly id: string;
  /** Where the description shows what it means. */
  readonly evidence: string;
  readonly reason: string;
  readonly patches: readonly OverlayPatch[];
}

const uriTemplate = (name: string): OverlayPatch => ({
  op: "replace",
  at: `#/components/schemas/QueueBasedRequestUrls/properties/${name}/format`,
  expect: "uri",
  value: "uri-template",
});

export const ERRATA: readonly Erratum[] = [
  {
    id: "job-url-templates",
    evidence:
      "QueueBasedRequestUrls' own examples, and every endpoint example of createEndpoint, getEndpoint, " +
      "listEndpoints and updateEndpoint: `https://api.runpod.ai/v2/4m7x2k9q/status/{job_id}`",
    reason:
      "`status`, `stream`, `cancel` and `retry` are URL templates with a `{job_id}` placeholder, which RFC " +
      "3986 does not allow in a URI, yet they are declared `format: uri`. Declared `uri-template` " +
      "(RFC 6570), which every concrete URL also satisfies.",
    patches: ["status", "stream", "cancel", "retry"].map(uriTemplate),
  },
];

/**
 * Routes RunPod's newer v2 reference documents and our copy of the description predates, added to
 * the copy as the reference gives them, so that the gate validates their traffic as it does every
 * described route. Not contract differences: each names the reference pages it comes from
 * (docs/api-differences.md, "Routes newer than our copy of the description"), and refuses to apply
 * once the description has its paths.
 */
export interface NewerRoutes {
  readonly id: string;
  /** The pages of RunPod's v2 reference the routes come from. */
  readonly reference: readonly string[];
  readonly reason: string;
  readonly patches: readonly OverlayPatch[];
}

const rateLimitHeaders = {
  RateLimit: { $ref: "#/components/headers/RateLimit" },
  "RateLimit-Policy": { $ref: "#/components/headers/RateLimit-Policy" },
} as const;
const problemAnswer = (description: string) => ({
  headers: rateLimitHeaders,
  description,
  content: { "application/problem+json": { schema: { $ref: "#/components/schemas/ErrorResponse" } } },
});
const jsonAnswer = (description: string, schema: string) => ({
  headers: rateLimitHeaders,
  description,
  content: { "application/json": { schema: { $ref: `#/components/schemas/${schema}` } } },
});
const errorAnswers = (...statuses: readonly number[]) =>
  Object.fromEntries(
    statuses.map((status) => [
      String(status),
      {
        $ref: `#/components/responses/${
          {
            400: "BadRequestError",
            401: "UnauthorizedError",
            403: "ForbiddenError",
            404: "NotFoundError",
            422: "UnprocessableEntityError",
            429: "TooManyRequestsError",
          }[status]
        }`,
      },
    ]),
  );
const jsonBody = (schema: string) => ({
  required: true,
  content: { "application/json": { schema: { $ref: `#/components/schemas/${schema}` } } },
});
const secretOperation = (operationId: string, rest: Record<string, unknown>) => ({
  operationId,
  tags: ["Account"],
  ...rest,
  responses: { ...(rest.responses as object), default: problemAnswer("Error") },
});
const secretValue = { type: "string", minLength: 1, maxLength: 16_777_216, writeOnly: true };
const secretDescription = { type: "string", maxLength: 65_535 };

export const NEWER_ROUTES: readonly NewerRoutes[] = [
  {
    id: "account-secrets",
    reference: [
      "https://docs.runpod.io/api-reference-v2/account/create-a-secret",
      "https://docs.runpod.io/api-reference-v2/account/list-secrets",
      "https://docs.runpod.io/api-reference-v2/account/get-a-secret",
      "https://docs.runpod.io/api-reference-v2/account/update-a-secret",
      "https://docs.runpod.io/api-reference-v2/account/delete-a-secret",
    ],
    reason:
      "Account secrets: create (201, 409 for a name taken), list (optionally by `name`), get, update (value " +
      "and/or description; the name is immutable) and delete (204). The value is write-only: the Secret answer " +
      "declares it absent (`value: false`), so an answer that leaks it is reported. What no schema says (the " +
      "RUNPOD prefix, limits in UTF-8 bytes, an empty PATCH) answers 400 and is the handler's.",
    patches: [
      {
        op: "add",
        at: "#/components/schemas",
        key: "CreateSecretRequest",
        value: {
          type: "object",
          additionalProperties: false,
          required: ["name", "value"],
          properties: {
            name: { type: "string", minLength: 1, maxLength: 191, pattern: "^[a-zA-Z_][a-zA-Z0-9_.\\-/]*$" },
            value: secretValue,
            description: secretDescription,
          },
        },
      },
      {
        op: "add",
        at: "#/components/schemas",
        key: "UpdateSecretRequest",
        value: {
          type: "object",
          additionalProperties: false,
          properties: { value: secretValue, description: secretDescription },
        },
      },
      {
        op: "add",
        at: "#/components/schemas",
        key: "Secret",
        value: {
          type: "object",
          required: ["id", "name", "createdAt"],
          properties: {
            id: { type: "string" },
            name: { type: "string" },
            description: { type: ["string", "null"] },
            createdAt: { type: "string", format: "date-time" },
            valueLastUpdatedAt: { type: ["string", "null"], format: "date-time" },
            value: false,
          },
        },
      },
      {
        op: "add",
        at: "#/components/schemas",
        key: "ListSecretsResponse",
        value: {
          type: "object",
          required: ["secrets"],
          properties: { secrets: { type: "array", items: { $ref: "#/components/schemas/Secret" } } },
        },
      },
      {
        op: "add",
        at: "#/paths",
        key: "/v2/account/secrets",
        value: {
          get: secretOperation("listSecrets", {
            parameters: [{ name: "name", in: "query", required: false, schema: { type: "string" } }],
            responses: { "200": jsonAnswer("OK", "ListSecretsResponse"), ...errorAnswers(401, 403, 429) },
          }),
          post: secretOperation("createSecret", {
            requestBody: jsonBody("CreateSecretRequest"),
            responses: {
              "201": jsonAnswer("Created", "Secret"),
              ...errorAnswers(400, 401, 403, 422, 429),
              "409": problemAnswer("A secret of that name already exists"),
            },
          }),
        },
      },
      {
        op: "add",
        at: "#/paths",
        key: "/v2/account/secrets/{id}",
        value: {
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          get: secretOperation("getSecret", {
            responses: { "200": jsonAnswer("OK", "Secret"), ...errorAnswers(401, 403, 404, 429) },
          }),
          patch: secretOperation("updateSecret", {
            requestBody: jsonBody("UpdateSecretRequest"),
            responses: { "200": jsonAnswer("OK", "Secret"), ...errorAnswers(400, 401, 403, 404, 422, 429) },
          }),
          delete: secretOperation("deleteSecret", {
            responses: {
              "204": { headers: rateLimitHeaders, description: "Deleted. Response has no body." },
              ...errorAnswers(401, 403, 404, 429),
            },
          }),
        },
      },
    ],
  },
];

function container(
  root: unknown,
  at: string,
  entry: { readonly id: string },
): Record<string, unknown> | unknown[] {
  let node: unknown;
  try {
    node = resolvePointer(root, at);
  } catch {
    throw new Error(`overlay entry ${entry.id}: ${at} is not in the description any more; review the entry`);
  }
  if (typeof node !== "object" || node === null) {
    throw new Error(`overlay entry ${entry.id}: ${at} is not an object in the description`);
  }
  return node as Record<string, unknown> | unknown[];
}

function parentOf(at: string): { parent: string; key: string } {
  const i = at.lastIndexOf("/");
  return {
    parent: at.slice(0, i),
    key: at
      .slice(i + 1)
      .replace(/~1/g, "/")
      .replace(/~0/g, "~"),
  };
}

function caughtUp(entry: OverlayEntry | Erratum | NewerRoutes, what: string): Error {
  const source =
    "model" in entry
      ? `the contract (docs/api-model.md, ${entry.model})`
      : "reference" in entry
        ? "RunPod's newer reference"
        : "its own examples";
  return new Error(
    `overlay entry ${entry.id}: the description now ${what}; it may have caught up with ${source}: ` +
      "review the entry and drop it if so",
  );
}

/**
 * Applies the overlay entries, then the errata, then the newer reference's routes, to
 * `description` in place and returns it.
 */
export function applyOverlay(
  description: Description,
  entries: readonly OverlayEntry[] = OVERLAY,
  errata: readonly Erratum[] = ERRATA,
  newer: readonly NewerRoutes[] = NEWER_ROUTES,
): Description {
  for (const entry of [...entries, ...errata, ...newer]) {
    for (const patch of entry.patches) {
      switch (patch.op) {
        case "add": {
          const target = container(description, patch.at, entry) as Record<string, unknown>;
          if (patch.key in target) throw caughtUp(entry, `has ${patch.at}/${patch.key}`);
          target[patch.key] = structuredClone(patch.value);
          break;
        }
        case "replace": {
          const { parent, key } = parentOf(patch.at);
          const target = container(description, parent, entry) as Record<string, unknown>;
          if (!isDeepStrictEqual(target[key], patch.expect)) {
            throw caughtUp(entry, `has ${JSON.stringify(target[key])} at ${patch.at}`);
          }
          target[key] = structuredClone(patch.value);
          break;
        }
        case "append": {
          const target = container(description, patch.at, entry);
          if (!Array.isArray(target))
            throw new Error(`overlay entry ${entry.id}: ${patch.at} is not an array`);
          target.push(structuredClone(patch.value));
          break;
        }
        case "absent": {
          let present = true;
          try {
            resolvePointer(description, patch.at);
          } catch {
            present = false;
          }
          if (present) throw caughtUp(entry, `has ${patch.at}`);
          break;
        }
      }
    }
  }
  return description;
}
