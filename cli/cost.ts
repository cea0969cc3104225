/**
 * `runpod-dynamic cost [file]`: what a change costs at list price, before it is applied.
 *
 *   pulumi preview --json | runpod-dynamic cost                 # every resource before -> after
 *   pulumi stack export | runpod-dynamic cost                   # what the stack runs now
 *   runpod-dynamic cost preview.json --prices prices.json -o markdown   # a pull-request comment
 *
 * Prices come from a snapshot (`--prices`, written by `catalog snapshot`) or from the catalog of the
 * API the environment points at (RUNPOD_BASE_URL and RUNPOD_API_KEY: RunPod's, or the emulator's).
 * The rules are provider/cost/estimate.ts's, shared with the policy pack's budget; docs/cost.md
 * says each.
 */
import type { Command } from "commander";
import { priceChanges } from "./cost/diff.js";
import { readCostDocument } from "./cost/documents.js";
import { loadPrices } from "./cost/prices.js";
import { costJson, costMarkdown, costTable } from "./cost/render.js";
import type { Terminal } from "./output.js";
import { addOutputOptions, readTextArgument } from "./parse.js";

const HELP = `
Input: the JSON \`pulumi preview --json\` prints (add --show-sames for the stack's totals, not only
what changes), or \`pulumi stack export\`; a file, or - (the default) for standard input.

A pod not yet placed costs a range, from its cheapest placement candidate to its dearest; a
serverless endpoint from workers.min workers (the floor) to workers.max busy workers (the
ceiling). A value preview does not know yet, or a secret one, is "unknown" and left out of the
totals, by name; resources of other providers are listed as not priced. Monthly figures are
30-day months.

JSON fields (one object): kind (preview or state), prices (source, takenAt), resources (name,
urn, type, op, before, after, changeHourly), totals (before, after, change: hourly and monthly
{low, high}; unknown, notPriced).`;

export function registerCost(program: Command, out: Terminal): void {
  addOutputOptions(
    program
      .command("cost")
      .description(
        "What a change costs at list price (pulumi preview --json), or what a stack runs now (pulumi stack export).",
      )
      .argument("[file]", "the preview or state export; - for standard input", "-")
      .option(
        "--prices <snapshot>",
        "prices from a file `catalog snapshot` wrote, with no API call (default: the catalog at RUNPOD_BASE_URL)",
      ),
    true,
  )
    .addHelpText("after", HELP)
    .action(async (file: string, opts: { prices?: string }) => {
      const document = readCostDocument(
        readTextArgument("cost", file, out.stdin),
        file === "-" ? "standard input" : file,
      );
      const prices = await loadPrices(out, opts.prices);
      const report = priceChanges(document, prices);
      out.data(
        costJson(report),
        () => costTable(report),
        () => costMarkdown(report),
      );
    });
}
