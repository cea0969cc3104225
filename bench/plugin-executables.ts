/**
 * Scenario 9: the provider plugin as users install it (harness/plugin-executables.ts). Each
 * platform's archive and the executable inside it, in bytes; how long the five take to build; and
 * how long this machine's executable takes to start (to print its port, as the engine waits for it)
 * against the JavaScript plugin on the Node that runs the bench, the median of several starts each.
 */
import { execFile, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { promisify } from "node:util";
import {
  BUILD_PLATFORM,
  buildPluginExecutables,
  executableName,
  PLATFORMS,
  platformName,
} from "../harness/plugin-executables.js";
import { writeResult } from "./write-result.js";

const run = promisify(execFile);

export interface ExecutableFigures {
  readonly platforms: readonly { platform: string; archiveBytes: number; executableBytes: number }[];
  /** Wall seconds to build all five, from the bundle to the last archive. */
  readonly buildSeconds: number;
  /** Median wall seconds from spawn to the printed port: this machine's executable, and the JS plugin on Node. */
  readonly startSeconds: {
    readonly executable: number;
    readonly javascript: number;
    readonly starts: number;
  };
}

/** What bench/results/executables.json holds: the figures, when and on which Node they were measured. */
export interface ExecutablesReport extends ExecutableFigures {
  readonly measuredAt: string;
  readonly node: string;
}

/** Seconds from spawning `command` to its first line on stdout (the plugin's port). */
function secondsToPort(command: string, args: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const began = performance.now();
    const child = spawn(command, args, { stdio: ["pipe", "pipe", "ignore"] });
    child.stdout.once("data", () => {
      resolve((performance.now() - began) / 1000);
      child.kill("SIGKILL");
    });
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`${command} exited with ${code} before printing its port`)));
  });
}

async function medianStart(command: string, args: readonly string[], starts: number): Promise<number> {
  const seconds: number[] = [];
  for (let i = 0; i < starts; i++) seconds.push(await secondsToPort(command, args));
  seconds.sort((a, b) => a - b);
  return seconds[Math.floor(seconds.length / 2)] ?? Number.NaN;
}

export async function measurePluginExecutables(root: string, starts = 9): Promise<ExecutableFigures> {
  const out = mkdtempSync(join(tmpdir(), "runpod-bench-executables-"));
  try {
    const began = performance.now();
    const built = await buildPluginExecutables(out);
    const buildSeconds = (performance.now() - began) / 1000;
    const platforms = [];
    for (const p of PLATFORMS) {
      const archive = built.find((b) => b.platform === platformName(p));
      if (!archive) throw new Error(`no archive was built for ${platformName(p)}`);
      const dir = join(out, platformName(p));
      mkdirSync(dir, { recursive: true });
      await run("tar", ["-xzf", archive.archive, "-C", dir]);
      platforms.push({
        platform: platformName(p),
        archiveBytes: archive.bytes,
        executableBytes: statSync(join(dir, executableName(p))).size,
      });
    }
    const local = join(out, platformName(BUILD_PLATFORM), executableName(BUILD_PLATFORM));
    return {
      platforms,
      buildSeconds,
      startSeconds: {
        executable: await medianStart(local, [], starts),
        javascript: await medianStart(
          process.execPath,
          [join(root, "dist", "provider", "plugin", "main.js")],
          starts,
        ),
        starts,
      },
    };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Scenario 9, alone or in a full run: measured, written to bench/results/executables.json, summed up in a line. */
export async function writeExecutablesReport(root: string, out: (line: string) => void): Promise<void> {
  const figures = await measurePluginExecutables(root);
  const report: ExecutablesReport = {
    measuredAt: new Date().toISOString(),
    node: process.version,
    ...figures,
  };
  writeResult(root, "executables", report);
  const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
  out(
    `plugin executables: ${figures.platforms.map((p) => `${p.platform} ${mb(p.archiveBytes)} MB`).join(", ")}; built in ${figures.buildSeconds.toFixed(0)} s; start ${figures.startSeconds.executable.toFixed(2)} s against ${figures.startSeconds.javascript.toFixed(2)} s for the JavaScript plugin`,
  );
}
