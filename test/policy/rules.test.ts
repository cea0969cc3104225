/**
 * Every policy of the pack called directly (the cheapest of the three ways test/support/policy.ts offers):
 * a passing and a failing case each, with the exact message; props sit behind the framework's real
 * unknown-checking proxy, as the server passes them.
 */
import { Secret } from "@pulumi/policy";
import fc from "fast-check";
import { checkPod } from "runpod-dynamic/review";
import { describe, expect, it } from "vitest";
import { runpodPolicies } from "../../policy/pack.js";
import { POD_CHECK_RULES, podCheckFailures, podCheckRules } from "../../policy/pod-policies.js";
import {
  ENDPOINT,
  POD,
  packPolicies,
  resourceArgs,
  resourcePolicyNamed,
  SSH_KEY,
  STACK,
  stackPolicyNamed,
  type TestResource,
  urnOf,
  validate,
  validateStack,
} from "../support/policy.js";

const A40 = "NVIDIA A40";
const H100 = "NVIDIA H100 80GB HBM3";
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const UNKNOWN_NUMBER = "3eeb2bf0-c639-47a8-9e75-3b44932eb421";
const UNKNOWN_ARRAY = "6a19a0b0-7e62-4c92-b797-7f8e31da9cc2";
const UNKNOWN_BOOL = "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7";

const gpuPod = (extra: Record<string, unknown> = {}): TestResource => ({
  type: POD,
  name: "trainer",
  props: { name: "trainer", image: "img:1", gpu: { id: A40 }, ...extra },
});
const cpuPod = (extra: Record<string, unknown> = {}): TestResource => ({
  type: POD,
  name: "worker",
  props: { name: "worker", image: "img:1", cpu: { id: "cpu3c", vcpuCount: 4 }, ...extra },
});
const endpoint = (extra: Record<string, unknown> = {}): TestResource => ({
  type: ENDPOINT,
  name: "api",
  props: { name: "api", templateId: "tpl-1", gpu: { pools: ["AMPERE_48"] }, ...extra },
});
/** Passes every policy of the pack. */
const cleanPod = () =>
  gpuPod({
    placement: { regions: ["EUROPE"], gpuTypeIds: ["NVIDIA L40S"] },
    autostop: { idleMinutes: 60, allowDataLoss: true },
  });

const persistent = { size: 20, path: "/workspace" };
const network = [{ volumeId: "vol-1", path: "/data" }];
const global = [{ volumeId: "gv-1" }];

/** Every policy of the pack in its order, with its default level and what it validates. */
const POLICIES: readonly (readonly [string, string, "resource" | "stack"])[] = [
  ["pod-persistent-with-network", "mandatory", "resource"],
  ["pod-persistent-with-global", "mandatory", "resource"],
  ["pod-persistent-on-cpu", "mandatory", "resource"],
  ["pod-network-volume-community", "mandatory", "resource"],
  ["pod-gpu-or-cpu", "mandatory", "resource"],
  ["pod-cuda-constraint-conflict", "mandatory", "resource"],
  ["pod-cuda-version-format", "mandatory", "resource"],
  ["pod-cpu-vcpu-count", "mandatory", "resource"],
  ["pod-disk-size", "mandatory", "resource"],
  ["pod-persistent-size", "mandatory", "resource"],
  ["pod-single-volume-mount", "mandatory", "resource"],
  ["pod-ports-format", "mandatory", "resource"],
  ["pod-name", "mandatory", "resource"],
  ["pod-request-size", "mandatory", "resource"],
  ["pod-autostop-locked", "mandatory", "resource"],
  ["pod-valid-inputs", "mandatory", "resource"],
  ["pod-persistent-mount-deprecated", "advisory", "resource"],
  ["pod-ssh-port", "advisory", "resource"],
  ["pod-jupyter-port", "advisory", "resource"],
  ["pod-global-networking-cpu", "advisory", "resource"],
  ["pod-placement-fallback", "advisory", "resource"],
  ["pod-gpu-autostop", "advisory", "resource"],
  ["pod-autostop-data-loss", "mandatory", "resource"],
  ["serverless-workers-range", "mandatory", "resource"],
  ["serverless-gpu-types", "mandatory", "resource"],
  ["serverless-valid-inputs", "mandatory", "resource"],
  ["env-secrets", "advisory", "resource"],
  ["allowed-gpu-types", "mandatory", "resource"],
  ["max-gpus-per-pod", "mandatory", "resource"],
  ["allowed-clouds", "mandatory", "resource"],
  ["ssh-key-for-start-ssh", "advisory", "stack"],
  ["pod-volume-reachable", "advisory", "stack"],
  ["max-pods-per-stack", "mandatory", "stack"],
  ["cost-budget", "mandatory", "stack"],
];
/** What every resource policy answers for a resource it has nothing to say about. */
const NOTHING_FROM_RESOURCE_POLICIES = POLICIES.filter((p) => p[2] === "resource").map((p) => [p[0], []]);
const resourcePolicies = packPolicies.filter((p) => "validateResource" in p);

/** Each resource policy's violations for `r`, by name. */
const everyResourcePolicy = async (r: TestResource) =>
  Promise.all(resourcePolicies.map(async (p) => [p.name, await validate(p, r)]));

const run = (name: string, r: TestResource, config: Record<string, unknown> = {}) =>
  validate(resourcePolicyNamed(name), r, config);

describe("the pack", () => {
  it("lists every policy once, with its default level and what it validates", () => {
    expect(
      packPolicies.map((p) => [p.name, p.enforcementLevel, "validateResource" in p ? "resource" : "stack"]),
    ).toEqual(POLICIES);
  });

  it("passes a clean GPU pod, CPU pod and serverless endpoint through every resource policy", async () => {
    for (const r of [cleanPod(), cpuPod(), endpoint()]) {
      expect(await everyResourcePolicy(r)).toEqual(NOTHING_FROM_RESOURCE_POLICIES);
    }
  });

  it("leaves other resource types alone", async () => {
    const bucket = { type: "aws:s3/bucket:Bucket", name: "b", props: { name: "", env: { API_KEY: "x" } } };
    expect(await everyResourcePolicy(bucket)).toEqual(NOTHING_FROM_RESOURCE_POLICIES);
  });
});

// ---------------------------------------------------------------- mandatory: the provider's check, split by rule

interface CheckCase {
  readonly rule: string;
  readonly pass: TestResource;
  readonly fail: TestResource;
  readonly messages: readonly string[];
}

