#!/usr/bin/env node
/**
 * `pulumi-resource-runpod-dynamic`: the provider plugin the engine starts for a program in any
 * language (docs/plugin.md). It serves provider/plugin/server.ts on a loopback port and prints
 * the port, as every Pulumi plugin does; the engine's address, its last argument, is where the
 * host's warnings go (provider/host/engine-log.ts).
 */
import { engineProgress, stderrProgress, unlessQuiet } from "../host/engine-log.js";
import { ProviderHost } from "../host/provider-host.js";
import { pulumiRequire } from "../host/pulumi-require.js";
import { resourceProviders } from "../host/resource-providers.js";
import { packageVersion, readPackageFile } from "../package-file.js";
import { providerService, ResourceProviderService } from "./server.js";

// biome-ignore lint/suspicious/noExplicitAny: grpc-js is loaded through @pulumi/pulumi's require
const grpc = pulumiRequire("@grpc/grpc-js") as any;

function main(): void {
  const engineAddress = process.argv
    .slice(2)
    .filter((a) => !a.startsWith("-"))
    .pop();
  const host = new ProviderHost(engineAddress);
  // The engine hides a plugin's stderr: progress reaches the user through the engine's log.
  host.tune({ progress: unlessQuiet(engineProgress(engineAddress, stderrProgress)) });
  const version = packageVersion();
  const schema = readPackageFile("sdk/schema.json");
  const server = new grpc.Server({
    "grpc.max_receive_message_length": 400 * 1024 * 1024,
    "grpc.max_send_message_length": 400 * 1024 * 1024,
  });
  server.addService(
    ResourceProviderService,
    providerService({ host, providers: resourceProviders(host), version, schema }),
  );
  host.endWithEngine();
  server.bindAsync(
    "127.0.0.1:0",
    grpc.ServerCredentials.createInsecure(),
    (err: Error | null, port: number) => {
      if (err) {
        process.stderr.write(`pulumi-resource-runpod-dynamic: cannot listen: ${err.message}\n`);
        process.exit(1);
      }
      process.stdout.write(`${port}\n`);
    },
  );
}

main();
