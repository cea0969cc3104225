/**
 * The traffic the conformance test sends through the proxy: one row per flow, in the order they
 * run against one emulator. Each row says through what it goes (the real provider in-process, the
 * real CLI binary, or raw requests for routes neither calls yet) and exactly which described
 * operations its requests are, so a flow that silently stops reaching an operation fails.
 *
 * Within a flow, `expect` only checks that the flow did what it says (the pod ran, the job
 * completed); values are the business of each area's own tests. What the gate asserts exactly (the
 * operations, the violations) is asserted in test/conformance/traffic.test.ts.
 *
 * To cover a new route or resource, add a row (a new resource's provider flow to flows-provider.ts,
 * a CLI command to flows-cli.ts, an emulator route nothing calls yet to flows-raw.ts).
 */

import type { Flow } from "./flow.js";
import { CLI_FLOWS } from "./flows-cli.js";
import { PROVIDER_FLOWS } from "./flows-provider.js";
import { RAW_FLOWS } from "./flows-raw.js";

export type { Flow, FlowContext, RawAnswer, RawOptions } from "./flow.js";

/** Provider flows first, then the CLI's, then raw requests for what neither calls. */
export const FLOWS: readonly Flow[] = [...PROVIDER_FLOWS, ...CLI_FLOWS, ...RAW_FLOWS];