const checkCases: CheckCase[] = [
  {
    rule: "pod-persistent-with-network",
    pass: gpuPod({ mounts: { network } }),
    fail: gpuPod({ mounts: { persistent, network } }),
    messages: [
      'Pod "trainer", mounts.persistent: cannot be combined with mounts.network or mounts.global; use a network volume alone. Fix: drop mounts.persistent (deprecated) and keep the network volume.',
    ],
  },
  {
    rule: "pod-persistent-with-global",
    pass: gpuPod({ mounts: { persistent, network } }),
    fail: gpuPod({ mounts: { persistent, global } }),
    messages: [
      'Pod "trainer", mounts.persistent: cannot be combined with mounts.network or mounts.global; use a network volume alone. Fix: drop mounts.persistent (deprecated) and keep the global volume.',
    ],
  },
  {
    rule: "pod-persistent-on-cpu",
    pass: cpuPod({ mounts: { network } }),
    fail: cpuPod({ mounts: { persistent } }),
    messages: [
      'Pod "worker", mounts.persistent: is not supported on CPU pods; mount a network volume instead. Fix: remove mounts.persistent; a CPU pod can mount a network volume (mounts.network) or a global volume (mounts.global).',
    ],
  },
  {
    rule: "pod-network-volume-community",
    pass: gpuPod({ cloud: "SECURE", mounts: { network } }),
    fail: gpuPod({ cloud: "COMMUNITY", mounts: { network } }),
    messages: [
      'Pod "trainer", mounts.network: network volumes are available on Secure Cloud only, so a pod with cloud COMMUNITY cannot mount one (the API answers 400). Fix: set cloud to SECURE (the default), or drop mounts.network and keep data in the container or volume disk.',
    ],
  },
  {
    rule: "pod-gpu-or-cpu",
    pass: cpuPod(),
    fail: gpuPod({ cpu: { id: "cpu3c", vcpuCount: 4 } }),
    messages: [
      'Pod "trainer", cpu: exactly one of gpu or cpu must be set (both are). Fix: set gpu for a GPU pod or cpu for a CPU pod, not both and not neither.',
    ],
  },
  {
    rule: "pod-cuda-constraint-conflict",
    // An explicit empty list means no constraint and may accompany a floor (docs/api-model.md, Creating a pod, cross-field rule 2).
    pass: gpuPod({ gpu: { id: A40, allowedCudaVersions: [], minCudaVersion: "12.1" } }),
    fail: gpuPod({ gpu: { id: A40, allowedCudaVersions: ["12.4"], minCudaVersion: "12.1" } }),
    messages: [
      'Pod "trainer", gpu.minCudaVersion: cannot be combined with a non-empty gpu.allowedCudaVersions (the API answers 400); use one of them. Fix: keep either gpu.allowedCudaVersions (exact versions) or gpu.minCudaVersion (a floor), not both.',
    ],
  },
  {
    rule: "pod-cuda-version-format",
    pass: gpuPod({ gpu: { id: A40, allowedCudaVersions: ["12.4", "11.8"] } }),
    fail: gpuPod({ gpu: { id: A40, allowedCudaVersions: ["12", "12.4.1"] } }),
    messages: [
      'Pod "trainer", gpu.allowedCudaVersions[0]: must be a CUDA version as major.minor, e.g. 12.4. Fix: write each CUDA version as a "major.minor" string, e.g. "12.4".',
      'Pod "trainer", gpu.allowedCudaVersions[1]: must be a CUDA version as major.minor, e.g. 12.4. Fix: write each CUDA version as a "major.minor" string, e.g. "12.4".',
    ],
  },
  {
    rule: "pod-cpu-vcpu-count",
    pass: cpuPod({ cpu: { id: "cpu3c", vcpuCount: 8 } }),
    fail: cpuPod({ cpu: { id: "cpu3c", vcpuCount: 6 } }),
    messages: [
      'Pod "worker", cpu.vcpuCount: must be a power of two (2, 4, 8, ...); got 6. Fix: set cpu.vcpuCount to 2, 4, 8, ... as the CPU flavor offers.',
    ],
  },
  {
    rule: "pod-disk-size",
    pass: gpuPod({ disk: 1 }),
    fail: gpuPod({ disk: 0 }),
    messages: ['Pod "trainer", disk: must be at least 1. Fix: set disk to 1 or more.'],
  },
  {
    rule: "pod-persistent-size",
    pass: gpuPod({ mounts: { persistent: { size: 10, path: "/workspace" } } }),
    fail: gpuPod({ mounts: { persistent: { size: 5, path: "/workspace" } } }),
    messages: [
      'Pod "trainer", mounts.persistent.size: must be at least 10. Fix: set mounts.persistent.size to 10 or more, or better, use a network volume.',
    ],
  },
  {
    rule: "pod-single-volume-mount",
    // A network and a global volume may be combined (docs/api-model.md, Mounts, rule 2).
    pass: gpuPod({ mounts: { network, global } }),
    fail: gpuPod({ mounts: { network: [...network, { volumeId: "vol-2", path: "/more" }] } }),
    messages: [
      'Pod "trainer", mounts.network: must have at most 1 item. Fix: keep one entry in mounts.network and one in mounts.global.',
    ],
  },
  {
    rule: "pod-ports-format",
    pass: gpuPod({ ports: ["22/tcp", "8888/http", "53/udp"] }),
    fail: gpuPod({ ports: ["22", "8888/http", "70000/tcp"] }),
    messages: [
      'Pod "trainer", ports[0]: must be <port>/<protocol> with protocol http, tcp or udp, e.g. 8888/http. Fix: write each port as <port>/<protocol> with a port from 1 to 65535 and protocol http, tcp or udp, e.g. "8888/http" or "22/tcp".',
      'Pod "trainer", ports[2]: port number must be between 1 and 65535. Fix: write each port as <port>/<protocol> with a port from 1 to 65535 and protocol http, tcp or udp, e.g. "8888/http" or "22/tcp".',
    ],
  },
  {
    rule: "pod-name",
    pass: gpuPod({ name: "t" }),
    fail: gpuPod({ name: "" }),
    messages: ['Pod "trainer", name: must not be empty. Fix: give the pod a non-empty name input.'],
  },
  {
    rule: "pod-request-size",
    pass: gpuPod({ env: { BIG: "x".repeat(100_000) } }),
    fail: gpuPod({ env: { BIG: "x".repeat(102_400) } }),
    messages: [
      "Pod \"trainer\", env: the create body would be 102540 bytes as sent (the create key in env included), over the API's 102400-byte limit; reduce env, args or other large values. Fix: shrink the body: move large env values, commands or args into the image (a template's settings count too, once the API expands the request with them).",
    ],
  },
  {
    rule: "pod-autostop-locked",
    pass: gpuPod({ autostop: { allowDataLoss: true }, locked: false }),
    fail: gpuPod({ autostop: { allowDataLoss: true }, locked: true }),
    messages: [
      'Pod "trainer", autostop: cannot be set while locked is true: the API never stops a locked pod. Fix: remove autostop, or set locked to false.',
    ],
  },
  {
    rule: "pod-valid-inputs",
    pass: gpuPod({ templateId: "tpl-1", image: undefined }),
    fail: { type: POD, name: "trainer", props: { name: "trainer", gpu: { id: A40 }, imag: "img:1" } },
    messages: [
      "Pod \"trainer\", imag: unknown property 'imag'; check the spelling against the documented inputs. Fix: correct the input as the Pod reference (docs/reference) describes.",
      'Pod "trainer", image: is required unless templateId is set. Fix: correct the input as the Pod reference (docs/reference) describes.',
    ],
  },
];

