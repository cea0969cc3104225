/**
 * gRPC and protobuf as @pulumi/pulumi's generated stubs load them: resolved from @pulumi/pulumi's
 * own location, so the messages and the service definition are the instances the stubs check. The
 * plugin's standalone executable has no node_modules to resolve from: its build puts a table of the
 * same modules in this file's place (harness/plugin-executables.ts).
 */
import { createRequire } from "node:module";

export const pulumiRequire = createRequire(require.resolve("@pulumi/pulumi"));
