/**
 * The API client the commands talk through: the provider's typed client (the CLI sends no HTTP of
 * its own), configured from the same environment variables as the provider: RUNPOD_API_KEY,
 * RUNPOD_BASE_URL, RUNPOD_SERVERLESS_URL, RUNPOD_TEAM_ID and RUNPOD_ALLOW_INSECURE_HTTP
 * (provider/client/config.ts, SETTINGS).
 *
 * RUNPOD_REST_URL named the address of REST v1, which RunPod retired on 2026-11-15; every command
 * now talks to base_url and serverless_url. It is ignored, so an environment that still sets it
 * (even to an address that no longer answers, or is not a URL) keeps working.
 */
import {
  RateLimitBudgets,
  RunpodApi,
  RunpodClient,
  type RunpodSettings,
  realClock,
  resolveSettings,
} from "../provider/client/index.js";
import { CliError } from "./errors.js";
import type { Terminal } from "./output.js";

export interface Connection {
  readonly api: RunpodApi;
  readonly settings: RunpodSettings;
}

/**
 * Settings from the terminal's environment, and a client. The key is checked here, before any
 * request, so a missing key is one clear error rather than a failure deep in a command; and it is
 * handed to the terminal so that no line printed afterwards can contain it. The client's rate-limit
 * budgets are the command's own: the binary runs one command per process, and a command run in a
 * test's process must not start from what an earlier one learnt.
 */
export function connect(out: Terminal): Connection {
  const { RUNPOD_REST_URL: _retired, ...current } = out.env;
  const settings = resolveSettings(() => undefined, current);
  if (!settings.apiKey) {
    throw new CliError(
      "No RunPod API key: set the RUNPOD_API_KEY environment variable (create a key in the RunPod console under Settings > API Keys). For the local emulator, `runpod-dynamic emulator` prints the variables to export.",
      "NO_API_KEY",
    );
  }
  out.protect(settings.apiKey);
  const client = new RunpodClient(settings, {
    budgets: new RateLimitBudgets(realClock, settings.quotaShareForOthers),
  });
  return { api: new RunpodApi(client), settings };
}
