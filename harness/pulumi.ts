/**
 * `pulumi` for a Node.js program folder, with the real CLI and no Node language plugin.
 *
 *   cd examples/cpu-pod && node ../../dist/harness/pulumi.js up --yes --stack dev
 *
 * The CLI built from source here has no `pulumi-language-nodejs` (its Go module is not served by
 * the module proxy; docs/real-engine.md). The Automation API shows the way around it: the CLI's
 * `--client` flag points it at a language runtime served by the calling process. This launcher
 * passes every argument to the real CLI unchanged, adds `--client` for the commands that run the
 * program, and serves the runtime with the LanguageServer of the program's own @pulumi/pulumi. The
 * program is loaded as `cmd/run` (what the Node language plugin executes) loads it: the entry
 * point from Pulumi.yaml's `main` or package.json, TypeScript through Pulumi's vendored ts-node
 * with the folder's tsconfig.json, type-checked unless PULUMI_NODEJS_TRANSPILE_ONLY says not to.
 *
 * A program in another language (`runtime: yaml`) runs on the CLI with that language's own plugin
 * (harness/yaml-host/build.sh puts Pulumi's YAML host beside the CLI): the launcher only runs the CLI.
 *
 * `pulumi new` asks for the Node language plugin too (for the project's dependencies), and so does
 * `pulumi import`: for them, the launcher serves harness/new-project-runtime.ts and tells the CLI
 * its port through `PULUMI_DEBUG_LANGUAGES`, the CLI's way of attaching to a language runtime
 * already running.
 *
 * SIGINT and SIGTERM are passed on to the CLI (which cancels as it does in a terminal); the exit
 * code is the CLI's.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve, sep } from "node:path";
import { parse as parseYaml } from "yaml";
import { serveNewProjectRuntime } from "./new-project-runtime.js";
import { pathWith, quietEnv, requirePulumiCli } from "./pulumi-cli.js";

// biome-ignore lint/suspicious/noExplicitAny: Pulumi's runtime and generated gRPC stubs are untyped JavaScript
type Any = any;

/** The commands whose engine runs the program (the others never ask for a language runtime). */
const RUNS_PROGRAM = new Set(["up", "update", "preview", "pre", "refresh", "destroy", "down", "dn"]);
/**
 * The commands that load the Node language plugin without running the program: `pulumi new` and
 * its aliases, and `pulumi import` (which the launcher serves with `--generate-code=false` in mind:
 * writing the program's code is the Node plugin's code generator, which this runtime has not).
 */
const LOADS_RUNTIME_ONLY = new Set(["new", "create", "setup", "import"]);

interface Project {
  /** The folder Pulumi.yaml is in. */
  readonly root: string;
  /** The program's entry: Pulumi.yaml's `main`, else the project folder. */
  readonly main: string;
  readonly typescript: boolean;
}

/** The project's Node program, or undefined when Pulumi.yaml names another runtime. */
function readProject(cwd: string): Project | undefined {
  const file = join(cwd, "Pulumi.yaml");
  if (!existsSync(file)) throw new Error(`no Pulumi.yaml in ${cwd}: run this in a Pulumi project folder`);
  const project = parseYaml(readFileSync(file, "utf8")) as {
    main?: string;
    runtime?: string | { name?: string; options?: { typescript?: boolean } };
  };
  const runtime = typeof project.runtime === "string" ? { name: project.runtime } : (project.runtime ?? {});
  if (runtime.name !== "nodejs") return undefined;
  return {
    root: cwd,
    main: resolve(cwd, project.main ?? "."),
    typescript: runtime.options?.typescript !== false,
  };
}

/** The subcommand: the first argument that is not a flag (flags here never take separate values first). */
function subcommand(args: readonly string[]): string | undefined {
  return args.find((a) => !a.startsWith("-"));
}

/**
 * Registers TypeScript as cmd/run does: the program's tsconfig.json (when present), Pulumi's own
 * choice of ts-node and compiler, and its defaults under the user's options.
 */
function registerTypeScript(programRequire: NodeJS.Require, programDir: string): void {
  const tsutils = programRequire("@pulumi/pulumi/tsutils") as Any;
  const tsConfigPath = join(programDir, process.env.PULUMI_NODEJS_TSCONFIG_PATH ?? "tsconfig.json");
  const skipProject = !existsSync(tsConfigPath);
  const compilerOptions = skipProject ? {} : tsutils.loadTypeScriptCompilerOptions(tsConfigPath);
  const transpileOnlyEnv = process.env.PULUMI_NODEJS_TRANSPILE_ONLY;
  const transpileOnly = transpileOnlyEnv ? transpileOnlyEnv === "true" : compilerOptions.noCheck;
  const { tsnodeRequire, typescriptRequire } = tsutils.typeScriptRequireStrings();
  const ts = programRequire(typescriptRequire) as { version: string };
  const [major = 0, minor = 0] = ts.version.split(".").map(Number);
  const nodeNext = major > 4 || (major === 4 && minor >= 7);
  programRequire(tsnodeRequire).register({
    compiler: typescriptRequire,
    transpileOnly,
    project: tsConfigPath,
    skipProject,
    compilerOptions: {
      target: "ES2020",
      module: nodeNext ? "nodenext" : "commonjs",
      moduleResolution: nodeNext ? "nodenext" : "node",
      sourceMap: "true",
      ...compilerOptions,
    },
  });
}

