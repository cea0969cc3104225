/**
 * docs/reference is what `npm run docs` writes now, and it documents every resource: each input
 * and output has a description, each input its default (or is required) and what a change to it
 * does (`@onChange`). That tag is checked against the resources' real `check` and `diff`: for every
 * input, a valid sample change must give exactly the kinds of change the tag names.
 *
 * Inputs and outputs are enumerated from TypeDoc's JSON model of the reference, never from a list
 * kept here: a new input without its description, default, tag or sample change fails.
 */
import { spawnSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadDist, REPO_ROOT } from "../support/dist.js";
import { quietProviders } from "../support/provider.js";

const { credentialsDigest } = loadDist<typeof import("../../provider/resources/registry/diff.js")>(
  "provider/resources/registry/diff.js",
);

const COMMITTED = join(REPO_ROOT, "docs", "reference");
const RESOURCES = [
  "Cluster",
  "NetworkVolume",
  "Pod",
  "Registry",
  "Secret",
  "ServerlessEndpoint",
  "ServerlessJob",
  "SshKey",
  "Template",
] as const;
type ResourceName = (typeof RESOURCES)[number];

// ---------------------------------------------------------------- TypeDoc's JSON model

interface Part {
  readonly text: string;
}
interface Comment {
  readonly summary: readonly Part[];
  readonly blockTags?: readonly { readonly tag: string; readonly content: readonly Part[] }[];
}
interface DocType {
  readonly type: string;
  readonly target?: number | object;
  readonly typeArguments?: readonly DocType[];
  readonly types?: readonly DocType[];
  readonly elementType?: DocType;
  readonly declaration?: Reflection;
}
interface Reflection {
  readonly id: number;
  readonly name: string;
  readonly kind: number;
  readonly flags: { readonly isOptional?: boolean; readonly isStatic?: boolean };
  readonly comment?: Comment;
  readonly children?: readonly Reflection[];
  readonly type?: DocType;
  readonly extendedTypes?: readonly (DocType & { readonly name: string; readonly package?: string })[];
  readonly signatures?: readonly { readonly parameters?: readonly Reflection[] }[];
}

const KIND = { Class: 128, Interface: 256, Constructor: 512, Property: 1024, TypeAlias: 2097152 } as const;

const text = (parts: readonly Part[] | undefined) => (parts ?? []).map((p) => p.text).join("");
const tagOf = (r: Reflection, tag: string) => r.comment?.blockTags?.find((t) => t.tag === tag);

/** Every reflection of the model by id, to follow references. */
function indexById(root: Reflection): Map<number, Reflection> {
  const byId = new Map<number, Reflection>();
  const visit = (r: Reflection) => {
    byId.set(r.id, r);
    for (const c of r.children ?? []) visit(c);
  };
  visit(root);
  return byId;
}

/**
 * The properties a type reaches, with their paths under `prefix`: the members of an inline object
 * type, of an interface of this package it refers to (through `Input<...>`, arrays and unions), and
 * so on down. Each interface is entered once per path.
 */
function nestedProperties(
  type: DocType | undefined,
  prefix: string,
  byId: Map<number, Reflection>,
  seen: ReadonlySet<number> = new Set(),
): [string, Reflection][] {
  if (!type) return [];
  const inner = [
    ...(type.typeArguments ?? []),
    ...(type.types ?? []),
    ...(type.elementType ? [type.elementType] : []),
  ];
  const deeper = inner.flatMap((t) => nestedProperties(t, prefix, byId, seen));
  if (type.type === "reflection" && type.declaration) {
    return [...nestedPropertiesOf(type.declaration, prefix, byId, seen), ...deeper];
  }
  if (type.type === "reference" && typeof type.target === "number" && !seen.has(type.target)) {
    const target = byId.get(type.target);
    const next = new Set([...seen, type.target]);
    if (target?.kind === KIND.Interface) {
      return [...nestedPropertiesOf(target, prefix, byId, next), ...deeper];
    }
    if (target?.kind === KIND.TypeAlias)
      return [...nestedProperties(target.type, prefix, byId, next), ...deeper];
  }
  return deeper;
}

function nestedPropertiesOf(
  owner: Reflection,
  prefix: string,
  byId: Map<number, Reflection>,
  seen: ReadonlySet<number>,
): [string, Reflection][] {
  return (owner.children ?? [])
    .filter((c) => c.kind === KIND.Property)
    .flatMap((c) => [
      [`${prefix}.${c.name}`, c] as [string, Reflection],
      ...nestedProperties(c.type, `${prefix}.${c.name}`, byId, seen),
    ]);
}