describe("mandatory pod rules (the provider's check, split by rule)", () => {
  it("has a case for every rule", () => {
    expect(checkCases.map((c) => c.rule)).toEqual(POD_CHECK_RULES.map((r) => r.name));
  });

  it.each(checkCases)("$rule passes a valid pod", async ({ rule, pass }) => {
    expect(await run(rule, pass)).toEqual([]);
  });

  it.each(checkCases)(
    "$rule reports its failure with the field and the fix",
    async ({ rule, fail, messages }) => {
      expect(await run(rule, fail)).toEqual(messages);
    },
  );

  it.each(checkCases)("only $rule claims the failures of its case", async ({ rule, fail }) => {
    const reporting: string[] = [];
    for (const r of POD_CHECK_RULES) if ((await run(r.name, fail)).length > 0) reporting.push(r.name);
    expect(reporting).toEqual([rule]);
  });

  it("reports a persistent mount next to both kinds of volume under both rules", async () => {
    const pod = gpuPod({ mounts: { persistent, network, global } });
    const withNetwork = await run("pod-persistent-with-network", pod);
    const withGlobal = await run("pod-persistent-with-global", pod);
    expect(withNetwork.length).toBe(1);
    expect(withGlobal.length).toBe(1);
    const combined =
      'Pod "trainer", mounts.persistent: cannot be combined with mounts.network or mounts.global; use a network volume alone.';
    expect([withNetwork[0]?.startsWith(combined), withGlobal[0]?.startsWith(combined)]).toEqual([true, true]);
  });

  it("reports a pod with neither gpu nor cpu", async () => {
    expect(await run("pod-gpu-or-cpu", { type: POD, name: "p", props: { name: "p", image: "i" } })).toEqual([
      'Pod "p", gpu: exactly one of gpu or cpu must be set (neither is). Fix: set gpu for a GPU pod or cpu for a CPU pod, not both and not neither.',
    ]);
  });

  it("turns a check that throws into a pod-valid-inputs failure instead of failing the Analyze call", () => {
    const props = { name: "p", gpu: { id: A40 } };
    Object.defineProperty(props, "image", {
      enumerable: true,
      get: () => {
        throw new Error("boom");
      },
    });
    expect(podCheckFailures(props)).toEqual([
      { property: "", reason: "the provider's check could not run: boom" },
    ]);
    expect(
      podCheckRules({ property: "", reason: "the provider's check could not run: boom" }, props),
    ).toEqual(["pod-valid-inputs"]);
  });

  it("reports a malformed minCudaVersion and a vCPU count below 2", async () => {
    expect(await run("pod-cuda-version-format", gpuPod({ gpu: { id: A40, minCudaVersion: "12" } }))).toEqual([
      'Pod "trainer", gpu.minCudaVersion: must be a CUDA version as major.minor, e.g. 12.4. Fix: write each CUDA version as a "major.minor" string, e.g. "12.4".',
    ]);
    expect(await run("pod-cpu-vcpu-count", cpuPod({ cpu: { id: "cpu3c", vcpuCount: 1 } }))).toEqual([
      'Pod "worker", cpu.vcpuCount: must be at least 2. Fix: set cpu.vcpuCount to 2, 4, 8, ... as the CPU flavor offers.',
    ]);
  });
});

describe("the mandatory pod rules and the provider's check", () => {
  const maybe = (...values: unknown[]) => fc.constantFrom<unknown>(undefined, ...values);
  const podInputs = fc.record({
    name: fc.constantFrom("t", "", UNKNOWN),
    image: maybe("img:1", UNKNOWN),
    templateId: maybe("tpl-1"),
    gpu: maybe(
      { id: A40 },
      { id: A40, count: 0 },
      { id: "", allowedCudaVersions: ["12.4"], minCudaVersion: "12.1" },
      { id: A40, allowedCudaVersions: ["12", "11.8"] },
      { id: A40, minCudaVersion: "x", extra: 1 },
      UNKNOWN,
    ),
    cpu: maybe(
      { id: "cpu3c", vcpuCount: 4 },
      { id: "cpu3c", vcpuCount: 3 },
      { id: "cpu3c", vcpuCount: 1 },
      { id: "cpu3c", vcpuCount: UNKNOWN },
    ),
    disk: maybe(0, 1, 1.5, 20, UNKNOWN),
    ports: maybe(["22/tcp"], ["22"], ["70000/tcp", "8888/http"], [UNKNOWN], "22/tcp"),
    mounts: maybe(
      { persistent },
      { persistent: { size: 5, path: "/w" } },
      { network },
      { persistent, network },
      { persistent, global },
      { network: [...network, ...network], global: [...global, ...global] },
      { network: [{ volumeId: "v" }] },
      { persistent, network: UNKNOWN },
      UNKNOWN,
    ),
    env: maybe({ A: "b" }, { BIG: "x".repeat(102_400) }, { BIG: "x".repeat(102_400), U: UNKNOWN }),
    cloud: maybe("SECURE", "MOON"),
    placement: maybe(
      { regions: ["EUROPE"] },
      { candidates: [{ dataCenterId: "EU-RO-1" }], regions: ["EUROPE"] },
    ),
    imag: maybe("typo"),
  });

  it("report every failure check reports, each under the rule(s) podCheckRules names, and nothing else", async () => {
    let runsWithFailures = 0;
    await fc.assert(
      fc.asyncProperty(podInputs, async (props) => {
        const pod = { type: POD, name: "p", props };
        const failures = checkPod(props);
        if (failures.length > 0) runsWithFailures += 1;
        const reports: string[] = [];
        const byRule = new Map<string, string[]>();
        for (const rule of POD_CHECK_RULES) {
          const got = await run(rule.name, pod);
          byRule.set(rule.name, got);
          reports.push(...got);
        }
        for (const f of failures) {
          expect(reports.some((m) => m.startsWith(`Pod "p", ${f.property}: ${f.reason}`))).toBe(true);
          // ...under exactly the rules named for it.
          for (const rule of podCheckRules(f, props)) {
            expect([
              rule,
              byRule.get(rule)?.some((m) => m.startsWith(`Pod "p", ${f.property}: ${f.reason}`)),
            ]).toEqual([rule, true]);
          }
        }
        expect(reports.length).toBe(failures.reduce((n, f) => n + podCheckRules(f, props).length, 0));
      }),
      { numRuns: 300 },
    );
    // The generator does produce failing inputs (most runs), so the property is not vacuous.
    expect(runsWithFailures).toBeGreaterThan(150);
  });
});

