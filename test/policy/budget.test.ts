/**
 * The cost-budget policy called directly, its props behind the framework's unknown-checking proxy
 * and its prices from a snapshot file: each limit passing and failing, the messages, and failing
 * closed whenever prices or a cost cannot be had. Through the real CLI and policy server:
 * test/e2e/cost.test.ts.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadDist } from "../support/dist.js";
import { POD, STACK, stackPolicyNamed, type TestResource, urnOf, validateStack } from "../support/policy.js";

const { priceList } = loadDist<typeof import("../../provider/cost/prices.js")>("provider/cost/prices.js");
const { toSnapshot } = loadDist<typeof import("../../provider/cost/price-snapshot.js")>(
  "provider/cost/price-snapshot.js",
);

const gpu = (id: string, secure: number) => ({
  id,
  name: id,
  pool: null,
  manufacturer: "NVIDIA",
  memory: 48,
  secure: true,
  community: false,
  price: { secure, community: 0 },
  maxCount: { secure: 8, community: 0 },
});
const dir = mkdtempSync(join(tmpdir(), "runpod-budget-"));
const PRICES = join(dir, "prices.json");
writeFileSync(
  PRICES,
  JSON.stringify(
    toSnapshot(
      priceList(
        { gpus: [gpu("G-1", 1.0), gpu("G-2", 3.0)], cpus: [], dataCenters: [] },
        "test",
        "2026-11-01T00:00:00Z",
      ),
    ),
  ),
);

const policy = stackPolicyNamed("cost-budget");
const stack: TestResource = { type: STACK, name: "rp-dev", props: {} };
const pod = (
  name: string,
  gpuSpec: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): TestResource => ({
  type: POD,
  name,
  props: { name, image: "i", gpu: gpuSpec, disk: 0, ...extra },
});
/** A pod that exists: its props are its outputs, placed on `placedOn`. */
const running = (name: string, placedOn: string, count = 1): TestResource => ({
  type: POD,
  name,
  props: {
    name,
    image: "i",
    status: "RUNNING",
    gpu: { id: placedOn, count },
    cloud: "SECURE",
    disk: 0,
    cost: 1,
  },
});
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const check = (resources: TestResource[], config: Record<string, unknown>) =>
  validateStack(policy, [stack, ...resources], { allowUnknown: false, ...config });

describe("cost-budget", () => {
  it("is inert until a limit is set, even without prices", async () => {
    expect(await check([pod("big", { id: "G-2", count: 8 })], {})).toEqual([]);
  });

  it("a pod within maxPodHourly passes; one over it fails on that pod, saying by how much and why", async () => {
    const config = { pricesFile: PRICES, maxPodHourly: 2 };
    expect(await check([pod("small", { id: "G-1", count: 2 })], config)).toEqual([]);
    expect(
      await check([pod("small", { id: "G-1", count: 2 }), pod("big", { id: "G-1", count: 4 })], config),
    ).toEqual([
      [
        urnOf(POD, "big"),
        'Pod "big", cost: it may cost $4.00/h at list price, $2.00/h over maxPodHourly $2.00/h (4x G-1 GPU, SECURE: $4.00/h). Fix: use fewer or cheaper GPUs, or raise maxPodHourly in the policy pack config.',
      ],
    ]);
  });

  it("maxGpuHourly names each GPU type over it that a pod may run on", async () => {
    const r = await check([pod("p", { id: "G-1" }, { placement: { gpuTypeIds: ["G-2"] } })], {
      pricesFile: PRICES,
      maxGpuHourly: 2,
    });
    expect(r).toEqual([
      [
        urnOf(POD, "p"),
        'Pod "p", gpu: it may run on G-2 at $3.00 per GPU-hour, over maxGpuHourly $2.00. Fix: choose GPU types (or serverless pools) at or under the limit, or raise maxGpuHourly in the policy pack config.',
      ],
    ]);
  });

  it("maxStackHourly: what the stack would cost, by how much it is over, what this change adds and what was there", async () => {
    const config = { pricesFile: PRICES, maxStackHourly: 5 };
    expect(await check([running("old", "G-1"), pod("new", { id: "G-1", count: 3 })], config)).toEqual([]);
    expect(await check([running("old", "G-1"), pod("new", { id: "G-2", count: 2 })], config)).toEqual([
      [
        "",
        'This stack, cost: it would cost up to $7.00/h at list price ($5,040.00 per 30-day month), $2.00/h over maxStackHourly $5.00/h. Added by this change: Pod "new" $6.00/h. Already in the stack: Pod "old" $1.00/h. Fix: remove or shrink resources (fewer GPUs, cheaper GPU types, a lower workers.max), or raise maxStackHourly in the policy pack config.',
      ],
    ]);
  });

  it("an existing pod counts at the GPU type it was placed on, not its candidates' dearest", async () => {
    const placed = running("p", "G-1");
    const props = { ...placed.props, placement: { gpuTypeIds: ["G-2"] } };
    expect(await check([{ ...placed, props }], { pricesFile: PRICES, maxStackHourly: 2 })).toEqual([]);
  });

  it.each<[string, TestResource[], Record<string, unknown>, Array<[string, string]>]>([
    [
      "no prices file configured",
      [pod("p", { id: "G-1" })],
      { maxStackHourly: 5 },
      [
        [
          "",
          "This stack, cost: the budget cannot be checked: no prices: set pricesFile to a snapshot written by `runpod-dynamic catalog snapshot --out <file>`. Fix: give the policy a price snapshot (pricesFile).",
        ],
      ],
    ],
    [
      "a prices file that is not there",
      [pod("p", { id: "G-1" })],
      { maxStackHourly: 5, pricesFile: join(dir, "gone.json") },
      [
        [
          "",
          expect.stringMatching(
            /^This stack, cost: the budget cannot be checked: the prices file .*gone\.json cannot be read \(ENOENT/,
          ) as unknown as string,
        ],
      ],
    ],
    [
      "a GPU type the snapshot does not have",
      [pod("p", { id: "G-9" })],
      { maxStackHourly: 5, pricesFile: PRICES },
      [
        [
          urnOf(POD, "p"),
          expect.stringMatching(
            /^Pod "p", gpu\.id: the budget cannot be checked: GPU type "G-9" is not in the catalog \(.*prices\.json \(from test\)\)\. Fix: fix the input, or refresh the price snapshot\.$/,
          ) as unknown as string,
        ],
      ],
    ],
    [
      "a GPU count preview cannot know yet",
      [pod("p", { id: "G-1", count: UNKNOWN })],
      { maxStackHourly: 5, pricesFile: PRICES },
      [
        [
          urnOf(POD, "p"),
          'Pod "p", gpu.count: the budget cannot be checked: gpu.count is not known until the change is applied. Fix: give it a known value, or set allowUnknown in the policy pack config to let such resources pass.',
        ],
      ],
    ],
    [
      "the same, with allowUnknown",
      [pod("p", { id: "G-1", count: UNKNOWN })],
      { maxStackHourly: 5, pricesFile: PRICES, allowUnknown: true },
      [],
    ],
  ])("fails closed: %s", async (_name, resources, config, expected) => {
    expect(await check(resources, config)).toEqual(expected);
  });
});
