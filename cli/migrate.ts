/**
 * `runpod-dynamic migrate [file]`: a stack on RunPod's official provider moved to this one, with
 * nothing on the account restarted, replaced or re-created.
 *
 *   pulumi stack export | runpod-dynamic migrate --import-file migrate.json
 *
 * It reads the stack's export, finds each object of the official provider's resources on the
 * account (one list request per kind), writes the import file that reads them into state under this
 * provider's types with the same names and ids, and prints the commands that finish the move:
 * `pulumi state delete` of the old resources, which calls no provider, then `pulumi import` (which
 * also writes the program code that declares them, in the project's language). The plan is
 * cli/migrate/plan.ts; the mapping of each field is docs/from-pulumi-runpod.md's.
 *
 * It reads and prints (and writes the import file it is asked for); the commands are the user's to run.
 */
import { writeFileSync } from "node:fs";
import type { Command } from "commander";
import type { RunpodApi } from "../provider/client/index.js";
import { connect } from "./connect.js";
import { UsageError } from "./errors.js";
import { shellQuote } from "./import-file.js";
import type { OurKind } from "./migrate/official-provider.js";
import { kindsToFind, type MigrationPlan, planMigration, readExportedStack } from "./migrate/plan.js";
import type { Terminal } from "./output.js";
import { addOutputOptions, readTextArgument } from "./parse.js";

/** How the ids of one of our kinds are listed: one request. */
const LIST_IDS: Record<OurKind, (api: RunpodApi) => Promise<readonly { id: string }[]>> = {
  Pod: (api) => api.pods.list(),
  NetworkVolume: (api) => api.networkVolumes.list(),
  Template: (api) => api.templates.list(),
  ServerlessEndpoint: (api) => api.endpoints.list(),
  Registry: (api) => api.registries.list(),
  Secret: (api) => api.secrets.list(),
};

/** The ids the account has of each of `kinds`: one list request per kind. */
async function accountIds(api: RunpodApi, kinds: ReadonlySet<OurKind>): Promise<Map<OurKind, Set<string>>> {
  const listed = new Map<OurKind, Set<string>>();
  for (const kind of kinds) listed.set(kind, new Set((await LIST_IDS[kind](api)).map((o) => o.id)));
  return listed;
}

function resourceLines(plan: MigrationPlan): string[] {
  return plan.resources.flatMap((m) => {
    const head = `${m.official} "${m.name}" (${m.id})`;
    if (m.ours === null)
      return [`${head}: no counterpart in runpod-dynamic; it stays with the official provider`];
    if (!m.onAccount)
      return [
        `${head}: not on the account (deleted outside Pulumi?): not imported; the state delete forgets it`,
      ];
    return [
      `${head} -> runpod-dynamic ${m.ours}`,
      ...(m.dropped.length > 0
        ? [`    ${m.dropped.join(", ")}: no counterpart; the move drops them (docs/from-pulumi-runpod.md)`]
        : []),
      ...(m.giveAgain
        ? [
            `    the API never returns its ${m.giveAgain}: give ${m.giveAgain} again in the program (from secret config); the first up writes it once, in place`,
          ]
        : []),
    ];
  });
}

function configLines(plan: MigrationPlan): string[] {
  return [
    ...(plan.config.apiKey
      ? [
          "runpod:apiKey is the official provider's key. The provider plugin reads runpod-dynamic:apiKey (or RUNPOD_API_KEY):",
          "  pulumi config set --secret runpod-dynamic:apiKey <the same key>     (the import reads the objects through it)",
        ]
      : []),
    ...(plan.config.apiUrl
      ? [
          `runpod:apiUrl sends the official provider to ${plan.config.apiUrl}. runpod-dynamic does not read it: set runpod-dynamic:baseUrl`,
          "  (runpod:baseUrl in the TypeScript package) to the v2 address of the same service.",
        ]
      : []),
  ];
}

