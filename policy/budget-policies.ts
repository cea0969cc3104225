/**
 * The budget: what the stack costs at list price, checked against limits an organisation sets,
 * with the provider's own estimate (`estimate` in runpod-dynamic, what `runpod-dynamic cost`
 * prints). A stack policy, so it sees every resource after the change: resources to be created
 * show their inputs, existing ones their outputs (where they were placed, what they are billed).
 *
 * Prices come from a snapshot file (`pricesFile`, written by `runpod-dynamic catalog snapshot`):
 * the pack makes no network call and needs no API key. The engine starts the pack in its own
 * folder, so a relative `pricesFile` is read from there. The policy is inert until a limit is set;
 * once one is, it fails closed: no prices, a GPU type the snapshot lacks or a cost preview cannot
 * know yet is a violation that says so, never a silent pass.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { StackValidationPolicy } from "@pulumi/policy";
import {
  type Estimate,
  estimate,
  fromSnapshot,
  type HourlyRange,
  type PriceList,
  perMonth,
  runpodTypeName,
} from "runpod-dynamic/review";
import { configOf, plainProps, subject, violation } from "./common";

interface BudgetConfig {
  pricesFile?: string;
  maxPodHourly?: number;
  maxGpuHourly?: number;
  maxStackHourly?: number;
  allowUnknown: boolean;
}

const limit = (description: string) => ({ type: "number" as const, minimum: 0, description });

const budgetSchema = {
  properties: {
    pricesFile: {
      type: "string" as const,
      minLength: 1,
      description:
        "A price snapshot written by `runpod-dynamic catalog snapshot --out <file>`; a relative path is read from the policy pack's folder.",
    },
    maxPodHourly: limit("Most a Pod may cost per hour at list price, in USD (a range at its top)."),
    maxGpuHourly: limit(
      "Most any GPU type a pod, cluster or serverless endpoint may run on may cost per GPU-hour, in USD.",
    ),
    maxStackHourly: limit(
      "Most the whole stack may cost per hour at list price, in USD (ranges at their top).",
    ),
    allowUnknown: {
      type: "boolean" as const,
      default: false,
      description:
        "Let a resource whose cost preview cannot know yet (an input computed from another resource) pass; by default it fails the check.",
    },
  },
};

/** The output each resource has only once it exists: its props are outputs then, not inputs. */
const OUTPUT_ONLY: Readonly<Record<string, string>> = {
  Pod: "status",
  Cluster: "clusterId",
  ServerlessEndpoint: "endpointId",
  NetworkVolume: "volumeId",
};