// ---------------------------------------------------------------- advisory pod rules

describe("advisory pod rules", () => {
  it("pod-persistent-mount-deprecated suggests a network volume", async () => {
    expect(await run("pod-persistent-mount-deprecated", gpuPod({ mounts: { network } }))).toEqual([]);
    expect(await run("pod-persistent-mount-deprecated", gpuPod({ mounts: { persistent } }))).toEqual([
      'Pod "trainer", mounts.persistent: host-local persistent storage is deprecated and its data does not survive a host failure. Fix: create a network volume in the pod\'s data center and mount it with mounts.network: [{ volumeId, path }].',
    ]);
  });

  it("pod-ssh-port wants 22/tcp with startSsh", async () => {
    expect(await run("pod-ssh-port", gpuPod({ startSsh: true, ports: ["22/tcp"] }))).toEqual([]);
    expect(await run("pod-ssh-port", gpuPod({ ports: ["8888/http"] }))).toEqual([]);
    // Without ports a template's ports apply, which the pack cannot see.
    expect(await run("pod-ssh-port", gpuPod({ startSsh: true, templateId: "tpl-1" }))).toEqual([]);
    expect(await run("pod-ssh-port", gpuPod({ startSsh: true, ports: ["8888/http"] }))).toEqual([
      'Pod "trainer", ports: startSsh is set but ports has no "22/tcp", so ssh.direct stays null and only the SSH proxy works (interactive shell only: no scp, sftp, rsync or port forwarding). Fix: add "22/tcp" to ports.',
    ]);
    const noPorts = await run("pod-ssh-port", gpuPod({ startSsh: true }));
    expect(noPorts.length).toBe(1);
    expect(noPorts[0]).toMatch(/^Pod "trainer", ports: startSsh is set but ports has no "22\/tcp"/);
  });

  it("pod-jupyter-port wants 8888/http with startJupyter", async () => {
    expect(await run("pod-jupyter-port", gpuPod({ startJupyter: true, ports: ["8888/http"] }))).toEqual([]);
    expect(await run("pod-jupyter-port", gpuPod({ startJupyter: true, ports: ["8888/tcp"] }))).toEqual([
      'Pod "trainer", ports: startJupyter is set but ports has no "8888/http", so JupyterLab starts but cannot be reached. Fix: add "8888/http" to ports.',
    ]);
  });

  it("pod-global-networking-cpu flags a CPU pod only", async () => {
    expect(await run("pod-global-networking-cpu", gpuPod({ globalNetworking: true }))).toEqual([]);
    expect(await run("pod-global-networking-cpu", cpuPod({ globalNetworking: false }))).toEqual([]);
    expect(await run("pod-global-networking-cpu", cpuPod({ globalNetworking: true }))).toEqual([
      'Pod "worker", globalNetworking: global networking requires an NVIDIA GPU, so this CPU pod gets no private cross-data-center address. Fix: remove globalNetworking, or make this a GPU pod.',
    ]);
  });

  const pinned =
    'Pod "trainer", placement: the pod gets a single create attempt for "NVIDIA A40" in one data center choice, and the API neither searches for capacity nor falls back, so a capacity shortage fails the deployment. Fix: add placement.regions and placement.gpuTypeIds (or two or more placement.candidates, or two or more dataCenterIds) so the provider can try the next candidate.';
  it.each([
    ["no placement", {}],
    ["one data center", { dataCenterIds: ["EU-RO-1"] }],
    ["one explicit candidate", { placement: { candidates: [{ dataCenterId: "EU-RO-1" }] } }],
    [
      "one candidate despite several dataCenterIds",
      { dataCenterIds: ["EU-RO-1", "US-TX-3"], placement: { candidates: [{ dataCenterId: "EU-RO-1" }] } },
    ],
    ["a catalog walk capped at one candidate", { placement: { regions: ["EUROPE"], maxCandidates: 1 } }],
  ])("pod-placement-fallback reports a GPU pod pinned by %s", async (_case, extra) => {
    expect(await run("pod-placement-fallback", gpuPod(extra))).toEqual([pinned]);
  });

  it.each([
    ["two data centers", { dataCenterIds: ["EU-RO-1", "US-TX-3"] }],
    [
      "two candidates",
      { placement: { candidates: [{ dataCenterId: "EU-RO-1" }, { dataCenterId: "US-TX-3" }] } },
    ],
    ["a catalog walk over regions", { placement: { regions: ["EUROPE"] } }],
    ["fallback GPU types", { placement: { gpuTypeIds: ["NVIDIA L40S"] } }],
  ])("pod-placement-fallback accepts a GPU pod with %s", async (_case, extra) => {
    expect(await run("pod-placement-fallback", gpuPod(extra))).toEqual([]);
  });

  it("pod-placement-fallback leaves CPU pods alone", async () => {
    expect(await run("pod-placement-fallback", cpuPod())).toEqual([]);
  });
});

// ---------------------------------------------------------------- serverless