/**
 * The program as cmd/run runs it: its exports are the stack outputs; an exported function is
 * called. `pulumi up` without `--skip-preview` runs it twice in this one process, so the modules of
 * the program's own folder are loaded afresh each time (a cached module would register nothing the
 * second time, and the engine would delete every resource).
 */
function programOf(project: Project, programRequire: NodeJS.Require): () => Promise<Record<string, unknown>> {
  const programFolder = statSync(project.main).isDirectory() ? project.main : dirname(project.main);
  const ownModule = (file: string) =>
    file.startsWith(programFolder) && !file.includes(`${sep}node_modules${sep}`);
  let typescriptRegistered = false;
  return async () => {
    if (project.typescript && !typescriptRegistered) {
      registerTypeScript(programRequire, project.root);
      typescriptRegistered = true;
    }
    for (const file of Object.keys(programRequire.cache))
      if (ownModule(file)) delete programRequire.cache[file];
    // A folder is required as a folder (its package.json `main` or index), never as a sibling file.
    const entry = statSync(project.main).isDirectory() ? `${project.main}${sep}` : project.main;
    const exported = programRequire(entry) as unknown;
    const result = typeof exported === "function" ? await (exported as () => unknown)() : exported;
    return (result ?? {}) as Record<string, unknown>;
  };
}

/** Serves the program's language runtime on 127.0.0.1; resolves to its address and a stop function. */
async function serveRuntime(project: Project): Promise<{ address: string; stop: (failed: boolean) => void }> {
  // Everything Pulumi comes from the program's own node_modules: the runtime settings the server
  // resets must be the ones the program's resources register through.
  const programRequire = createRequire(join(project.root, "package.json"));
  const pulumiRequire = createRequire(programRequire.resolve("@pulumi/pulumi"));
  const grpc = pulumiRequire("@grpc/grpc-js") as Any;
  const { LanguageServer } = programRequire("@pulumi/pulumi/automation/server") as Any;
  const langrpc = programRequire("@pulumi/pulumi/proto/language_grpc_pb") as Any;
  const runtime = programRequire("@pulumi/pulumi/runtime") as Any;
  const server = new grpc.Server({ ...runtime.grpcChannelOptions });
  const language = new LanguageServer(programOf(project, programRequire));
  server.addService(langrpc.LanguageRuntimeService, language);
  const port = await new Promise<number>((ok, fail) =>
    server.bindAsync(
      "127.0.0.1:0",
      grpc.ServerCredentials.createInsecure(),
      (err: Error | null, p: number) => (err ? fail(err) : ok(p)),
    ),
  );
  return {
    address: `127.0.0.1:${port}`,
    stop: (failed) => {
      try {
        language.onPulumiExit(failed);
      } finally {
        server.forceShutdown();
      }
    },
  };
}

async function main(args: readonly string[]): Promise<number> {
  const cli = requirePulumiCli();
  const command = subcommand(args);
  const project = command !== undefined && RUNS_PROGRAM.has(command) ? readProject(process.cwd()) : undefined;
  const runtime = project ? await serveRuntime(project) : undefined;
  const runtimeOnly =
    command !== undefined && LOADS_RUNTIME_ONLY.has(command)
      ? await serveNewProjectRuntime(cli.version.replace(/^v/, ""))
      : undefined;
  const env = quietEnv({
    PATH: pathWith(cli),
    // Added to what the caller attached already (`<language>:<port>`, comma-separated).
    ...(runtimeOnly
      ? {
          PULUMI_DEBUG_LANGUAGES: [process.env.PULUMI_DEBUG_LANGUAGES, `nodejs:${runtimeOnly.port}`]
            .filter(Boolean)
            .join(","),
        }
      : {}),
  });
  const cliArgs = runtime
    ? [...args, `--client=${runtime.address}`, "--exec-kind", "auto.inline"]
    : [...args];
  const child = spawn(cli.bin, cliArgs, { stdio: "inherit", env });
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  process.on("SIGINT", forward("SIGINT"));
  process.on("SIGTERM", forward("SIGTERM"));
  const code = await new Promise<number>((done) =>
    child.on("exit", (exitCode, signal) => done(exitCode ?? (signal === "SIGKILL" ? 137 : 1))),
  );
  runtime?.stop(code !== 0);
  runtimeOnly?.stop();
  return code;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
