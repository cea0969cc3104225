/**
 * `runpod-dynamic billing all|pods|serverless|network-volume|stack` (docs/api-model.md, Command-line commands, Billing; `stack` is ours: a Pulumi stack's spend next to its list rate).
 *
 * RunPod's v2 billing routes under base_url: `/v2/billing` (the whole account), `/v2/billing/pods`,
 * `/v2/billing/serverless` and `/v2/billing/network-volumes` (`/v2/billing/endpoints` is the billing
 * of RunPod's public hosted-model endpoints, not of serverless endpoints). They answer one record
 * per resource per bucket, with the cost split into components, and have no grouping and no GPU
 * filter. The flags runpodctl users know keep working because this command does both itself:
 *
 * - `--grouping gpuId` and `--gpu-id` use what the API says about each billed resource now: a pod's
 *   GPU type (or CPU flavor) from `GET /v2/pods`; an endpoint's GPU types from `GET /v2/serverless`,
 *   its pools expanded to their GPU types through `GET /v2/catalog/gpus` minus its excluded types
 *   (or its CPU flavors). A record whose pod or endpoint the API no longer lists (terminated,
 *   deleted) cannot be attributed: grouped, it is shown under a null GPU; with `--gpu-id`, it is left
 *   out. Either way the output names those resources and their amount (`unattributed`).
 * - Serverless billing does not say which GPU type each worker ran on, so an endpoint is grouped
 *   under all the types it may run on together (`gpuIds`), and `--gpu-id` keeps an endpoint that
 *   may run on that type (or names its pool).
 * - Serverless `--grouping podId` (per worker) has no v2 equivalent and is refused.
 *
 * JSON/YAML output is one object: `query` (the window the API answered for, and the flags applied
 * here), `records`, `totals` (sums over the printed records) and, for pods and serverless,
 * `unattributed`. Each command's `--help` lists the fields. Amounts are US dollars; times are the
 * API's RFC 3339 strings. Tables show amounts with 4 decimals and times in the user's zone (TZ).
 *
 * The parts live in billing/: the window flags, the amounts, one module per subcommand.
 */
import type { Command } from "commander";
import { registerAll } from "./billing/account.js";
import { registerNetworkVolume } from "./billing/network-volumes.js";
import { registerStack } from "./billing/stack.js";
import { registerUsage } from "./billing/usage.js";
import { POD_USAGE, SERVERLESS_USAGE } from "./billing/usage-specs.js";
import type { Terminal } from "./output.js";

export function registerBilling(program: Command, out: Terminal): void {
  const billing = program
    .command("billing")
    .description(
      "Billing history of the account, pods, serverless endpoints, network volumes, and a Pulumi stack's resources.",
    );
  registerAll(billing, out);
  registerUsage(billing, out, POD_USAGE);
  registerUsage(billing, out, SERVERLESS_USAGE);
  registerNetworkVolume(billing, out);
  registerStack(billing, out);
}
