#!/usr/bin/env node
/** The `runpod-dynamic` binary: one command (program.ts) on this process's streams, environment and signals. */
import { readFileSync } from "node:fs";
import { Terminal } from "./output.js";
import { runProgram } from "./program.js";

const terminal = new Terminal({
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: {
    // Read only when a command asks: touching process.stdin opens it.
    get isTTY() {
      return process.stdin.isTTY === true;
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
