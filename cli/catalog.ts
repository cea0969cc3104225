/**
 * `runpod-dynamic catalog gpus|cpus|datacenters|snapshot`: what can be had and what it costs
 * (`{base_url}/v2/catalog/...`), so a user picks placement candidates without the console, and the
 * price snapshot the cost command and the policy pack's budget read offline.
 *
 * Prices are RunPod's list prices in US dollars per hour: per GPU for GPU types, per vCPU for CPU
 * flavors. Filters are applied here after one read (the catalog has no price or memory filter);
 * rows are sorted cheapest first.
 */
import { writeFileSync } from "node:fs";
import type { Command } from "commander";
import type { CpuFlavor, DataCenter, GpuType } from "../provider/catalog/types.js";
import { REGIONS, type Region } from "../provider/client/vocabulary.js";
import { toSnapshot } from "../provider/cost/price-snapshot.js";
import { connect } from "./connect.js";
import { catalogPrices } from "./cost/prices.js";
import { CliError, UsageError } from "./errors.js";
import { type Terminal, table } from "./output.js";
import { addOutputOptions, choice, intOption, numberOption, textOption } from "./parse.js";

const CLOUDS = ["SECURE", "COMMUNITY"] as const;
type Cloud = (typeof CLOUDS)[number];
const PRODUCTS = ["POD", "SERVERLESS", "CLUSTER"] as const;
type Product = (typeof PRODUCTS)[number];

const rate = (usd: number | null | undefined) =>
  usd === null || usd === undefined ? "-" : `$${usd.toFixed(2)}`;
const perVcpu = (usd: number) => `$${usd.toFixed(3)}`;

/** The data center `id` of the catalog, or a usage error naming the ones it has. */
function requireDataCenter(dcs: readonly DataCenter[], id: string): DataCenter {
  const dc = dcs.find((d) => d.id === id);
  if (!dc)
    throw new UsageError(
      `--data-center: "${id}" is not a data center of the catalog (it lists ${dcs.map((d) => d.id).join(", ")}).`,
    );
  return dc;
}

/** A GPU type's price for what was asked: the pod cloud's, or the serverless pool's. */
function gpuPrice(g: GpuType, product: Product, cloud: Cloud): number | null {
  const price =
    product === "SERVERLESS" ? g.price.serverless : cloud === "SECURE" ? g.price.secure : g.price.community;
  const offered = product === "SERVERLESS" ? g.pool !== null : cloud === "SECURE" ? g.secure : g.community;
  return offered && price !== undefined && price > 0 ? price : null;
}

