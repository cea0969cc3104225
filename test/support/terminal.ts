/**
 * A command run as a person runs it in a terminal: under a pseudo-terminal (util-linux `script`),
 * answering each prompt once its text has appeared. `pulumi new` asks for a template's config only
 * in a terminal (without one it needs `--yes`, which takes every default and leaves a secret with
 * no default unset), and encrypts what is typed at a `secret: true` prompt.
 */
import { spawn } from "node:child_process";
import { stripVTControlCharacters } from "node:util";
import type { Invocation } from "../../harness/stack.js";

export interface Answer {
  /** Text of the prompt, matched against what the command printed since the previous answer. */
  readonly prompt: RegExp;
  /** What is typed, without the Enter that follows it. */
  readonly typed: string;
}

export interface TerminalResult {
  readonly code: number;
  /** What the terminal showed, with its control sequences removed. */
  readonly output: string;
  /** The prompts that never appeared. */
  readonly unanswered: readonly string[];
}

const quote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;

/** Without control sequences and carriage returns: what a reader of the output sees. */
export function plainText(terminal: string): string {
  return stripVTControlCharacters(terminal).replaceAll("\r", "");
}

/** Runs `run` in a pseudo-terminal, typing each answer at its prompt, in order. */
export function runInTerminal(run: Invocation, answers: readonly Answer[]): Promise<TerminalResult> {
  const commandLine = [run.file, ...run.args].map(quote).join(" ");
  // -q: no "Script started" lines; -f: output as it comes; -e: the command's exit code.
  const child = spawn("script", ["-qfec", commandLine, "/dev/null"], {
    cwd: run.cwd,
    env: { ...run.env, TERM: "xterm" },
  });
  const pending = [...answers];
  let output = "";
  let sinceAnswer = "";
  child.stdout.on("data", (d: Buffer) => {
    output += d.toString();
    sinceAnswer += d.toString();
    const next = pending[0];
    if (next?.prompt.test(plainText(sinceAnswer))) {
      pending.shift();
      sinceAnswer = "";
      child.stdin.write(`${next.typed}\r`);
    }
  });
  child.stderr.on("data", (d: Buffer) => {
    output += d.toString();
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) =>
      resolve({
        code: code ?? 1,
        output: plainText(output),
        unanswered: pending.map((a) => String(a.prompt)),
      }),
    );
  });
}
