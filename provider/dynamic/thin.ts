/**
 * The provider object Pulumi serializes into state (`__provider`).
 *
 * It holds nothing: no credentials, no clients, no Map or Set. Each method loads the real
 * implementation by package name when it runs, inside the provider host, so the serialized text
 * stays a few KB, an upgrade of the package takes effect on refresh and destroy (which run the
 * code stored in state), and the API key never enters state (the host deserializes this text
 * from each resource's `__provider` input for every operation).
 */
import type * as pulumi from "@pulumi/pulumi";

/**
 * The forwarding provider for a resource type. Each resource file keeps the one it makes, so
 * Pulumi's per-object serialization cache serializes it once per program, not once per resource.
 */
export function thinProvider(type: string): pulumi.dynamic.ResourceProvider {
  return forwarding(type);
}

function forwarding(type: string): pulumi.dynamic.ResourceProvider {
  // `require` by package name on purpose: the closure serializer freezes deep paths into state.
  return {
    async configure(req) {
      return require("runpod-dynamic/runtime").providers[type].configure(req);
    },
    async check(olds, news) {
      return require("runpod-dynamic/runtime").providers[type].check(olds, news);
    },
    async diff(id, olds, news) {
      return require("runpod-dynamic/runtime").providers[type].diff(id, olds, news);
    },
    async create(inputs) {
      return require("runpod-dynamic/runtime").providers[type].create(inputs);
    },
    async read(id, props) {
      return require("runpod-dynamic/runtime").providers[type].read(id, props);
    },
    async update(id, olds, news) {
      return require("runpod-dynamic/runtime").providers[type].update(id, olds, news);
    },
    async delete(id, props) {
      return require("runpod-dynamic/runtime").providers[type].delete(id, props);
    },
  };
}
