/**
 * What a change costs, through the real Pulumi CLI and the real `runpod-dynamic` binary:
 * examples/quickstart's preview priced from a snapshot the CLI wrote, the cost-budget policy
 * blocking a preview over budget and passing one under it, the diff of a change after `up`, the
 * stack's state, and examples/gitops's pull-request cost step run exactly as its workflow writes it.
 * Expected figures come from the emulator seed's catalog and RunPod's published storage rates.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import type { ProgramStack } from "../../harness/stack.js";
import { runCli } from "../support/cli.js";
import { REPO_ROOT } from "../support/dist.js";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { PACK_IN_SUMMARY } from "../support/policy.js";
import { stackOnEmulator, TIME_SCALE } from "../support/stack.js";
import { EXAMPLES_DIR } from "./phases.js";

const POLICY = join(REPO_ROOT, "policy");
const storage = (gb: number, usdPerGbMonth: number) => (gb * usdPerGbMonth) / 720;
const r = (n: number) => Math.round(n * 1e8) / 1e8;
const range = (low: number, high = low) => ({ low: r(low), high: r(high) });

const TRAINER = 2.99 + storage(40, 0.1);
const WORKSPACE = storage(50, 0.07);

interface Side {
  kind: string;
  hourly?: { low: number; high: number };
  billedHourly?: number | null;
}
interface CostJson {
  kind: string;
  unlisted: number;
  resources: { name: string; op: string; before: Side | null; after: Side | null }[];
  totals: {
    before: { hourly: { low: number; high: number } };
    after: { hourly: { low: number; high: number } };
  };
}

/** Each resource as `[name, op, before, after]`, figures rounded. */
const rows = (json: CostJson) =>
  json.resources
    .map((x) => [
      x.name,
      x.op,
      x.before?.hourly ? range(x.before.hourly.low, x.before.hourly.high) : (x.before?.kind ?? null),
      x.after?.hourly ? range(x.after.hourly.low, x.after.hourly.high) : (x.after?.kind ?? null),
    ])
    .sort((a, b) => String(a[0]).localeCompare(String(b[0])));

let emu: RunningEmulator;
let stack: ProgramStack;
let scratch: string;
let prices: string;

/** `runpod-dynamic <args>` against the emulator, `stdin` piped in, its JSON answer parsed. */
async function cost(stdin: string, ...args: string[]): Promise<CostJson> {
  const res = await runCli(["cost", "--json", "--prices", prices, ...args], { RUNPOD_API_KEY: "" }, stdin);
  if (res.code !== 0) throw new Error(`cost exited ${res.code}: ${res.stderr}`);
  return JSON.parse(res.stdout) as CostJson;
}

beforeAll(async () => {
  emu = await emulatorLib.startEmulator({ clockScale: TIME_SCALE, randomSeed: 25 });
  scratch = mkdtempSync(join(tmpdir(), "runpod-e2e-cost-"));
  prices = join(scratch, "prices.json");
  const wrote = await runCli(["catalog", "snapshot", "--out", prices], emu.env());
  if (wrote.code !== 0) throw new Error(wrote.stderr);
  stack = await stackOnEmulator(emu, join(EXAMPLES_DIR, "quickstart"));
}, 120_000);
afterAll(async () => {
  stack?.dispose();
  await emu?.close();
});