// ---------------------------------------------------------------- @onChange

const CHANGE_KINDS = ["replace", "update", "none"] as const;
type ChangeKind = (typeof CHANGE_KINDS)[number];

/** `@onChange replace` or `@onChange update, replace: which change does which`: the kinds named. */
function changeKinds(r: Reflection): ChangeKind[] | string {
  const tag = tagOf(r, "@onChange");
  if (!tag) return "has no @onChange tag (replace, update or none)";
  const head = text(tag.content).trim().split(/[:\n]/)[0] ?? "";
  const words = head.split(",").map((w) => w.trim());
  const bad = words.filter((w) => !(CHANGE_KINDS as readonly string[]).includes(w));
  if (bad.length > 0 || words.length === 0) {
    return `@onChange must start with replace, update or none (comma-separated), got "${head}"`;
  }
  return [...new Set(words as ChangeKind[])].sort();
}

// ---------------------------------------------------------------- samples

type Props = Record<string, unknown>;
/** A resource as state holds it: the inputs it was made from and the outputs it has. */
interface Sample {
  readonly inputs: Props;
  readonly outputs: Props;
}
/** One change of an input: a patch of the sample's inputs (`undefined` removes a field). */
interface Change {
  readonly patch: Props;
  readonly base?: Sample;
}
interface Resource {
  readonly sample: Sample;
  /** For every input, one change per kind its tag names. */
  readonly changes: Record<string, readonly (Props | Change)[]>;
}

/** An ssh-ed25519 authorized_keys line for a new key (or `key`), with `comment`. */
function sshKeyLine(comment: string, key = generateKeyPairSync("ed25519").publicKey): string {
  const x = key.export({ format: "jwk" }).x ?? "";
  const field = (b: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(b.length);
    return Buffer.concat([length, b]);
  };
  const blob = Buffer.concat([field(Buffer.from("ssh-ed25519")), field(Buffer.from(x, "base64url"))]);
  return `ssh-ed25519 ${blob.toString("base64")} ${comment}`;
}

const A40 = "NVIDIA A40";
const CREATED = "2026-11-21T00:00:00Z";

const pod: Sample = {
  inputs: {
    name: "trainer",
    image: "img:1",
    gpu: { id: A40 },
    env: { A: "1" },
    ports: ["22/tcp", "8888/http"],
    dataCenterIds: ["US-KS-2", "EU-RO-1"],
    mounts: { network: [{ volumeId: "nv1", path: "/data" }] },
  },
  outputs: {
    name: "trainer",
    status: "RUNNING",
    actions: ["stop", "restart", "terminate"],
    image: "img:1",
    args: "",
    cmd: [],
    entrypoint: [],
    disk: 20,
    env: { A: "1" },
    ports: ["22/tcp", "8888/http"],
    registry: null,
    mounts: { network: [{ volumeId: "nv1", path: "/data" }] },
    gpu: {
      id: A40,
      count: 1,
      vcpuCount: 9,
      memory: 50,
      allowedCudaVersions: null,
      minCudaVersion: null,
      minRamPerGpu: null,
      minVcpuCountPerGpu: null,
    },
    cpu: null,
    cloud: "SECURE",
    dataCenterId: "US-KS-2",
    dataCenterIds: ["US-KS-2", "EU-RO-1"],
    cudaVersion: "12.4",
    ssh: { proxy: null, direct: null },
    cluster: null,
    template: null,
    templateId: null,
    cost: 0.44,
    locked: false,
    desiredStatus: "RUNNING",
    stoppedOutside: false,
    autostop: null,
    globalNetworking: { enabled: false, ip: null, internalDns: null },
    requestedGlobalNetworking: false,
    runtime: null,
    createdAt: CREATED,
    startedAt: CREATED,
    startSsh: false,
    startJupyter: false,
    jupyterPassword: null,
    placement: null,
    requestedGpuId: A40,
    timeouts: null,
  },
};
const podWithoutMounts: Sample = {
  inputs: { ...pod.inputs, mounts: undefined },
  outputs: { ...pod.outputs, mounts: {} },
};

