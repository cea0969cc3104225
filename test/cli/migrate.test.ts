/**
 * `runpod-dynamic migrate` on stack exports in RunPod's official provider's shape: what each
 * resource becomes, the import file, the order of the state deletes, what blocks them, what the move
 * drops and what the program must give again, the config it says, and bad input. The whole path
 * through the real CLI (import, state delete, up with no change) is test/plugin/migrate.test.ts.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { errorText } from "../support/cli.js";
import { cliHarnessForAllTests } from "../support/cli-in-process.js";
import { WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";

const h = cliHarnessForAllTests({ seed: WITHOUT_HISTORY_RESOURCES });
beforeEach(() => {
  h.emu.control.reset(WITHOUT_HISTORY_RESOURCES);
});

const STACK = "urn:pulumi:dev::team::pulumi:pulumi:Stack::team-dev";
const PROVIDER = "urn:pulumi:dev::team::pulumi:providers:runpod::default_1_9_0";
const urn = (type: string, name: string) => `urn:pulumi:dev::team::${type}::${name}`;
const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: "v1:x" };

/** A resource of the official provider as its stacks record it. */
function official(kind: string, name: string, id: string, inputs: object = {}, more: object = {}) {
  return {
    urn: urn(`runpod:index:${kind}`, name),
    custom: true,
    id,
    type: `runpod:index:${kind}`,
    inputs,
    outputs: inputs,
    parent: STACK,
    provider: `${PROVIDER}::4c1f3e8a`,
    ...more,
  };
}

const providerOf = (inputs: object = {}, more: object = {}) => ({
  urn: PROVIDER,
  custom: true,
  id: "4c1f3e8a",
  type: "pulumi:providers:runpod",
  inputs: { version: "1.9.0", ...inputs },
  ...more,
});

const exportOf = (resources: unknown[], pending: unknown[] = []) =>
  JSON.stringify({
    version: 3,
    deployment: {
      manifest: {},
      resources: [{ urn: STACK, custom: false, type: "pulumi:pulumi:Stack" }, ...resources],
      pending_operations: pending,
    },
  });

interface Plan {
  resources: {
    name: string;
    ours: string | null;
    onAccount: boolean | null;
    dropped: string[];
    giveAgain: string | null;
  }[];
  importFile: { resources: unknown[] } | null;
  stateDeletes: string[];
  forceDelete: boolean;
  blockers: { urn: string; dependsOn: string }[];
  config: { apiKey: boolean; apiUrl: string | null };
  commands: string[];
}

