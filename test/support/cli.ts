/** Runs the built CLI binary as a child process, the way a user runs `npx runpod-dynamic`. */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { join } from "node:path";
import { REPO_ROOT } from "./dist.js";

export const CLI = join(REPO_ROOT, "dist", "cli", "main.js");

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function runCli(args: readonly string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", TZ: "UTC", ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Starts a long-running CLI command and resolves once its output contains `ready`. */
export function startCli(
  args: readonly string[],
  ready: RegExp,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcessWithoutNullStreams; output: () => string; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
  });
  let out = "";
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (ready.test(out)) resolve({ child, output: () => out, exited });
    });
    child.stderr.on("data", (d: Buffer) => {
      out += d.toString();
    });
    child.on("close", (code) => reject(new Error(`exited with ${code} before ready: ${out}`)));
  });
}