describe("autostop rules", () => {
  it("pod-gpu-autostop flags a running GPU pod without autostop, not a CPU pod or a stopped one", async () => {
    expect(await run("pod-gpu-autostop", gpuPod())).toEqual([
      'Pod "trainer", autostop: an idle GPU pod bills its full rate until someone stops it, and nothing here will. Fix: declare autostop (for example { idleMinutes: 60, gpuUtilBelow: 5 }) and run `runpod-dynamic autostop` on a schedule.',
    ]);
    expect(await run("pod-gpu-autostop", gpuPod({ autostop: {} }))).toEqual([]);
    expect(await run("pod-gpu-autostop", cpuPod())).toEqual([]);
    expect(await run("pod-gpu-autostop", gpuPod({ desiredStatus: "STOPPED" }))).toEqual([]);
  });

  it("pod-autostop-data-loss refuses a stop that loses everything, and a terminate without a network volume", async () => {
    expect(await run("pod-autostop-data-loss", gpuPod({ autostop: {} }))).toEqual([
      'Pod "trainer", autostop: autostop stops this pod when idle, and it has no volume: a stop loses its container disk, which holds everything. Fix: mount a network volume or a persistent volume for what must be kept, or set autostop.allowDataLoss: true.',
    ]);
    expect(await run("pod-autostop-data-loss", gpuPod({ autostop: {}, mounts: { persistent } }))).toEqual([]);
    expect(await run("pod-autostop-data-loss", gpuPod({ autostop: {}, mounts: { network } }))).toEqual([]);
    expect(await run("pod-autostop-data-loss", gpuPod({ autostop: { allowDataLoss: true } }))).toEqual([]);
    expect(
      await run(
        "pod-autostop-data-loss",
        gpuPod({ autostop: { action: "terminate" }, mounts: { persistent } }),
      ),
    ).toEqual([
      'Pod "trainer", autostop: autostop terminates this pod when idle, and it has no network volume: everything on it is lost. Fix: mount a network volume (mounts.network), or set autostop.allowDataLoss: true if nothing on the pod needs keeping.',
    ]);
    expect(
      await run("pod-autostop-data-loss", gpuPod({ autostop: { action: "terminate" }, mounts: { network } })),
    ).toEqual([]);
    expect(await run("pod-autostop-data-loss", gpuPod({ autostop: {}, mounts: UNKNOWN }))).toEqual([]);
  });
});

describe("serverless rules", () => {
  it("serverless-workers-range", async () => {
    expect(await run("serverless-workers-range", endpoint({ workers: { min: 2, max: 2 } }))).toEqual([]);
    expect(await run("serverless-workers-range", endpoint({ workers: { min: 4, max: 2 } }))).toEqual([
      'ServerlessEndpoint "api", workers.min: workers.min 4 is above workers.max 2. Fix: raise workers.max to at least workers.min, or lower workers.min.',
    ]);
    expect(await run("serverless-workers-range", endpoint({ workers: { min: 5 } }))).toEqual([
      'ServerlessEndpoint "api", workers.min: workers.min 5 is above workers.max 3 (the default). Fix: raise workers.max to at least workers.min, or lower workers.min.',
    ]);
  });

  it("serverless-gpu-types", async () => {
    const noCompute =
      'ServerlessEndpoint "api", gpu: the endpoint has neither gpu nor cpu, so the API cannot place its workers. Fix: list serverless GPU pools in order, e.g. gpu: { pools: ["ADA_24", "ADA_48_PRO"] } (getGpuTypes() shows each type\'s pool), or cpu: [{ id: "cpu5c", vcpuCount: 4 }].';
    expect(
      await run("serverless-gpu-types", endpoint({ gpu: undefined, cpu: [{ id: "cpu3c", vcpuCount: 4 }] })),
    ).toEqual([]);
    expect(await run("serverless-gpu-types", endpoint({ gpu: undefined }))).toEqual([noCompute]);
  });

  it("serverless-valid-inputs: everything else the provider's check rejects, and nothing the named rules report", async () => {
    expect(await run("serverless-valid-inputs", endpoint({ gpu: { pools: [] } }))).toEqual([
      'ServerlessEndpoint "api", gpu.pools: must have at least 1 item. Fix: correct the input as the ServerlessEndpoint reference (docs/reference) describes.',
    ]);
    expect(
      await run("serverless-valid-inputs", endpoint({ workers: { idleTimeout: 0 }, flashBoot: true })),
    ).toEqual([
      expect.stringMatching(/^ServerlessEndpoint "api", workers\.idleTimeout: /),
      expect.stringMatching(/^ServerlessEndpoint "api", flashBoot: /),
    ]);
    expect(await run("serverless-valid-inputs", endpoint({ workers: { min: 5 }, gpu: undefined }))).toEqual(
      [],
    );
    expect(
      await run(
        "serverless-valid-inputs",
        endpoint({ gpu: undefined, cpu: [{ id: "cpu3c", vcpuCount: 4 }] }),
      ),
    ).toEqual([]);
  });
});

// ---------------------------------------------------------------- env secrets