describe("examples/quickstart priced through the real CLI", { timeout: 180_000 }, () => {
  it("its preview's JSON gives every resource's list rate and the totals", async () => {
    const preview = await stack.run(["preview", "--json"]);
    const json = await cost(preview.stdout);
    expect([preview.code, json.kind, json.unlisted, rows(json)]).toEqual([
      0,
      "preview",
      0,
      [
        ["my-key", "create", null, "no-charge"],
        ["sdxl", "create", null, range(0, 2.76)],
        ["smoke-test", "create", null, "no-charge"],
        ["trainer", "create", null, range(TRAINER)],
        ["workspace", "create", null, range(WORKSPACE)],
      ],
    ]);
    expect(range(json.totals.after.hourly.low, json.totals.after.hourly.high)).toEqual(
      range(TRAINER + WORKSPACE, TRAINER + WORKSPACE + 2.76),
    );
  });

  it("the cost-budget policy fails a preview over budget, saying by how much and what adds it", async () => {
    const config = join(scratch, "over.json");
    writeFileSync(config, JSON.stringify({ "cost-budget": { pricesFile: prices, maxStackHourly: 3 } }));
    const res = await stack.run(["preview", "--policy-pack", POLICY, "--policy-pack-config", config]);
    expect([res.code, res.stdout]).toEqual([
      1,
      expect.stringContaining(
        'This stack, cost: it would cost up to $5.76/h at list price ($4,147.50 per 30-day month), $2.76/h over maxStackHourly $3.00/h. Added by this change: Pod "trainer" $3.00/h, ServerlessEndpoint "sdxl" $0.00-$2.76/h, NetworkVolume "workspace" $0.0049/h.',
      ),
    ]);
    expect(res.stdout).toMatch(
      new RegExp(`❌ ${PACK_IN_SUMMARY}[\\s\\S]*- \\[mandatory\\] +cost-budget +\\(pulumi:pulumi:Stack`),
    );
  });

  it("and passes one under it", async () => {
    const config = join(scratch, "under.json");
    writeFileSync(
      config,
      JSON.stringify({
        "cost-budget": { pricesFile: prices, maxStackHourly: 10, maxPodHourly: 3.5, maxGpuHourly: 3 },
      }),
    );
    const res = await stack.run(["preview", "--policy-pack", POLICY, "--policy-pack-config", config]);
    expect([res.code, res.stdout]).toEqual([0, expect.not.stringContaining("cost-budget")]);
  });

  it("after up, a change's preview (--show-sames) gives each resource before and after", async () => {
    const up = await stack.run(["up", "--yes", "--skip-preview"]);
    expect(up.code).toBe(0);
    await stack.setConfig({
      "runpod-quickstart:gpuType": "NVIDIA A100 80GB PCIe",
      "runpod-quickstart:workersMax": "3",
      "runpod-quickstart:volumeSize": "100",
    });
    const preview = await stack.run(["preview", "--json", "--show-sames"]);
    const json = await cost(preview.stdout);
    const a100 = 1.64 + storage(40, 0.1);
    expect([preview.code, json.unlisted, rows(json)]).toEqual([
      0,
      0,
      [
        ["my-key", "same", "no-charge", "no-charge"],
        ["sdxl", "update", range(0, 2.76), range(0, 4.14)],
        ["smoke-test", "same", "no-charge", "no-charge"],
        ["trainer", "replace", range(TRAINER), range(a100)],
        ["workspace", "update", range(WORKSPACE), range(storage(100, 0.07))],
      ],
    ]);
    const billed = json.resources.find((x) => x.name === "trainer")?.before?.billedHourly;
    expect(billed).toBe(2.99);
    // Without --show-sames the preview leaves the unchanged ones out, and the totals say so: the
    // key, the smoke test and the stack's identity, as Pulumi's own summary counts them.
    const partial = await cost((await stack.run(["preview", "--json"])).stdout);
    expect([partial.unlisted, partial.resources.length]).toEqual([3, 3]);
  });

  it("the stack's state: what it runs now at list price, and what RunPod bills the pod", async () => {
    const { text } = await stack.exportState();
    const json = await cost(text);
    expect([json.kind, rows(json)]).toEqual([
      "state",
      [
        ["my-key", "same", "no-charge", "no-charge"],
        ["sdxl", "same", range(0, 2.76), range(0, 2.76)],
        ["smoke-test", "same", "no-charge", "no-charge"],
        ["trainer", "same", range(TRAINER), range(TRAINER)],
        ["workspace", "same", range(WORKSPACE), range(WORKSPACE)],
      ],
    ]);
    expect(json.resources.find((x) => x.name === "trainer")?.after?.billedHourly).toBe(2.99);
    const down = await stack.run(["destroy", "--yes", "--skip-preview"]);
    expect(down.code).toBe(0);
  });
});

