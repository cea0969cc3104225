/**
 * A Python team's pipeline (examples/gitops-python) and the released policy pack on Python
 * programs, as the team gets them: the release (the rehearsal's folder) served from 127.0.0.1 as
 * GitHub's release downloads and as a package index; the workflow's own steps run as it writes
 * them (the pack from the release archive, the cost comment from the release's npm tarball); the
 * programs run through Pulumi's Python Automation API (no Python language host here,
 * docs/languages.md) with `policy_packs=` against the emulator. The pack is a Node.js program: Node
 * is on PATH, as the workflow's `actions/setup-node` puts it.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { quietEnv, REPO_ROOT, requirePulumiCli } from "../../harness/pulumi-cli.js";
import type { Rehearsal } from "../../harness/release-rehearse.js";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { PACK_IN_SUMMARY } from "../support/policy.js";
import { type AutomationSettings, automationArgs, pythonWithPulumi } from "../support/python.js";
import { fetchingEnv, rehearsal, type ServedFolder, serveFolder } from "../support/release.js";
import { WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";
import { livePodIds, TIME_SCALE } from "../support/stack.js";

const run = promisify(execFile);
const EXAMPLE = join(REPO_ROOT, "examples", "gitops-python");
const CHECKS = join(__dirname, "python-policy", "__main__.py");
const HF_TOKEN = "hf_python_gitops_secret_41c7";

interface Step {
  readonly name?: string;
  readonly run?: string;
  readonly uses?: string;
  readonly with?: Record<string, string>;
}
const workflow = parseYaml(readFileSync(join(EXAMPLE, ".github", "workflows", "runpod.yml"), "utf8")) as {
  env: Record<string, string>;
  jobs: Record<string, { steps: Step[] }>;
};
const stepOf = (job: string, name: string) => {
  const found = workflow.jobs[job]?.steps.find((s) => s.name === name);
  if (!found?.run) throw new Error(`the ${job} job has no step "${name}" that runs a script`);
  return found.run;
};

let emu: RunningEmulator;
let release: Rehearsal;
/** The release's files, for pip and the engine's plugin download. */
let served: ServedFolder;
/** Where the workflow's RUNPOD_DYNAMIC_RELEASES points: `v<version>/` holds the release's files. */
let releases: ServedFolder;
let work: string;
/** The team's repository: the example's files, as the workflow's checkout has them. */
let repo: string;
let python: string;
let env: Record<string, string>;