const endpoint: Sample = {
  inputs: { name: "sdxl", image: "img:1", gpu: { pools: ["ADA_24"] }, workers: { max: 2 } },
  outputs: {
    endpointId: "ep1",
    name: "sdxl",
    type: "QUEUE",
    templateId: null,
    image: "img:1",
    args: null,
    disk: null,
    ports: [],
    env: {},
    registry: null,
    gpu: { pools: ["ADA_24"], excludedTypes: [], count: 1, allowedCudaVersions: [], minCudaVersion: null },
    cpu: null,
    workers: { min: 0, max: 2, idleTimeout: 5 },
    scaling: { type: "QUEUE_DELAY", queueDelay: 4, requestCount: null },
    flashboot: "OFF",
    networkVolumes: [],
    dataCenterIds: [],
    timeout: 300_000,
    createdAt: CREATED,
    requestUrls: {},
    jobUrl: "http://127.0.0.1/v2/ep1/",
  },
};
const cpuEndpoint: Sample = {
  inputs: { ...endpoint.inputs, gpu: undefined, cpu: [{ id: "cpu3c", vcpuCount: 2 }] },
  outputs: { ...endpoint.outputs, gpu: null, cpu: [{ id: "cpu3c", vcpuCount: 2, memory: 4 }] },
};
const toCpu = { gpu: undefined, cpu: [{ id: "cpu3c", vcpuCount: 2 }] };

const template: Sample = {
  inputs: { name: "trainer", image: "img:1" },
  outputs: {
    templateId: "tpl1",
    name: "trainer",
    image: "img:1",
    args: "",
    cmd: [],
    entrypoint: [],
    disk: 20,
    env: {},
    ports: [],
    registry: null,
    mounts: { persistent: null },
    allowedCudaVersions: [],
    startSsh: true,
    startJupyter: true,
    public: false,
    serverless: false,
    category: "NVIDIA",
  },
};
const workspace = { size: 20, path: "/workspace" };
const templateWithMount: Sample = {
  inputs: { ...template.inputs, mounts: { persistent: workspace } },
  outputs: { ...template.outputs, mounts: { persistent: workspace } },
};

const h100 = { gpuTypeId: "NVIDIA H100 80GB HBM3", gpuCountPerPod: 8, podCount: 2 };
const key = generateKeyPairSync("ed25519").publicKey;

