/**
 * Drives the policy pack two ways:
 * - direct calls of one policy's `validateResource`/`validateStack` with hand-built args, its
 *   props behind the framework's real unknown-checking proxy;
 * - the real `@pulumi/pulumi/cmd/run-policy-pack` process over gRPC, configured the way the
 *   engine configures it (schema defaults, then `--policy-pack-config`).
 * Never import policy/index.ts here: constructing the PolicyPack starts a server in this process.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type {
  Policies,
  PolicyResource,
  ResourceValidationArgs,
  ResourceValidationPolicy,
  StackValidationArgs,
  StackValidationPolicy,
} from "@pulumi/policy";
import { runpodPolicies } from "../../policy/pack.js";
import { nodeRequire, REPO_ROOT } from "./dist.js";
import { grpc, rpc, SECRET_SIG, SECRET_VALUE, Struct, startPlugin } from "./host.js";

// biome-ignore lint/suspicious/noExplicitAny: generated protobuf stubs are untyped JavaScript
type Any = any;

export const aproto = nodeRequire("@pulumi/pulumi/proto/analyzer_pb") as Any;
const arpc = nodeRequire("@pulumi/pulumi/proto/analyzer_grpc_pb") as Any;
const { Empty } = nodeRequire("google-protobuf/google/protobuf/empty_pb") as Any;
const { unknownCheckingProxy } = nodeRequire("@pulumi/policy") as {
  unknownCheckingProxy<T extends object>(props: T): T;
};

export const POLICY_DIR = join(REPO_ROOT, "policy");
/** The pack's version: policy/package.json's, which test/policy/manifest.test.ts keeps the package's. */
export const PACK_VERSION = (
  JSON.parse(readFileSync(join(POLICY_DIR, "package.json"), "utf8")) as { version: string }
).version;
/** How a preview's policy summary names the pack (`runpod-policies@v0.3.0`), as a RegExp source. */
export const PACK_IN_SUMMARY = `runpod-policies@v${PACK_VERSION.replaceAll(".", "\\.")}`;
export const POD = "pulumi-nodejs:dynamic/runpod:Pod";
export const ENDPOINT = "pulumi-nodejs:dynamic/runpod:ServerlessEndpoint";
export const SSH_KEY = "pulumi-nodejs:dynamic/runpod:SshKey";
export const STACK = "pulumi:pulumi:Stack";

/** `urn:pulumi:dev::rp::<type>::<name>` */
export const urnOf = (type: string, name: string) => `urn:pulumi:dev::rp::${type}::${name}`;

/** A value as the engine sends a secret. */
export const secret = (value: unknown) => ({ [SECRET_SIG]: SECRET_VALUE, value });

export type Level = "advisory" | "mandatory" | "disabled" | "remediate";
const LEVELS: Record<Level, number> = { advisory: 0, mandatory: 1, disabled: 2, remediate: 3 };
const levelName = (n: number): Level => {
  const found = (Object.keys(LEVELS) as Level[]).find((k) => LEVELS[k] === n);
  if (found === undefined) throw new Error(`unknown enforcement level ${n}`);
  return found;
};

// ---------------------------------------------------------------- direct calls

/** The pack's policies as index.ts builds them once the secret markers are visible. */
export const packPolicies: Policies = runpodPolicies({ secretsVisible: true });

export function resourcePolicyNamed(
  name: string,
  policies: Policies = packPolicies,
): ResourceValidationPolicy {
  const p = policies.find((x) => x.name === name);
  if (p === undefined || !("validateResource" in p)) throw new Error(`no resource policy ${name}`);
  return p as ResourceValidationPolicy;
}

export function stackPolicyNamed(name: string): StackValidationPolicy {
  const p = packPolicies.find((x) => x.name === name);
  if (p === undefined || !("validateStack" in p)) throw new Error(`no stack policy ${name}`);
  return p as StackValidationPolicy;
}

export interface TestResource {
  readonly type: string;
  readonly name: string;
  readonly props: Record<string, unknown>;
  /** Property name to the names of the resources its value came from (what preview records). */
  readonly propertyDependencies?: Record<string, readonly string[]>;
}

function opts() {
  return {
    protect: false,
    ignoreChanges: [],
    aliases: [],
    customTimeouts: { createSeconds: 0, updateSeconds: 0, deleteSeconds: 0 },
    additionalSecretOutputs: [],
  };
}

