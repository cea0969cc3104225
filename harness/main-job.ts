/**
 * The README's main job: runs examples/quickstart end to end against a freshly started local
 * emulator, prints what was created, then destroys it. No account and no Pulumi CLI needed: the
 * program runs under Pulumi's own Node runtime and provider host, with the small stand-in engine of
 * test/e2e/engine.ts playing the Go engine's part.
 *
 *   npm run quickstart
 */
import { join } from "node:path";
import { startEmulator } from "../emulator/index.js";
import { deploy, destroy, isSecret, type Operation, StackState } from "./engine.js";

const TIME_SCALE = 10;
const out = (line = "") => process.stdout.write(`${line}\n`);

function show(value: unknown): string {
  if (isSecret(value)) return "[secret]";
  if (value === null || value === undefined) return "-";
  return typeof value === "string" ? value : JSON.stringify(value);
}

function summarize(ops: readonly Operation[]): string {
  return ops.map((o) => `${o.op} ${o.type.split(":").pop()} ${o.name}`).join(", ");
}

async function main(): Promise<number> {
  const emu = await startEmulator({ clockScale: TIME_SCALE });
  out("Local RunPod emulator started:");
  out(`  base_url ${emu.baseUrl}   rest_url ${emu.restUrl}   serverless_url ${emu.serverlessUrl}`);
  out(`  (emulator time runs ${TIME_SCALE}x faster than the wall clock)`);
  out();
  const state = new StackState();
  const options = {
    programDir: join(__dirname, "..", "..", "examples", "quickstart"),
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
  try {
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
    out("pulumi destroy:");
    const down = await destroy(options);
    out(`  ${summarize(down.ops)}`);
    const left = emu.control.snapshot();
    const pods = left.pods.filter((p) => !p.cluster && p.status !== "TERMINATED").length;
    out(`  the emulator now holds ${pods} pods and ${left.endpoints.length} endpoints of this stack.`);
    return pods === 0 && left.endpoints.length === 0 ? 0 : 1;
  } finally {
    await emu.close();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    out(`Error: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  },
);