const resources: Record<ResourceName, Resource> = {
  Pod: {
    sample: pod,
    changes: {
      name: [{ name: "trainer-2" }],
      image: [{ image: "img:2" }],
      args: [{ args: "python serve.py" }],
      cmd: [{ cmd: ["python", "serve.py"] }],
      entrypoint: [{ entrypoint: ["/bin/sh", "-c"] }],
      disk: [{ disk: 40 }],
      env: [{ env: { A: "2" } }],
      ports: [{ ports: ["22/tcp"] }],
      registry: [{ registry: "reg1" }],
      gpu: [{ gpu: { id: "NVIDIA L40S" } }],
      cpu: [{ gpu: undefined, cpu: { id: "cpu3c", vcpuCount: 4 } }],
      cloud: [{ base: podWithoutMounts, patch: { cloud: "COMMUNITY" } }],
      dataCenterIds: [{ dataCenterIds: ["EU-RO-1"] }, { dataCenterIds: ["US-KS-2"] }],
      globalNetworking: [{ globalNetworking: true }],
      mounts: [
        { mounts: { network: [{ volumeId: "nv1", path: "/mnt" }] } },
        { mounts: { network: [{ volumeId: "nv2", path: "/data" }] } },
      ],
      startJupyter: [{ startJupyter: true }],
      startSsh: [{ startSsh: true }],
      templateId: [{ templateId: "tpl1" }],
      locked: [{ locked: true }],
      desiredStatus: [{ desiredStatus: "STOPPED" }],
      placement: [{ placement: { regions: ["EUROPE"] } }],
      waitFor: [{ waitFor: "PLACED" }],
      readiness: [{ readiness: { check: "TCP", port: 22 } }],
      failFast: [{ failFast: { logs: false } }],
      timeouts: [{ timeouts: { create: 900 } }],
      onCreateFailure: [{ onCreateFailure: "keep" }],
      adoptId: [{ adoptId: "pod123" }],
      autostop: [{ autostop: { idleMinutes: 30 } }],
    },
  },
  ServerlessEndpoint: {
    sample: endpoint,
    changes: {
      name: [{ name: "sdxl-2" }],
      type: [{ type: "LOAD_BALANCER" }],
      templateId: [{ templateId: "tpl1" }],
      image: [{ image: "img:2" }],
      args: [{ args: "python handler.py" }],
      disk: [{ disk: 30 }],
      ports: [{ ports: ["8000/http"] }],
      env: [{ env: { A: "1" } }],
      registry: [{ registry: "reg1" }],
      gpu: [{ gpu: { pools: ["ADA_48_PRO"] } }, toCpu],
      cpu: [{ base: cpuEndpoint, patch: { cpu: [{ id: "cpu3c", vcpuCount: 4 }] } }, toCpu],
      workers: [{ workers: { max: 5 } }],
      scaling: [{ scaling: { type: "QUEUE_DELAY", queueDelay: 10 } }],
      flashboot: [{ flashboot: "FLASHBOOT" }],
      networkVolumes: [{ networkVolumes: ["nv1"] }],
      dataCenterIds: [{ dataCenterIds: ["EU-RO-1"] }],
      timeout: [{ timeout: 600_000 }],
      adoptId: [{ adoptId: "ep2" }],
    },
  },
  ServerlessJob: {
    sample: {
      inputs: { endpointId: "ep1", input: { prompt: "ping" } },
      outputs: {
        endpointId: "ep1",
        input: { prompt: "ping" },
        jobId: "job1",
        status: "COMPLETED",
        output: { text: "pong" },
        delayTime: 10,
        executionTime: 20,
        workerId: "w1",
      },
    },
    changes: {
      endpointId: [{ endpointId: "ep2" }],
      input: [{ input: { prompt: "pong" } }],
      mode: [{ mode: "async" }],
      timeout: [{ timeout: 60 }],
    },
  },
  SshKey: {
    sample: {
      inputs: { publicKey: sshKeyLine("me@laptop", key) },
      outputs: {
        publicKey: sshKeyLine("me@laptop", key),
        fingerprint: "",
        keyType: "ssh-ed25519",
        comment: "",
      },
    },
    changes: {
      publicKey: [{ publicKey: sshKeyLine("me@laptop") }, { publicKey: sshKeyLine("me@desktop", key) }],
    },
  },
  NetworkVolume: {
    sample: {
      inputs: { name: "datasets", size: 50, dataCenterId: "EU-RO-1" },
      outputs: { volumeId: "nv1", name: "datasets", size: 50, dataCenterId: "EU-RO-1", type: "STANDARD" },
    },
    changes: {
      name: [{ name: "datasets-2" }],
      size: [{ size: 100 }],
      dataCenterId: [{ dataCenterId: "US-KS-2" }],
      type: [{ type: "HIGH_PERFORMANCE" }],
      adoptId: [{ adoptId: "nv2" }],
    },
  },
  Template: {
    sample: template,
    changes: {
      name: [{ name: "trainer-2" }],
      image: [{ image: "img:2" }],
      args: [{ args: "python serve.py" }],
      cmd: [{ cmd: ["python", "serve.py"] }],
      entrypoint: [{ entrypoint: ["/bin/sh", "-c"] }],
      disk: [{ disk: 40 }],
      env: [{ env: { A: "1" } }],
      ports: [{ ports: ["8888/http"] }],
      registry: [{ registry: "reg1" }],
      mounts: [
        { mounts: { persistent: workspace } },
        { base: templateWithMount, patch: { mounts: undefined } },
      ],
      allowedCudaVersions: [{ allowedCudaVersions: ["12.4"] }],
      startSsh: [{ startSsh: false }],
      startJupyter: [{ startJupyter: false }],
      public: [{ public: true }],
      serverless: [{ serverless: true }],
      category: [{ category: "AMD" }],
      adoptId: [{ adoptId: "tpl2" }],
    },
  },
  Registry: {
    sample: {
      inputs: { name: "ghcr", username: "bot", password: "token-1" },
      outputs: {
        registryId: "reg1",
        name: "ghcr",
        credentialsDigest: credentialsDigest("bot", "token-1", "salt"),
        credentialsSalt: "salt",
      },
    },
    changes: {
      name: [{ name: "ghcr-2" }],
      username: [{ username: "bot-2" }],
      password: [{ password: "token-2" }],
      adoptId: [{ adoptId: "reg2" }],
    },
  },
  Secret: {
    sample: {
      inputs: { name: "hf-token", value: "value-1" },
      outputs: {
        secretId: "sec1",
        name: "hf-token",
        description: null,
        createdAt: CREATED,
        valueLastUpdatedAt: CREATED,
        reference: "{{ RUNPOD_SECRET_hf-token }}",
      },
    },
    changes: {
      name: [{ name: "hf-token-2" }],
      value: [{ value: "value-2" }],
      description: [{ description: "Hugging Face read token" }],
      adoptId: [{ adoptId: "sec2" }],
    },
  },
  Cluster: {
    sample: {
      inputs: { name: "trainers", type: "TRAINING", compute: h100, image: "img:1" },
      outputs: {
        clusterId: "cl1",
        name: "trainers",
        type: "TRAINING",
        compute: h100,
        templateId: null,
        image: "img:1",
        args: null,
        disk: null,
        ports: null,
        dataCenterIds: null,
        mounts: null,
        startJupyter: false,
        startSsh: false,
        dataCenterId: "US-KS-2",
        members: [],
        primary: null,
        network: null,
        env: {},
        createdAt: CREATED,
        timeouts: null,
      },
    },
    changes: {
      name: [{ name: "trainers-2" }],
      type: [{ type: "RAY" }],
      compute: [{ compute: { ...h100, podCount: 4 } }],
      templateId: [{ templateId: "tpl1" }],
      image: [{ image: "img:2" }],
      args: [{ args: "torchrun train.py" }],
      disk: [{ disk: 40 }],
      env: [{ env: { A: "1" } }],
      ports: [{ ports: ["22/tcp"] }],
      dataCenterIds: [{ dataCenterIds: ["EU-RO-1"] }],
      mounts: [{ mounts: { network: [{ volumeId: "nv1", path: "/data" }] } }],
      startJupyter: [{ startJupyter: true }],
      startSsh: [{ startSsh: true }],
      timeouts: [{ timeouts: { create: 1800 } }],
      onCreateFailure: [{ onCreateFailure: "keep" }],
      adoptId: [{ adoptId: "cl2" }],
    },
  },
};