/** The args the server builds for a validation, with `props` behind the real unknown-checking proxy. */
export function resourceArgs(r: TestResource, config: Record<string, unknown> = {}): ResourceValidationArgs {
  const props = unknownCheckingProxy(r.props);
  return {
    type: r.type,
    props,
    urn: urnOf(r.type, r.name),
    name: r.name,
    opts: opts(),
    stackTags: new Map(),
    isType: () => false,
    asType: () => undefined,
    getConfig: <T extends object>() => config as T,
    notApplicable: (reason?: string): never => {
      throw new Error(`notApplicable: ${reason}`);
    },
  } as ResourceValidationArgs;
}

/** Runs one resource policy's validation; returns the messages it reported. */
export async function validate(
  policy: ResourceValidationPolicy,
  r: TestResource,
  config: Record<string, unknown> = {},
): Promise<string[]> {
  const messages: string[] = [];
  const validations = Array.isArray(policy.validateResource)
    ? policy.validateResource
    : [policy.validateResource];
  for (const v of validations) await v?.(resourceArgs(r, config), (m) => messages.push(m));
  return messages;
}

/** Runs one stack policy's validation; returns `[urn, message]` per report ("" for the stack). */
export async function validateStack(
  policy: StackValidationPolicy,
  resources: readonly TestResource[],
  config: Record<string, unknown> = {},
): Promise<Array<[string, string]>> {
  const reports: Array<[string, string]> = [];
  const built = resources.map(
    (r) =>
      ({
        type: r.type,
        props: unknownCheckingProxy(r.props),
        urn: urnOf(r.type, r.name),
        name: r.name,
        opts: opts(),
        dependencies: [],
        propertyDependencies: {},
        isType: () => false,
        asType: () => undefined,
      }) as unknown as PolicyResource,
  );
  resources.forEach((r, i) => {
    const target = built[i] as { propertyDependencies: Record<string, PolicyResource[]> };
    for (const [prop, names] of Object.entries(r.propertyDependencies ?? {})) {
      target.propertyDependencies[prop] = built.filter((b) => names.includes(b.name));
    }
  });
  const args = {
    resources: built,
    stackTags: new Map(),
    getConfig: <T extends object>() => config as T,
    notApplicable: (reason?: string): never => {
      throw new Error(`notApplicable: ${reason}`);
    },
  } as StackValidationArgs;
  await policy.validateStack(args, (m, urn) => reports.push([urn ?? "", m]));
  return reports;
}

// ---------------------------------------------------------------- the real pack over gRPC

export interface PolicyPackProcess {
  readonly client: Any;
  /** What the pack printed on stderr (ts-node errors, crashes). */
  stderr(): string;
  close(): void;
}

/** Spawns `run-policy-pack` in policy/ as the engine does (`<engine> .`, cwd = the pack). */
export async function startPolicyPack(): Promise<PolicyPackProcess> {
  const p = startPlugin(nodeRequire.resolve("@pulumi/pulumi/cmd/run-policy-pack"), ["127.0.0.1:1", "."], {
    cwd: POLICY_DIR,
    // A stale ts-node cache entry could hide a type error in the pack.
    env: { TS_NODE_CACHE: "false" },
  });
  const client = new arpc.AnalyzerClient(`127.0.0.1:${await p.port}`, grpc.credentials.createInsecure());
  return {
    client,
    stderr: p.stderr,
    close: () => {
      client.close();
      p.proc.kill();
    },
  };
}

export interface PolicyInfo {
  readonly name: string;
  readonly level: Level;
  readonly type: "resource" | "stack";
  readonly description: string;
  readonly configSchema: Record<string, unknown>;
}

export async function analyzerInfo(pack: PolicyPackProcess) {
  const info = await rpc(pack.client, "getAnalyzerInfo", new Empty());
  const policies: PolicyInfo[] = info.getPoliciesList().map((p: Any) => ({
    name: p.getName(),
    level: levelName(p.getEnforcementlevel()),
    type: p.getPolicyType() === aproto.PolicyType.POLICY_TYPE_STACK ? "stack" : "resource",
    description: p.getDescription(),
    configSchema: p.getConfigschema()?.getProperties()?.toJavaScript() ?? {},
  }));
  return {
    name: info.getName() as string,
    version: info.getVersion() as string,
    supportsConfig: info.getSupportsconfig() as boolean,
    policies,
    initialConfig: info.getInitialconfigMap().getLength() as number,
  };
}