describe("migrate", () => {
  it("imports what the account has under our types, deletes dependents first and the provider last, says what drops", async () => {
    const volume = await h.api.networkVolumes.create({ name: "ws", size: 10, dataCenter: "US-KS-2" });
    const pod = await h.api.pods.create({
      name: "trainer",
      image: "acme/app:1",
      gpu: { id: "NVIDIA A40" },
      mounts: { network: [{ volumeId: volume.id, path: "/workspace" }] },
    });
    const registry = await h.api.registries.create({ name: "ghcr", username: "bot", password: "pw" });
    const component = urn("acme:index:Trainer", "t");
    const text = exportOf([
      providerOf({ apiKey: SECRET, apiUrl: "https://api.runpod.io/graphql" }),
      official("NetworkVolume", "ws", volume.id, { name: "ws", size: 10, dataCenterId: "US-KS-2" }),
      { urn: component, custom: false, type: "acme:index:Trainer", parent: STACK },
      official(
        "Pod",
        "trainer",
        pod.id,
        { name: "trainer", imageName: "acme/app:1", stopAfter: "2026-12-24T18:00:00Z", savingsPlan: null },
        { parent: component, dependencies: [urn("runpod:index:NetworkVolume", "ws")], protect: true },
      ),
      official("ContainerRegistryAuth", "ghcr", registry.id, {
        name: "ghcr",
        username: "bot",
        password: SECRET,
      }),
      official("Secret", "gone", "sec-deleted-outside", { name: "HF", value: SECRET }),
    ]);
    const res = await h.run(["migrate", "--json", "--import-file", "/tmp/migrate.json"], {}, text);
    const plan = JSON.parse(res.stdout) as Plan;
    expect([
      res.code,
      h.routes(),
      plan.resources.map((r) => [r.name, r.ours, r.onAccount, r.dropped, r.giveAgain]),
      plan.importFile,
      plan.stateDeletes,
      plan.forceDelete,
      plan.blockers,
      plan.config,
      plan.commands,
    ]).toEqual([
      0,
      [
        "base GET /v2/network-volumes",
        "base GET /v2/pods",
        "base GET /v2/registries",
        "base GET /v2/account/secrets",
      ],
      [
        ["ws", "NetworkVolume", true, [], null],
        ["trainer", "Pod", true, ["stopAfter"], null],
        ["ghcr", "Registry", true, [], "password"],
        ["gone", "Secret", false, [], "value"],
      ],
      {
        nameTable: { "t-0": component },
        resources: [
          { type: "runpod-dynamic:index:NetworkVolume", name: "ws", id: volume.id },
          { type: "runpod-dynamic:index:Pod", name: "trainer", id: pod.id, parent: "t-0" },
          { type: "runpod-dynamic:index:Registry", name: "ghcr", id: registry.id },
        ],
      },
      [
        urn("runpod:index:Secret", "gone"),
        urn("runpod:index:ContainerRegistryAuth", "ghcr"),
        urn("runpod:index:Pod", "trainer"),
        urn("runpod:index:NetworkVolume", "ws"),
        PROVIDER,
      ],
      true,
      [],
      // The default GraphQL address is the same service: nothing to say of it.
      { apiKey: true, apiUrl: null },
      [
        `pulumi state delete ${[
          urn("runpod:index:Secret", "gone"),
          urn("runpod:index:ContainerRegistryAuth", "ghcr"),
          urn("runpod:index:Pod", "trainer"),
          urn("runpod:index:NetworkVolume", "ws"),
          PROVIDER,
        ].join(" ")} --yes --force`,
        "pulumi import --file /tmp/migrate.json --yes --protect=false --out migrated-resources",
        "pulumi up --expect-no-changes",
      ],
    ]);
    const human = await h.run(["migrate", "--code-file", "main.py"], {}, text);
    expect(human.stdout).toContain(
      `Secret "gone" (sec-deleted-outside): not on the account (deleted outside Pulumi?)`,
    );
    expect(human.stdout).toContain("    stopAfter: no counterpart; the move drops them");
    expect(human.stdout).toContain("the API never returns its password: give password again in the program");
    expect(human.stdout).toContain("pulumi config set --secret runpod-dynamic:apiKey <the same key>");
    expect(human.stdout).toContain("--out main.py");
    expect(human.stdout).toContain("<the import file: --import-file>");
  });

  it("names what depends on a resource that leaves, keeps a kind it has no counterpart of with its provider, says a non-default apiUrl", async () => {
    const template = await h.api.templates.create({ name: "t", image: "acme/app:1" });
    const text = exportOf([
      providerOf({ apiUrl: "https://staging.example/graphql" }),
      official("Template", "t", template.id, { name: "t", imageName: "acme/app:1", readme: "# hi" }),
      official("GpuReservation", "r", "res-1"),
      {
        urn: urn("command:local:Command", "warm"),
        custom: true,
        id: "warm",
        type: "command:local:Command",
        dependencies: [urn("runpod:index:Template", "t")],
      },
    ]);
    const res = await h.run(["migrate", "--json"], {}, text);
    const plan = JSON.parse(res.stdout) as Plan;
    expect([
      plan.resources.map((r) => [r.name, r.ours, r.onAccount, r.dropped]),
      plan.stateDeletes,
      plan.blockers,
      plan.config,
    ]).toEqual([
      [
        ["t", "Template", true, ["readme"]],
        ["r", null, null, []],
      ],
      // The provider instance stays: the reservation still needs it.
      [urn("runpod:index:Template", "t")],
      [{ urn: urn("command:local:Command", "warm"), dependsOn: urn("runpod:index:Template", "t") }],
      { apiKey: false, apiUrl: "https://staging.example/graphql" },
    ]);
    const human = await h.run(["migrate"], {}, text);
    expect(human.stdout).toContain(
      `GpuReservation "r" (res-1): no counterpart in runpod-dynamic; it stays with the official provider`,
    );
    expect(human.stdout).toContain(
      "runpod:apiUrl sends the official provider to https://staging.example/graphql",
    );
    expect(human.stdout).toContain(
      `${urn("command:local:Command", "warm")} depends on ${urn("runpod:index:Template", "t")}`,
    );
  });

  it("reads nothing from the API when the stack has none of the official provider's resources", async () => {
    const res = await h.run(["migrate"], { RUNPOD_API_KEY: "" }, exportOf([]));
    expect([res.code, res.stdout, h.routes()]).toEqual([
      0,
      "The stack has no resource of RunPod's official provider.\n",
      [],
    ]);
  });

  it("refuses a stack with pending operations, and what is not an export, before any request", async () => {
    const pod = await h.api.pods.create({
      name: "p",
      image: "acme/app:1",
      cpu: { id: "cpu3c", vcpuCount: 2 },
    });
    h.emu.control.clearRequests();
    const pending = await h.run(
      ["migrate", "--import-file", "/tmp/never.json"],
      {},
      exportOf([official("Pod", "p", pod.id)], [{ type: "creating", resource: { urn: "x", type: "y" } }]),
    );
    const notJson = await h.run(["migrate"], {}, "{");
    const noDeployment = await h.run(["migrate"], {}, JSON.stringify({ steps: [] }));
    expect([
      [pending.code, errorText(pending)],
      [notJson.code, errorText(notJson)],
      [noDeployment.code, errorText(noDeployment)],
      h.routes(),
    ]).toEqual([
      [
        2,
        "Error: standard input: the stack has 1 pending operations a killed run left; settle them first (pulumi refresh), then export again.",
      ],
      [2, "Error: standard input: not JSON; give what `pulumi stack export` writes."],
      [
        2,
        "Error: standard input: deployment: Invalid input: expected object, received undefined; give what `pulumi stack export` writes.",
      ],
      [],
    ]);
  });
});