/** Template and ServerlessEndpoint diffs print what a change means; not this test's business. */
const QUIET = quietProviders();

interface ThinProvider {
  check(olds: Props, news: Props): Promise<{ inputs: Props; failures?: readonly unknown[] }>;
  diff(id: string, olds: Props, news: Props): Promise<{ changes?: boolean; replaces?: readonly string[] }>;
}

/**
 * What the engine would do with this change, through the resource's real `check` (which sees the
 * old inputs: a Secret's new value is found there) and `diff`: replace, update or none.
 */
async function kindOfChange(type: ResourceName, change: Props | Change, base: Sample): Promise<string> {
  const provider = QUIET[type] as unknown as ThinProvider;
  const { patch, base: own } = "patch" in change ? (change as Change) : { patch: change, base: undefined };
  const sample = own ?? base;
  const news = { ...sample.inputs, ...patch };
  const checked = await provider.check(sample.inputs, news);
  if (checked.failures?.length)
    return `invalid sample change ${JSON.stringify(patch)}: ${JSON.stringify(checked.failures)}`;
  const diff = await provider.diff("", sample.outputs, checked.inputs);
  if ((diff.replaces ?? []).length > 0) return "replace";
  return diff.changes ? "update" : "none";
}

// ---------------------------------------------------------------- the tests

let work: string;
let model: Reflection;
let byId: Map<number, Reflection>;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "reference-"));
  const run = spawnSync(
    process.execPath,
    [
      join(REPO_ROOT, ".ci", "reference-docs.cjs"),
      join(work, "reference"),
      "--json",
      join(work, "model.json"),
    ],
    { cwd: REPO_ROOT, encoding: "utf8" },
  );
  if (run.status !== 0) throw new Error(`regenerating the reference failed:\n${run.stdout}${run.stderr}`);
  model = JSON.parse(readFileSync(join(work, "model.json"), "utf8")) as Reflection;
  byId = indexById(model);
}, 300_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

/** The package's main module and the resource classes in it (classes extending Pulumi's Resource). */
function resourceClasses(): Map<string, Reflection> {
  const main = model.children?.find((m) => m.name === "runpod-dynamic");
  const classes = (main?.children ?? []).filter(
    (c) => c.kind === KIND.Class && (c.extendedTypes ?? []).some((t) => t.name === "Resource"),
  );
  return new Map(classes.map((c) => [c.name, c]));
}

