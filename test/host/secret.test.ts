/**
 * Secret through the real `@pulumi/pulumi` dynamic-provider host over gRPC, in the order the engine
 * calls it: check sees the old inputs and marks a new value, diff turns the mark into an in-place
 * rotation, and no value ever reaches the outputs or what the host prints. A Pod referencing the
 * secret keeps `{{ RUNPOD_SECRET_<name> }}` in its env as written.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { apiFor, emulatorLib, type RunningEmulator } from "../support/emulator.js";
import {
  hostResources,
  type ProviderHost,
  provproto,
  serializedProvider,
  startProviderHost,
  UNKNOWN,
} from "../support/host.js";

// biome-ignore lint/suspicious/noExplicitAny: generated protobuf stubs are untyped JavaScript
type Any = any;
const SCALE = 50;
const { DIFF_NONE, DIFF_SOME } = provproto.DiffResponse.DiffChanges;
const VALUE = "hf_HOST_SECRET_VALUE_5d2a91";
const ROTATED = "hf_HOST_ROTATED_VALUE_0b7e44";
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

let emu: RunningEmulator;
let host: ProviderHost;
const texts: Record<string, string> = {};

beforeAll(async () => {
  emu = await emulatorLib.startEmulator({ clockScale: SCALE, randomSeed: 26 });
  for (const t of ["Secret", "Pod"]) texts[t] = (await serializedProvider(t)).text;
  host = await startProviderHost({
    config: emu.pulumiConfig(),
    env: { RUNPOD_DYNAMIC_TIME_SCALE: String(SCALE), RUNPOD_API_KEY: "" },
  });
});
afterAll(async () => {
  host?.close();
  await emu?.close();
});
beforeEach(() => {
  emu.control.reset();
});

const resource = hostResources(() => host, texts);
const r = resource("Secret", "hf");
const inputs = { name: "hf-token", value: VALUE, description: "Hugging Face read token" };
const js = (struct: Any) => struct.toJavaScript();
/** check, then create, as the engine does for a new resource: the checked inputs and the outputs. */
async function created(news: Record<string, unknown> = inputs) {
  const checked = js((await r.check(news)).getInputs());
  const res = await r.create(checked);
  return { checked, id: res.getId() as string, outs: js(res.getProperties()) };
}
const failures = async (news: Record<string, unknown>, olds: Record<string, unknown> = {}) =>
  (await r.check(news, olds)).getFailuresList().map((f: Any) => [f.getProperty(), f.getReason()]);
/** Everything the emulator would show anyone, and what the host printed. */
const seen = () => JSON.stringify([emu.control.snapshot(), emu.control.requests()]) + host.output();

describe("the serialized provider", () => {
  it("holds no secrets, no token, and is under 4 KB", async () => {
    const sf = await serializedProvider("Secret");
    expect([sf.containsSecrets, sf.text.includes(emu.apiKey), sf.text.length < 4096]).toEqual([
      false,
      false,
      true,
    ]);
  });
});

describe("check", () => {
  it.each<[string, Record<string, unknown>, string[][]]>([
    ["a missing value", { name: "hf-token" }, [["", "value: is required"]]],
    ["an empty value", { name: "hf-token", value: "" }, [["value", "must not be empty"]]],
    [
      "a name with a blank",
      { name: "hf token", value: "v" },
      [["name", "must start with a letter or underscore and hold only letters, digits and _.-/"]],
    ],
    [
      "a reserved name",
      { name: "RunPod_key", value: "v" },
      [["name", "must not start with RUNPOD (in any case): the prefix is reserved"]],
    ],
    [
      "a name over 191 characters",
      { name: `a${"b".repeat(191)}`, value: "v" },
      [["name", "must be at most 191 characters"]],
    ],
    [
      "a description over 65535 bytes",
      { name: "a", value: "v", description: "é".repeat(32_768) },
      [["description", "must be at most 65535 bytes of UTF-8"]],
    ],
    [
      "an unknown property",
      { name: "a", value: "v", scope: "team" },
      [["scope", "unknown property 'scope'; check the spelling against the documented inputs"]],
    ],
  ])("names the field and the rule for %s, before any API call", async (_name, news, expected) => {
    expect(await failures(news)).toEqual(expected);
    expect(emu.control.requests().entries).toEqual([]);
  });

  it("marks a value that differs from the one state recorded, and nothing else", async () => {
    const marked = async (news: Record<string, unknown>, olds: Record<string, unknown>) =>
      js((await r.check(news, olds)).getInputs()).__valueChanged;
    expect([
      await marked(inputs, {}),
      await marked(inputs, inputs),
      await marked({ ...inputs, description: "other" }, inputs),
      await marked({ ...inputs, value: ROTATED }, inputs),
      await marked({ ...inputs, value: UNKNOWN }, inputs),
      await marked(inputs, { ...inputs, __valueChanged: true }),
      await marked({ ...inputs, __valueChanged: true }, inputs),
    ]).toEqual([undefined, undefined, undefined, true, true, undefined, undefined]);
  });
});

