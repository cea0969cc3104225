/**
 * What `configure` leaves for the calls that follow, in the provider host.
 *
 * The engine's dynamic-provider host configures each resource type's serialized provider once,
 * then calls its methods; the serialized provider forwards each call to
 * `require("runpod-dynamic/runtime").providers[type]` (provider/dynamic/thin.ts) with the engine's
 * arguments only, and stack state written by earlier versions keeps that call shape. So the
 * context `configure` made can only be found again through the `providers` table: provider/dynamic/runtime.ts
 * keeps one ProviderHost for it, and nothing else in provider/ keeps run state at module level.
 *
 * Every type is configured with the same stack config, so the types share one context, as they
 * share one rate-limit quota: one budget, one pod watcher (cluster members are pods too), one
 * HTTP pool. A configuration with other settings gets a new context.
 */
import { type Clock, realClock, scaledClock } from "../client/clock.js";
import {
  CONFIG_NAMESPACES,
  type ConfigNamespace,
  resolveSettings,
  type SettingsLookup,
} from "../client/config.js";
import {
  type Claims,
  type ConfigureRequest,
  type ContextClientOptions,
  HostContext,
  noClaims,
  progressLine,
} from "./context.js";
import { engineWarnings, type ProgressSink, stderrProgress, warningsTo } from "./engine-log.js";
import { EnginePacing } from "./engine-pacing.js";

/** The stack config as settings look it up; a key the config cannot give reads as unset. */
export function lookupIn(req: ConfigureRequest): SettingsLookup {
  const config = req.config;
  return (key) => {
    try {
      return config.get(key);
    } catch {
      return undefined;
    }
  };
}

/** Real time, or RUNPOD_DYNAMIC_TIME_SCALE times faster (a provider host under test, a benchmark). */
export function hostClock(env: NodeJS.ProcessEnv = process.env): Clock {
  const scale = Number(env.RUNPOD_DYNAMIC_TIME_SCALE ?? "1");
  return Number.isFinite(scale) && scale > 0 && scale !== 1 ? scaledClock(scale) : realClock;
}

export class ProviderHost {
  /**
   * Ids of resources this host owns or the engine showed it. They outlive a change of settings,
   * and `diff` records into them without a context (provider/host/bind.ts, `bindToHost`).
   */
  readonly claims: Claims = noClaims();
  private lookup: SettingsLookup = () => undefined;
  private namespace: ConfigNamespace = CONFIG_NAMESPACES.dynamic;
  private current: { key: string; context: HostContext } | undefined;
  /** One clock for every context of this host, so their budgets and waits agree on the time. */
  private readonly clock = hostClock();
  private clientOptions: ContextClientOptions = {};
  private sink: ProgressSink = stderrProgress;
  /** Pod creates of every context, warning in the engine's diagnostics when the engine paces them. */
  readonly pacing: EnginePacing;
  private endsWithEngine = false;

  /**
   * @param engineAddress the engine's address: Pulumi's dynamic-provider host is started with it
   * as its first argument (`process.argv[2]`)
   */
  constructor(engineAddress?: string) {
    this.pacing = new EnginePacing(
      engineWarnings(
        engineAddress,
        warningsTo((line) => process.stderr.write(`${line}\n`)),
      ),
    );
  }

  /**
   * Client options and a progress sink for every context made from now on: how a process that
   * starts the provider host with a preload tunes it (test/chaos/host-preload.cjs).
   */
  tune(options: { clientOptions?: ContextClientOptions; progress?: ProgressSink }): void {
    if (options.clientOptions) this.clientOptions = options.clientOptions;
    if (options.progress) this.sink = options.progress;
    this.current?.context.close();
    this.current = undefined;
  }

  /**
   * Ends this process once the engine that started it is gone. The engine stops its plugins when it
   * exits, but one that is killed (a CI job's time limit, the OOM killer) leaves them running in
   * their own process groups, and Node's provider hosts, unlike Pulumi's Go providers, never check
   * their engine. Two signs, either enough: the stdin the engine holds open ends, or a write to
   * stderr, which the engine reads, fails. The second matters most: Pulumi's dynamic-provider host
   * prints every uncaught error to stderr, so a failed write there raises another, forever, without
   * ever giving the first sign a turn (one found after a test run: 3 GB and most of a core within
   * five minutes). A create cut short is found again by the next run through its create key.
   *
   * Only the processes the engine starts call this (provider/dynamic/runtime.ts, provider/plugin/main.ts),
   * never a test that runs providers in its own process.
   */
  endWithEngine(proc: Pick<NodeJS.Process, "stdin" | "stderr" | "exit"> = process): void {
    if (this.endsWithEngine) return;
    this.endsWithEngine = true;
    proc.stderr.on("error", () => proc.exit(0));
    proc.stdin.on("end", () => proc.exit(0));
    proc.stdin.resume();
  }

  /**
   * Keeps the stack config, read in the door's namespace (`runpod:*` for the dynamic provider,
   * `runpod-dynamic:*` for the plugin); the context is made from it when an operation first needs it.
   */
  configure(req: ConfigureRequest, namespace: ConfigNamespace = CONFIG_NAMESPACES.dynamic): void {
    this.lookup = lookupIn(req);
    this.namespace = namespace;
  }

  /** Progress without a context (what `diff` says), where every context's goes. */
  progress(resource: string, message: string): void {
    this.sink(progressLine(resource, message));
  }

  /**
   * The context for the configured settings (the environment fills what the config leaves out).
   * Settings are resolved on each call, so a bad setting fails the operation that needs it.
   */
  context(): HostContext {
    const settings = resolveSettings(this.lookup, process.env, this.namespace);
    const key = JSON.stringify(settings);
    if (this.current?.key !== key) {
      this.current?.context.close();
      this.current = {
        key,
        context: new HostContext({
          settings,
          clock: this.clock,
          clientOptions: this.clientOptions,
          progress: this.sink,
          pacing: this.pacing,
          claims: this.claims,
        }),
      };
    }
    return this.current.context;
  }
}
