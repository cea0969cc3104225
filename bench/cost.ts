/**
 * Scenario 8: what pricing a large change takes. A `pulumi preview --json` document of N resources
 * (pods with and without placement fallbacks, endpoints, volumes, keys and another provider's
 * buckets), read, priced and rendered as the cost command does, against the emulator seed's
 * catalog as a price list. No API call is timed: the catalog is read once before.
 *
 *   node dist/bench/run.js --only cost   # this scenario alone, written to bench/results/cost.json
 *                                # and into the figures of bench/README.md
 */
import { priceChanges } from "../cli/cost/diff.js";
import { readCostDocument } from "../cli/cost/documents.js";
import { costJson, costMarkdown, costTable } from "../cli/cost/render.js";
import { startEmulator } from "../emulator/index.js";
import { RunpodApi, RunpodClient, resolveSettings } from "../provider/client/index.js";
import { type PriceList, priceList } from "../provider/cost/prices.js";

const T = "pulumi-nodejs:dynamic/runpod:";

function step(i: number): object {
  const urn = (type: string) => `urn:pulumi:dev::bench::${type}::r${i}`;
  const create = (type: string, inputs: object) => ({
    op: "create",
    urn: urn(type),
    newState: { urn: urn(type), type, custom: true, inputs },
  });
  switch (i % 5) {
    case 0:
      return create(`${T}Pod`, {
        name: `p${i}`,
        image: "img",
        gpu: { id: "NVIDIA A40", count: 1 + (i % 3) },
        disk: 40,
        placement: { regions: ["EUROPE"], gpuTypeIds: ["NVIDIA L40S", "NVIDIA A100 80GB PCIe"] },
      });
    case 1:
      return create(`${T}Pod`, { name: `p${i}`, image: "img", cpu: { id: "cpu3c", vcpuCount: 4 }, disk: 20 });
    case 2:
      return create(`${T}ServerlessEndpoint`, {
        name: `e${i}`,
        image: "img",
        gpu: { pools: ["ADA_24", "ADA_48_PRO"] },
        workers: { min: i % 2, max: 3 },
      });
    case 3:
      return create(`${T}NetworkVolume`, {
        name: `v${i}`,
        size: 100 + i,
        dataCenterId: "US-TX-3",
        type: "STANDARD",
      });
    default:
      return create("aws:s3/bucket:Bucket", { bucket: `b${i}` });
  }
}

/** A preview document of `n` resources, as `pulumi preview --json` writes one. */
export function previewOf(n: number): string {
  const steps = Array.from({ length: n }, (_, i) => step(i));
  return JSON.stringify({ steps, changeSummary: { create: n, same: 1 } });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

export interface CostFigures {
  readonly resources: number;
  readonly documentBytes: number;
  /** Reading the document and pricing every resource, median of `runs`. */
  readonly priceMs: number;
  /** The same plus rendering the table, the markdown and the JSON. */
  readonly priceAndRenderMs: number;
  readonly runsMs: number[];
}

async function seedPrices(): Promise<PriceList> {
  const emu = await startEmulator({ clockScale: 0 });
  try {
    const api = new RunpodApi(new RunpodClient(resolveSettings(() => undefined, emu.env())));
    const [gpus, cpus, dataCenters] = await Promise.all([
      api.catalog.gpuTypes(),
      api.catalog.cpuFlavors(),
      api.catalog.dataCenters(),
    ]);
    return priceList({ gpus, cpus, dataCenters }, emu.baseUrl, new Date().toISOString());
  } finally {
    await emu.close();
  }
}

export async function costOfPreview(n = 1000, runs = 7): Promise<CostFigures> {
  const prices = await seedPrices();
  const text = previewOf(n);
  const price = () => priceChanges(readCostDocument(text, "bench"), prices);
  price(); // warm up
  const priceMs: number[] = [];
  const allMs: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const t0 = performance.now();
    const report = price();
    const t1 = performance.now();
    costTable(report);
    costMarkdown(report);
    JSON.stringify(costJson(report));
    allMs.push(performance.now() - t0);
    priceMs.push(t1 - t0);
  }
  return {
    resources: n,
    documentBytes: Buffer.byteLength(text),
    priceMs: median(priceMs),
    priceAndRenderMs: median(allMs),
    runsMs: allMs,
  };
}
