/**
 * RunPod's official Pulumi provider (runpod/pulumi-runpod, package `runpod`) as its stacks record
 * it: its resource types, which of ours each becomes, and what of its inputs nothing of ours
 * carries. From its published schema (`provider/cmd/pulumi-resource-runpod/schema.json`); the
 * field-by-field mapping is docs/from-pulumi-runpod.md's.
 */

/** `runpod:index:<Kind>`: its resources' type tokens. */
export const OFFICIAL_PREFIX = "runpod:index:";

/** Its provider instances' type token (the default one is `default_<version>`). */
export const OFFICIAL_PROVIDER_TYPE = "pulumi:providers:runpod";

/** The GraphQL address it calls when `runpod:apiUrl` is not set. */
export const OFFICIAL_DEFAULT_API_URL = "https://api.runpod.io/graphql";

export type OurKind = "Pod" | "NetworkVolume" | "Template" | "ServerlessEndpoint" | "Registry" | "Secret";

export interface OfficialKind {
  /** The resource of ours that manages the same object, by the same id. */
  readonly ours: OurKind;
  /** Inputs with no counterpart of ours: set on the old resource, they are dropped by the move. */
  readonly noCounterpart: readonly string[];
  /** The input the API never answers, which an import therefore cannot read: the program gives it again. */
  readonly writeOnly?: string;
}

/** Each of its resource kinds, by the name after `runpod:index:`. */
export const OFFICIAL_KINDS: Readonly<Record<string, OfficialKind>> = {
  Pod: {
    ours: "Pod",
    noCounterpart: [
      "deployCost",
      "savingsPlan",
      "instanceIds",
      "minDisk",
      "minDownload",
      "minUpload",
      "supportPublicIp",
      "volumeKey",
      "aiApiId",
      "ideAiApiId",
      "modelReferences",
      "stopAfter",
      "terminateAfter",
    ],
  },
  NetworkVolume: { ours: "NetworkVolume", noCounterpart: [] },
  Template: { ours: "Template", noCounterpart: ["readme", "startScript", "advancedStart", "portsConfig"] },
  Endpoint: {
    ours: "ServerlessEndpoint",
    noCounterpart: ["bindEndpoint", "flashEnvironmentId", "hubReleaseId", "modelName", "modelReferences"],
  },
  ContainerRegistryAuth: { ours: "Registry", noCounterpart: [], writeOnly: "password" },
  Secret: { ours: "Secret", noCounterpart: [], writeOnly: "value" },
};
