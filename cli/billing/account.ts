/** `billing all`: the whole account's spend per bucket, every cost component. */
import type { Command } from "commander";
import { connect } from "../connect.js";
import { type Column, fields, money, type Terminal, table } from "../output.js";
import { addOutputOptions } from "../parse.js";
import { amountOf, exact, type Fields, sumAmounts } from "./amounts.js";
import {
  addWindowOptions,
  EMPTY,
  summary,
  TIME_HELP,
  type WindowOptions,
  windowQuery,
  windowView,
} from "./window.js";

/** The account's cost components by resource family, as `billing all` sums them in its table. */
const FAMILIES = [
  { header: "pods", parts: { GPU: "podGpuAmount", CPU: "podCpuAmount", disk: "podDiskAmount" } },
  {
    header: "serverless",
    parts: {
      GPU: "serverlessGpuAmount",
      CPU: "serverlessCpuAmount",
      disk: "serverlessDiskAmount",
      fee: "serverlessFeeAmount",
    },
  },
  {
    header: "storage",
    parts: { standard: "storageStandardAmount", "high-performance": "storageHighPerformanceAmount" },
  },
  { header: "public endpoints", parts: { total: "endpointAmount" } },
  {
    header: "clusters",
    parts: { GPU: "clusterGpuAmount", disk: "clusterDiskAmount", networking: "clusterNetworkingAmount" },
  },
] as const;

const ALL_AMOUNTS = ["totalAmount", ...FAMILIES.flatMap((f) => Object.values(f.parts))] as const;

function familySum(a: Fields, parts: Readonly<Record<string, string>>): number {
  return exact(Object.values(parts).reduce((s, k) => s + amountOf(a, k), 0));
}

export function registerAll(billing: Command, out: Terminal): void {
  const command = billing
    .command("all")
    .description("The whole account's spend per bucket, with every cost component.");
  addWindowOptions(command);
  addOutputOptions(command)
    .addHelpText(
      "after",
      `${TIME_HELP}
The table sums each family's components; JSON has every component. endpointAmount is RunPod's
public (hosted model) endpoints; serverless endpoints are the serverless* amounts.

JSON fields (one object): query, records, totals.
  query: startTime, endTime, bucketSize (the window RunPod answered for), lastN
  records: startTime, endTime, ${ALL_AMOUNTS.join(", ")}
  totals: the same amounts (sums over the records)`,
    )
    .action(async (opts: WindowOptions) => {
      const query = windowQuery(opts);
      const { api } = connect(out);
      const res = await out.spin("Fetching billing", () => api.billing.account(query));
      const records = res.records.map((r) => ({
        startTime: r.startTime,
        endTime: r.endTime,
        ...Object.fromEntries(ALL_AMOUNTS.map((k) => [k, r[k]])),
      }));
      const window = windowView(query, res.metadata?.query);
      const totals = sumAmounts(ALL_AMOUNTS, records);
      out.data({ query: window, records, totals }, () => {
        if (records.length === 0) return [EMPTY];
        return [
          ...table(
            [
              { header: "time" },
              { header: "total", align: "right" },
              ...FAMILIES.map((f): Column => ({ header: f.header, align: "right" })),
            ],
            res.records.map((r) => [
              out.localTime(r.startTime),
              money(r.totalAmount),
              ...FAMILIES.map((f) => money(familySum(r, f.parts))),
            ]),
          ),
          "",
          summary(out, totals.totalAmount ?? 0, records.length, window, query.startTime),
          ...fields(
            FAMILIES.map((f) => {
              const parts = Object.entries(f.parts);
              const detail =
                parts.length > 1
                  ? ` (${parts.map(([label, k]) => `${label} ${money(totals[k] ?? 0)}`).join(", ")})`
                  : "";
              return [
                `${f.header[0]?.toUpperCase()}${f.header.slice(1)}`,
                `${money(familySum(totals, f.parts))}${detail}`,
              ] as const;
            }),
          ),
        ];
      });
    });
}