describe("lifecycle", () => {
  it("creates, keeping the value out of the outputs and out of everything shown", async () => {
    const { id, outs } = await created();
    expect(outs).toEqual({
      secretId: id,
      name: "hf-token",
      description: "Hugging Face read token",
      createdAt: expect.any(String),
      valueLastUpdatedAt: outs.createdAt,
      reference: "{{ RUNPOD_SECRET_hf-token }}",
      __provider: texts.Secret,
    });
    expect(seen()).not.toContain(VALUE);
  });

  it("diff: the replace/update table, row by row", async () => {
    const { checked, id, outs } = await created();
    const row = async (news: Record<string, unknown>) => {
      const d = await r.diff(id, outs, js((await r.check(news, checked)).getInputs()));
      return [d.getChanges(), d.getReplacesList(), d.getDeletebeforereplace()];
    };
    expect([
      await row(inputs),
      await row({ ...inputs, value: ROTATED }),
      await row({ ...inputs, value: UNKNOWN }),
      await row({ ...inputs, description: "new" }),
      await row({ name: "hf-token", value: VALUE }),
      await row({ ...inputs, name: "hf-token-2" }),
      await row({ ...inputs, name: "HF-TOKEN" }),
      await row({ ...inputs, adoptId: id }),
    ]).toEqual([
      [DIFF_NONE, [], false],
      [DIFF_SOME, [], false],
      [DIFF_SOME, [], false],
      [DIFF_SOME, [], false],
      [DIFF_NONE, [], false],
      [DIFF_SOME, ["name"], false],
      [DIFF_SOME, ["name"], true],
      [DIFF_NONE, [], false],
    ]);
  });

  it("rotates in place with one PATCH of the value; a pod that boots afterwards gets the new value", async () => {
    const { checked, id, outs } = await created();
    const news = js((await r.check({ ...inputs, value: ROTATED }, checked)).getInputs());
    emu.control.advance(60_000);
    emu.control.clearRequests();
    const updated = js((await r.update(id, outs, news)).getProperties());
    const pod = await apiFor(emu).pods.create({
      name: "app",
      image: "acme/app:1",
      gpu: { id: "NVIDIA A40" },
      env: { HF_TOKEN: outs.reference },
    });
    expect([
      emu.control.requests().entries.map((e) => e.route)[0],
      updated.valueLastUpdatedAt > outs.valueLastUpdatedAt,
      { ...updated, valueLastUpdatedAt: outs.valueLastUpdatedAt },
      emu.control.podEnvironment(pod.id)[0]?.sha256,
      pod.env,
    ]).toEqual([
      "PATCH /v2/account/secrets/:id",
      true,
      outs,
      sha256(ROTATED),
      { HF_TOKEN: "{{ RUNPOD_SECRET_hf-token }}" },
    ]);
    expect(host.output()).toContain(
      `runpod Secret hf-token: rotated the value of ${id}; pods and workers that reference it get it at their next boot, running ones keep the old value`,
    );
    expect(seen()).not.toContain(ROTATED);
  });

  it("changes the description alone without touching the value", async () => {
    const { checked, id, outs } = await created();
    const news = js((await r.check({ ...inputs, description: "" }, checked)).getInputs());
    const updated = js((await r.update(id, outs, news)).getProperties());
    expect([updated.description, updated.valueLastUpdatedAt]).toEqual([null, outs.valueLastUpdatedAt]);
  });

  it("read: the secret as it is; a rotation made elsewhere drops the value from the recorded inputs; gone is an empty id", async () => {
    const { id, outs } = await created();
    const same = await r.read(id, outs);
    emu.control.advance(60_000);
    await apiFor(emu).secrets.update(id, { value: "set-in-the-console" });
    const drifted = await r.read(id, outs);
    const props = js(drifted.getProperties());
    const recorded = js(drifted.getInputs());
    const next = js((await r.check(inputs, recorded)).getInputs());
    await apiFor(emu).secrets.delete(id);
    expect([
      js(same.getProperties()),
      same.getInputs(),
      props.valueLastUpdatedAt > outs.valueLastUpdatedAt,
      recorded,
      next.__valueChanged,
      (await r.read(id, outs)).getId(),
    ]).toEqual([
      outs,
      undefined,
      true,
      { name: "hf-token", description: "Hugging Face read token", __provider: texts.Secret },
      true,
      "",
    ]);
  });

  it("delete removes it, and a second delete (404) succeeds", async () => {
    const { id, outs } = await created();
    await r.delete(id, outs);
    await r.delete(id, outs);
    expect(emu.control.snapshot().secrets).toEqual([]);
  });

  it("a name already taken fails with the id to adopt, before any POST", async () => {
    const existing = await apiFor(emu).secrets.create({ name: "HF-Token", value: "other" });
    emu.control.clearRequests();
    const err = await r.create(js((await r.check(inputs)).getInputs())).catch((e: Error) => e);
    expect([(err as Error).message, emu.control.requests().entries.map((e) => e.route)]).toEqual([
      `2 UNKNOWN: Secret hf-token: a secret named "hf-token" already exists in the account (id ${existing.id}), and names are unique regardless of case. Choose another name, or adopt it with adoptId: "${existing.id}" (its value is then set from the program).`,
      ["GET /v2/account/secrets"],
    ]);
  });

  it("adoptId takes over a secret of the same name and writes the program's value to it", async () => {
    const existing = await apiFor(emu).secrets.create({ name: "hf-token", value: "unknown-to-pulumi" });
    const { id, outs } = await created({ ...inputs, adoptId: existing.id });
    const pod = await apiFor(emu).pods.create({
      name: "app",
      image: "acme/app:1",
      gpu: { id: "NVIDIA A40" },
      env: { HF_TOKEN: outs.reference },
    });
    expect([id, outs.description, emu.control.podEnvironment(pod.id)[0]?.sha256]).toEqual([
      existing.id,
      "Hugging Face read token",
      sha256(VALUE),
    ]);
  });

  it("an unanswered create that landed is found by its name, not sent again", async () => {
    emu.control.addFault({ method: "POST", path: "^/v2/account/secrets$", reset: "after", times: 1 });
    const { id } = await created();
    const posts = emu.control.requests().entries.filter((e) => e.method === "POST");
    expect([emu.control.snapshot().secrets.map((s) => s.id), posts.length]).toEqual([[id], 1]);
  });
});

