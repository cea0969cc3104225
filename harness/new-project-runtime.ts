/**
 * The Node language runtime `pulumi new` asks for, served by the launcher (harness/pulumi.ts).
 *
 * `pulumi new` loads the project's language plugin once the template's files are copied, even with
 * `--generate-only`: it asks it for runtime-option prompts and templating, then (without
 * `--generate-only`) to install the project's dependencies and to name the plugins the program
 * needs. The CLI built here has no `pulumi-language-nodejs` (docs/real-engine.md), so the command
 * stops at "failed to load language plugin nodejs" after creating the stack and before saving
 * its config. The CLI attaches to a language runtime that is already running when
 * `PULUMI_DEBUG_LANGUAGES=nodejs:<port>` says where; this is that runtime, with what `pulumi new`
 * needs of it:
 *
 * - Handshake: accepted (an attached runtime must answer it); GetPluginInfo: the CLI's version,
 *   as the Node language plugin released with it reports.
 * - InstallDependencies: the package manager of Pulumi.yaml's `runtime.options.packagemanager`
 *   (`npm`, `yarn` or `pnpm`), else the one whose lockfile is in the folder, else npm, run in the
 *   project folder with the arguments Pulumi's Node runtime gives it (`npm install
 *   --loglevel=error`, `yarn install`, `pnpm install --use-stderr`), its output streamed back.
 *   The executable is the first on PATH, as the Node runtime finds it.
 * - GetRequiredPlugins: none, as for the programs the launcher runs (the automation API's
 *   LanguageServer answers the same): a runpod-dynamic program's only plugin is the
 *   dynamic-provider host, which the engine finds beside the CLI.
 * - Everything else (runtime-option prompts, templating) answers Unimplemented, which the CLI
 *   takes as "nothing to do": no prompt for a package manager, no rewriting of the files.
 *
 * `pulumi import --generate-code=false` loads the plugin too, and asks it nothing more than the
 * above: it reads the resources into state through their provider. With code generation it would
 * also ask for the TypeScript to add (GenerateProgram, the Node plugin's code generator), which this
 * runtime has not.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { grpc, nodeRequire } from "./grpc.js";

// biome-ignore lint/suspicious/noExplicitAny: generated protobuf stubs are untyped JavaScript
type Any = any;

const langproto = nodeRequire("@pulumi/pulumi/proto/language_pb") as Any;
const langrpc = nodeRequire("@pulumi/pulumi/proto/language_grpc_pb") as Any;
const plugproto = nodeRequire("@pulumi/pulumi/proto/plugin_pb") as Any;

/** What each package manager's install is, as Pulumi's Node runtime runs it. */
const INSTALL_ARGS: Record<string, readonly string[]> = {
  npm: ["install", "--loglevel=error"],
  yarn: ["install"],
  pnpm: ["install", "--use-stderr"],
};

/** The package manager for a project folder: the option, else the folder's lockfile, else npm. */
export function packageManagerFor(dir: string, option: unknown): string {
  if (option !== undefined && option !== "" && option !== "auto") {
    if (typeof option !== "string" || !(option in INSTALL_ARGS))
      throw new Error(
        `runtime.options.packagemanager: ${JSON.stringify(option)} is not one this launcher runs (npm, yarn or pnpm)`,
      );
    return option;
  }
  if (existsSync(join(dir, "yarn.lock"))) return "yarn";
  if (existsSync(join(dir, "pnpm-lock.yaml"))) return "pnpm";
  return "npm";
}

function installDependencies(call: Any): void {
  const request = call.request;
  const dir: string = request.getDirectory() || request.getInfo()?.getProgramDirectory();
  const options = request.getInfo()?.getOptions()?.toJavaScript() ?? {};
  // A failure is the call's status: grpc-js sends it when the stream gets an "error" event.
  let finished = false;
  const fail = (code: number, details: string) => {
    if (finished) return;
    finished = true;
    call.emit("error", { code, details });
  };
  let manager: string;
  try {
    manager = packageManagerFor(dir, options.packagemanager);
  } catch (err) {
    fail(grpc.status.INVALID_ARGUMENT, (err as Error).message);
    return;
  }
  const child = spawn(manager, INSTALL_ARGS[manager] ?? [], { cwd: dir, env: process.env });
  const send = (field: "Stdout" | "Stderr") => (chunk: Buffer) => {
    const response = new langproto.InstallDependenciesResponse();
    response[`set${field}`](new Uint8Array(chunk));
    call.write(response);
  };
  child.stdout.on("data", send("Stdout"));
  child.stderr.on("data", send("Stderr"));
  child.on("error", (err) => fail(grpc.status.FAILED_PRECONDITION, `${manager}: ${err.message}`));
  child.on("close", (code) => {
    if (code !== 0) return fail(grpc.status.UNKNOWN, `${manager} install exited with ${code}`);
    if (finished) return;
    finished = true;
    call.end();
  });
}

/**
 * Serves the runtime on 127.0.0.1; resolves to its port and a stop function. `version` is the
 * CLI's (`3.259.0`).
 */
export async function serveNewProjectRuntime(version: string): Promise<{ port: number; stop: () => void }> {
  const pluginInfo = new plugproto.PluginInfo();
  pluginInfo.setVersion(version);
  const server = new grpc.Server();
  // Methods left out answer UNIMPLEMENTED (grpc-js's default handler).
  const handlers: Record<string, (call: Any, callback: Any) => void> = {
    handshake: (_call, callback) => callback(null, new langproto.LanguageHandshakeResponse()),
    getPluginInfo: (_call, callback) => callback(null, pluginInfo),
    getRequiredPlugins: (_call, callback) => callback(null, new langproto.GetRequiredPluginsResponse()),
    installDependencies: (call) => installDependencies(call),
  };
  server.addService(langrpc.LanguageRuntimeService, handlers);
  const port = await new Promise<number>((ok, fail) =>
    server.bindAsync(
      "127.0.0.1:0",
      grpc.ServerCredentials.createInsecure(),
      (err: Error | null, p: number) => (err ? fail(err) : ok(p)),
    ),
  );
  return { port, stop: () => server.forceShutdown() };
}