describe("env-secrets", () => {
  const exposed = (who: string, name: string) =>
    `${who}, env.${name}: the name looks like a credential but the program gives the value as plain text, so it sits unencrypted in the program or its stack config, and in version control (runpod-dynamic keeps it encrypted in state). Fix: pass it as a secret (pulumi config set --secret <key>, then config.requireSecret("<key>")) or wrap it with pulumi.secret(...); if it is not a credential, add "${name}" to this policy's ignoreNames.`;

  it("reports plaintext values under credential-like names, not secrets nor other names", async () => {
    const pod = gpuPod({
      env: {
        HF_TOKEN: "hf_abc",
        DB_PASSWORD: "pw",
        aws_secret: "x",
        API_KEY: new Secret("s3cr3t"),
        MODEL: "llama",
        KEYRING: "k",
        PUBLIC_KEY: "ssh-ed25519 AAAA me",
      },
    });
    expect(await run("env-secrets", pod)).toEqual([
      exposed('Pod "trainer"', "HF_TOKEN"),
      exposed('Pod "trainer"', "DB_PASSWORD"),
      exposed('Pod "trainer"', "aws_secret"),
    ]);
  });

  it("as this package's classes register env: secret as a whole, the keys given as plain text listed", async () => {
    const env = new Secret({ HF_TOKEN: "hf_abc", OPENAI_API_KEY: "sk-1", MODEL: "llama" });
    const pod = gpuPod({ env, _plainEnvKeys: ["HF_TOKEN", "MODEL"] });
    const blind = resourcePolicyNamed("env-secrets", runpodPolicies({ secretsVisible: false }));
    expect([await run("env-secrets", pod), await validate(blind, pod)]).toEqual([
      [exposed('Pod "trainer"', "HF_TOKEN")],
      [exposed('Pod "trainer"', "HF_TOKEN")],
    ]);
    expect(await run("env-secrets", gpuPod({ env, _plainEnvKeys: [] }))).toEqual([]);
  });

  it("remediates a class-registered env: the exposed value secret, and no longer listed as plain", () => {
    const policy = resourcePolicyNamed("env-secrets");
    const pod = gpuPod({
      env: new Secret({ HF_TOKEN: "hf_abc", MODEL: "llama" }),
      _plainEnvKeys: ["HF_TOKEN", "MODEL"],
    });
    expect(policy.remediateResource?.(resourceArgs(pod))).toEqual({
      ...pod.props,
      env: { HF_TOKEN: new Secret("hf_abc"), MODEL: "llama" },
      _plainEnvKeys: ["MODEL"],
    });
  });

  it("accepts an env that is a secret as a whole", async () => {
    expect(await run("env-secrets", gpuPod({ env: new Secret({ HF_TOKEN: "hf_abc" }) }))).toEqual([]);
  });

  it("takes ignoreNames from the config (PUBLIC_KEY by default)", async () => {
    const pod = gpuPod({ env: { PUBLIC_KEY: "ssh-ed25519 AAAA me", HF_TOKEN: "hf" } });
    expect(await run("env-secrets", pod, { ignoreNames: ["HF_TOKEN"] })).toEqual([
      exposed('Pod "trainer"', "PUBLIC_KEY"),
    ]);
  });

  it("covers serverless endpoints", async () => {
    expect(await run("env-secrets", endpoint({ env: { OPENAI_API_KEY: "sk-1" } }))).toEqual([
      exposed('ServerlessEndpoint "api"', "OPENAI_API_KEY"),
    ]);
  });

  it("reports nothing when the server could not be made to keep secret markers", async () => {
    const blind = resourcePolicyNamed("env-secrets", runpodPolicies({ secretsVisible: false }));
    expect(await validate(blind, gpuPod({ env: { HF_TOKEN: "hf_abc" } }))).toEqual([]);
  });

  it("takes a value that is exactly a RunPod secret reference for a reference, not for plaintext", async () => {
    const env = {
      HF_TOKEN: "{{ RUNPOD_SECRET_hf-token }}",
      DB_PASSWORD: "{{RUNPOD_SECRET_db/password}}",
      API_KEY: "Bearer {{ RUNPOD_SECRET_api-key }}",
      AWS_SECRET: "{{ RUNPOD_SECRET_aws }} and more",
      OTHER_TOKEN: "{{ OTHER_SECRET_x }}",
    };
    expect([
      await run("env-secrets", gpuPod({ env })),
      await run("env-secrets", endpoint({ env: { OPENAI_API_KEY: "{{ RUNPOD_SECRET_openai }}" } })),
      // As the classes register a Secret's `reference` given as env: plain, and so listed.
      await run(
        "env-secrets",
        gpuPod({ env: new Secret({ HF_TOKEN: env.HF_TOKEN }), _plainEnvKeys: ["HF_TOKEN"] }),
      ),
      resourcePolicyNamed("env-secrets").remediateResource?.(
        resourceArgs(gpuPod({ env: { HF_TOKEN: env.HF_TOKEN } })),
      ),
    ]).toEqual([
      [
        exposed('Pod "trainer"', "API_KEY"),
        exposed('Pod "trainer"', "AWS_SECRET"),
        exposed('Pod "trainer"', "OTHER_TOKEN"),
      ],
      [],
      [],
      undefined,
    ]);
  });

  it("remediates by wrapping the exposed values as secrets, keeping every other value", () => {
    const policy = resourcePolicyNamed("env-secrets");
    const apiKey = new Secret("s3cr3t");
    const pod = gpuPod({ env: { HF_TOKEN: "hf_abc", MODEL: "llama", API_KEY: apiKey } });
    const result = policy.remediateResource?.(resourceArgs(pod)) as Record<string, unknown>;
    expect(result).toEqual({
      ...pod.props,
      env: { HF_TOKEN: new Secret("hf_abc"), MODEL: "llama", API_KEY: apiKey },
    });
    expect((result.env as Record<string, unknown>).HF_TOKEN).toBeInstanceOf(Secret);
    expect(policy.remediateResource?.(resourceArgs(gpuPod({ env: { MODEL: "llama" } })))).toBeUndefined();
  });
});

// ---------------------------------------------------------------- parameterised