beforeAll(async () => {
  emu = await emulatorLib.startEmulator({
    clockScale: TIME_SCALE,
    randomSeed: 49,
    seed: WITHOUT_HISTORY_RESOURCES,
  });
  work = mkdtempSync(join(tmpdir(), "runpod-python-gitops-"));
  release = await rehearsal();
  served = await serveFolder(release.dir);
  mkdirSync(join(work, "releases"));
  symlinkSync(release.dir, join(work, "releases", `v${release.version}`));
  releases = await serveFolder(join(work, "releases"));
  repo = join(work, "repo");
  cpSync(EXAMPLE, repo, { recursive: true });
  python = await pythonWithPulumi(join(work, "venv"), [
    "--find-links",
    `${served.url}/`,
    "-r",
    join(repo, "requirements.txt"),
  ]);
  mkdirSync(join(work, "backend"));
  env = quietEnv({
    PATH: [requirePulumiCli().dir, process.env.PATH ?? ""].join(":"),
    HOME: work,
    PULUMI_BACKEND_URL: `file://${join(work, "backend")}`,
    PULUMI_HOME: join(work, "home"),
    PULUMI_CONFIG_PASSPHRASE: "runpod-dynamic-tests",
    ...fetchingEnv(served),
  });
}, 600_000);
afterAll(async () => {
  await served?.close();
  await releases?.close();
  await emu?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** A step of the workflow's preview job, run as it is written, in the team's repository. */
async function workflowStep(name: string, summary = join(work, "summary.md")): Promise<void> {
  await run("bash", ["-eo", "pipefail", "-c", stepOf("preview", name)], {
    cwd: repo,
    // The machine's own environment (npm's registry settings and certificates among it), as a runner's.
    env: {
      ...process.env,
      GITHUB_STEP_SUMMARY: summary,
      RUNPOD_DYNAMIC_VERSION: release.version,
      RUNPOD_DYNAMIC_RELEASES: releases.url,
    },
    maxBuffer: 64 * 1024 * 1024,
  });
}

/**
 * One operation of a Python program through the Automation API, its settings kept in
 * `projects/<name>`; a failing preview resolves too, with code 1.
 */
async function drive(
  operation: "preview" | "up" | "destroy",
  program: string,
  name: string,
  settings: AutomationSettings,
): Promise<{ code: number; stdout: string }> {
  return run(python, automationArgs(emu, operation, program, join(work, "projects", name), settings), {
    env,
    maxBuffer: 64 * 1024 * 1024,
  }).then(
    (r) => ({ code: 0, stdout: r.stdout }),
    (err: { code?: number; stdout?: string; stderr?: string }) => {
      if (err.code !== 1) throw new Error(`${operation} failed: ${err.stdout ?? ""}\n${err.stderr ?? ""}`);
      return { code: 1, stdout: err.stdout ?? "" };
    },
  );
}

const gitops = (operation: "preview" | "up" | "destroy", extra: Parameters<typeof drive>[3] = {}) =>
  drive(operation, join(repo, "__main__.py"), "gitops", {
    ...extra,
    secret: { "runpod-gitops:hfToken": HF_TOKEN },
  });

describe("examples/gitops-python: the pull request's steps, as its workflow writes them", {
  timeout: 600_000,
}, () => {
  it("the Policy pack step unpacks the release's pack into policy/ and installs it", async () => {
    await workflowStep("Policy pack");
    const pkg = JSON.parse(readFileSync(join(repo, "policy", "package.json"), "utf8")) as {
      name: string;
      version: string;
    };
    const installed = JSON.parse(
      readFileSync(join(repo, "policy", "node_modules", "@pulumi", "policy", "package.json"), "utf8"),
    ) as { version: string };
    const tested = JSON.parse(
      readFileSync(join(REPO_ROOT, "node_modules", "@pulumi", "policy", "package.json"), "utf8"),
    ) as { version: string };
    expect([pkg.name, pkg.version, installed.version, releases.asked]).toEqual([
      "runpod-policies",
      release.version,
      tested.version,
      [`/v${release.version}/runpod-policies-v${release.version}.tar.gz`],
    ]);
  });

  it("the JSON preview, then the cost step run with the release's command-line tool, renders the comment", async () => {
    const preview = await gitops("preview", { json: true });
    writeFileSync(join(repo, "preview.json"), preview.stdout);
    const summary = join(work, "summary.md");
    writeFileSync(summary, "");
    await workflowStep("Cost of this change", summary);
    const comment = readFileSync(join(repo, "cost.md"), "utf8");
    const lines = comment.split("\n");
    expect([
      preview.code,
      releases.asked.includes(`/v${release.version}/runpod-dynamic-${release.version}.tgz`),
      lines[0],
      lines.filter((l) => l.startsWith("| `")),
    ]).toEqual([
      0,
      true,
      "### RunPod: what this change costs",
      [
        "| `workspace` | NetworkVolume | create |  | $0.0019 | +$0.0019 | $1.40 |",
        "| `notebook` | Pod | create |  | $0.4400-$0.8600 | +$0.4400 to +$0.8600 | $316.80-$619.20 |",
      ],
    ]);
    expect(lines).toContain(
      '- autostop: stopped after 60 min with every GPU under 5 %, so an idle spell bills about $0.4400-$0.8600 before it stops (Pod "notebook")',
    );
    expect(readFileSync(summary, "utf8")).toBe(comment);
  });

  it("the preview with the pack and the example's config passes; a budget under the stack's cost fails it", async () => {
    const pack = [join(repo, "policy")];
    const passed = await gitops("preview", {
      policyPacks: pack,
      policyPackConfigs: [join(repo, "policy-config.json")],
    });
    const config = JSON.parse(readFileSync(join(repo, "policy-config.json"), "utf8")) as Record<
      string,
      Record<string, unknown>
    >;
    const tight = join(repo, "policy-config-tight.json");
    writeFileSync(
      tight,
      JSON.stringify({ ...config, "cost-budget": { ...config["cost-budget"], maxStackHourly: 0.5 } }),
    );
    const failed = await gitops("preview", { policyPacks: pack, policyPackConfigs: [tight] });
    expect([passed.code, passed.stdout.includes("violation"), failed.code]).toEqual([0, false, 1]);
    // It passed with the pack run, not without it: its summary line, advisories (⚠️) or none (✅).
    expect(passed.stdout).toMatch(new RegExp(`(✅|⚠️) ${PACK_IN_SUMMARY}`));
    expect(failed.stdout).toMatch(
      /This stack, cost: it would cost up to \$0\.86\d*\/h at list price[^\n]*over maxStackHourly \$0\.50+\/h\. Added by this change: Pod "notebook" \$0\.4400-\$0\.8600\/h/,
    );
    expect(failed.stdout).toMatch(new RegExp(`❌ ${PACK_IN_SUMMARY}[\\s\\S]*\\[mandatory\\] +cost-budget`));
  });

  it("up with the pack (the merge's job) creates the pod; destroy removes it", async () => {
    const pack = {
      policyPacks: [join(repo, "policy")],
      policyPackConfigs: [join(repo, "policy-config.json")],
    };
    const up = JSON.parse((await gitops("up", pack)).stdout.trim().split("\n").pop() ?? "{}") as {
      changes: Record<string, number>;
      outputs: Record<string, unknown>;
    };
    const live = emu.control.snapshot().pods.find((p) => p.id === up.outputs.pod_id);
    expect([up.changes, up.outputs.status, live?.status, live?.env.HF_TOKEN]).toEqual([
      { create: 3 },
      "RUNNING",
      "RUNNING",
      HF_TOKEN,
    ]);
    const down = JSON.parse((await gitops("destroy")).stdout.trim().split("\n").pop() ?? "{}") as {
      changes: Record<string, number>;
    };
    expect([down.changes, livePodIds(emu)]).toEqual([{ delete: 3 }, []]);
  });
});

describe("the released pack on a Python program's preview", { timeout: 300_000 }, () => {
  const checks = (kind: "invalid" | "env") =>
    drive("preview", CHECKS, kind, {
      config: { "python-policy-check:case": kind },
      secret: { "python-policy-check:hfToken": "hf_from_secret_config" },
      policyPacks: [join(repo, "policy")],
    });

  it("rejects a persistent disk beside a network volume before any API call", async () => {
    const pods = emu.control.snapshot().pods.length;
    const res = await checks("invalid");
    expect([res.code, emu.control.snapshot().pods.length]).toEqual([1, pods]);
    expect(res.stdout).toMatch(/Pod "notebook", mounts\.persistent: [^\n]*network/);
    expect(res.stdout).toMatch(
      new RegExp(`❌ ${PACK_IN_SUMMARY}[\\s\\S]*\\[mandatory\\] +pod-persistent-with-network`),
    );
  });

  it("env-secrets reports the HF_TOKEN the program writes as plain text, not the one from secret config", async () => {
    const res = await checks("env");
    const reported = [
      ...res.stdout.matchAll(/Pod "(\w+)", env\.HF_TOKEN: the name looks like a credential/g),
    ].map((m) => m[1]);
    expect([res.code, reported, res.stdout.includes("hf_from_secret_config")]).toEqual([0, ["plain"], false]);
  });
});