describe("a Pod whose env references the secret", () => {
  it("keeps {{ RUNPOD_SECRET_<name> }} as written: in its outputs, at the API, and no drift on refresh", async () => {
    const { outs: secret } = await created();
    const pod = resource("Pod", "app");
    const news = js(
      (
        await pod.check({
          name: "app",
          image: "acme/app:1",
          gpu: { id: "NVIDIA A40" },
          env: { HF_TOKEN: secret.reference, AUTH: "Bearer {{ RUNPOD_SECRET_hf-token }}" },
        })
      ).getInputs(),
    );
    const res = await pod.create(news);
    const outs = js(res.getProperties());
    const read = js((await pod.read(res.getId(), outs)).getProperties());
    const d = await pod.diff(res.getId(), read, news);
    const env = { HF_TOKEN: "{{ RUNPOD_SECRET_hf-token }}", AUTH: "Bearer {{ RUNPOD_SECRET_hf-token }}" };
    expect([
      news.env,
      outs.env,
      (await apiFor(emu).pods.get(res.getId())).env,
      read.env,
      d.getChanges(),
      Object.fromEntries(
        emu.control
          .podEnvironment(res.getId())
          .filter((v) => v.secrets.length > 0)
          .map((v) => [v.name, v.sha256]),
      ),
    ]).toEqual([
      env,
      env,
      expect.objectContaining(env),
      env,
      DIFF_NONE,
      { HF_TOKEN: sha256(VALUE), AUTH: sha256(`Bearer ${VALUE}`) },
    ]);
    await pod.delete(res.getId(), outs);
  });
});
