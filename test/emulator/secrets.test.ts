/**
 * Account secrets under base_url (`/v2/account/secrets`): the routes over raw HTTP and through the
 * typed client, the documented rules and their statuses, values that no answer, snapshot or log
 * line ever carries, and `{{ RUNPOD_SECRET_<name> }}` references resolved as a pod boots.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { clientLib } from "../support/dist.js";
import { frozenEmulatorForAllTests, rejection } from "../support/emulator.js";
import { http, problem } from "../support/http.js";
import { APP_POD } from "../support/seed-facts.js";
import { openStream } from "../support/sse.js";

const h = frozenEmulatorForAllTests({ reset: true });
const c = http(h);
const { ERROR_CODES } = clientLib;

const VALUE = "hf_EMULATOR_SECRET_VALUE_7c1e";
const ROTATED = "hf_ROTATED_SECRET_VALUE_93ab";
const ID = /^[a-z0-9]{12}$/;
const iso = (offset = 0) => new Date(h.t0 + offset).toISOString();
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const create = (body: Record<string, unknown>) => c.ok(c.post("base", "/v2/account/secrets", body));
/** Everything the emulator would show anyone: its state snapshot and request log. */
const shown = () => JSON.stringify([h.emu.control.snapshot(), h.emu.control.requests()]);

describe("/v2/account/secrets", () => {
  it("creates (201), lists, reads and deletes a secret, never answering its value", async () => {
    const res = await c.post("base", "/v2/account/secrets", {
      name: "hf-token",
      value: VALUE,
      description: "Hugging Face read token",
    });
    const secret = {
      id: res.body.id,
      name: "hf-token",
      description: "Hugging Face read token",
      createdAt: iso(),
      valueLastUpdatedAt: iso(),
    };
    expect([res.status, res.body.id]).toEqual([201, expect.stringMatching(ID)]);
    expect(res.body).toEqual(secret);
    expect(await c.ok(c.get("base", "/v2/account/secrets"))).toEqual({ secrets: [secret] });
    expect(await c.ok(c.get("base", `/v2/account/secrets/${secret.id}`))).toEqual(secret);
    expect(h.emu.control.snapshot().secrets).toEqual([secret]);
    expect((await c.del("base", `/v2/account/secrets/${secret.id}`)).status).toBe(204);
    expect(await c.ok(c.get("base", "/v2/account/secrets"))).toEqual({ secrets: [] });
    expect(shown()).not.toContain(VALUE);
  });

  it("lists by name, in any case", async () => {
    const a = await create({ name: "hf-token", value: VALUE });
    await create({ name: "db/password", value: VALUE });
    expect([
      await c.ok(c.get("base", "/v2/account/secrets?name=HF-TOKEN")),
      await c.ok(c.get("base", "/v2/account/secrets?name=nope")),
    ]).toEqual([{ secrets: [a] }, { secrets: [] }]);
  });

  it("rotates the value (a new valueLastUpdatedAt) and changes or clears the description in place", async () => {
    const s = await create({ name: "hf-token", value: VALUE, description: "first" });
    h.emu.control.advance(60_000);
    const rotated = await c.ok(c.patch("base", `/v2/account/secrets/${s.id}`, { value: ROTATED }));
    h.emu.control.advance(60_000);
    const described = await c.ok(c.patch("base", `/v2/account/secrets/${s.id}`, { description: "second" }));
    const cleared = await c.ok(c.patch("base", `/v2/account/secrets/${s.id}`, { description: "" }));
    expect([rotated, described, cleared]).toEqual([
      { ...s, valueLastUpdatedAt: iso(60_000) },
      { ...s, description: "second", valueLastUpdatedAt: iso(60_000) },
      { ...s, description: null, valueLastUpdatedAt: iso(60_000) },
    ]);
    expect(shown()).not.toContain(ROTATED);
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ["a missing value", { name: "a" }, ["$.value: required property is missing"]],
    ["an empty value", { name: "a", value: "" }, ["$.value: expected length >= 1"]],
    [
      "an empty name",
      { name: "", value: "v" },
      [
        "$.name: expected length >= 1",
        "$.name: Invalid string: must match pattern /^[a-zA-Z_][a-zA-Z0-9_.\\-/]*$/",
      ],
    ],
    [
      "a name over 191 characters",
      { name: `a${"b".repeat(191)}`, value: "v" },
      ["$.name: expected length <= 191"],
    ],
    [
      "a name starting with a digit",
      { name: "1token", value: "v" },
      ["$.name: Invalid string: must match pattern /^[a-zA-Z_][a-zA-Z0-9_.\\-/]*$/"],
    ],
    [
      "a name with a blank",
      { name: "hf token", value: "v" },
      ["$.name: Invalid string: must match pattern /^[a-zA-Z_][a-zA-Z0-9_.\\-/]*$/"],
    ],
    [
      "a description over 65535 characters",
      { name: "a", value: "v", description: "d".repeat(65_536) },
      ["$.description: expected length <= 65535"],
    ],
    [
      "an unknown property",
      { name: "a", value: "v", scope: "team" },
      ["$: additional properties 'scope' not allowed"],
    ],
  ])("answers 422 for %s on create", async (_name, body, errors) => {
    expect(await problem(c.post("base", "/v2/account/secrets", body))).toEqual({
      status: 422,
      detail: "Request body does not match the contract.",
      errors,
    });
  });

  it.each([["RUNPOD_TOKEN"], ["runpod"], ["RunPod-key"]])(
    "answers 400 for the reserved name %s, in any case",
    async (name) => {
      expect(await problem(c.post("base", "/v2/account/secrets", { name, value: "v" }))).toEqual({
        status: 400,
        detail: `Secret name '${name}' is reserved: names starting with RUNPOD are the service's.`,
        errors: [],
      });
    },
  );

  it("answers 400 for a value of 16 MiB of UTF-8 and a description over 65535 bytes, both under the character limits", async () => {
    const bigValue = "é".repeat(8 * 1024 * 1024);
    const longDescription = "é".repeat(32_768);
    expect([
      await problem(c.post("base", "/v2/account/secrets", { name: "big", value: bigValue })),
      await problem(
        c.post("base", "/v2/account/secrets", { name: "a", value: "v", description: longDescription }),
      ),
    ]).toEqual([
      { status: 400, detail: "value must be smaller than 16 MiB (16777216 bytes) of UTF-8.", errors: [] },
      { status: 400, detail: "description must be at most 65535 bytes of UTF-8.", errors: [] },
    ]);
  });

  it("answers 409 for a name already taken, in any case", async () => {
    await create({ name: "hf-token", value: VALUE });
    expect(await problem(c.post("base", "/v2/account/secrets", { name: "HF-Token", value: "v" }))).toEqual({
      status: 409,
      detail: "A secret named 'HF-Token' already exists.",
      errors: [],
    });
  });

  it("refuses a PATCH naming the name (immutable, 422) or nothing (400)", async () => {
    const s = await create({ name: "hf-token", value: VALUE });
    expect([
      await problem(c.patch("base", `/v2/account/secrets/${s.id}`, { name: "other" })),
      await problem(c.patch("base", `/v2/account/secrets/${s.id}`, {})),
    ]).toEqual([
      {
        status: 422,
        detail: "Request body does not match the contract.",
        errors: ["$: additional properties 'name' not allowed"],
      },
      {
        status: 400,
        detail: "The PATCH body is empty; send value and/or description (the name cannot change).",
        errors: [],
      },
    ]);
  });

  it("answers 404 for an unknown id, on read, update and delete", async () => {
    for (const [method, body] of [["GET"], ["PATCH", { value: "v" }], ["DELETE"]] as const) {
      expect(await problem(c.call(method, "base", "/v2/account/secrets/nope", body))).toEqual({
        status: 404,
        detail: "Secret 'nope' was not found.",
        errors: [],
      });
    }
  });
});

