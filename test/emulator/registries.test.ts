/**
 * Registry credentials under base_url (`/v2/registries`), over raw HTTP: write-only credentials,
 * the references pods, templates and serverless endpoints make to them, and ECR delegations.
 */
import { describe, expect, it } from "vitest";
import { frozenEmulatorForAllTests } from "../support/emulator.js";
import { http, problem } from "../support/http.js";
import { queueEndpoint } from "../support/seed-facts.js";

const h = frozenEmulatorForAllTests({ reset: true });
const c = http(h);

const ID = /^[a-z0-9]{10}$/;
const createRegistry = (name = "ghcr") =>
  c.ok(c.post("base", "/v2/registries", { name, username: "bot", password: "s3cret" }));
const pod = (registry: unknown) => ({
  name: "private",
  image: "ghcr.io/acme/private:1",
  gpu: { id: "NVIDIA A40" },
  registry,
});
const endpointBody = (registry: unknown) =>
  queueEndpoint({ name: "private", image: "ghcr.io/acme/private:1", registry });

describe("/v2/registries", () => {
  it("creates (201), lists and reads a credential, never answering username or password", async () => {
    const res = await c.post("base", "/v2/registries", { name: "ghcr", username: "bot", password: "s3cret" });
    expect(res.status).toBe(201);
    expect(res.body.id).toMatch(ID);
    expect(res.body).toEqual({ id: res.body.id, name: "ghcr" });
    expect(await c.ok(c.get("base", "/v2/registries"))).toEqual({ registries: [res.body] });
    expect(await c.ok(c.get("base", `/v2/registries/${res.body.id}`))).toEqual(res.body);
    expect(JSON.stringify(h.emu.control.snapshot().registries)).not.toContain("s3cret");
  });

  it("has no update", async () => {
    const r = await createRegistry();
    const res = await c.patch("base", `/v2/registries/${r.id}`, { name: "x" });
    expect([res.status, res.headers.get("allow")]).toEqual([405, "GET, DELETE"]);
  });

  it.each<[string, unknown, string[]]>([
    ["a missing password", { name: "a", username: "u" }, ["$.password: required property is missing"]],
    ["an empty username", { name: "a", username: "", password: "p" }, ["$.username: expected length >= 1"]],
    [
      "an unknown property",
      { name: "a", username: "u", password: "p", url: "ghcr.io" },
      ["$: additional properties 'url' not allowed"],
    ],
  ])("answers 422 for %s", async (_name, body, errors) => {
    expect(await problem(c.post("base", "/v2/registries", body))).toEqual({
      status: 422,
      detail: "Request body does not match the contract.",
      errors,
    });
  });

  it("takes a second credential of the same name: names are not unique", async () => {
    const first = await createRegistry("dup");
    const second = await createRegistry("dup");
    expect([first.id === second.id, (await c.get("base", "/v2/registries")).body]).toEqual([
      false,
      {
        registries: [
          { id: first.id, name: "dup" },
          { id: second.id, name: "dup" },
        ],
      },
    ]);
  });

  it("answers 404 for an unknown id, on read and delete", async () => {
    for (const method of ["GET", "DELETE"]) {
      expect(await problem(c.call(method, "base", "/v2/registries/nope"))).toEqual({
        status: 404,
        detail: "Registry credential 'nope' was not found.",
        errors: [],
      });
    }
  });
});

