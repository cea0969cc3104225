/**
 * What is derived from the resources' declarations (provider/resources/<name>/fields.ts): each
 * resource's replace/update table, the fields each door marks secret, the inputs a refresh hands
 * back, the scalars taken as strings, and the TypeScript types a program compiles against, which
 * must describe the same values as the zod schemas check validates with.
 */
import { describe, expect, it } from "vitest";
import type {
  ClusterArgs,
  ClusterOutputs,
  NetworkVolumeArgs,
  NetworkVolumeOutputs,
  PodArgs,
  PodOutputs,
  RegistryArgs,
  RegistryOutputs,
  SecretArgs,
  SecretOutputs,
  ServerlessEndpointArgs,
  ServerlessEndpointOutputs,
  ServerlessJobArgs,
  ServerlessJobOutputs,
  SshKeyArgs,
  SshKeyOutputs,
  TemplateArgs,
  TemplateOutputs,
} from "../../provider/dynamic/resources/types.js";
import type * as Cluster from "../../provider/resources/cluster/types.js";
import type * as NetworkVolume from "../../provider/resources/network-volume/types.js";
import type * as Pod from "../../provider/resources/pod/types.js";
import type * as Registry from "../../provider/resources/registry/types.js";
import type { Resolved, Same } from "../../provider/resources/same-type.js";
import type * as Secret from "../../provider/resources/secret/types.js";
import type * as Endpoint from "../../provider/resources/serverless-endpoint/types.js";
import type * as Job from "../../provider/resources/serverless-job/types.js";
import type * as SshKey from "../../provider/resources/ssh-key/types.js";
import type * as Template from "../../provider/resources/template/types.js";
import { loadDist } from "../support/dist.js";

const { DECLARATIONS, declarationOf } = loadDist<typeof import("../../provider/resources/declarations.js")>(
  "provider/resources/declarations.js",
);
const derive = loadDist<typeof import("../../provider/fields/derive.js")>("provider/fields/derive.js");
const { fieldsOf } = loadDist<typeof import("../../provider/fields/nodes.js")>("provider/fields/nodes.js");

// The generated declarations a program compiles against describe what check validates, every
// field filled in, both ways (resources/same-type.ts); `npm run typecheck` fails when they drift.
true satisfies Same<Resolved<PodArgs>, Pod.PodInputs>;
true satisfies Same<PodOutputs, Pod.PodOutputs>;
true satisfies Same<Resolved<TemplateArgs>, Template.TemplateInputs>;
true satisfies Same<TemplateOutputs, Template.TemplateOutputs>;
true satisfies Same<Resolved<NetworkVolumeArgs>, NetworkVolume.NetworkVolumeInputs>;
true satisfies Same<NetworkVolumeOutputs, NetworkVolume.NetworkVolumeOutputs>;
true satisfies Same<Resolved<RegistryArgs>, Registry.RegistryInputs>;
true satisfies Same<RegistryOutputs, Registry.RegistryOutputs>;
true satisfies Same<Resolved<SecretArgs>, Secret.SecretInputs>;
true satisfies Same<SecretOutputs, Secret.SecretOutputs>;
true satisfies Same<Resolved<ServerlessEndpointArgs>, Endpoint.ServerlessEndpointInputs>;
true satisfies Same<ServerlessEndpointOutputs, Endpoint.ServerlessEndpointOutputs>;
true satisfies Same<Resolved<ServerlessJobArgs>, Job.ServerlessJobInputs>;
// A job's output is any JSON value: unknown to a program, zod's recursive JSON type to check.
true satisfies Same<Omit<ServerlessJobOutputs, "output">, Omit<Job.ServerlessJobOutputs, "output">>;
true satisfies Same<ServerlessJobOutputs["output"], unknown>;
true satisfies Same<Resolved<SshKeyArgs>, Pick<SshKey.SshKeyInputs, "publicKey">>;
true satisfies Same<
  SshKeyOutputs,
  Pick<SshKey.SshKeyOutputs, "publicKey" | "fingerprint" | "keyType" | "comment">
>;
true satisfies Same<Resolved<ClusterArgs>, Cluster.ClusterInputs>;
true satisfies Same<ClusterOutputs, Cluster.ClusterOutputs>;

/** A resource's table as `kind: fields` lines, one per kind of change (`replace, none` for several). */
function table(kind: string): Record<string, string[]> {
  const rows: Record<string, string[]> = {};
  for (const row of derive.diffTable(declarationOf(kind as never))) {
    const key = row.kinds.join(", ");
    rows[key] = [...(rows[key] ?? []), row.field];
  }
  return rows;
}