describe("the typed client", () => {
  it("creates, finds by name, rotates, reads and deletes", async () => {
    const created = await h.api.secrets.create({ name: "hf-token", value: VALUE });
    h.emu.control.advance(1000);
    const rotated = await h.api.secrets.update(created.id, { value: ROTATED, description: "rotated" });
    const found = await h.api.secrets.list({ name: "HF-TOKEN" });
    await h.api.secrets.delete(created.id);
    const gone = await rejection(h.api.secrets.get(created.id));
    expect([rotated, found, gone.code]).toEqual([
      { ...created, description: "rotated", valueLastUpdatedAt: iso(1000) },
      [rotated],
      ERROR_CODES.NOT_FOUND,
    ]);
  });

  it("maps a taken name to CONFLICT and refuses a reserved name before sending it", async () => {
    await h.api.secrets.create({ name: "hf-token", value: VALUE });
    const taken = await rejection(h.api.secrets.create({ name: "hf-token", value: "other" }));
    h.emu.control.clearRequests();
    const reserved = await rejection(h.api.secrets.create({ name: "runpod_x", value: VALUE }));
    expect([taken.code, taken.status, reserved.code, reserved.outcome, reserved.errors]).toEqual([
      ERROR_CODES.CONFLICT,
      409,
      ERROR_CODES.INVALID_REQUEST,
      "not-sent",
      ["$.name: must not start with RUNPOD (in any case): the prefix is reserved"],
    ]);
    expect(h.emu.control.requests().entries).toEqual([]);
  });
});

