/**
 * Runs the built CLI binary as a child process, the way a user runs `npx runpod-dynamic`, and
 * records what a CLI sends. Commands run without a process of their own in cli-in-process.ts.
 */
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from "node:child_process";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { REPO_ROOT } from "./dist.js";

export const CLI = join(REPO_ROOT, "dist", "cli", "main.js");

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs the CLI to completion with a clean environment (PATH, HOME, TZ=UTC, plus `env`); `stdin`
 * is written to its standard input, which is otherwise closed at once.
 */
export function runCli(
  args: readonly string[],
  env: Record<string, string> = {},
  stdin?: string,
): Promise<CliResult> {
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
    child.stdin.end(stdin ?? "");
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

/** A CLI process still running (a followed log): its output so far, and events to wait on. */
export interface RunningCli {
  readonly child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolves once the stream's text so far matches `pattern`; rejects if the process ends first. */
  waitFor(pattern: RegExp, stream?: "stdout" | "stderr"): Promise<void>;
  /** Resolves when the process has ended, with everything it printed. */
  readonly exited: Promise<CliResult>;
}

/**
 * Starts the CLI with a clean environment (as `runCli`) and returns at once. Its standard input is
 * an empty pipe, closed, unless `stdinOpen`: then the test writes it (`child.stdin`) when it likes.
 */
export function spawnCli(
  args: readonly string[],
  env: Record<string, string> = {},
  { stdinOpen = false }: { stdinOpen?: boolean } = {},
): RunningCli {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", TZ: "UTC", ...env },
  });
  const text = { stdout: "", stderr: "" };
  const waiters = new Set<() => void>();
  let closed = false;
  const exited = new Promise<CliResult>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      closed = true;
      for (const w of waiters) w();
      resolve({ code, stdout: text.stdout, stderr: text.stderr });
    });
  });
  for (const stream of ["stdout", "stderr"] as const) {
    child[stream].on("data", (d: Buffer) => {
      text[stream] += d.toString();
      for (const w of waiters) w();
    });
  }
  if (!stdinOpen) child.stdin.end();
  return {
    child,
    stdout: () => text.stdout,
    stderr: () => text.stderr,
    exited,
    waitFor: (pattern, stream = "stdout") =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (pattern.test(text[stream])) {
            waiters.delete(check);
            resolve();
          } else if (closed) {
            waiters.delete(check);
            reject(new Error(`exited before ${stream} matched ${pattern}:\n${text.stdout}\n${text.stderr}`));
          }
        };
        waiters.add(check);
        check();
      }),
  };
}

/** Whether util-linux `script` is here to give the CLI a pseudo-terminal. */
export function hasScript(): boolean {
  try {
    execFileSync("script", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Runs the CLI on a pseudo-terminal (util-linux `script`); stdout and stderr arrive merged. */
export function runCliOnTty(args: readonly string[], env: Record<string, string> = {}): Promise<CliResult> {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, CLI, ...args].map(quote).join(" ");
  return new Promise((resolve, reject) => {
    const child = spawn("script", ["-qec", command, "/dev/null"], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "/tmp",
        TZ: "UTC",
        TERM: "xterm",
        ...env,
      },
    });
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr: "" }));
    child.stdin.end();
  });
}

// ---------------------------------------------------------------- request recording

/** One request the CLI sent, as the emulator received it. */
export interface SentRequest {
  /** Which base address it went to. */
  readonly base: "base" | "serverless";
  readonly method: string;
  /** Path and query string, exactly as sent. */
  readonly url: string;
  /** The JSON body, or undefined for none. */
  readonly body: unknown;
  /** The request headers as received, names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
}

export interface RequestRecorder {
  /** RUNPOD_* variables pointing the CLI at the recorder (the API key is passed through). */
  readonly env: Record<string, string>;
  readonly requests: SentRequest[];
  /** Drops the connection of every answer still streaming: a log stream breaking mid-way. */
  breakStreams(): void;
  close(): Promise<void>;
}

const BASES = [
  ["base", "RUNPOD_BASE_URL"],
  ["serverless", "RUNPOD_SERVERLESS_URL"],
] as const;
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "content-length", "host"]);

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/**
 * A pass-through proxy in front of each of the emulator's base addresses the CLI uses that records what
 * the CLI sent: the emulator's own request log keeps paths without query strings or bodies, and the
 * billing and hub commands are defined by their query parameters and GraphQL variables.
 */
export async function recordRequests(target: Record<string, string>): Promise<RequestRecorder> {
  const requests: SentRequest[] = [];
  const streaming = new Set<ServerResponse>();
  const env: Record<string, string> = { ...target };
  const servers = await Promise.all(
    BASES.map(async ([base, variable]) => {
      const upstream = target[variable];
      if (!upstream) throw new Error(`${variable} missing`);
      const server = createServer(async (req, res) => {
        try {
          const text = await readBody(req);
          const received: Record<string, string> = {};
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(req.headers)) {
            if (typeof v !== "string") continue;
            received[k] = v;
            if (!HOP_BY_HOP.has(k)) headers[k] = v;
          }
          requests.push({
            base,
            method: req.method ?? "",
            url: req.url ?? "",
            body: text === "" ? undefined : JSON.parse(text),
            headers: received,
          });
          // A CLI that stops reading (a log it followed) ends the upstream request as well.
          const gone = new AbortController();
          res.on("close", () => gone.abort());
          const answer = await fetch(`${upstream}${req.url ?? ""}`, {
            method: req.method ?? "GET",
            headers,
            signal: gone.signal,
            ...(text === "" ? {} : { body: text }),
          });
          const out: Record<string, string> = {};
          answer.headers.forEach((v, k) => {
            if (!HOP_BY_HOP.has(k) && k !== "content-encoding") out[k] = v;
          });
          res.writeHead(answer.status, out);
          // Streamed as it comes, so a server-sent event stream reaches the CLI event by event.
          streaming.add(res);
          res.flushHeaders();
          for await (const chunk of answer.body ?? []) res.write(chunk);
          streaming.delete(res);
          res.end();
        } catch {
          // The emulator dropped the connection (an injected reset): drop the CLI's too.
          streaming.delete(res);
          req.socket.destroy();
        }
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      env[variable] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      return server;
    }),
  );
  return {
    env,
    requests,
    breakStreams: () => {
      for (const res of streaming) res.socket?.destroy();
      streaming.clear();
    },
    close: async () => {
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.closeAllConnections();
              s.close(() => resolve());
            }),
        ),
      );
    },
  };
}

/** The query parameters of a recorded URL, in the order sent. */
export function queryOf(url: string): [string, string][] {
  return [...new URL(url, "http://recorded").searchParams.entries()];
}

/** The path of a recorded URL, without its query string. */
export function pathOf(url: string): string {
  return new URL(url, "http://recorded").pathname;
}

/** The error line(s) of a failed run, without commander's usage hint. */
export function errorText(res: CliResult): string {
  return res.stderr.replace(/\(add --help for usage\)\n$/, "").trim();
}