/** Dollars: cents from $1 up, four decimals under it (a volume's hourly rate is a fraction of a cent). */
const usd = (n: number) => {
  const digits = Math.abs(n) >= 1 || n === 0 ? 2 : 4;
  return n.toLocaleString("en-US", {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
};
const rate = (r: HourlyRange) => (r.low === r.high ? `${usd(r.high)}/h` : `${usd(r.low)}-${usd(r.high)}/h`);

interface Priced {
  readonly who: string;
  readonly urn: string;
  readonly isNew: boolean;
  readonly type: string;
  readonly estimate: Estimate;
}

/** The snapshot, or the reason it cannot be had (a violation, when a limit is set). */
function loadPrices(file: string | undefined): PriceList | string {
  if (file === undefined)
    return "no prices: set pricesFile to a snapshot written by `runpod-dynamic catalog snapshot --out <file>`";
  const path = resolve(file);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    return `the prices file ${path} cannot be read (${(err as Error).message})`;
  }
  try {
    return fromSnapshot(text, path);
  } catch (err) {
    return (err as Error).message;
  }
}

function stackMessage(total: HourlyRange, max: number, priced: readonly Priced[]): string {
  const adds = priced
    .filter((p) => p.estimate.kind === "priced" && p.estimate.hourly.high > 0)
    .sort(
      (a, b) =>
        (b.estimate.kind === "priced" ? b.estimate.hourly.high : 0) -
        (a.estimate.kind === "priced" ? a.estimate.hourly.high : 0),
    );
  const list = (ps: readonly Priced[]) =>
    ps.map((p) => `${p.who} ${p.estimate.kind === "priced" ? rate(p.estimate.hourly) : ""}`).join(", ");
  const added = adds.filter((p) => p.isNew);
  const kept = adds.filter((p) => !p.isNew);
  return violation(
    "This stack",
    "cost",
    `it would cost up to ${usd(total.high)}/h at list price (${usd(perMonth(total.high))} per 30-day month), ${usd(total.high - max)}/h over maxStackHourly ${usd(max)}/h. ${added.length > 0 ? `Added by this change: ${list(added)}.` : "Nothing is added by this change."}${kept.length > 0 ? ` Already in the stack: ${list(kept)}.` : ""}`,
    "remove or shrink resources (fewer GPUs, cheaper GPU types, a lower workers.max), or raise maxStackHourly in the policy pack config",
  );
}

export const budgetPolicies: readonly StackValidationPolicy[] = [
  {
    name: "cost-budget",
    description:
      "The stack stays within its budget at list price: per pod, per GPU-hour, and for the whole stack per hour.",
    enforcementLevel: "mandatory",
    configSchema: budgetSchema,
    validateStack: (args, reportViolation) => {
      const config = configOf<BudgetConfig>(args, budgetSchema);
      const limits = [config.maxPodHourly, config.maxGpuHourly, config.maxStackHourly];
      if (limits.every((l) => l === undefined)) return;
      const prices = loadPrices(config.pricesFile);
      if (typeof prices === "string") {
        reportViolation(
          violation(
            "This stack",
            "cost",
            `the budget cannot be checked: ${prices}`,
            "give the policy a price snapshot (pricesFile)",
          ),
        );
        return;
      }
      const priced: Priced[] = args.resources.flatMap((r) => {
        const name = runpodTypeName(r.type);
        if (name === undefined) return [];
        const props = plainProps(r.props);
        const output = OUTPUT_ONLY[name];
        const isNew = output === undefined || !(output in props);
        return [
          {
            who: subject(r.type, r.name),
            urn: r.urn,
            isNew,
            type: name,
            estimate: estimate({ type: r.type, inputs: props, live: isNew ? undefined : props }, prices),
          },
        ];
      });
      let total: HourlyRange = { low: 0, high: 0 };
      for (const p of priced) {
        const e = p.estimate;
        if (e.kind === "error") {
          reportViolation(
            violation(
              p.who,
              e.field,
              `the budget cannot be checked: ${e.reason}`,
              "fix the input, or refresh the price snapshot",
            ),
            p.urn,
          );
          continue;
        }
        if (e.kind === "unknown") {
          if (!config.allowUnknown)
            reportViolation(
              violation(
                p.who,
                e.field,
                `the budget cannot be checked: ${e.reason}`,
                "give it a known value, or set allowUnknown in the policy pack config to let such resources pass",
              ),
              p.urn,
            );
          continue;
        }
        if (e.kind !== "priced") continue;
        total = { low: total.low + e.hourly.low, high: total.high + e.hourly.high };
        const perPod = e.hourly.high;
        if (config.maxPodHourly !== undefined && p.type === "Pod" && perPod > config.maxPodHourly) {
          reportViolation(
            violation(
              p.who,
              "cost",
              `it may cost ${rate(e.hourly)} at list price, ${usd(perPod - config.maxPodHourly)}/h over maxPodHourly ${usd(config.maxPodHourly)}/h (${e.parts.map((part) => `${part.what}: ${rate(part.hourly)}`).join("; ")})`,
              "use fewer or cheaper GPUs, or raise maxPodHourly in the policy pack config",
            ),
            p.urn,
          );
        }
        const dear = e.gpus.filter(
          (g) => config.maxGpuHourly !== undefined && g.hourly > config.maxGpuHourly,
        );
        if (config.maxGpuHourly !== undefined && dear.length > 0) {
          reportViolation(
            violation(
              p.who,
              "gpu",
              `it may run on ${dear.map((g) => `${g.id} at ${usd(g.hourly)} per GPU-hour`).join(", ")}, over maxGpuHourly ${usd(config.maxGpuHourly)}`,
              "choose GPU types (or serverless pools) at or under the limit, or raise maxGpuHourly in the policy pack config",
            ),
            p.urn,
          );
        }
      }
      if (config.maxStackHourly !== undefined && total.high > config.maxStackHourly)
        reportViolation(stackMessage(total, config.maxStackHourly, priced));
    },
  },
];