describe("{{ RUNPOD_SECRET_<name> }} in a pod's env", () => {
  const REF = "{{ RUNPOD_SECRET_hf-token }}";
  const pod = (env: Record<string, string>, over: Record<string, unknown> = {}) =>
    c.ok(c.post("base", "/v2/pods", { ...APP_POD, env, ...over }));
  const environment = (id: string) => h.emu.control.podEnvironment(id);

  it("is kept as written in the pod's answers, and the container gets the value when the pod boots", async () => {
    await create({ name: "hf-token", value: VALUE });
    const p = await pod({ HF_TOKEN: REF, AUTH: `Bearer {{RUNPOD_SECRET_HF-TOKEN}}`, MODEL: "llama" });
    expect([p.env, (await c.ok(c.get("base", `/v2/pods/${p.id}`))).env]).toEqual([
      { HF_TOKEN: REF, AUTH: "Bearer {{RUNPOD_SECRET_HF-TOKEN}}", MODEL: "llama" },
      { HF_TOKEN: REF, AUTH: "Bearer {{RUNPOD_SECRET_HF-TOKEN}}", MODEL: "llama" },
    ]);
    expect(environment(p.id)).toEqual([
      { name: "HF_TOKEN", sha256: sha256(VALUE), secrets: [{ secret: "hf-token", resolved: true }] },
      { name: "AUTH", sha256: sha256(`Bearer ${VALUE}`), secrets: [{ secret: "HF-TOKEN", resolved: true }] },
      { name: "MODEL", sha256: sha256("llama"), secrets: [] },
    ]);
    expect(shown()).not.toContain(VALUE);
  });

  it("a rotation reaches a running pod at its next boot, not before", async () => {
    const s = await create({ name: "hf-token", value: VALUE });
    const p = await pod({ HF_TOKEN: REF });
    h.emu.control.advance(10_000);
    await c.ok(c.patch("base", `/v2/account/secrets/${s.id}`, { value: ROTATED }));
    const before = environment(p.id)[0]?.sha256;
    await c.ok(c.post("base", `/v2/pods/${p.id}/action`, { action: "restart" }));
    expect([before, environment(p.id)[0]?.sha256]).toEqual([sha256(VALUE), sha256(ROTATED)]);
  });

  it("a pod created from a template resolves the template's references", async () => {
    await create({ name: "hf-token", value: VALUE });
    const t = await c.ok(
      c.post("base", "/v2/templates", {
        name: "t",
        image: "acme/app:1",
        env: { HF_TOKEN: REF },
        startJupyter: false,
      }),
    );
    const p = await pod({}, { image: undefined, templateId: t.id });
    expect([p.env, environment(p.id)[0]?.sha256]).toEqual([{ HF_TOKEN: REF }, sha256(VALUE)]);
  });

  it("a name the account has no secret of keeps its text, the pod starts, and its log says so", async () => {
    const p = await pod({ HF_TOKEN: "{{ RUNPOD_SECRET_missing }}" });
    h.emu.control.advance(10_000);
    const lines = h.emu.control.podLogs(p.id).map((l) => l.line);
    expect([
      environment(p.id),
      (await c.ok(c.get("base", `/v2/pods/${p.id}`))).status,
      lines.filter((l) => l.startsWith("env ")),
    ]).toEqual([
      [
        {
          name: "HF_TOKEN",
          sha256: sha256("{{ RUNPOD_SECRET_missing }}"),
          secrets: [{ secret: "missing", resolved: false }],
        },
      ],
      "RUNNING",
      ["env HF_TOKEN: no secret named 'missing'; the variable keeps its {{ RUNPOD_SECRET_missing }} text"],
    ]);
  });

  it("a secret deleted since no longer resolves at the next boot", async () => {
    const s = await create({ name: "hf-token", value: VALUE });
    const p = await pod({ HF_TOKEN: REF });
    h.emu.control.advance(10_000);
    await c.del("base", `/v2/account/secrets/${s.id}`);
    await c.ok(c.post("base", `/v2/pods/${p.id}/action`, { action: "restart" }));
    expect(environment(p.id)[0]).toEqual({
      name: "HF_TOKEN",
      sha256: sha256(REF),
      secrets: [{ secret: "hf-token", resolved: false }],
    });
  });

  it("a container that prints a value gets it scrubbed from every log the emulator serves", async () => {
    h.emu.control.setContainerBehaviour({
      image: "acme/leaky:1",
      kind: "start",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the container's own ${NAME}, expanded as a shell's echo would
      lines: ["token=${HF_TOKEN}", `from a file: ${VALUE}`, "model=${MODEL}"],
    });
    await create({ name: "hf-token", value: VALUE });
    const p = await pod({ HF_TOKEN: REF, MODEL: "llama" }, { image: "acme/leaky:1" });
    h.emu.control.advance(10_000);
    const stream = await openStream(`${h.emu.baseUrl}/v2/pods/${p.id}/logs?source=container&tail=3`);
    const served = (await stream.next(3)).map((e) => e.data.line);
    stream.close();
    expect(
      h.emu.control
        .podLogs(p.id)
        .filter((l) => l.source === "container")
        .map((l) => l.line),
    ).toEqual(["token=[secret]", "from a file: [secret]", "model=llama"]);
    expect([served, stream.text().includes(VALUE)]).toEqual([
      ["token=[secret]", "from a file: [secret]", "model=llama"],
      false,
    ]);
  });
});