function registerGpus(catalog: Command, out: Terminal): void {
  addOutputOptions(
    catalog
      .command("gpus")
      .description("GPU types: memory, price per GPU-hour in each cloud and serverless, stock.")
      .addOption(choice("--product <product>", "whose stock and price to show", PRODUCTS, "POD"))
      .addOption(
        choice("--cloud <cloud>", "the cloud --max-price and the sort apply to (pods)", CLOUDS, "SECURE"),
      )
      .option("--count <n>", "GPUs per pod the stock must allow", intOption("--count", 1, 64))
      .option(
        "--min-memory <gb>",
        "at least this much GPU memory (GB)",
        intOption("--min-memory", 1, 100_000),
      )
      .option(
        "--max-price <usd>",
        "at most this price per GPU-hour",
        numberOption("--max-price", 0, 1_000_000),
      )
      .option("--data-center <id>", "only types with stock in this data center", textOption("--data-center")),
  )
    .addHelpText(
      "after",
      "\nJSON fields (one object per GPU type): id, name, memory, pool, price (secure, community, serverless: USD per GPU-hour, null where not offered), maxCount, availability, dataCenters (id, availability).",
    )
    .action(
      async (opts: {
        product: Product;
        cloud: Cloud;
        count?: number;
        minMemory?: number;
        maxPrice?: number;
        dataCenter?: string;
      }) => {
        const { api } = connect(out);
        const [gpus, dcs] = await out.spin("Reading the GPU catalog", () =>
          Promise.all([
            api.catalog.gpuTypes({
              include: ["AVAILABILITY"],
              product: [opts.product],
              ...(opts.product === "POD" ? { cloud: opts.cloud } : {}),
              ...(opts.count ? { count: opts.count } : {}),
            }),
            opts.dataCenter ? api.catalog.dataCenters() : Promise.resolve([]),
          ]),
        );
        if (opts.dataCenter) requireDataCenter(dcs, opts.dataCenter);
        const kept = gpus
          .map((g) => ({ g, price: gpuPrice(g, opts.product, opts.cloud) }))
          .filter(({ price }) => price !== null)
          .filter(({ g }) => opts.minMemory === undefined || g.memory >= opts.minMemory)
          .filter(({ price }) => opts.maxPrice === undefined || (price ?? 0) <= opts.maxPrice)
          .filter(({ g }) => !opts.dataCenter || (g.dataCenters ?? []).some((d) => d.id === opts.dataCenter))
          .sort((a, b) => (a.price ?? 0) - (b.price ?? 0) || a.g.id.localeCompare(b.g.id));
        const view = kept.map(({ g }) => ({
          id: g.id,
          name: g.name,
          memory: g.memory,
          pool: g.pool,
          price: {
            secure: gpuPrice(g, "POD", "SECURE"),
            community: gpuPrice(g, "POD", "COMMUNITY"),
            serverless: gpuPrice(g, "SERVERLESS", "SECURE"),
          },
          maxCount: { secure: g.maxCount.secure, community: g.maxCount.community },
          availability: g.availability ?? null,
          dataCenters: (g.dataCenters ?? []).map((d) => ({ id: d.id, availability: d.availability })),
        }));
        out.data(view, () =>
          view.length === 0
            ? ["No GPU type matches."]
            : table(
                [
                  { header: "gpu type" },
                  { header: "memory", align: "right" },
                  { header: "secure/h", align: "right" },
                  { header: "community/h", align: "right" },
                  { header: "serverless/h", align: "right" },
                  { header: "pool" },
                  { header: "stock" },
                  { header: opts.dataCenter ? `in ${opts.dataCenter}` : "data centers" },
                ],
                view.map((g) => [
                  g.id,
                  `${g.memory} GB`,
                  rate(g.price.secure),
                  rate(g.price.community),
                  rate(g.price.serverless),
                  g.pool ?? "-",
                  g.availability ?? "",
                  opts.dataCenter
                    ? (g.dataCenters.find((d) => d.id === opts.dataCenter)?.availability ?? "")
                    : g.dataCenters.map((d) => `${d.id} ${d.availability}`).join(", "),
                ]),
              ),
        );
      },
    );
}

function registerCpus(catalog: Command, out: Terminal): void {
  addOutputOptions(
    catalog
      .command("cpus")
      .description("CPU flavors: vCPU range, RAM per vCPU, price per vCPU-hour, stock.")
      .option(
        "--max-price <usd>",
        "at most this Secure price per vCPU-hour",
        numberOption("--max-price", 0, 1_000),
      )
      .option(
        "--data-center <id>",
        "only flavors with stock in this data center",
        textOption("--data-center"),
      ),
  )
    .addHelpText(
      "after",
      "\nJSON fields (one object per flavor): id, name, group, vcpu (min, max), ramGbPerVcpu, price (securePerVcpu, serverlessPerVcpu: USD per vCPU-hour), availability, dataCenters (id, availability).",
    )
    .action(async (opts: { maxPrice?: number; dataCenter?: string }) => {
      const { api } = connect(out);
      const [cpus, dcs] = await out.spin("Reading the CPU catalog", () =>
        Promise.all([
          api.catalog.cpuFlavors({ include: ["AVAILABILITY"], product: ["POD"] }),
          opts.dataCenter ? api.catalog.dataCenters() : Promise.resolve([]),
        ]),
      );
      if (opts.dataCenter) requireDataCenter(dcs, opts.dataCenter);
      const kept = cpus
        .filter((c: CpuFlavor) => opts.maxPrice === undefined || c.price.securePerVcpu <= opts.maxPrice)
        .filter((c) => !opts.dataCenter || (c.dataCenters ?? []).some((d) => d.id === opts.dataCenter))
        .sort((a, b) => a.price.securePerVcpu - b.price.securePerVcpu || a.id.localeCompare(b.id));
      const view = kept.map((c) => ({
        id: c.id,
        name: c.name,
        group: c.group,
        vcpu: { min: c.vcpu.min, max: c.vcpu.max },
        ramGbPerVcpu: c.ramGbPerVcpu,
        price: { securePerVcpu: c.price.securePerVcpu, serverlessPerVcpu: c.price.serverlessPerVcpu },
        availability: c.availability ?? null,
        dataCenters: (c.dataCenters ?? []).map((d) => ({ id: d.id, availability: d.availability })),
      }));
      out.data(view, () =>
        view.length === 0
          ? ["No CPU flavor matches."]
          : table(
              [
                { header: "flavor" },
                { header: "name" },
                { header: "vcpus", align: "right" },
                { header: "ram/vcpu", align: "right" },
                { header: "secure/vcpu-h", align: "right" },
                { header: "serverless/vcpu-h", align: "right" },
                { header: "stock" },
              ],
              view.map((c) => [
                c.id,
                c.name,
                `${c.vcpu.min}-${c.vcpu.max}`,
                `${c.ramGbPerVcpu} GB`,
                perVcpu(c.price.securePerVcpu),
                perVcpu(c.price.serverlessPerVcpu),
                c.availability ?? "",
              ]),
            ),
      );
    });
}