describe("parameterised rules", () => {
  it("allowed-gpu-types allows any type by default and checks every GPU field once configured", async () => {
    const pod = gpuPod({
      gpu: { id: H100 },
      placement: {
        gpuTypeIds: [A40, "NVIDIA L40S"],
        candidates: [{ dataCenterId: "EU-RO-1", gpuTypeId: "NVIDIA RTX 4090" }],
      },
    });
    expect(await run("allowed-gpu-types", pod)).toEqual([]);
    expect(await run("allowed-gpu-types", pod, { allowedGpuTypes: [A40] })).toEqual([
      'Pod "trainer", gpu.id: GPU type "NVIDIA H100 80GB HBM3" is not allowed (allowedGpuTypes: "NVIDIA A40"). Fix: use an allowed GPU type, or add "NVIDIA H100 80GB HBM3" to allowedGpuTypes in the policy pack config.',
      'Pod "trainer", placement.gpuTypeIds[1]: GPU type "NVIDIA L40S" is not allowed (allowedGpuTypes: "NVIDIA A40"). Fix: use an allowed GPU type, or add "NVIDIA L40S" to allowedGpuTypes in the policy pack config.',
      'Pod "trainer", placement.candidates[0].gpuTypeId: GPU type "NVIDIA RTX 4090" is not allowed (allowedGpuTypes: "NVIDIA A40"). Fix: use an allowed GPU type, or add "NVIDIA RTX 4090" to allowedGpuTypes in the policy pack config.',
    ]);
    // An endpoint names pools, not types: allowedGpuTypes leaves it alone, allowedGpuPools does not.
    const pools = endpoint({ gpu: { pools: ["AMPERE_48", "ADA_80_PRO"] } });
    expect(await run("allowed-gpu-types", pools, { allowedGpuTypes: [A40] })).toEqual([]);
    expect(await run("allowed-gpu-types", pools, { allowedGpuPools: ["AMPERE_48"] })).toEqual([
      'ServerlessEndpoint "api", gpu.pools[1]: GPU pool "ADA_80_PRO" is not allowed (allowedGpuPools: "AMPERE_48"). Fix: use an allowed GPU pool, or add "ADA_80_PRO" to allowedGpuPools in the policy pack config.',
    ]);
    const cluster: TestResource = {
      type: "pulumi-nodejs:dynamic/runpod:Cluster",
      name: "trainers",
      props: {
        name: "t",
        type: "TRAINING",
        compute: { gpuTypeId: H100, gpuCountPerPod: 8, podCount: 2 },
        image: "i",
      },
    };
    expect(await run("allowed-gpu-types", cluster, { allowedGpuTypes: [A40] })).toEqual([
      'Cluster "trainers", compute.gpuTypeId: GPU type "NVIDIA H100 80GB HBM3" is not allowed (allowedGpuTypes: "NVIDIA A40"). Fix: use an allowed GPU type, or add "NVIDIA H100 80GB HBM3" to allowedGpuTypes in the policy pack config.',
    ]);
    expect(await run("allowed-gpu-types", gpuPod(), { allowedGpuTypes: [A40] })).toEqual([]);
  });

  it("max-gpus-per-pod defaults to 8 and takes maxGpuCount", async () => {
    expect(await run("max-gpus-per-pod", gpuPod({ gpu: { id: A40, count: 8 } }))).toEqual([]);
    expect(await run("max-gpus-per-pod", gpuPod({ gpu: { id: A40, count: 9 } }))).toEqual([
      'Pod "trainer", gpu.count: 9 GPUs is more than the 8 allowed per pod. Fix: request at most 8 GPUs, or raise maxGpuCount in the policy pack config.',
    ]);
    expect(await run("max-gpus-per-pod", gpuPod(), { maxGpuCount: 1 })).toEqual([]);
    expect(
      (await run("max-gpus-per-pod", gpuPod({ gpu: { id: A40, count: 2 } }), { maxGpuCount: 1 })).length,
    ).toBe(1);
  });

  it("allowed-clouds allows both by default and applies the SECURE default", async () => {
    expect(await run("allowed-clouds", gpuPod({ cloud: "COMMUNITY" }))).toEqual([]);
    expect(
      await run("allowed-clouds", gpuPod({ cloud: "COMMUNITY" }), { allowedClouds: ["SECURE"] }),
    ).toEqual([
      'Pod "trainer", cloud: cloud "COMMUNITY" is not allowed (allowedClouds: "SECURE"). Fix: set cloud to one of "SECURE", or change allowedClouds in the policy pack config.',
    ]);
    expect(await run("allowed-clouds", gpuPod(), { allowedClouds: ["COMMUNITY"] })).toEqual([
      'Pod "trainer", cloud: cloud "SECURE" (the default) is not allowed (allowedClouds: "COMMUNITY"). Fix: set cloud to one of "COMMUNITY", or change allowedClouds in the policy pack config.',
    ]);
  });
});

// ---------------------------------------------------------------- stack

describe("stack rules", () => {
  const stack = { type: STACK, name: "rp-dev", props: {} };
  const sshPod = gpuPod({ startSsh: true, ports: ["22/tcp"] });
  const key = { type: SSH_KEY, name: "laptop", props: { publicKey: "ssh-ed25519 AAAA me" } };

  it("ssh-key-for-start-ssh reports each startSsh pod of a stack without an SshKey", async () => {
    const policy = stackPolicyNamed("ssh-key-for-start-ssh");
    expect(await validateStack(policy, [stack, sshPod, key])).toEqual([]);
    expect(await validateStack(policy, [stack, cpuPod()])).toEqual([]);
    expect(await validateStack(policy, [stack, sshPod, cpuPod()])).toEqual([
      [
        urnOf(POD, "trainer"),
        'Pod "trainer", startSsh: startSsh injects the account\'s registered SSH public keys and this stack registers none, so unless a key was registered outside this stack the pod has no SSH access. Fix: declare new SshKey("...", { publicKey }) in this stack and make the pod dependsOn it.',
      ],
    ]);
  });

  it("pod-volume-reachable warns when a pod's candidates exclude its network volume's data center", async () => {
    const policy = stackPolicyNamed("pod-volume-reachable");
    const VOLUME = "pulumi-nodejs:dynamic/runpod:NetworkVolume";
    const volume = {
      type: VOLUME,
      name: "data",
      props: { name: "data", size: 50, dataCenterId: "US-TX-3", volumeId: "vol123" },
    };
    const pending = {
      type: VOLUME,
      name: "data",
      props: { name: "data", size: 50, dataCenterId: "US-TX-3", volumeId: UNKNOWN },
    };
    const mounting = (extra: Record<string, unknown>, volumeId: unknown = "vol123") =>
      gpuPod({ mounts: { network: [{ volumeId, path: "/d" }] }, ...extra });
    const elsewhere = {
      placement: { candidates: [{ dataCenterId: "EU-RO-1" }, { dataCenterId: "US-KS-2" }] },
    };
    const message =
      'Pod "trainer", placement: it mounts network volume "data" in US-TX-3, but its candidates are EU-RO-1, US-KS-2: every create would be refused. Fix: add US-TX-3 to the candidates (or dataCenterIds), or leave them out and let the provider place the pod in the volume\'s data center.';
    // Reachable, or left to the provider: silent.
    expect(await validateStack(policy, [stack, volume, mounting({})])).toEqual([]);
    expect(
      await validateStack(policy, [stack, volume, mounting({ dataCenterIds: ["US-TX-3", "EU-RO-1"] })]),
    ).toEqual([]);
    expect(
      await validateStack(policy, [
        stack,
        volume,
        mounting({ placement: { candidates: [{ dataCenterId: "US-TX-3" }] } }),
      ]),
    ).toEqual([]);
    // Catalog-built candidates are asked for the volume's data center only (buildCandidates), so a
    // request dataCenterIds elsewhere does not decide placement.
    expect(
      await validateStack(policy, [
        stack,
        volume,
        mounting({ placement: { regions: ["US"] }, dataCenterIds: ["EU-RO-1"] }),
      ]),
    ).toEqual([]);
    // Unreachable, matched by id after a deployment...
    expect(await validateStack(policy, [stack, volume, mounting(elsewhere)])).toEqual([
      [urnOf(POD, "trainer"), message],
    ]);
    expect(
      await validateStack(policy, [stack, volume, mounting({ dataCenterIds: ["EU-RO-1", "US-KS-2"] })]),
    ).toEqual([[urnOf(POD, "trainer"), message]]);
    // ...or by the property dependency preview records while the id is unknown.
    const previewPod = { ...mounting(elsewhere, UNKNOWN), propertyDependencies: { mounts: ["data"] } };
    expect(await validateStack(policy, [stack, pending, previewPod])).toEqual([
      [urnOf(POD, "trainer"), message],
    ]);
    // A volume that is not in the stack: its data center is unknown here, so nothing is said.
    expect(await validateStack(policy, [stack, mounting(elsewhere, "nv-elsewhere")])).toEqual([]);
  });

  it("max-pods-per-stack has no limit until maxPods is set", async () => {
    const policy = stackPolicyNamed("max-pods-per-stack");
    expect(await validateStack(policy, [stack, gpuPod(), cpuPod()])).toEqual([]);
    expect(await validateStack(policy, [stack, gpuPod(), cpuPod()], { maxPods: 2 })).toEqual([]);
    expect(await validateStack(policy, [stack, gpuPod(), cpuPod()], { maxPods: 1 })).toEqual([
      [
        "",
        'This stack, Pod resources: 2 pods ("trainer", "worker") are more than maxPods 1. Fix: remove pods or split them across stacks, or raise maxPods in the policy pack config.',
      ],
    ]);
  });
});