describe("examples/gitops: the pull request's cost step, as its workflow runs it", {
  timeout: 180_000,
}, () => {
  const GITOPS = join(EXAMPLES_DIR, "gitops");
  const workflow = parseYaml(readFileSync(join(GITOPS, ".github", "workflows", "runpod.yml"), "utf8")) as {
    jobs: Record<
      string,
      { steps: { name?: string; run?: string; uses?: string; with?: Record<string, string> }[] }
    >;
  };
  const steps = workflow.jobs.preview?.steps ?? [];
  const step = (name: string) => {
    const found = steps.find((s) => s.name === name);
    if (!found) throw new Error(`the preview job has no step "${name}"`);
    return found;
  };
  let gitops: ProgramStack;
  beforeAll(async () => {
    gitops = await stackOnEmulator(emu, GITOPS, { stack: "prod" });
    await gitops.setConfig({}, { "runpod-gitops:hfToken": "hf_COST_TEST" });
  });
  afterAll(() => gitops?.dispose());

  it.each([GITOPS, join(EXAMPLES_DIR, "gitops-python")])(
    "the committed price snapshot of %s is the emulator's catalog (a sample, until a user writes theirs)",
    (example) => {
      const sample = JSON.parse(readFileSync(join(example, "runpod-prices.json"), "utf8")) as Record<
        string,
        unknown
      >;
      const fresh = JSON.parse(readFileSync(prices, "utf8")) as Record<string, unknown>;
      expect([sample.gpus, sample.cpus, sample.dataCenters]).toEqual([
        fresh.gpus,
        fresh.cpus,
        fresh.dataCenters,
      ]);
    },
  );

  it("renders the comment from a real preview and posts that file", async () => {
    const program = gitops.dir;
    // The job's own steps, in order: the JSON preview, then the cost step.
    const preview = await gitops.run(["preview", "--json", "--show-sames"]);
    writeFileSync(join(program, "preview.json"), preview.stdout);
    cpSync(join(GITOPS, "runpod-prices.json"), join(program, "runpod-prices.json"));
    const summary = join(scratch, "summary.md");
    writeFileSync(summary, "");
    const script = step("Cost of this change").run ?? "";
    await promisify(execFile)("bash", ["-eo", "pipefail", "-c", script], {
      cwd: program,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", GITHUB_STEP_SUMMARY: summary },
    });
    const comment = readFileSync(join(program, "cost.md"), "utf8");
    const notebook = `| \`notebook\` | Pod | create |  | $0.4400-$0.8600 | +$0.4400 to +$0.8600 | $316.80-$619.20 |`;
    const lines = comment.split("\n");
    expect([preview.code, lines.slice(0, 4), lines.filter((l) => l.startsWith("| `"))]).toEqual([
      0,
      [
        "### RunPod: what this change costs",
        "",
        "| Resource | Type | Op | Before /h | After /h | Change /h | After /month |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: |",
      ],
      [`| \`workspace\` | NetworkVolume | create |  | $0.0019 | +$0.0019 | $1.40 |`, notebook],
    ]);
    // What autostop caps, among the notes: the window (60 minutes) at the pod's rate.
    expect(lines).toContain(
      '- autostop: stopped after 60 min with every GPU under 5 %, so an idle spell bills about $0.4400-$0.8600 before it stops (Pod "notebook")',
    );
    expect(readFileSync(summary, "utf8")).toBe(comment);
    expect(step("Comment the cost")).toEqual({
      name: "Comment the cost",
      uses: "marocchino/sticky-pull-request-comment@v2",
      with: { header: "runpod-cost", path: "cost.md" },
    });
  });
});