/** `--policy-pack-config` file contents: a level, or `{ enforcementLevel?, ...properties }`, per policy or "all". */
export type PolicyPackConfigFile = Record<
  string,
  Level | ({ enforcementLevel?: Level } & Record<string, unknown>)
>;

export interface SentConfig {
  readonly level: Level;
  readonly properties: Record<string, unknown>;
}

/**
 * Sends `Configure` as the engine builds it (pulumi/pulumi pkg/resource/analyzer/config.go
 * `ReconcilePolicyPackConfig`): every policy, at its own level with
 * its schema defaults; then the pack's initial config (this pack has none); then the file, "all"
 * first, levels replacing and properties merging key by key. Returns what was sent.
 */
export async function configurePack(
  pack: PolicyPackProcess,
  file: PolicyPackConfigFile = {},
): Promise<Record<string, SentConfig>> {
  const { policies } = await analyzerInfo(pack);
  const levelOf = (entry: PolicyPackConfigFile[string] | undefined): Level | undefined =>
    typeof entry === "string" ? entry : entry?.enforcementLevel;
  const sent: Record<string, SentConfig> = {};
  const request = new aproto.ConfigureAnalyzerRequest();
  for (const policy of policies) {
    const properties: Record<string, unknown> = {};
    for (const [key, schema] of Object.entries(policy.configSchema)) {
      if (schema !== null && typeof schema === "object" && "default" in schema) {
        properties[key] = (schema as { default: unknown }).default;
      }
    }
    const entry = file[policy.name];
    if (entry !== undefined && typeof entry === "object") {
      const { enforcementLevel: _level, ...props } = entry;
      Object.assign(properties, props);
    }
    const level = levelOf(entry) ?? levelOf(file.all) ?? policy.level;
    const config = new aproto.PolicyConfig();
    config.setEnforcementlevel(LEVELS[level]);
    config.setProperties(Struct.fromJavaScript(properties));
    request.getPolicyconfigMap().set(policy.name, config);
    sent[policy.name] = { level, properties };
  }
  await rpc(pack.client, "configure", request);
  return sent;
}

export interface Diagnostic {
  readonly policy: string;
  readonly level: Level;
  readonly urn: string;
  readonly message: string;
}

function diagnostics(response: Any): Diagnostic[] {
  return response.getDiagnosticsList().map((d: Any) => ({
    policy: d.getPolicyname(),
    level: levelName(d.getEnforcementlevel()),
    urn: d.getUrn(),
    message: d.getMessage(),
  }));
}

export interface WireResource extends TestResource {
  readonly parent?: string;
  readonly dependencies?: readonly string[];
}

function wire(Cls: Any, r: WireResource): Any {
  const m = new Cls();
  m.setType(r.type);
  m.setName(r.name);
  m.setUrn(urnOf(r.type, r.name));
  m.setProperties(Struct.fromJavaScript(r.props));
  // The server refuses a request without options ("A more recent version of the Pulumi CLI is required").
  m.setOptions(new aproto.AnalyzerResourceOptions());
  if (r.parent !== undefined) m.setParent(r.parent);
  if (r.dependencies !== undefined) m.setDependenciesList([...r.dependencies]);
  return m;
}

/** `Analyze` of one resource's inputs: the diagnostics, in the pack's policy order. */
export async function analyze(pack: PolicyPackProcess, r: TestResource): Promise<Diagnostic[]> {
  return diagnostics(await rpc(pack.client, "analyze", wire(aproto.AnalyzeRequest, r)));
}

/** `AnalyzeStack` over every resource of a run. */
export async function analyzeStack(pack: PolicyPackProcess, resources: readonly WireResource[]) {
  const request = new aproto.AnalyzeStackRequest();
  request.setResourcesList(resources.map((r) => wire(aproto.AnalyzerResource, r)));
  return diagnostics(await rpc(pack.client, "analyzeStack", request));
}

/** `Remediate`: per remediating policy, the properties it returned (secrets in wire form). */
export async function remediate(pack: PolicyPackProcess, r: TestResource) {
  const response = await rpc(pack.client, "remediate", wire(aproto.AnalyzeRequest, r));
  return response.getRemediationsList().map((x: Any) => ({
    policy: x.getPolicyname() as string,
    properties: x.getProperties()?.toJavaScript() as Record<string, unknown> | undefined,
    diagnostic: x.getDiagnostic() as string,
  }));
}
