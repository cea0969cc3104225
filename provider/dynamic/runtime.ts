/**
 * The implementation the serialized providers load by package name inside the provider host
 * (`require("runpod-dynamic/runtime")`). One entry per resource type.
 */

import type { HostContext } from "../host/context.js";
import { ProviderHost } from "../host/provider-host.js";
import { type ResourceProviders, resourceProviders } from "../host/resource-providers.js";

/**
 * @internal The one holder of run state at module level (provider/host/provider-host.ts says
 * why); exported for a process that tunes the host before the engine calls it
 * (test/chaos/host-preload.cjs). Pulumi's dynamic-provider host runs with the engine's address as
 * its first argument, which is where the host's warnings go (host/engine-log.ts).
 */
export const host = new ProviderHost(process.argv[2]);

/**
 * @internal Each type name's provider, as the thin provider loads it; not an API for programs.
 * `configure` of any type configures the host; every other method runs on the host's context.
 */
export const providers = Object.fromEntries(
  Object.entries(resourceProviders(host)).map(([type, provider]) => [
    type,
    {
      ...provider,
      configure: async (req: Parameters<ProviderHost["configure"]>[0]) => {
        // Only the engine's dynamic-provider host calls this: it is the process to end with the engine.
        host.endWithEngine();
        host.configure(req);
      },
    },
  ]),
) as {
  readonly [T in keyof ResourceProviders]: ResourceProviders[T] & {
    configure(req: Parameters<ProviderHost["configure"]>[0]): Promise<void>;
  };
};

/**
 * @internal The providers of one context, with the engine's call shape and no `configure`: how
 * tests and benchmarks run them in-process, each with a context of its own.
 */
export function providersFor(context: HostContext): ResourceProviders {
  return resourceProviders({
    context: () => context,
    claims: context.claims,
    pacing: context.pacing,
    progress: (resource, message) => context.progress(resource, message),
  });
}

export { type ConfigureRequest, HostContext, type HostContextOptions } from "../host/context.js";
export { type ProgressSink, stderrProgress } from "../host/engine-log.js";
