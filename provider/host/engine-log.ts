/**
 * Where the provider host's messages go. Progress goes to the host's stderr, one line per event,
 * which the engine shows as info lines on a resource's row (Pulumi >= 3.146; inside the host,
 * `pulumi.log` has no engine connection); set RUNPOD_DYNAMIC_QUIET=1 to silence it. Warnings go
 * into the engine's diagnostics: a warning that asks the user to change how
 * they run `pulumi` belongs under Diagnostics, where it is kept after the run. The provider plugin's
 * stderr is hidden by the engine (it shows a plugin's output only when the plugin crashes), so the
 * plugin sends its progress to the engine too, as info (`engineProgress`). Pulumi's
 * dynamic-provider host is started with the engine's address as its first argument but never
 * connects `pulumi.log` to it, so the host opens its own connection, with the engine's own gRPC
 * client from the `@pulumi/pulumi` installed beside this package.
 */
import { pulumiRequire } from "./pulumi-require.js";

/** Where progress lines go. The host's context holds one (context.ts). */
export type ProgressSink = (line: string) => void;

/** `sink`, silent when RUNPOD_DYNAMIC_QUIET is set. */
export function unlessQuiet(sink: ProgressSink): ProgressSink {
  return (line) => {
    if (!/^(1|true|yes)$/i.test(process.env.RUNPOD_DYNAMIC_QUIET ?? "")) sink(line);
  };
}

/** The provider host's sink: stderr, unless RUNPOD_DYNAMIC_QUIET is set. */
export const stderrProgress: ProgressSink = unlessQuiet((line) => process.stderr.write(`${line}\n`));

/** Says `message` to the user, as a warning. */
export type WarningSink = (message: string) => void;

/** How long a warning may take to reach the engine before it goes to the fallback instead. */
const LOG_DEADLINE_MS = 5000;

/** Warnings as lines of `sink`: where they go without an engine. */
export function warningsTo(sink: ProgressSink): WarningSink {
  return (message) => sink(`warning: ${message}`);
}

/** The engine's `Log` call, as the generated client and messages of `@pulumi/pulumi` make it. */
interface EngineLog {
  log(urn: string, message: string, done: (err: Error | null) => void): void;
}

type Severity = "INFO" | "WARNING";

function connect(address: string, severity: Severity): EngineLog {
  const grpc = pulumiRequire("@grpc/grpc-js");
  const { LogRequest, LogSeverity } = pulumiRequire("@pulumi/pulumi/proto/engine_pb");
  const { EngineClient } = pulumiRequire("@pulumi/pulumi/proto/engine_grpc_pb");
  const client = new EngineClient(address, grpc.credentials.createInsecure());
  return {
    log(urn, message, done) {
      const request = new LogRequest();
      request.setSeverity(LogSeverity[severity]);
      request.setMessage(message);
      request.setUrn(urn);
      client.log(request, { deadline: Date.now() + LOG_DEADLINE_MS }, done);
    },
  };
}

/**
 * A sink that logs to the engine at `address` (the host's first argument, `host:port`) as a stack
 * warning, or to `fallback` when there is no engine to reach (a host started by a test) or it does
 * not answer.
 */
export function engineWarnings(address: string | undefined, fallback: WarningSink): WarningSink {
  return engineLog(address, "WARNING", fallback);
}

/** Progress lines into the engine at `address` as info, or to `fallback` without an engine. */
export function engineProgress(address: string | undefined, fallback: ProgressSink): ProgressSink {
  return engineLog(address, "INFO", fallback);
}

function engineLog(
  address: string | undefined,
  severity: Severity,
  fallback: (message: string) => void,
): (message: string) => void {
  if (!address || !/:\d+$/.test(address)) return fallback;
  let engine: EngineLog | undefined;
  return (message) => {
    try {
      engine ??= connect(address, severity);
      // No resource: the engine shows it under the stack, once, whichever resource's create saw it.
      engine.log("", message, (err) => {
        if (err) fallback(message);
      });
    } catch {
      fallback(message);
    }
  };
}
