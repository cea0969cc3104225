#!/usr/bin/env node
/** The `runpod-dynamic` binary: one command (program.ts) on this process's streams, environment and signals. */
import { readFileSync } from "node:fs";
import { isatty } from "node:tty";
import { Terminal } from "./output.js";
import { runProgram } from "./program.js";

const terminal = new Terminal({
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: {
    // `isatty(0)`, never `process.stdin.isTTY`: opening process.stdin on a pipe makes the pipe
    // non-blocking, and the read below then fails with EAGAIN whenever the writer (a `pulumi
    // preview` still running) has not written yet.
    get isTTY() {
      return isatty(0);
    },
    readAll: () => readFileSync(0, "utf8"),
  },
  env: process.env,
  onInterrupt: (stop) => {
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
    return () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
    };
  },
});

// `runpod-dynamic billing pods | head`: a reader that stops early is not an error of this command.
process.stdout.on("error", (err: NodeJS.ErrnoException) => {
  if (err.code !== "EPIPE") throw err;
  process.exit(process.exitCode ?? 0);
});

runProgram(process.argv, terminal).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.exitCode = terminal.fail(err);
  },
);
