/**
 * The Python program of docs/languages.md (examples/python) as a Python user runs it: the plugin installed
 * with `npm install -g` of the packed package (the engine finds it on PATH), Pulumi's Python SDK
 * from PyPI at the CLI's version and the generated SDK from sdk/python installed with pip into a
 * fresh virtual environment, the program run through Pulumi's Python Automation API against the
 * emulator: up of a pod with a secret env value on a network volume, a change in place, destroy.
 * And what a Python user's type checker sees: mypy (from PyPI) over a program that reads each
 * output as the type its declaration gives it, and over every Python example of the schema.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PINNED_PULUMI_VERSION, quietEnv, REPO_ROOT, requirePulumiCli } from "../../harness/pulumi-cli.js";
import type { StateDeployment } from "../../harness/stack.js";
import { packTarball } from "../package/installed.js";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { pluginConfig } from "../support/plugin.js";
import { WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";
import { livePodIds, TIME_SCALE } from "../support/stack.js";

const run = promisify(execFile);
const PROGRAM = join(REPO_ROOT, "examples", "python", "__main__.py");
const DRIVER = join(__dirname, "python", "drive.py");
const TYPED = join(__dirname, "python", "typed.py");
/** The type checker, pinned: a new release may judge the same code otherwise. */
const MYPY = "mypy==2.4.1";
const HF_TOKEN = "hf_python_plugin_token_9b1d";

let emu: RunningEmulator;
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
  const cli = requirePulumiCli();
  // docs/languages.md's way: the plugin's executable on PATH, from the package installed globally.
  const prefix = join(work, "global");
  const installPlugin = async () =>
    run("npm", ["install", "--global", "--prefix", prefix, "--no-audit", "--no-fund", await packTarball()]);
  // pip builds in the folder it installs from: a copy keeps sdk/ exactly what the generators wrote.
  const sdk = join(work, "sdk-python");
  cpSync(join(REPO_ROOT, "sdk", "python"), sdk, { recursive: true });
  const venv = join(work, "venv");
  python = join(venv, "bin", "python");
  const installSdk = async () => {
    await run("python3", ["-m", "venv", venv]);
    await run(python, [
      "-m",
      "pip",
      "install",
      "--quiet",
      "--disable-pip-version-check",
      `pulumi==${PINNED_PULUMI_VERSION.replace(/^v/, "")}`,
      MYPY,
      sdk,
    ]);
  };
  // Two installs that share nothing: side by side.
  await Promise.all([installPlugin(), installSdk()]);
  mkdirSync(join(work, "backend"));
  mkdirSync(join(work, "project"));
  env = quietEnv({
    PATH: [join(prefix, "bin"), cli.dir, process.env.PATH ?? ""].join(delimiter),
    PULUMI_BACKEND_URL: `file://${join(work, "backend")}`,
    PULUMI_HOME: join(work, "home"),
    PULUMI_CONFIG_PASSPHRASE: "runpod-dynamic-tests",
    RUNPOD_API_KEY: "",
    RUNPOD_BASE_URL: "",
    RUNPOD_DYNAMIC_TIME_SCALE: String(TIME_SCALE),
  });
}, 300_000);
afterAll(async () => {
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
  const { plain, secret } = pluginConfig(emu);
  const settings = {
    plain: { ...plain, ...config },
    secret: { ...secret, "runpod-python:hfToken": HF_TOKEN },
  };
  try {
    const { stdout } = await run(
      python,
      [DRIVER, operation, PROGRAM, join(work, "project"), JSON.stringify(settings)],
      { env, maxBuffer: 64 * 1024 * 1024 },
    );
    return JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as Driven;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${operation} failed: ${e.message}\n${e.stdout ?? ""}\n${e.stderr ?? ""}`);
  }
}

const podOf = (d: Driven) => (d.state.resources ?? []).find((r) => r.type === "runpod-dynamic:index:Pod");
// The stack, the volume and the pod (the default provider is not counted as a change).

describe("the Python program of docs/languages.md on the provider plugin", { timeout: 300_000 }, () => {
  let podId: unknown;

  it("creates a RUNNING pod on a network volume with a secret env value, kept secret in state", async () => {
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
    expect({
      changes: up.changes,
      status: up.outputs.status,
      running: emu.control.snapshot().pods.find((p) => p.id === podId)?.status,
      mountedOn: (pod?.outputs?.mounts as { network?: { volumeId: string }[] })?.network?.[0]?.volumeId,
      provider: text.includes("__provider"),
      token: text.includes(HF_TOKEN),
      key: text.includes(String(emu.pulumiConfig()["runpod:apiKey"])),
      envSecret: [secret(pod?.inputs?.env), secret(pod?.outputs?.env)],
    }).toEqual({
      changes: { create: 3 },
      status: "RUNNING",
      running: "RUNNING",
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
    ]).toEqual([{ same: 2, update: 1 }, podId, "python-renamed"]);
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

  it("destroys the pod and the volume", async () => {
    const before = emu.control.snapshot().networkVolumes.length;
    const down = await drive("destroy", { "runpod-python:podName": "python-renamed" });
    expect([down.changes, livePodIds(emu), emu.control.snapshot().networkVolumes.length]).toEqual([
      { delete: 3 },
      [],
      before - 1,
    ]);
  });
});