// ---------------------------------------------------------------- preview: unknown values

describe("unknown values (preview)", () => {
  const cases: Array<[string, TestResource, Record<string, unknown>?]> = [
    ["pod-persistent-with-network", gpuPod({ mounts: UNKNOWN })],
    ["pod-persistent-with-global", gpuPod({ mounts: { persistent: UNKNOWN } })],
    ["pod-persistent-on-cpu", cpuPod({ mounts: UNKNOWN })],
    ["pod-gpu-or-cpu", { type: POD, name: "p", props: { name: "p", image: "i", gpu: UNKNOWN } }],
    [
      "pod-cuda-constraint-conflict",
      gpuPod({ gpu: { id: A40, allowedCudaVersions: ["12.4"], minCudaVersion: UNKNOWN } }),
    ],
    ["pod-cuda-version-format", gpuPod({ gpu: { id: A40, allowedCudaVersions: [UNKNOWN, "12.4"] } })],
    ["pod-cpu-vcpu-count", cpuPod({ cpu: { id: "cpu3c", vcpuCount: UNKNOWN_NUMBER } })],
    ["pod-disk-size", gpuPod({ disk: UNKNOWN_NUMBER })],
    ["pod-persistent-size", gpuPod({ mounts: { persistent: { size: UNKNOWN, path: "/w" } } })],
    ["pod-single-volume-mount", gpuPod({ mounts: { network: UNKNOWN_ARRAY } })],
    ["pod-ports-format", gpuPod({ ports: [UNKNOWN, "22/tcp"] })],
    ["pod-name", gpuPod({ name: UNKNOWN })],
    ["pod-request-size", gpuPod({ env: { BIG: "x".repeat(102_400), OTHER: UNKNOWN } })],
    ["pod-valid-inputs", gpuPod({ image: UNKNOWN, templateId: UNKNOWN })],
    ["pod-persistent-mount-deprecated", gpuPod({ mounts: { persistent: UNKNOWN } })],
    ["pod-ssh-port", gpuPod({ startSsh: true, ports: UNKNOWN })],
    ["pod-jupyter-port", gpuPod({ startJupyter: true, ports: ["22/tcp", UNKNOWN] })],
    ["pod-global-networking-cpu", cpuPod({ globalNetworking: UNKNOWN_BOOL })],
    ["pod-placement-fallback", gpuPod({ placement: UNKNOWN })],
    ["pod-placement-fallback", gpuPod({ dataCenterIds: UNKNOWN_ARRAY })],
    ["serverless-workers-range", endpoint({ workers: { min: UNKNOWN_NUMBER, max: 1 } })],
    ["serverless-gpu-types", endpoint({ gpu: UNKNOWN })],
    ["serverless-gpu-types", endpoint({ gpu: { pools: UNKNOWN } })],
    ["env-secrets", gpuPod({ env: { HF_TOKEN: UNKNOWN } })],
    ["env-secrets", gpuPod({ env: UNKNOWN })],
    ["allowed-gpu-types", gpuPod({ gpu: { id: UNKNOWN } }), { allowedGpuTypes: [A40] }],
    ["max-gpus-per-pod", gpuPod({ gpu: { id: A40, count: UNKNOWN_NUMBER } }), { maxGpuCount: 1 }],
    ["allowed-clouds", gpuPod({ cloud: UNKNOWN }), { allowedClouds: ["COMMUNITY"] }],
  ];

  it.each(cases)("%s stays silent when the deciding value is unknown", async (name, r, config = {}) => {
    expect(await run(name, r, config)).toEqual([]);
  });

  it("every resource policy survives a pod whose every input is unknown", async () => {
    const pod: TestResource = {
      type: POD,
      name: "p",
      props: Object.fromEntries(
        ["name", "image", "gpu", "env", "ports", "mounts", "placement", "cloud"].map((k) => [k, UNKNOWN]),
      ),
    };
    expect(await everyResourcePolicy(pod)).toEqual(NOTHING_FROM_RESOURCE_POLICIES);
  });

  it("ssh-key-for-start-ssh stays silent on an unknown startSsh", async () => {
    const policy = stackPolicyNamed("ssh-key-for-start-ssh");
    expect(await validateStack(policy, [gpuPod({ startSsh: UNKNOWN_BOOL })])).toEqual([]);
  });

  it("agrees with the provider where a value is invalid whatever it turns out to be", async () => {
    // A persistent mount next to a network list preview cannot see yet, or any persistent mount on a CPU pod.
    const withNetwork = await run(
      "pod-persistent-with-network",
      gpuPod({ mounts: { persistent, network: UNKNOWN } }),
    );
    const onCpu = await run("pod-persistent-on-cpu", cpuPod({ mounts: { persistent: UNKNOWN } }));
    expect(withNetwork.length).toBe(1);
    expect(onCpu.length).toBe(1);
    expect(withNetwork[0]).toMatch(
      /^Pod "trainer", mounts\.persistent: cannot be combined with mounts\.network/,
    );
    expect(onCpu[0]).toMatch(/^Pod "worker", mounts\.persistent: is not supported on CPU pods/);
  });
});
