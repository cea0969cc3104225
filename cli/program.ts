/**
 * `runpod-dynamic <command> <subcommand> [flags]` (docs/api-model.md, Command-line commands).
 * Usage errors (unknown flags, bad values, missing arguments) exit 2; API errors and other
 * failures exit 1 with the problem+json detail; `--help` works on every level.
 *
 * A run touches nothing of its process: it reads and writes through the Terminal it is given and
 * returns its exit code, so the binary (main.ts) and tests run the same commands.
 */
import { Command, CommanderError } from "commander";
import { PACKAGE_VERSION } from "../provider/client/version.js";
import { registerAutostop } from "./autostop.js";
import { registerBilling } from "./billing.js";
import { registerCatalog } from "./catalog.js";
import { registerCost } from "./cost.js";
import { registerEmulator } from "./emulator.js";
import { registerHub } from "./hub.js";
import { registerJobs } from "./jobs.js";
import { registerMigrate } from "./migrate.js";
import type { Terminal } from "./output.js";
import { formatOf } from "./parse.js";
import { registerPendingCreates } from "./pending-creates.js";
import { registerPods } from "./pods.js";
import { registerRegistries } from "./registries.js";
import { registerServerless } from "./serverless.js";

const ENVIRONMENT_HELP = `
Configuration (the provider's environment variables):
  RUNPOD_API_KEY         API key (required by every command but emulator and cost --prices; never printed)
  RUNPOD_BASE_URL        base_url, default https://api.runpod.io
  RUNPOD_SERVERLESS_URL  serverless_url, default https://api.runpod.ai
  RUNPOD_TEAM_ID         act for this team (sent as X-Team-Id)
  RUNPOD_REST_URL        ignored: REST v1 was retired on 2026-11-15

Exit codes: 0 success, 1 API or command failure, 2 usage error.
With --json or -o json|yaml, a failure after the flags were read is one JSON object on stderr:
error, code, status, detail, errors.`;

function buildProgram(out: Terminal): Command {
  // Output settings, exitOverride and the error hint are copied to each subcommand when it is
  // created, so they are set before any command is registered.
  const program = new Command("runpod-dynamic")
    .description(
      "RunPod from the command line: what a change costs, the catalog and its prices, billing, pods and their logs, stopping idle pods (autostop), the pods a killed `pulumi up` left pending, registry credentials and ECR delegations, the hub, serverless endpoints (deployed from the hub; their workers, releases and logs), jobs, and the local API emulator.",
    )
    .version(PACKAGE_VERSION)
    .configureOutput({ writeOut: out.writeOut, writeErr: out.writeErr })
    .showHelpAfterError("(add --help for usage)")
    .exitOverride()
    .addHelpText("after", ENVIRONMENT_HELP)
    // Commander runs an ancestor's hooks for every subcommand: this one chooses the output format
    // of each command that has the output options, before its action and after its flags parsed.
    .hook("preAction", async (_program, command) => {
      if (command.options.some((o) => o.long === "--output")) await out.use(formatOf(command.opts()));
    });
  registerCost(program, out);
  registerCatalog(program, out);
  registerBilling(program, out);
  registerPods(program, out);
  registerAutostop(program, out);
  registerPendingCreates(program, out);
  registerMigrate(program, out);
  registerRegistries(program, out);
  registerHub(program, out);
  registerServerless(program, out);
  registerJobs(program, out);
  registerEmulator(program, out);
  return program;
}

/** Runs the command `argv` names (`argv[0]` and `argv[1]` are node and the script) and returns its exit code. */
export async function runProgram(argv: readonly string[], out: Terminal): Promise<number> {
  try {
    await buildProgram(out).parseAsync(argv);
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      // help and version "errors" are successes; everything else commander raises is usage
      return err.exitCode === 0 ? 0 : 2;
    }
    return out.fail(err);
  }
}