function registerDataCenters(catalog: Command, out: Terminal): void {
  addOutputOptions(
    catalog
      .command("datacenters")
      .description("Data centers: region, global networking, network volume tiers, compliance, GPU stock.")
      .addOption(choice("--region <region>", "only this region", REGIONS))
      .option("--gpu <id>", "only data centers with stock of this GPU type", textOption("--gpu"))
      .option("--global-network", "only data centers that support global networking"),
  )
    .addHelpText(
      "after",
      "\nJSON fields (one object per data center): id, name, region, globalNetwork, networkVolumeTypes, compliance, gpus (id, availability).",
    )
    .action(async (opts: { region?: Region; gpu?: string; globalNetwork?: boolean }) => {
      const { api } = connect(out);
      const dcs = await out.spin("Reading the data centers", () =>
        api.catalog.dataCenters({
          include: ["GPU_AVAILABILITY"],
          ...(opts.region ? { regions: [opts.region] } : {}),
          ...(opts.globalNetwork ? { globalNetwork: true } : {}),
        }),
      );
      const kept = dcs.filter(
        (d) =>
          !opts.gpu || (d.gpuAvailability ?? []).some((a) => a.id === opts.gpu && a.availability !== "NONE"),
      );
      const view = kept.map((d) => ({
        id: d.id,
        name: d.name,
        region: d.region,
        globalNetwork: d.globalNetwork,
        networkVolumeTypes: d.networkVolumeTypes,
        compliance: d.compliance,
        gpus: (d.gpuAvailability ?? []).map((a) => ({ id: a.id, availability: a.availability })),
      }));
      out.data(view, () =>
        view.length === 0
          ? ["No data center matches."]
          : table(
              [
                { header: "id" },
                { header: "name" },
                { header: "region" },
                { header: "global net" },
                { header: "volume tiers" },
                { header: "gpus" },
              ],
              view.map((d) => [
                d.id,
                d.name,
                d.region,
                d.globalNetwork ? "yes" : "no",
                d.networkVolumeTypes.join(", ") || "-",
                d.gpus.map((g) => `${g.id} ${g.availability}`).join(", "),
              ]),
            ),
      );
    });
}

function registerSnapshot(catalog: Command, out: Terminal): void {
  addOutputOptions(
    catalog
      .command("snapshot")
      .description(
        "Write the catalog's prices to a file: what `cost --prices` and the policy pack's cost-budget read with no API call.",
      )
      .option("--out <file>", "where to write it (default: standard output)", textOption("--out", 4096)),
  )
    .addHelpText(
      "after",
      "\nThe file is JSON: format, takenAt, source, gpus, cpus, dataCenters. Commit it next to the\nprogram and refresh it when prices change; the cost command says when it was taken.",
    )
    .action(async (opts: { out?: string }) => {
      const { api, settings } = connect(out);
      const prices = await catalogPrices(out, api, settings.baseUrl);
      const text = `${JSON.stringify(toSnapshot(prices), null, 2)}\n`;
      if (opts.out === undefined) {
        out.line(text.trimEnd());
        return;
      }
      try {
        writeFileSync(opts.out, text);
      } catch (err) {
        throw new CliError(`--out ${opts.out}: cannot write the file (${(err as Error).message}).`);
      }
      out.data(
        { file: opts.out, takenAt: prices.takenAt, gpus: prices.gpus.size, cpus: prices.cpus.size },
        () => [
          `Wrote the prices of ${prices.gpus.size} GPU types and ${prices.cpus.size} CPU flavors to ${opts.out} (${prices.takenAt}).`,
        ],
      );
    });
}

export function registerCatalog(program: Command, out: Terminal): void {
  const catalog = program
    .command("catalog")
    .description(
      "What can be had and what it costs: GPU types, CPU flavors, data centers; a price snapshot.",
    );
  registerGpus(catalog, out);
  registerCpus(catalog, out);
  registerDataCenters(catalog, out);
  registerSnapshot(catalog, out);
}
