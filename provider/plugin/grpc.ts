/**
 * gRPC and protobuf as @pulumi/pulumi's generated stubs load them: resolved from @pulumi/pulumi's
 * own location, so the messages and the service definition are the instances the stubs check.
 */
import { createRequire } from "node:module";

export const pluginRequire = createRequire(require.resolve("@pulumi/pulumi"));