describe("the replace/update table each declaration gives", () => {
  it.each([
    [
      "Pod",
      {
        update: [
          "name",
          "image",
          "args",
          "cmd",
          "entrypoint",
          "disk",
          "ports",
          "registry",
          "env",
          "globalNetworking",
          "locked",
          "desiredStatus",
          "autostop",
        ],
        "replace, update": ["mounts"],
        replace: ["gpu", "cpu", "cloud", "startJupyter", "startSsh", "templateId"],
        "replace, none": ["dataCenterIds"],
        none: ["placement", "waitFor", "readiness", "failFast", "timeouts", "onCreateFailure", "adoptId"],
      },
    ],
    [
      "Template",
      {
        update: [
          "name",
          "image",
          "args",
          "cmd",
          "entrypoint",
          "disk",
          "ports",
          "registry",
          "env",
          "allowedCudaVersions",
          "startSsh",
          "startJupyter",
          "public",
          "category",
        ],
        "update, replace": ["mounts"],
        replace: ["serverless"],
        none: ["adoptId"],
      },
    ],
    [
      "ServerlessEndpoint",
      {
        replace: ["type"],
        update: [
          "name",
          "templateId",
          "image",
          "args",
          "disk",
          "ports",
          "env",
          "registry",
          "workers",
          "scaling",
          "flashboot",
          "networkVolumes",
          "dataCenterIds",
          "timeout",
        ],
        "update, replace": ["gpu", "cpu"],
        none: ["adoptId"],
      },
    ],
    ["ServerlessJob", { replace: ["endpointId", "input"], none: ["mode", "timeout"] }],
    ["SshKey", { "replace, update": ["publicKey"] }],
    ["NetworkVolume", { update: ["name", "size"], replace: ["dataCenterId", "type"], none: ["adoptId"] }],
    ["Registry", { replace: ["name", "username", "password"], none: ["adoptId"] }],
    ["Secret", { replace: ["name"], update: ["value", "description"], none: ["adoptId"] }],
    [
      "Cluster",
      {
        update: ["name"],
        replace: [
          "type",
          "compute",
          "image",
          "args",
          "disk",
          "env",
          "ports",
          "dataCenterIds",
          "mounts",
          "startJupyter",
          "startSsh",
          "templateId",
        ],
        none: ["timeouts", "onCreateFailure", "adoptId"],
      },
    ],
  ])("%s", (kind, expected) => {
    expect(table(kind)).toEqual(expected);
  });

  it("every input of every resource says what a change does", () => {
    const silent = DECLARATIONS.flatMap((d) =>
      d.fields.inputs.filter((f) => f.meta.onChange === undefined).map((f) => `${d.kind}.${f.name}`),
    );
    expect(silent).toEqual([]);
  });
});

describe("the fields each door marks secret", () => {
  it.each([
    ["Pod", ["env"], ["env", "jupyterPassword"]],
    ["Template", ["env"], ["env"]],
    ["ServerlessEndpoint", ["env"], ["env"]],
    ["ServerlessJob", [], []],
    ["SshKey", [], []],
    ["NetworkVolume", [], []],
    ["Registry", ["password"], ["credentialsDigest"]],
    ["Secret", ["value"], []],
    ["Cluster", ["env"], ["env"]],
  ])("%s: inputs %j, outputs %j", (kind, inputs, outputs) => {
    expect(derive.secretFields(declarationOf(kind as never))).toEqual({ inputs, outputs });
  });
});

describe("a scalar where a string is declared", () => {
  const pod = fieldsOf(declarationOf("Pod").inputs);
  it.each([
    ["a number in env", { env: { WORKERS: 4 } }, { env: { WORKERS: "4" } }],
    ["a boolean in env", { env: { DEBUG: true } }, { env: { DEBUG: "true" } }],
    ["a number as the name", { name: 8080 }, { name: "8080" }],
    ["a number in a list of strings", { ports: ["22/tcp", 8080] }, { ports: ["22/tcp", "8080"] }],
    ["a nested string", { gpu: { id: 4090, count: 1 } }, { gpu: { id: "4090", count: 1 } }],
    ["an enum value", { cloud: true }, { cloud: "true" }],
    ["a number where a number is declared stays one", { disk: 20 }, { disk: 20 }],
    [
      "a string where a boolean is declared stays one, for check to refuse",
      { startSsh: "yes" },
      { startSsh: "yes" },
    ],
    ["an object in env stays one, for check to refuse", { env: { A: { b: 1 } } }, { env: { A: { b: 1 } } }],
    ["null stays null", { registry: null }, { registry: null }],
    ["an undeclared input is left as given", { __createKey: 1 }, { __createKey: 1 }],
  ])("%s", (_what, given, expected) => {
    expect(derive.coerceScalars(pod, given)).toEqual(expected);
  });
});

describe("the inputs a refresh hands back for the fields the outputs repeat", () => {
  const volume = declarationOf("NetworkVolume");
  it.each([
    ["every field the API says", {}, { name: "v", size: 20, dataCenterId: "EU-RO-1", type: "STANDARD" }],
    ["as before", { type: "STANDARD" }, { name: "v", size: 20, dataCenterId: "EU-RO-1", type: "STANDARD" }],
  ])("%s", (_what, prior, expected) => {
    const outputs = { volumeId: "nv1", name: "v", size: 20, dataCenterId: "EU-RO-1", type: "STANDARD" };
    expect(derive.mirroredInputs(volume, outputs, prior)).toEqual(expected);
  });

  it("a field at its default that the program never gave is left out", () => {
    const outputs = { name: "p", locked: false, cloud: "SECURE", startSsh: false };
    expect(derive.mirroredInputs(declarationOf("Pod"), outputs, {})).toEqual({ name: "p" });
    expect(
      derive.mirroredInputs(declarationOf("Pod"), { ...outputs, locked: true }, { cloud: "SECURE" }),
    ).toEqual({
      name: "p",
      locked: true,
      cloud: "SECURE",
    });
  });
});
