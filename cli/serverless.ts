/**
 * `runpod-dynamic serverless create|workers|releases|logs`: serverless endpoints on
 * `{base_url}/v2/serverless`. This file registers the commands; each one's behaviour and output
 * fields are in its module under serverless/.
 */
import type { Command } from "commander";
import { addLogOptions, logHelp } from "./logs.js";
import type { Terminal } from "./output.js";
import { addOutputOptions, type FormatOptions, textOption } from "./parse.js";
import { type CreateOptions, createFromHub } from "./serverless/create.js";
import { type EndpointLogOptions, printEndpointLogs } from "./serverless/logs.js";
import { printReleases, RELEASES_JSON_FIELDS } from "./serverless/releases.js";
import { printWorkers, WORKERS_JSON_FIELDS } from "./serverless/workers.js";

const ENDPOINT_ID = ["<endpoint-id>", "the serverless endpoint's id"] as const;

export function registerServerless(program: Command, out: Terminal): void {
  const serverless = program
    .command("serverless")
    .description("Serverless endpoints: deploy one from the hub, see its workers, releases and logs.");

  addOutputOptions(
    serverless
      .command("create")
      .description("Deploy a hub repository as a serverless endpoint running its release's built image.")
      .requiredOption(
        "--hub-id <listing_id>",
        "hub listing to deploy (see `hub search`)",
        textOption("--hub-id"),
      )
      .requiredOption("--name <name>", "endpoint name", textOption("--name"))
      .option(
        "--gpu-id <id>",
        "GPU type id (e.g. 'NVIDIA L40S') or serverless pool id (e.g. ADA_24) instead of the release config's",
        textOption("--gpu-id"),
      ),
  )
    .addHelpText(
      "after",
      "\nGPU ids and the container disk come from the listing's release config, read from the hub over RunPod's GraphQL API (retired in early 2027). Jobs go to {serverless_url}/v2/<endpoint id>/ (see `jobs run`).\n\nJSON fields: id, name, type, computeType, gpuPools, excludedGpuTypes, gpuTypeIds, gpuCount, cpuFlavorIds, vcpuCount, image, containerDiskInGb, hubListingId, hubReleaseId, requestUrls, jobUrl.",
    )
    .action((opts: CreateOptions) => createFromHub(out, opts));

  addOutputOptions(
    serverless
      .command("workers")
      .description("List an endpoint's active workers: status, release version, GPU, data center.")
      .argument(...ENDPOINT_ID, textOption(ENDPOINT_ID[0])),
  )
    .addHelpText("after", `\nJSON fields: ${WORKERS_JSON_FIELDS}.`)
    .action((id: string, _opts: FormatOptions) => printWorkers(out, id));

  addOutputOptions(
    serverless
      .command("releases")
      .description("List an endpoint's releases, newest first, what each changed, and the rollout.")
      .argument(...ENDPOINT_ID, textOption(ENDPOINT_ID[0])),
  )
    .addHelpText("after", `\nEnvironment values are never printed.\n\nJSON fields: ${RELEASES_JSON_FIELDS}.`)
    .action((id: string, _opts: FormatOptions) => printReleases(out, id));

  addLogOptions(
    serverless
      .command("logs")
      .description("Print the logs of an endpoint's workers, every active one unless --worker names one.")
      .argument(...ENDPOINT_ID, textOption(ENDPOINT_ID[0]))
      .option(
        "--worker <id>",
        "read this worker's log only (see `serverless workers`)",
        textOption("--worker"),
      ),
  )
    .addHelpText("after", logHelp("ts, source (container or system), line, workerId"))
    .action((id: string, opts: EndpointLogOptions) => printEndpointLogs(out, id, opts));
}
