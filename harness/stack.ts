/**
 * One Pulumi stack of one program, driven through the real CLI as a user drives it: a copy of the
 * program in a scratch folder, a local file backend, its own Pulumi home, secrets encrypted with a
 * passphrase, and every command run by `harness/pulumi.ts` (the CLI plus the program's language
 * runtime). Nothing is downloaded and nothing outside the scratch folder is written.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_ROOT } from "./pulumi-cli.js";

/** The compiled launcher (tests import this module from source, the CLI always runs compiled code). */
const LAUNCHER = join(REPO_ROOT, "dist", "harness", "pulumi.js");

export interface StackOptions {
  /** The program folder (with Pulumi.yaml). Copied, so the original is never written. */
  readonly programDir: string;
  /** @default "dev" */
  readonly stack?: string;
  /** Environment for every command, over this process's own. */
  readonly env?: Record<string, string>;
  /**
   * Use the program folder in place instead of a copy (a folder made for this stack, e.g. a
   * fresh `npm install` of the packed package). @default false
   */
  readonly inPlace?: boolean;
}

export interface CommandResult {
  readonly args: readonly string[];
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface Invocation {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Record<string, string>;
}

export interface RunningCommand {
  readonly child: ChildProcess;
  /** The CLI's own process id, once the launcher has started it (for signals). */
  cliPid(): number | undefined;
  readonly done: Promise<CommandResult>;
}

/** Sends a signal to every process of a command's group; false when none is left. */
function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * The events of `pulumi up|refresh|destroy --json`, one JSON object per line (without
 * `--skip-preview` the preview's summary document comes first: only event lines are taken).
 */
export type EngineEvent = Record<string, unknown> & { sequence: number };

export class ProgramStack {
  readonly workDir: string;
  readonly dir: string;
  readonly name: string;
  private readonly env: Record<string, string>;
  /** Process groups of the commands started: plugins a killed CLI left behind die with dispose. */
  private readonly groups: number[] = [];

  /** `options.programDir` undefined: an empty program folder, for `pulumi new` to fill. */
  private constructor(options: Omit<StackOptions, "programDir"> & { programDir: string | undefined }) {
    this.name = options.stack ?? "dev";
    this.workDir = mkdtempSync(join(tmpdir(), "runpod-stack-"));
    if (options.programDir === undefined) {
      this.dir = join(this.workDir, "program");
      mkdirSync(this.dir);
    } else if (options.inPlace) {
      this.dir = options.programDir;
    } else {
      this.dir = join(this.workDir, "program");
      cpSync(options.programDir, this.dir, {
        recursive: true,
        filter: (src) => !/[\\/](node_modules|Pulumi\.[^/\\]+\.yaml)$/.test(src),
      });
      // A program inside this repository resolves its packages (runpod-dynamic among them, through
      // the repository's self link) from the repository's node_modules, as it does in place.
      const own = join(options.programDir, "node_modules");
      symlinkSync(existsSync(own) ? own : join(REPO_ROOT, "node_modules"), join(this.dir, "node_modules"));
    }
    const backend = join(this.workDir, "backend");
    mkdirSync(backend);
    this.env = {
      PULUMI_BACKEND_URL: `file://${backend}`,
      PULUMI_HOME: join(this.workDir, "home"),
      PULUMI_CONFIG_PASSPHRASE: "runpod-dynamic-tests",
      // A terminal's colours and progress animation are not what a test reads.
      NO_COLOR: "1",
      ...options.env,
    };
  }

  /** A new stack of the program, initialised. */
  static async create(options: StackOptions): Promise<ProgramStack> {
    const s = new ProgramStack(options);
    await s.expect(["stack", "init", s.name]);
    return s;
  }

  /**
   * A stack whose program `pulumi new` is to make: an empty program folder and no stack yet
   * (`pulumi new <template> --stack <name>`, run with `start` or `invocation`, creates it).
   */
  static forNewProject(options: Omit<StackOptions, "programDir" | "inPlace"> = {}): ProgramStack {
    return new ProgramStack({ ...options, programDir: undefined });
  }

  /** How `pulumi <args>` runs for this stack: the launcher and its arguments, folder and environment. */
  invocation(args: readonly string[], env: Record<string, string> = {}): Invocation {
    // `stack init` names the stack itself; `plugin` commands act on the Pulumi home, not a stack.
    const stackless = (args[0] === "stack" && args[1] === "init") || args[0] === "plugin";
    const full = [...args, ...(stackless ? [] : ["--stack", this.name])];
    return {
      file: process.execPath,
      args: [LAUNCHER, ...full],
      cwd: this.dir,
      env: { ...(process.env as Record<string, string>), ...this.env, ...env },
    };
  }

  /** Starts `pulumi <args>` in the program folder; `done` resolves when it exits, whatever the code. */
  start(
    args: readonly string[],
    env: Record<string, string> = {},
    onOutput?: (text: string) => void,
  ): RunningCommand {
    const run = this.invocation(args, env);
    const full = run.args.slice(1);
    // Its own process group, as a CI job's: the CLI and the plugins it starts are in it.
    const child = spawn(run.file, run.args, { cwd: run.cwd, env: run.env, detached: true });
    if (child.pid !== undefined) this.groups.push(child.pid);
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (d: Buffer) => {
      stdout += d.toString();
      onOutput?.(d.toString());
    });
    child.stderr?.on("data", (d: Buffer) => {
      stderr += d.toString();
      onOutput?.(d.toString());
    });
    const done = new Promise<CommandResult>((resolve) =>
      child.on("exit", (code, signal) =>
        resolve({ args: full, code: code ?? (signal ? 128 : 1), stdout, stderr }),
      ),
    );
    return { child, done, cliPid: () => cliPidOf(child.pid) };
  }

  /** Runs `pulumi <args>` to the end; `onOutput` sees what it prints as it prints it. */
  run(
    args: readonly string[],
    env: Record<string, string> = {},
    onOutput?: (text: string) => void,
  ): Promise<CommandResult> {
    return this.start(args, env, onOutput).done;
  }

  /** Runs `pulumi <args>` and fails with its output unless it exits 0. */
  async expect(args: readonly string[], env: Record<string, string> = {}): Promise<CommandResult> {
    const r = await this.run(args, env);
    if (r.code !== 0) {
      throw new Error(`pulumi ${r.args.join(" ")} exited ${r.code}\n${r.stdout}\n${r.stderr}`);
    }
    return r;
  }

  /** Stack config: plain values and secrets, in one `pulumi config set-all`. */
  async setConfig(plain: Record<string, string>, secret: Record<string, string> = {}): Promise<void> {
    const args = [
      ...Object.entries(plain).flatMap(([k, v]) => ["--plaintext", `${k}=${v}`]),
      ...Object.entries(secret).flatMap(([k, v]) => ["--secret", `${k}=${v}`]),
    ];
    if (args.length > 0) await this.expect(["config", "set-all", ...args]);
  }

  async removeConfig(keys: readonly string[]): Promise<void> {
    if (keys.length > 0) await this.expect(["config", "rm-all", ...keys]);
  }

  /** `pulumi stack output --json`, secrets shown only when asked. */
  async outputs(showSecrets = false): Promise<Record<string, unknown>> {
    const r = await this.expect(["stack", "output", "--json", ...(showSecrets ? ["--show-secrets"] : [])]);
    return JSON.parse(r.stdout) as Record<string, unknown>;
  }

  /** `pulumi stack export`: the state file as the backend holds it (secrets encrypted). */
  async exportState(): Promise<{ text: string; deployment: StateDeployment }> {
    const r = await this.expect(["stack", "export"]);
    return {
      text: r.stdout,
      deployment: (JSON.parse(r.stdout) as { deployment: StateDeployment }).deployment,
    };
  }

  /** Ends whatever a killed command left running, and removes the scratch folder. */
  dispose(): void {
    for (const pid of this.groups) signalGroup(pid, "SIGKILL");
    rmSync(this.workDir, { recursive: true, force: true });
  }
}

export interface StateResource {
  readonly urn: string;
  readonly type: string;
  readonly id?: string;
  readonly inputs?: Record<string, unknown>;
  readonly outputs?: Record<string, unknown>;
  readonly protect?: boolean;
  readonly retainOnDelete?: boolean;
  /** The provider instance's reference: `<its urn>::<its id>`. */
  readonly provider?: string;
}

export interface StateDeployment {
  readonly resources?: readonly StateResource[];
  readonly pending_operations?: readonly { resource: StateResource; type: string }[];
}

/** The engine events a `--json` run printed, one per line. */
export function engineEvents(stdout: string): EngineEvent[] {
  return stdout
    .split("\n")
    .filter((line) => line.startsWith('{"sequence":'))
    .map((line) => JSON.parse(line) as EngineEvent);
}

/** `op name` for every resource step the engine reported (pre events), in order. */
export function steps(events: readonly EngineEvent[]): string[] {
  return events.flatMap((e) => {
    const pre = e.resourcePreEvent as { metadata: { op: string; urn: string } } | undefined;
    return pre ? [`${pre.metadata.op} ${pre.metadata.urn.split("::").pop()}`] : [];
  });
}

/** `op name` for every step of `pulumi preview --json` (one JSON document, not events). */
export function previewSteps(stdout: string): string[] {
  const doc = JSON.parse(stdout) as { steps?: { op: string; urn: string }[] };
  return (doc.steps ?? []).map((s) => `${s.op} ${s.urn.split("::").pop()}`);
}

/** The summary event of a `--json` run: counts per operation and the result. */
export function summary(events: readonly EngineEvent[]): {
  resourceChanges: Record<string, number>;
  result: string;
} {
  const s = events.find((e) => "summaryEvent" in e)?.summaryEvent;
  if (!s) throw new Error("the run printed no summary event");
  return s as { resourceChanges: Record<string, number>; result: string };
}

/** The `pulumi` child of the launcher process `pid` (Linux: from /proc). */
function cliPidOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/);
    return children.map(Number).find((c) => Number.isInteger(c) && c > 0);
  } catch {
    return undefined;
  }
}
