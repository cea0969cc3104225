#!/usr/bin/env node
/**
 * `pulumi-resource-runpod-dynamic`: the provider plugin the engine starts for a program in any
 * language (docs/plugin.md). It serves provider/plugin/server.ts on a loopback port and prints
 * the port, as every Pulumi plugin does; the engine's address, its last argument, is where the
 * host's warnings go (provider/host/engine-log.ts).
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { engineProgress, stderrProgress, unlessQuiet } from "../host/engine-log.js";
import { ProviderHost } from "../host/provider-host.js";
import { resourceProviders } from "../host/resource-providers.js";
import { pluginRequire } from "./grpc.js";
import { providerService, ResourceProviderService } from "./server.js";

// biome-ignore lint/suspicious/noExplicitAny: grpc-js is loaded through @pulumi/pulumi's require
const grpc = pluginRequire("@grpc/grpc-js") as any;

/** The package's root: dist/provider/plugin/ is three levels below it. */
const ROOT = path.resolve(__dirname, "..", "..", "..");

function main(): void {
  const engineAddress = process.argv
    .slice(2)
    .filter((a) => !a.startsWith("-"))
    .pop();
  const host = new ProviderHost(engineAddress);
  // The engine hides a plugin's stderr: progress reaches the user through the engine's log.
  host.tune({ progress: unlessQuiet(engineProgress(engineAddress, stderrProgress)) });
  const { version } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
    version: string;
  };
  const schema = readFileSync(path.join(ROOT, "sdk", "schema.json"), "utf8");
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