/** The steps that finish the move, each what it does and its command (none for an edit), for people to run. */
function migrationSteps(
  plan: MigrationPlan,
  importFile: string | undefined,
  codeFile: string,
): { what: string; command?: string }[] {
  const file = shellQuote(importFile ?? "<the import file: --import-file>");
  // State first: `pulumi import` loads the provider of every resource in state, so the official
  // provider's plugin would otherwise be needed for a step that never calls it.
  return [
    ...(plan.stateDeletes.length > 0
      ? [
          {
            what: "forget the official provider's resources (state only: no provider is called; the import file keeps their ids)",
            command: `pulumi state delete ${plan.stateDeletes.map(shellQuote).join(" ")} --yes${plan.forceDelete ? " --force" : ""}`,
          },
        ]
      : []),
    ...(plan.importFile
      ? [
          {
            what: "read each object into state under runpod-dynamic's type, and write the code that declares it",
            command: `pulumi import --file ${file} --yes --protect=false --out ${shellQuote(codeFile)}`,
          },
          {
            what: `in the program, put the code written to ${codeFile} in place of the official provider's resources`,
          },
        ]
      : []),
    { what: "nothing is left to change", command: "pulumi up --expect-no-changes" },
  ];
}

function humanReport(plan: MigrationPlan, importFile: string | undefined, codeFile: string): string[] {
  if (plan.resources.length === 0) return ["The stack has no resource of RunPod's official provider."];
  const config = configLines(plan);
  return [
    `${plan.resources.length} resources of RunPod's official provider. Nothing on the account is created, changed, stopped or deleted by the move:`,
    ...resourceLines(plan).map((l) => `  ${l}`),
    ...(plan.blockers.length > 0
      ? [
          "",
          "These depend on a resource that leaves, and the state delete refuses while they do: drop that dependency from their state first (`pulumi state edit`); `--target-dependents` would forget them too:",
          ...plan.blockers.map((b) => `  ${b.urn} depends on ${b.dependsOn}`),
        ]
      : []),
    ...(config.length > 0 ? ["", ...config] : []),
    "",
    "Then, in the project's folder:",
    ...migrationSteps(plan, importFile, codeFile).flatMap((step, i) => [
      `  ${i + 1}. ${step.what}${step.command ? ":" : ""}`,
      ...(step.command ? [`     ${step.command}`] : []),
    ]),
  ];
}

export function registerMigrate(program: Command, out: Terminal): void {
  addOutputOptions(
    program
      .command("migrate")
      .description(
        "A stack on RunPod's official Pulumi provider (pulumi stack export) moved to runpod-dynamic: the import file and the commands, nothing restarted or re-created.",
      )
      .argument("[file]", "the stack's export; - for standard input", "-")
      .option("--import-file <path>", "write the import file for `pulumi import --file` here")
      .option(
        "--code-file <path>",
        "the file `pulumi import --out` writes the program code to, in the printed command",
        "migrated-resources",
      ),
  )
    .addHelpText(
      "after",
      "\nJSON fields (one object): resources (urn, official, ours, name, id, onAccount, dropped, giveAgain, protect), importFile (for `pulumi import --file`; null when nothing is to import), stateDeletes (urns, in order), forceDelete, blockers (urn, dependsOn), config (apiKey, apiUrl), commands.",
    )
    .action(async (file: string, opts: { importFile?: string; codeFile: string }) => {
      const where = file === "-" ? "standard input" : file;
      const text = readTextArgument("migrate", file, out.stdin);
      const stack = readExportedStack(text, where);
      if (stack.pendingOperations > 0) {
        throw new UsageError(
          `${where}: the stack has ${stack.pendingOperations} pending operations a killed run left; settle them first (pulumi refresh), then export again.`,
        );
      }
      const kinds = kindsToFind(stack);
      const ids =
        kinds.size === 0
          ? new Map()
          : await out.spin("Finding the objects on the account", () => accountIds(connect(out).api, kinds));
      const plan = planMigration(stack, ids);
      if (opts.importFile && plan.importFile)
        writeFileSync(opts.importFile, `${JSON.stringify(plan.importFile, null, 2)}\n`);
      const commands = migrationSteps(plan, opts.importFile, opts.codeFile).flatMap((s) => s.command ?? []);
      out.data({ ...plan, commands }, () => humanReport(plan, opts.importFile, opts.codeFile));
    });
}
