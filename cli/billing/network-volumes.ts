/** `billing network-volume`: storage billing per bucket and volume. */
import type { Command } from "commander";
import { connect } from "../connect.js";
import { money, type Terminal, table } from "../output.js";
import { addOutputOptions, textOption } from "../parse.js";
import { sumAmounts } from "./amounts.js";
import {
  addWindowOptions,
  EMPTY,
  summary,
  TIME_HELP,
  type WindowOptions,
  windowQuery,
  windowView,
} from "./window.js";

const VOLUME_AMOUNTS = ["totalAmount", "standardAmount", "highPerformanceAmount"] as const;

export function registerNetworkVolume(billing: Command, out: Terminal): void {
  const command = billing
    .command("network-volume")
    .alias("nv")
    .description("Network volume storage billing history, per bucket and volume.")
    .option(
      "--network-volume-id <id>",
      "only this network volume (filtered by RunPod)",
      textOption("--network-volume-id"),
    );
  addWindowOptions(command);
  addOutputOptions(command)
    .addHelpText(
      "after",
      `${TIME_HELP}

JSON fields (one object): query, records, totals.
  query: startTime, endTime, bucketSize (the window RunPod answered for), lastN, networkVolumeId
  records: startTime, endTime, networkVolumeId, ${VOLUME_AMOUNTS.join(", ")}
  totals: ${VOLUME_AMOUNTS.join(", ")} (sums over the records)`,
    )
    .action(async (opts: WindowOptions & { networkVolumeId?: string }) => {
      const query = windowQuery(opts);
      const { api } = connect(out);
      const res = await out.spin("Fetching network volume billing", () =>
        api.billing.networkVolumes({ ...query, networkVolumeId: opts.networkVolumeId }),
      );
      const records = res.records.map((r) => ({
        startTime: r.startTime,
        endTime: r.endTime,
        networkVolumeId: r.networkVolumeId,
        ...Object.fromEntries(VOLUME_AMOUNTS.map((k) => [k, r[k]])),
      }));
      const window = windowView(query, res.metadata?.query);
      const totals = sumAmounts(VOLUME_AMOUNTS, records);
      const view = {
        query: { ...window, networkVolumeId: opts.networkVolumeId ?? null },
        records,
        totals,
      };
      out.data(view, () => {
        if (records.length === 0) return [EMPTY];
        return [
          ...table(
            [
              { header: "time" },
              { header: "volume" },
              { header: "total", align: "right" },
              { header: "standard", align: "right" },
              { header: "high-perf", align: "right" },
            ],
            res.records.map((r) => [
              out.localTime(r.startTime),
              r.networkVolumeId,
              money(r.totalAmount),
              money(r.standardAmount),
              money(r.highPerformanceAmount),
            ]),
          ),
          "",
          summary(out, totals.totalAmount ?? 0, records.length, window, query.startTime),
        ];
      });
    });
}
