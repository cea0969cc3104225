#!/usr/bin/env node
/** `runpod-dynamic <command> <subcommand> [flags]`. Usage errors exit 2, API errors 1. */
import { Command, CommanderError } from "commander";
import { PACKAGE_VERSION } from "../provider/client/version.js";
import { registerEmulator } from "./emulator.js";
import { stdio } from "./output.js";

export function buildProgram(): Command {
  const program = new Command("runpod-dynamic")
    .description("RunPod from the command line: the local API emulator.")
    .version(PACKAGE_VERSION)
    .showHelpAfterError()
    .exitOverride();
  registerEmulator(program);
  return program;
}

async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      // help and version "errors" are successes; everything else commander raises is usage
      return err.exitCode === 0 ? 0 : 2;
    }
    stdio.error(`Error: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    stdio.error(String(err));
    process.exitCode = 1;
  },
);
