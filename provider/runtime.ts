/**
 * The implementation the serialized providers load by package name inside the provider host
 * (`require("runpod-dynamic/runtime")`). One entry per resource type.
 */
import { podProvider } from "./resources/pod.js";

export const providers = {
  Pod: podProvider,
} as const;

export { setRuntimeOverrides } from "./context.js";
export { setProgressSink } from "./progress.js";
