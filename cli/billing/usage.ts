/** `billing pods` and `billing serverless`: one command shape, told apart by a UsageSpec. */
import type { Command } from "commander";
import { connect } from "../connect.js";
import { type Column, money, type Terminal, table } from "../output.js";
import { addOutputOptions, choice, textOption } from "../parse.js";
import { exact, sumAmounts } from "./amounts.js";
import { type Printed, perGpu, perResource, splitByAttribution, UNATTRIBUTED } from "./usage-grouping.js";
import type { UsageSpec } from "./usage-specs.js";
import {
  addWindowOptions,
  type BillingWindow,
  EMPTY,
  plural,
  summary,
  TIME_HELP,
  type WindowOptions,
  windowQuery,
  windowView,
} from "./window.js";

/** The table, its total, and a line on what could not be attributed. */
function usageLines(
  out: Terminal,
  spec: UsageSpec,
  printed: readonly Printed[],
  byGpu: boolean,
  window: BillingWindow,
  lost: { readonly recordCount: number; readonly totalAmount: number; readonly ids: readonly string[] },
  wanted: string | undefined,
  askedStart: string | undefined,
): string[] {
  const lines: string[] = [];
  if (printed.length === 0) {
    lines.push(EMPTY);
  } else {
    const columns: Column[] = [
      { header: "time" },
      { header: byGpu ? (spec.noun === "pod" ? "gpu type" : "gpu types") : spec.noun },
      ...(byGpu ? [{ header: `${spec.noun}s`, align: "right" as const }] : []),
      ...spec.amountHeaders.map((header): Column => ({ header, align: "right" })),
    ];
    const rows = printed.map((p) => [
      out.localTime(p.startTime),
      p.label,
      ...(byGpu ? [String(p.resources)] : []),
      ...spec.amountFields.map((k) => money(p.amounts[k] ?? 0)),
    ]);
    const total = exact(printed.reduce((s, p) => s + (p.amounts.totalAmount ?? 0), 0));
    lines.push(...table(columns, rows), "", summary(out, total, printed.length, window, askedStart));
  }
  if (lost.recordCount > 0) {
    const what = `${plural(lost.recordCount, "record")} (${money(lost.totalAmount)}) of ${plural(lost.ids.length, spec.noun)} RunPod no longer lists (${lost.ids.join(", ")})`;
    lines.push(
      wanted === undefined
        ? `${what} could not be attributed to a GPU type: shown as ${UNATTRIBUTED}.`
        : `${what} could not be matched against --gpu-id and are left out.`,
    );
  }
  return lines;
}

function usageHelp(spec: UsageSpec): string {
  const amounts = spec.amountFields.join(", ");
  return `${TIME_HELP}

${spec.attributionHelp}
Records of ${spec.noun}s RunPod no longer lists (${spec.goneExample}) cannot be attributed: grouped,
they are shown under ${UNATTRIBUTED} (null in JSON); with --gpu-id they are left out. The output
says which ${spec.noun}s and how much (in JSON: unattributed).

JSON fields (one object): query, records, totals, unattributed.
  query: startTime, endTime, bucketSize (the window RunPod answered for), lastN, grouping,
    ${spec.idField}, gpuId
  records, --grouping ${spec.groupings[0]}: startTime, endTime, ${spec.idField}, ${amounts}
  records, --grouping gpuId: startTime, endTime, ${spec.gpuField}, ${spec.idsField}, ${amounts}
  totals: ${amounts} (sums over the records printed)
  unattributed: recordCount, totalAmount, ${spec.idsField}`;
}

export function registerUsage(billing: Command, out: Terminal, spec: UsageSpec): void {
  const command = billing
    .command(spec.name)
    .aliases([...spec.aliases])
    .description(spec.description)
    .addOption(
      choice(
        "--grouping <field>",
        spec.groupingHelp,
        spec.groupings,
        spec.defaultGrouping,
        spec.retiredGroupings,
      ),
    )
    .option(`${spec.idFlag.flag} <id>`, spec.idFlag.description, textOption(spec.idFlag.flag))
    .option("--gpu-id <id>", spec.gpuFlagHelp, textOption("--gpu-id"));
  addWindowOptions(command);
  addOutputOptions(command)
    .addHelpText("after", usageHelp(spec))
    .action(async (opts: WindowOptions & { grouping: string; gpuId?: string } & Record<string, unknown>) => {
      const query = windowQuery(opts);
      const resourceId = opts[spec.idFlag.attribute] as string | undefined;
      const byGpu = opts.grouping === "gpuId";
      const { api } = connect(out);
      const answer = await out.spin(spec.spinner, () => spec.fetch(api, query, resourceId));
      // Only grouping and filtering by GPU need to know what each resource runs on.
      const attributions =
        (byGpu || opts.gpuId !== undefined) && answer.rows.length > 0
          ? await out.spin(`Reading what each ${spec.noun} runs on`, () => spec.attribute(api))
          : undefined;
      const { kept, lost } = splitByAttribution(answer.rows, attributions, opts.gpuId);
      const printed = byGpu ? perGpu(spec, kept, attributions ?? new Map()) : perResource(spec, kept);
      const window = windowView(query, answer.echo);
      const unattributed = {
        recordCount: lost.length,
        totalAmount: exact(lost.reduce((s, r) => s + (r.amounts.totalAmount ?? 0), 0)),
        ids: [...new Set(lost.map((r) => r.id))].sort(),
      };
      const view = {
        query: {
          ...window,
          grouping: opts.grouping,
          [spec.idField]: resourceId ?? null,
          gpuId: opts.gpuId ?? null,
        },
        records: printed.map((p) => p.json),
        totals: sumAmounts(
          spec.amountFields,
          printed.map((p) => p.amounts),
        ),
        unattributed: {
          recordCount: unattributed.recordCount,
          totalAmount: unattributed.totalAmount,
          [spec.idsField]: unattributed.ids,
        },
      };
      out.data(view, () =>
        usageLines(out, spec, printed, byGpu, window, unattributed, opts.gpuId, query.startTime),
      );
    });
}
