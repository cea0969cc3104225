/**
 * The README's main job: runs examples/quickstart end to end against a freshly started local
 * emulator, shows what was created, then destroys it. No RunPod account needed.
 *
 * With the real Pulumi CLI (built by `npm run pulumi-cli`, or a `pulumi` on PATH) every step is the
 * command a user types, run by the real engine. Without one, the small stand-in engine of
 * harness/engine.ts plays the engine's part under Pulumi's own Node runtime and provider host, and
 * the first line says so.
 *
 *   npm run quickstart
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { HISTORY_ENDPOINTS, HISTORY_PODS, type RunningEmulator, startEmulator } from "../emulator/index.js";
import { messageOf } from "../provider/client/errors.js";
import { deploy, destroy, isSecret, type Operation, StackState } from "./engine.js";
import { findPulumiCli, type PulumiCli, REPO_ROOT } from "./pulumi-cli.js";
import { ProgramStack } from "./stack.js";

const TIME_SCALE = 10;
const QUICKSTART = join(REPO_ROOT, "examples", "quickstart");
const RUNPOD_CLI = join(REPO_ROOT, "dist", "cli", "main.js");
const out = (line = "") => process.stdout.write(`${line}\n`);
const indented = (text: string) => {
  for (const line of text.split("\n")) if (line.trim() !== "") out(`    ${line}`);
};

/**
 * `runpod-dynamic cost` on a preview or a state export, against the emulator's catalog, as a user
 * pipes it (`pulumi preview --json | npx runpod-dynamic cost`); its lines printed indented. Run
 * asynchronously: the emulator answering it lives in this process.
 */
