/**
 * Which inputs and outputs of each resource carry a credential, declared once: the resource
 * classes keep them secret in state, the provider plugin marks them secret in what it answers, and
 * the generated schema flags them so every SDK does the same (codegen/schema.ts).
 */
export const SECRET_FIELDS = {
  Cluster: { inputs: ["env"], outputs: ["env"] },
  NetworkVolume: { inputs: [], outputs: [] },
  Pod: { inputs: ["env"], outputs: ["env", "jupyterPassword"] },
  Registry: { inputs: ["password"], outputs: ["credentialsDigest"] },
  Secret: { inputs: ["value"], outputs: [] },
  ServerlessEndpoint: { inputs: ["env"], outputs: ["env"] },
  ServerlessJob: { inputs: [], outputs: [] },
  SshKey: { inputs: [], outputs: [] },
  Template: { inputs: ["env"], outputs: ["env"] },
} as const satisfies Record<string, { inputs: readonly string[]; outputs: readonly string[] }>;

/** The resource types a program declares (StackIdentity is the provider's own bookkeeping). */
export type ResourceKind = keyof typeof SECRET_FIELDS;
