/**
 * `runpod-dynamic pending-creates` on a stack export: each pending create paired with the pod that
 * carries its create key on the emulator's account, and the import file for `pulumi import --file`.
 * The whole path through the real CLI, a killed `pulumi up` and the next plugin version is
 * test/plugin/upgrade.test.ts.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { beforeEach, describe, expect, it } from "vitest";
import { CREATE_KEY_ENV } from "../../provider/resources/pod/translate.js";
import { errorText } from "../support/cli.js";
import { cliHarnessForAllTests } from "../support/cli-in-process.js";
import { WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";

const h = cliHarnessForAllTests({ seed: WITHOUT_HISTORY_RESOURCES });
beforeEach(() => {
  h.emu.control.reset(WITHOUT_HISTORY_RESOURCES);
});

const STACK = "urn:pulumi:dev::app::pulumi:pulumi:Stack::app-dev";
const PROVIDER = "urn:pulumi:dev::app::pulumi:providers:runpod-dynamic::default_0_3_0";
const key = (n: number) => n.toString(16).padStart(32, "0");

/** A pending operation as `pulumi stack export` writes it. */
function pending(
  type: string,
  urn: string,
  inputs: Record<string, unknown>,
  more: Record<string, unknown> = {},
) {
  return {
    type: "creating",
    resource: { urn, custom: true, type, inputs, parent: STACK, provider: `${PROVIDER}::5e1c0d6a`, ...more },
  };
}

const exportOf = (operations: unknown[]) =>
  JSON.stringify({ version: 3, deployment: { manifest: {}, resources: [], pending_operations: operations } });

async function podWithKey(name: string, createKey: string): Promise<string> {
  const pod = await h.api.pods.create({
    name,
    image: "acme/app:1",
    cpu: { id: "cpu3c", vcpuCount: 2 },
    env: { [CREATE_KEY_ENV]: createKey },
  });
  h.emu.control.setPodStatus(pod.id, "RUNNING");
  // Apart in the emulator's time, so "the newest" is one pod.
  await sleep(30);
  return pod.id;
}

describe("pending-creates", () => {
  it("imports each pod found by its key under the provider and parent its create had", async () => {
    const older = await podWithKey("a", key(1));
    const newer = await podWithKey("a", key(1));
    const dynamic = await podWithKey("b", key(2));
    await podWithKey("other", key(9));
    const component = "urn:pulumi:dev::app::acme:index:Trainer::t";
    const text = exportOf([
      pending("runpod-dynamic:index:Pod", "urn:pulumi:dev::app::runpod-dynamic:index:Pod::a", {
        __createKey: key(1),
      }),
      pending(
        "pulumi-nodejs:dynamic/runpod:Pod",
        "urn:pulumi:dev::app::acme:index:Trainer$pulumi-nodejs:dynamic/runpod:Pod::b",
        { __createKey: key(2) },
        {
          parent: component,
          provider: "urn:pulumi:dev::app::pulumi:providers:pulumi-nodejs::default::04da6b54",
        },
      ),
      pending("runpod-dynamic:index:Pod", "urn:pulumi:dev::app::runpod-dynamic:index:Pod::c", {
        __createKey: key(3),
      }),
      { type: "updating", resource: { urn: "urn:pulumi:dev::app::runpod-dynamic:index:Pod::d", type: "x" } },
    ]);
    const res = await h.run(["pending-creates", "--json"], {}, text);
    expect([res.code, h.routes(), JSON.parse(res.stdout)]).toEqual([
      0,
      ["base GET /v2/pods"],
      {
        pendingCreates: [
          {
            urn: "urn:pulumi:dev::app::runpod-dynamic:index:Pod::a",
            type: "runpod-dynamic:index:Pod",
            verdict: "found",
            podId: newer,
            status: "RUNNING",
            duplicates: [older],
          },
          {
            urn: "urn:pulumi:dev::app::acme:index:Trainer$pulumi-nodejs:dynamic/runpod:Pod::b",
            type: "pulumi-nodejs:dynamic/runpod:Pod",
            verdict: "found",
            podId: dynamic,
            status: "RUNNING",
            duplicates: [],
          },
          {
            urn: "urn:pulumi:dev::app::runpod-dynamic:index:Pod::c",
            type: "runpod-dynamic:index:Pod",
            verdict: "none",
            podId: null,
            status: null,
            duplicates: [],
          },
        ],
        importFile: {
          nameTable: {
            "default_0_3_0-0": PROVIDER,
            "default-1": "urn:pulumi:dev::app::pulumi:providers:pulumi-nodejs::default",
            "t-2": component,
          },
          resources: [
            { type: "runpod-dynamic:index:Pod", name: "a", id: newer, provider: "default_0_3_0-0" },
            {
              type: "pulumi-nodejs:dynamic/runpod:Pod",
              name: "b",
              id: dynamic,
              provider: "default-1",
              parent: "t-2",
            },
          ],
        },
        clearAfter: true,
      },
    ]);
  });

  it("leaves to the user what it cannot tell, and says how in words", async () => {
    const pod = await podWithKey("a", key(1));
    const text = exportOf([
      pending("runpod-dynamic:index:Pod", "urn:pulumi:dev::app::runpod-dynamic:index:Pod::a", {
        __createKey: key(1),
      }),
      pending("aws:s3/bucket:Bucket", "urn:pulumi:dev::app::aws:s3/bucket:Bucket::logs", {}),
      pending("runpod-dynamic:index:Pod", "urn:pulumi:dev::app::runpod-dynamic:index:Pod::nokey", {}),
    ]);
    const json = await h.run(["pending-creates", "--json"], {}, text);
    const report = JSON.parse(json.stdout) as { pendingCreates: { verdict: string }[]; clearAfter: boolean };
    const human = await h.run(["pending-creates", "--import-file", "/tmp/x.json"], {}, text);
    expect([
      report.pendingCreates.map((p) => p.verdict),
      report.clearAfter,
      human.code,
      human.stdout,
    ]).toEqual([
      ["found", "unknown", "unknown"],
      false,
      0,
      [
        `urn:pulumi:dev::app::runpod-dynamic:index:Pod::a: pod ${pod} (RUNNING) carries its create key`,
        "urn:pulumi:dev::app::aws:s3/bucket:Bucket::logs: not a pod of this provider with a create key: say what became of it in an interactive `pulumi refresh`",
        "urn:pulumi:dev::app::runpod-dynamic:index:Pod::nokey: not a pod of this provider with a create key: say what became of it in an interactive `pulumi refresh`",
        "",
        "Settle them (the pods found are read into state; nothing is created, changed or deleted), then answer for the rest:",
        "  pulumi import --file /tmp/x.json --yes --protect=false --generate-code=false",
        "  pulumi refresh",
        "",
      ].join("\n"),
    ]);
  });

  it("reads nothing from the API when nothing is pending", async () => {
    const res = await h.run(["pending-creates"], { RUNPOD_API_KEY: "" }, exportOf([]));
    expect([res.code, res.stdout, h.routes()]).toEqual([0, "The stack has no pending create.\n", []]);
  });

  it("refuses what is not a stack export, naming the problem", async () => {
    const notJson = await h.run(["pending-creates"], {}, "{");
    const noDeployment = await h.run(["pending-creates"], {}, JSON.stringify({ steps: [] }));
    expect([
      notJson.code,
      errorText(notJson),
      noDeployment.code,
      errorText(noDeployment),
      h.routes(),
    ]).toEqual([
      2,
      expect.stringContaining("standard input: not JSON; give what `pulumi stack export` writes."),
      2,
      expect.stringContaining("standard input: deployment: "),
      [],
    ]);
  });
});
