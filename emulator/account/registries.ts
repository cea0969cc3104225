/**
 * Container registry credentials under base_url (`/v2/registries`, v2 description): create, list,
 * read, delete; no update. `username` and `password` are write-only: stored, never answered.
 *
 * Pods, templates and serverless endpoints name a credential by id in `registry`:
 * - An id that names no credential is refused with 400 on create and update (`requireRegistry`
 *   in store/lookups.ts): the body matches the schema but points at nothing, the same answer the
 *   emulator gives for an unknown network volume. (The description does not say; `templateId` is the one reference the
 *   contract answers with 404.)
 * - Delete is refused with 400 while a pod that is not terminated, or a serverless endpoint (its
 *   workers are pods pulling with it), uses the credential; templates lose the reference instead
 *   (`registry` becomes null), as the description says.
 *
 * - Names need not be unique: the description sets no rule.
 *
 * ECR delegations (`/v2/registries/delegations`) are served too: an ARN
 * `arn:aws:ecr:<region>:<account>:repository/<name>[:<tag>]` is parsed into the record's fields.
 */

import { badRequest, notFound } from "../http/errors.js";
import { json, noContent, type RouteContext, type RouteTable } from "../http/routing.js";
import { validateBody } from "../http/validation.js";
import { findPod } from "../pods/lifecycle.js";
import { CreateDelegationRequest, CreateRegistryRequest } from "../schemas/registries.js";
import type { DelegationRecord, RegistryRecord } from "../store/records.js";
import { userOf } from "./accounts.js";

const view = (r: RegistryRecord) => ({ id: r.id, name: r.name });
const delegationView = ({ account: _account, ...d }: DelegationRecord) => d;

function find(ctx: RouteContext): RegistryRecord {
  const r = ctx.state.registries.get(ctx.params.id ?? "");
  if (r?.account !== ctx.account) throw notFound(`Registry credential '${ctx.params.id}' was not found.`);
  return r;
}

function createRegistry(ctx: RouteContext) {
  const body = validateBody(CreateRegistryRequest, ctx.body);
  // Names are not unique: the description sets no such rule, and a credential rotated by a
  // replacement exists next to its predecessor (same name) until that one is deleted.
  const r: RegistryRecord = { id: ctx.state.newId(10), ...body, account: ctx.account };
  ctx.state.registries.set(r.id, r);
  return json(201, view(r));
}

function deleteRegistry(ctx: RouteContext) {
  const { state } = ctx;
  const r = find(ctx);
  const pod = [...state.pods.keys()]
    .map((id) => findPod(state, id, ctx.account))
    .find((p) => p !== undefined && p.status !== "TERMINATED" && p.registry === r.id);
  if (pod)
    throw badRequest(`Registry credential '${r.id}' is in use by pod '${pod.id}' and cannot be deleted.`);
  const endpoint = [...state.endpoints.values()].find(
    (e) => e.account === ctx.account && e.container.registry === r.id,
  );
  if (endpoint) {
    throw badRequest(
      `Registry credential '${r.id}' is in use by serverless endpoint '${endpoint.id}' and cannot be deleted.`,
    );
  }
  for (const t of state.templates.values()) if (t.registry === r.id) t.registry = null;
  state.registries.delete(r.id);
  return noContent;
}

// ---------------------------------------------------------------- ECR delegations

/** An ECR repository's ARN in any AWS partition (`aws`, `aws-cn`, `aws-us-gov`). */
const ECR_ARN =
  /^arn:(aws|aws-cn|aws-us-gov):ecr:([a-z0-9-]+):(\d{12}):repository\/([a-z0-9][a-z0-9._/-]*?)(?::([\w][\w.-]{0,127}))?$/;

function createDelegation(ctx: RouteContext) {
  const { state } = ctx;
  const body = validateBody(CreateDelegationRequest, ctx.body);
  const m = ECR_ARN.exec(body.resource);
  if (!m) {
    throw badRequest(
      `resource '${body.resource}' is not an ECR repository ARN (arn:<aws|aws-cn|aws-us-gov>:ecr:<region>:<account>:repository/<name>).`,
    );
  }
  const [, partition = "aws", region = "", account = "", repository = "", tag = "latest"] = m;
  const d: DelegationRecord = {
    id: state.newId(12),
    name: body.name ?? null,
    delegatorUserId: userOf(state, ctx.apiKey),
    awsUser: account,
    repository,
    tag,
    awsRegion: region,
    dockerRegistryUri: `${account}.dkr.ecr.${region}.amazonaws.com${partition === "aws-cn" ? ".cn" : ""}`,
    createdAt: new Date(ctx.now).toISOString(),
    account: ctx.account,
  };
  state.delegations.set(d.id, d);
  return json(201, delegationView(d));
}

function revokeDelegation(ctx: RouteContext) {
  const id = ctx.params.id ?? "";
  if (ctx.state.delegations.get(id)?.account !== ctx.account)
    throw notFound(`Delegation '${id}' was not found.`);
  ctx.state.delegations.delete(id);
  return noContent;
}

export const registryRoutes: RouteTable = {
  v2: [
    // The delegation routes come first: `/v2/registries/:id` would take `delegations` as an id.
    {
      method: "GET",
      pattern: "/v2/registries/delegations",
      handler: (ctx) =>
        json(200, {
          delegations: [...ctx.state.delegations.values()]
            .filter((d) => d.account === ctx.account)
            .map(delegationView),
        }),
    },
    { method: "POST", pattern: "/v2/registries/delegations", handler: createDelegation },
    { method: "DELETE", pattern: "/v2/registries/delegations/:id", handler: revokeDelegation },
    {
      method: "GET",
      pattern: "/v2/registries",
      handler: (ctx) =>
        json(200, {
          registries: [...ctx.state.registries.values()].filter((r) => r.account === ctx.account).map(view),
        }),
    },
    { method: "POST", pattern: "/v2/registries", handler: createRegistry },
    { method: "GET", pattern: "/v2/registries/:id", handler: (ctx) => json(200, view(find(ctx))) },
    { method: "DELETE", pattern: "/v2/registries/:id", handler: deleteRegistry },
  ],
};