/** A resource's Args interface: the type of its constructor's second parameter. */
function argsOf(cls: Reflection): Reflection | undefined {
  const ctor = cls.children?.find((c) => c.kind === KIND.Constructor);
  const args = ctor?.signatures?.[0]?.parameters?.[1]?.type;
  return typeof args?.target === "number" ? byId.get(args.target) : undefined;
}

describe("docs/reference", () => {
  it("is exactly what npm run docs writes", () => {
    const fresh = join(work, "reference");
    const expected = filesUnder(fresh);
    const committed = filesUnder(COMMITTED);
    const problems = [
      ...expected.filter((f) => !committed.includes(f)).map((f) => `missing: docs/reference/${f}`),
      ...committed.filter((f) => !expected.includes(f)).map((f) => `extra: docs/reference/${f}`),
      ...expected
        .filter((f) => committed.includes(f))
        .filter((f) => readFileSync(join(fresh, f), "utf8") !== readFileSync(join(COMMITTED, f), "utf8"))
        .map((f) => `stale: docs/reference/${f}`),
    ];
    expect(problems, "docs/reference differs from what the code documents: run `npm run docs`").toEqual([]);
    expect(expected).toContain("cli.md");
  });

  it("documents the nine resources, each a class with an Args interface", () => {
    const classes = resourceClasses();
    expect([...classes.keys()].sort()).toEqual([...RESOURCES]);
    for (const name of RESOURCES) {
      const cls = classes.get(name);
      expect(cls && argsOf(cls)?.name, name).toBe(`${name}Args`);
    }
  });
});

describe.each(RESOURCES)("%s reference", (name) => {
  const parts = () => {
    const cls = resourceClasses().get(name);
    const args = cls && argsOf(cls);
    if (!cls || !args) throw new Error(`${name} or ${name}Args is not in the reference`);
    return { cls, args };
  };

  it("describes every input, with its default (or as required) and what a change does", () => {
    const { args } = parts();
    const problems: string[] = [];
    for (const input of (args.children ?? []).filter((c) => c.kind === KIND.Property)) {
      const kinds = changeKinds(input);
      if (typeof kinds === "string") problems.push(`${name}Args.${input.name} ${kinds}`);
      for (const [path, member] of [
        [input.name, input] as [string, Reflection],
        ...nestedProperties(input.type, input.name, byId),
      ]) {
        if (text(member.comment?.summary).trim() === "")
          problems.push(`${name}Args.${path} has no description`);
        if (member.flags.isOptional && !tagOf(member, "@defaultValue")) {
          problems.push(`${name}Args.${path} is optional and has no @defaultValue`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("describes every output the class declares", () => {
    const { cls } = parts();
    const outputs = (cls.children ?? []).filter((c) => c.kind === KIND.Property && !c.flags.isStatic);
    expect(outputs.length).toBeGreaterThan(0);
    const problems = outputs.flatMap((output) =>
      [[output.name, output] as [string, Reflection], ...nestedProperties(output.type, output.name, byId)]
        .filter(([, member]) => text(member.comment?.summary).trim() === "")
        .map(([path]) => `${name}.${path} has no description`),
    );
    expect(problems).toEqual([]);
  });

  it("says of every input what its real check and diff do with a change to it", async () => {
    const { args } = parts();
    const resource = resources[name];
    const inputs = (args.children ?? []).filter((c) => c.kind === KIND.Property).map((c) => c.name);
    expect(Object.keys(resource.changes).sort(), "a sample change for every documented input").toEqual(
      [...inputs].sort(),
    );
    // The sample itself is valid and, compared with its own outputs, no change.
    expect(await kindOfChange(name, {}, resource.sample)).toBe("none");
    const rows: [string, string[], string[]][] = [];
    for (const input of (args.children ?? []).filter((c) => c.kind === KIND.Property)) {
      const documented = changeKinds(input);
      const seen = await Promise.all(
        (resource.changes[input.name] ?? []).map((c) => kindOfChange(name, c, resource.sample)),
      );
      rows.push([input.name, typeof documented === "string" ? [documented] : documented, [...seen].sort()]);
    }
    // Each row: the kinds the tag names, and those the sample changes gave (one change per kind).
    expect(rows.map(([input, , seen]) => [input, seen])).toEqual(
      rows.map(([input, documented]) => [input, documented]),
    );
  });
});