describe("registry references", () => {
  it.each<[string, () => Promise<unknown>]>([
    ["a pod create", () => c.post("base", "/v2/pods", pod("reg-gone"))],
    [
      "a template create",
      () => c.post("base", "/v2/templates", { name: "t", image: "x", registry: "reg-gone" }),
    ],
    ["a serverless create", () => c.post("base", "/v2/serverless", endpointBody("reg-gone"))],
  ])("%s naming an unknown credential answers 400", async (_name, call) => {
    expect(await problem(call() as never)).toEqual({
      status: 400,
      detail: "registry 'reg-gone' is not a registry credential; see GET /v2/registries.",
      errors: [],
    });
  });

  it("accepts a known credential, and null, on create and update", async () => {
    const r = await createRegistry();
    const created = await c.ok(c.post("base", "/v2/pods", pod(r.id)));
    expect(created.registry).toBe(r.id);
    expect((await c.ok(c.patch("base", `/v2/pods/${created.id}`, { registry: null }))).registry).toBeNull();
    expect(await problem(c.patch("base", `/v2/pods/${created.id}`, { registry: "nope" }))).toMatchObject({
      status: 400,
    });
  });

  it("refuses the delete while a pod or an endpoint uses the credential; templates lose the reference", async () => {
    const r = await createRegistry();
    const p = await c.ok(c.post("base", "/v2/pods", pod(r.id)));
    const e = await c.ok(c.post("base", "/v2/serverless", endpointBody(r.id)));
    const t = await c.ok(c.post("base", "/v2/templates", { name: "t", image: "x", registry: r.id }));
    expect(await problem(c.del("base", `/v2/registries/${r.id}`))).toEqual({
      status: 400,
      detail: `Registry credential '${r.id}' is in use by pod '${p.id}' and cannot be deleted.`,
      errors: [],
    });
    await c.ok(c.del("base", `/v2/pods/${p.id}`));
    expect(await problem(c.del("base", `/v2/registries/${r.id}`))).toEqual({
      status: 400,
      detail: `Registry credential '${r.id}' is in use by serverless endpoint '${e.id}' and cannot be deleted.`,
      errors: [],
    });
    await c.ok(c.patch("base", `/v2/serverless/${e.id}`, { registry: null }));
    expect((await c.del("base", `/v2/registries/${r.id}`)).status).toBe(204);
    expect((await c.ok(c.get("base", `/v2/templates/${t.id}`))).registry).toBeNull();
    expect(await c.ok(c.get("base", "/v2/registries"))).toEqual({ registries: [] });
  });
});

describe("/v2/registries/delegations", () => {
  it("registers an ECR delegation from its ARN, lists it and revokes it", async () => {
    const res = await c.post("base", "/v2/registries/delegations", {
      resource: "arn:aws:ecr:us-east-2:418399314813:repository/runpod/deployment",
      name: "deploy",
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: res.body.id,
      name: "deploy",
      delegatorUserId: expect.stringMatching(/^user_[0-9a-f]{27}$/),
      awsUser: "418399314813",
      repository: "runpod/deployment",
      tag: "latest",
      awsRegion: "us-east-2",
      dockerRegistryUri: "418399314813.dkr.ecr.us-east-2.amazonaws.com",
      createdAt: new Date(h.emu.control.now()).toISOString(),
    });
    expect(await c.ok(c.get("base", "/v2/registries/delegations"))).toEqual({ delegations: [res.body] });
    // The delegation routes are not taken for a registry called "delegations".
    expect(await c.ok(c.get("base", "/v2/registries"))).toEqual({ registries: [] });
    expect((await c.del("base", `/v2/registries/delegations/${res.body.id}`)).status).toBe(204);
    expect(await problem(c.del("base", `/v2/registries/delegations/${res.body.id}`))).toEqual({
      status: 404,
      detail: `Delegation '${res.body.id}' was not found.`,
      errors: [],
    });
  });

  it.each([
    [
      "aws-cn",
      "arn:aws-cn:ecr:cn-north-1:123456789012:repository/team/app",
      "123456789012.dkr.ecr.cn-north-1.amazonaws.com.cn",
    ],
    [
      "aws-us-gov",
      "arn:aws-us-gov:ecr:us-gov-west-1:123456789012:repository/app",
      "123456789012.dkr.ecr.us-gov-west-1.amazonaws.com",
    ],
  ])("takes an ECR repository in the %s partition", async (_partition, resource, registry) => {
    const res = await c.post("base", "/v2/registries/delegations", { resource });
    expect([res.status, (res.body as { dockerRegistryUri?: string }).dockerRegistryUri]).toEqual([
      201,
      registry,
    ]);
  });

  it("answers 400 for a resource that is not an ECR repository ARN, 422 without one", async () => {
    expect(
      await problem(c.post("base", "/v2/registries/delegations", { resource: "arn:aws:s3:::bucket" })),
    ).toEqual({
      status: 400,
      detail:
        "resource 'arn:aws:s3:::bucket' is not an ECR repository ARN (arn:<aws|aws-cn|aws-us-gov>:ecr:<region>:<account>:repository/<name>).",
      errors: [],
    });
    expect(await problem(c.post("base", "/v2/registries/delegations", { name: "x" }))).toEqual({
      status: 422,
      detail: "Request body does not match the contract.",
      errors: ["$.resource: required property is missing"],
    });
  });
});
