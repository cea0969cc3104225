/**
 * What the provider plugin offers, by token: its resources and its functions (invokes). The schema
 * generator (codegen/schema.ts) and the plugin's server read the same lists, so an SDK never
 * knows a token the plugin does not serve.
 */

import { DECLARATIONS } from "../resources/declarations.js";
import { PLUGIN_PACKAGE, pluginToken } from "../resources/type-tokens.js";

export const PACKAGE = PLUGIN_PACKAGE;
export const token = pluginToken;

/**
 * Where the engine fetches the plugin: the repository's GitHub releases, in Pulumi's `github://`
 * form. A release tagged `v<version>` carries `pulumi-resource-runpod-dynamic-v<version>-<os>-<arch>.tar.gz`
 * for each platform (docs/releases.md, "What a release holds").
 */
export const PLUGIN_DOWNLOAD_URL = "github://api.github.com/runpod-dynamic/runpod-dynamic";

/** Every resource a program declares, by its class name, in its declarations' order. */
export const RESOURCES = DECLARATIONS.map((d) => d.kind);

/**
 * The program functions served as invokes: `name` is the export of provider/index.ts, `arguments`
 * whether it takes one options object or which positional parameters, `result` the property its
 * answer is returned under (an invoke answers an object). The job functions that submit work (`run`,
 * `runSync`) are not offered: an invoke runs in every preview, and a job submitted by a preview
 * would bill; the `ServerlessJob` resource runs jobs at deploy time instead.
 */
export const FUNCTIONS = [
  { name: "getGpuTypes", arguments: "options", result: "gpuTypes" },
  { name: "getCpuFlavors", arguments: "options", result: "cpuFlavors" },
  { name: "getDataCenters", arguments: "options", result: "dataCenters" },
  { name: "getPublicTemplates", arguments: "options", result: "templates" },
  { name: "placementCandidates", arguments: "options", result: "candidates" },
  { name: "getJobStatus", arguments: ["endpointId", "jobId"], result: "job" },
] as const;
