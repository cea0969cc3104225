/**
 * The Python program of docs/languages.md (examples/python) as a Python team runs it from a release,
 * with no Node.js on the machine: the example's requirements.txt (`pulumi-runpod-dynamic` from a
 * package index: the rehearsal's folder served from 127.0.0.1, test/support/release.ts) and Pulumi's
 * Python SDK from PyPI at the CLI's version installed with pip into a fresh virtual environment; the plugin fetched
 * by the engine from the download location the SDK names; the program run through Pulumi's Python
 * Automation API (examples/python/automation.py) against the emulator: up of a pod with the team's
 * SSH key and a secret env value on a network volume, a change in place, destroy.
 * And what a Python user's type checker sees: mypy (from PyPI) over a program that reads each
 * output as the type its declaration gives it, and over every Python example of the schema.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../harness/pulumi-cli.js";
import type { Rehearsal } from "../../harness/release-rehearse.js";
import type { StateDeployment } from "../../harness/stack.js";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { automationArgs, pythonWithPulumi } from "../support/python.js";
import {
  machineWithoutNodeEnv,
  rehearsal,
  runWithoutNode,
  type ServedFolder,
  servedArchive,
  serveFolder,
} from "../support/release.js";
import { WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";
import { livePodIds, TIME_SCALE } from "../support/stack.js";

const run = promisify(execFile);
const PROGRAM = join(REPO_ROOT, "examples", "python", "__main__.py");
const REQUIREMENTS = join(REPO_ROOT, "examples", "python", "requirements.txt");
const TYPED = join(__dirname, "python", "typed.py");
/** The type checker, pinned: a new release may judge the same code otherwise. */
const MYPY = "mypy==2.4.1";
const HF_TOKEN = "hf_python_plugin_token_9b1d";
const TEAM_KEY =
  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcH team@example";

let emu: RunningEmulator;
let release: Rehearsal;
let served: ServedFolder;
let work: string;
let env: Record<string, string>;
let python: string;

beforeAll(async () => {
  emu = await emulatorLib.startEmulator({
    clockScale: TIME_SCALE,
    randomSeed: 36,
    seed: WITHOUT_HISTORY_RESOURCES,
  });
  work = mkdtempSync(join(tmpdir(), "runpod-python-"));
  release = await rehearsal();
  served = await serveFolder(release.dir);
  // As a team installs it: the example's requirements, and the type checker.
  python = await pythonWithPulumi(join(work, "venv"), [
    "--find-links",
    `${served.url}/`,
    "-r",
    REQUIREMENTS,
    MYPY,
  ]);
  mkdirSync(join(work, "backend"));
  mkdirSync(join(work, "project"));
  env = machineWithoutNodeEnv(served, work);
}, 600_000);
afterAll(async () => {
  await served?.close();
  await emu?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

interface Driven {
  readonly changes: Record<string, number>;
  readonly outputs: Record<string, unknown>;
  readonly state: StateDeployment;
}

/** One operation of the program through the Automation API, with the stack config `config`. */
async function drive(operation: "up" | "destroy", config: Record<string, string> = {}): Promise<Driven> {
  const { stdout } = await runWithoutNode(
    python,
    automationArgs(emu, operation, PROGRAM, join(work, "project"), {
      config: { "runpod-python:sshPublicKey": TEAM_KEY, ...config },
      secret: { "runpod-python:hfToken": HF_TOKEN },
    }),
    { env },
  );
  return JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as Driven;
}

const podOf = (d: Driven) => (d.state.resources ?? []).find((r) => r.type === "runpod-dynamic:index:Pod");
// The stack, the key, the volume and the pod (the default provider is not counted as a change).

describe("the Python program of docs/languages.md on the provider plugin", { timeout: 300_000 }, () => {
  let podId: unknown;

  it("installs the SDK from the release, fetches the plugin, creates a RUNNING pod with the team's key on a network volume, a secret env value kept secret in state", async () => {
    const up = await drive("up");
    podId = up.outputs.pod_id;
    // The state as the backend stores it (the Automation API's export shows secrets).
    const text = readFileSync(
      join(work, "backend", ".pulumi", "stacks", "runpod-python", "dev.json"),
      "utf8",
    );
    const pod = podOf(up);
    const volume = (up.state.resources ?? []).find((r) => r.type === "runpod-dynamic:index:NetworkVolume");
    const secret = (v: unknown) =>
      typeof v === "object" && v !== null && "4dabf18193072939515e22adb298388d" in v;
    const live = emu.control.snapshot().pods.find((p) => p.id === podId);
    expect({
      fetched: [
        served.asked.includes(`/pulumi_runpod_dynamic-${release.version}-py3-none-any.whl`),
        served.asked.includes(servedArchive(release)),
      ],
      changes: up.changes,
      status: up.outputs.status,
      running: live?.status,
      ssh: live?.env.PUBLIC_KEY?.includes(TEAM_KEY),
      mountedOn: (pod?.outputs?.mounts as { network?: { volumeId: string }[] })?.network?.[0]?.volumeId,
      provider: text.includes("__provider"),
      token: text.includes(HF_TOKEN),
      key: text.includes(String(emu.pulumiConfig()["runpod:apiKey"])),
      envSecret: [secret(pod?.inputs?.env), secret(pod?.outputs?.env)],
    }).toEqual({
      fetched: [true, true],
      changes: { create: 4 },
      status: "RUNNING",
      running: "RUNNING",
      ssh: true,
      mountedOn: volume?.id,
      provider: false,
      token: false,
      key: false,
      envSecret: [true, true],
    });
    expect(emu.control.snapshot().pods.find((p) => p.id === podId)?.env.HF_TOKEN).toBe(HF_TOKEN);
  });

  it("renames the pod in place", async () => {
    const up = await drive("up", { "runpod-python:podName": "python-renamed" });
    expect([
      up.changes,
      up.outputs.pod_id,
      emu.control.snapshot().pods.find((p) => p.id === podId)?.name,
    ]).toEqual([{ same: 3, update: 1 }, podId, "python-renamed"]);
  });

  it("type-checks with mypy: every output as declared, and every Python example of the schema", async () => {
    const schema = JSON.parse(readFileSync(join(REPO_ROOT, "sdk", "schema.json"), "utf8")) as {
      resources: Record<string, { description: string }>;
    };
    const examples = join(work, "examples");
    mkdirSync(examples);
    const files = Object.entries(schema.resources).flatMap(([token, r]) =>
      [...r.description.matchAll(/```python\n([\s\S]*?)```/g)].map((m, i) => {
        const file = join(examples, `${token.split(":").pop()?.toLowerCase()}_${i}.py`);
        writeFileSync(file, m[1] ?? "");
        return file;
      }),
    );
    const checked = await run(python, ["-m", "mypy", "--python-version", "3.11", TYPED, ...files], {
      env: { PATH: process.env.PATH ?? "", HOME: work },
      cwd: work,
    }).then(
      (r) => r.stdout,
      (err: { stdout?: string }) => err.stdout ?? String(err),
    );
    expect([files.length, checked.trim()]).toEqual([
      9,
      `Success: no issues found in ${files.length + 1} source files`,
    ]);
  });

  it("destroys the pod, the volume and the key", async () => {
    const before = emu.control.snapshot().networkVolumes.length;
    const down = await drive("destroy", { "runpod-python:podName": "python-renamed" });
    expect([down.changes, livePodIds(emu), emu.control.snapshot().networkVolumes.length]).toEqual([
      { delete: 4 },
      [],
      before - 1,
    ]);
  });
});