async function printCost(emu: RunningEmulator, document: string): Promise<boolean> {
  const child = spawn(process.execPath, [RUNPOD_CLI, "cost", "-"], {
    env: { PATH: process.env.PATH ?? "", ...emu.env() },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  child.stdin.end(document);
  const code = await new Promise<number | null>((done) => child.on("close", done));
  indented(stdout);
  if (code !== 0) indented(stderr);
  return code === 0;
}

/**
 * The stack's pods and endpoints the emulator still holds: those it did not hold at the start (the
 * seed's own, the ones its billing history bills, are the account's and stay).
 */
function leftIn(emu: RunningEmulator): { pods: number; endpoints: number } {
  const left = emu.control.snapshot();
  const pods = left.pods.filter(
    (p) => !p.cluster && p.status !== "TERMINATED" && !(HISTORY_PODS as readonly string[]).includes(p.id),
  ).length;
  const endpoints = left.endpoints.filter((e) => !(HISTORY_ENDPOINTS as readonly string[]).includes(e.id));
  return { pods, endpoints: endpoints.length };
}

async function withRealCli(cli: PulumiCli, emu: RunningEmulator): Promise<number> {
  const stack = await ProgramStack.create({
    programDir: QUICKSTART,
    env: { RUNPOD_API_KEY: "", RUNPOD_BASE_URL: "", RUNPOD_DYNAMIC_TIME_SCALE: String(TIME_SCALE) },
  });
  try {
    const { "runpod:apiKey": apiKey, ...urls } = emu.pulumiConfig();
    out("In examples/quickstart (here a scratch copy, with a local file backend), a user types:");
    out("  $ pulumi stack init dev");
    for (const [key, value] of Object.entries(urls)) out(`  $ pulumi config set ${key} ${value}`);
    out("  $ pulumi config set --secret runpod:apiKey <the emulator's test key>");
    await stack.setConfig(urls, { "runpod:apiKey": String(apiKey) });
    out("What it will cost, before anything is created (prices from the emulator's catalog):");
    out("  $ pulumi preview --json | npx runpod-dynamic cost");
    const preview = await stack.run(["preview", "--json"]);
    if (preview.code !== 0 || !(await printCost(emu, preview.stdout))) {
      out(`pulumi preview failed (exit ${preview.code}).`);
      indented(preview.stderr);
      return 1;
    }
    out("  $ pulumi up --yes");
    const up = await stack.run(["up", "--yes"], {}, indented);
    if (up.code !== 0) {
      out(`pulumi up failed (exit ${up.code}).`);
      return 1;
    }
    out("What the stack runs now, at list price and as billed:");
    out("  $ pulumi stack export | npx runpod-dynamic cost");
    if (!(await printCost(emu, (await stack.exportState()).text))) return 1;
    out("  $ pulumi destroy --yes");
    const down = await stack.run(["destroy", "--yes"], {}, indented);
    const left = leftIn(emu);
    out(`The emulator now holds ${left.pods} pods and ${left.endpoints} endpoints of this stack.`);
    out(
      `(pulumi ${cli.version}, ${cli.source === "built" ? `built from source in ${cli.dir}` : `from PATH: ${cli.bin}`})`,
    );
    return down.code === 0 && left.pods === 0 && left.endpoints === 0 ? 0 : 1;
  } finally {
    stack.dispose();
  }
}

function show(value: unknown): string {
  if (isSecret(value)) return "[secret]";
  if (value === null || value === undefined) return "-";
  return typeof value === "string" ? value : JSON.stringify(value);
}

function summarize(ops: readonly Operation[]): string {
  return ops.map((o) => `${o.op} ${o.type.split(":").pop()} ${o.name}`).join(", ");
}

async function withStandInEngine(emu: RunningEmulator): Promise<number> {
  const state = new StackState();
  const options = {
    programDir: QUICKSTART,
    project: "runpod-quickstart",
    stack: "dev",
    config: emu.pulumiConfig(),
    secretKeys: ["runpod:apiKey"],
    state,
    env: { RUNPOD_DYNAMIC_TIME_SCALE: String(TIME_SCALE) },
    log: (line: string) => {
      if (line.startsWith("[host] runpod ")) out(`  ${line.slice("[host] ".length)}`);
      else if (line.startsWith("[program]") || line.startsWith("[engine]")) out(`  ${line}`);
    },
  };
  out("pulumi up (examples/quickstart):");
  const up = await deploy(options);
  if (up.code !== 0) {
    out(`The program failed: ${up.errors.join("; ")}`);
    return 1;
  }
  out(`  ${summarize(up.ops)}`);
  out();
  out("Stack outputs:");
  for (const [k, v] of Object.entries(up.stackOutputs)) out(`  ${k.padEnd(16)} ${show(v)}`);
  out();
  out("What the stack runs now, at list price and as billed (runpod-dynamic cost on its state):");
  const resources = [...state.resources.values()].map(({ urn, type, inputs, outputs }) => ({
    urn,
    type,
    inputs,
    outputs,
  }));
  if (!(await printCost(emu, JSON.stringify({ version: 3, deployment: { resources } })))) return 1;
  out();
  out("pulumi destroy:");
  const down = await destroy(options);
  out(`  ${summarize(down.ops)}`);
  const left = leftIn(emu);
  out(`  the emulator now holds ${left.pods} pods and ${left.endpoints} endpoints of this stack.`);
  return left.pods === 0 && left.endpoints === 0 ? 0 : 1;
}

async function main(): Promise<number> {
  const cli = findPulumiCli();
  out(
    cli
      ? `Running the quickstart with the real Pulumi CLI ${cli.version} (${cli.source === "built" ? "built from source by npm run pulumi-cli" : "found on PATH"}).`
      : "No Pulumi CLI found (build one with `npm run pulumi-cli`, needs Go): running the quickstart with the stand-in engine of harness/engine.ts instead.",
  );
  const emu = await startEmulator({ clockScale: TIME_SCALE });
  out("Local RunPod emulator started:");
  out(`  base_url ${emu.baseUrl}   rest_url ${emu.restUrl}   serverless_url ${emu.serverlessUrl}`);
  out(`  (emulator time runs ${TIME_SCALE}x faster than the wall clock)`);
  out();
  try {
    return cli ? await withRealCli(cli, emu) : await withStandInEngine(emu);
  } finally {
    await emu.close();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    out(`Error: ${messageOf(err)}`);
    process.exitCode = 1;
  },
);
