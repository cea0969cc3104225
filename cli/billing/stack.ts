/**
 * `billing stack [file]`: what a stack's resources cost over a window, as RunPod billed them, next
 * to their list rate now: "this stack cost $X in the last 7 days; its list rate is $Y/h".
 *
 * The stack is its state (`pulumi stack export`). One billing request per family the stack has
 * resources of (`/v2/billing/pods`, `/serverless`, `/network-volumes`, `/clusters`), its records
 * kept by the ids the state holds. A resource replaced or deleted during the window is no longer in
 * the state, so what its old id cost is not counted: the output says the spend is that of the
 * resources the stack holds now.
 */
import type { Command } from "commander";
import type { RunpodApi } from "../../provider/client/index.js";
import type { BillingQuery } from "../../provider/client/schemas/billing.js";
import { estimate } from "../../provider/cost/estimate.js";
import { type HourlyRange, perMonth } from "../../provider/cost/hourly-range.js";
import { runpodTypeName } from "../../provider/resources/type-tokens.js";
import { connect } from "../connect.js";
import { type CostChange, readCostDocument } from "../cost/documents.js";
import { catalogPrices } from "../cost/prices.js";
import { UsageError } from "../errors.js";
import { type Terminal, table } from "../output.js";
import { addOutputOptions, readTextArgument } from "../parse.js";
import { exact } from "./amounts.js";
import { addWindowOptions, TIME_HELP, type WindowOptions, windowQuery, windowView } from "./window.js";

/** Where each billed resource type's records are, and the output naming its id there. */
const FAMILIES = {
  Pod: {
    output: "id",
    fetch: (api: RunpodApi, q: BillingQuery) =>
      api.billing.pods(q).then((r) => ({ ...r, ids: r.records.map((x) => x.podId) })),
  },
  ServerlessEndpoint: {
    output: "endpointId",
    fetch: (api: RunpodApi, q: BillingQuery) =>
      api.billing.serverless(q).then((r) => ({ ...r, ids: r.records.map((x) => x.serverlessId) })),
  },
  NetworkVolume: {
    output: "volumeId",
    fetch: (api: RunpodApi, q: BillingQuery) =>
      api.billing.networkVolumes(q).then((r) => ({ ...r, ids: r.records.map((x) => x.networkVolumeId) })),
  },
  Cluster: {
    output: "clusterId",
    fetch: (api: RunpodApi, q: BillingQuery) =>
      api.billing.clusters(q).then((r) => ({ ...r, ids: r.records.map((x) => x.clusterId) })),
  },
} as const;
type Family = keyof typeof FAMILIES;

const isFamily = (name: string | undefined): name is Family => name !== undefined && name in FAMILIES;

/** The resource's id at RunPod: the state's `id`, or the output that names it. */
function idOf(change: CostChange, family: Family): string | undefined {
  const live = change.after?.live ?? {};
  const value = FAMILIES[family].output === "id" ? undefined : live[FAMILIES[family].output];
  return typeof value === "string" ? value : change.id;
}

const usd = (n: number, digits = 2) =>
  n.toLocaleString("en-US", {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
const rate = (r: HourlyRange | null) =>
  r === null ? "" : r.low === r.high ? usd(r.low, 4) : `${usd(r.low, 4)}-${usd(r.high, 4)}`;

export function registerStack(billing: Command, out: Terminal): void {
  const command = billing
    .command("stack")
    .description(
      "What a stack's resources cost over a window, as RunPod billed them, next to their list rate now (pulumi stack export).",
    )
    .argument("[file]", "the stack's state, as `pulumi stack export` writes it; - for standard input", "-");
  addWindowOptions(command);
  addOutputOptions(command)
    .addHelpText(
      "after",
      `${TIME_HELP}

Only the resources the state holds now are counted: one replaced or deleted during the window had
another id, and what it cost is not in the total. SshKey, Template, Registry and ServerlessJob are
not billed on their own.

JSON fields (one object): query (startTime, endTime, bucketSize, lastN), resources (name, urn,
type, id, spent, records, listHourly {low, high}), totals (spent, listHourly, listMonthly).`,
    )
    .action(async (file: string, opts: WindowOptions) => {
      const document = readCostDocument(
        readTextArgument("billing stack", file, out.stdin),
        file === "-" ? "standard input" : file,
      );
      if (document.kind !== "state")
        throw new UsageError(
          "billing stack reads a stack's state (`pulumi stack export`); for a preview, use `runpod-dynamic cost`.",
        );
      const query = windowQuery(opts);
      const { api, settings } = connect(out);
      const billed = document.changes.flatMap((c) => {
        const family = runpodTypeName(c.type);
        return isFamily(family) ? [{ change: c, family, id: idOf(c, family) }] : [];
      });
      const families = [...new Set(billed.map((b) => b.family))];
      const [prices, ...answers] = await out.spin("Reading the stack's billing", () =>
        Promise.all([
          catalogPrices(out, api, settings.baseUrl),
          ...families.map((f) => FAMILIES[f].fetch(api, query)),
        ]),
      );
      const spent = new Map<string, { total: number; records: number }>();
      answers.forEach((answer, i) => {
        answer.records.forEach((record, j) => {
          const key = `${families[i]}/${answer.ids[j]}`;
          const was = spent.get(key) ?? { total: 0, records: 0 };
          spent.set(key, { total: was.total + record.totalAmount, records: was.records + 1 });
        });
      });
      const resources = billed.map(({ change, family, id }) => {
        const e = change.after ? estimate(change.after, prices) : null;
        const s = spent.get(`${family}/${id}`) ?? { total: 0, records: 0 };
        return {
          name: change.name,
          urn: change.urn,
          type: family,
          id: id ?? null,
          spent: exact(s.total),
          records: s.records,
          listHourly: e?.kind === "priced" ? e.hourly : null,
        };
      });
      const total = exact(resources.reduce((sum, r) => sum + r.spent, 0));
      const list = resources.reduce(
        (sum, r) =>
          r.listHourly ? { low: sum.low + r.listHourly.low, high: sum.high + r.listHourly.high } : sum,
        { low: 0, high: 0 },
      );
      const window = windowView(query, answers[0]?.metadata?.query);
      const view = {
        query: window,
        resources,
        totals: {
          spent: total,
          listHourly: list,
          listMonthly: { low: perMonth(list.low), high: perMonth(list.high) },
        },
      };
      const span =
        window.startTime && window.endTime
          ? `from ${out.localTime(window.startTime)} to ${out.localTime(window.endTime)}`
          : "in RunPod's default window";
      out.data(view, () => [
        ...(resources.length === 0
          ? ["The stack holds no billed RunPod resource."]
          : table(
              [
                { header: "resource" },
                { header: "type" },
                { header: "id" },
                { header: "spent", align: "right" },
                { header: "list/h", align: "right" },
              ],
              resources.map((r) => [r.name, r.type, r.id ?? "", usd(r.spent), rate(r.listHourly)]),
            )),
        "",
        `This stack cost ${usd(total)} ${span}; its list rate is ${rate(list)} per hour (${usd(perMonth(list.low))}${list.low === list.high ? "" : `-${usd(perMonth(list.high))}`} per 30-day month).`,
        "Spend is what RunPod billed the resources the stack holds now; one replaced or deleted in the window is not counted.",
      ]);
    });
}
