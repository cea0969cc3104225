/**
 * What `node dist/bench/run.js` is asked to run, read from its arguments: `--quick`, `--only
 * <scenario>`, and for `--only stacks`, `--keys` and `--runs`. Bad arguments print the usage and
 * exit with 2.
 */
import type { StackKeys } from "./cli-stacks.js";

export interface BenchOptions {
  /** Smaller fleets, for a smoke run: *-quick files, bench/README.md left alone. */
  readonly quick: boolean;
  /** One scenario alone: plugin (5d), users (5e), stacks (5b), fleet (1, 1b), cost (8), executables (9), autostop (10). */
  readonly only: string | undefined;
  /** With `--only stacks`: one API key for every stack, or a key of one user each (`--keys four`). */
  readonly keys: StackKeys;
  /**
   * With `--only stacks`: runs one after another, each a row (`--runs N`). Which deployment's
   * creates a window takes first differs from run to run, and so do the lag and the 429s.
   */
  readonly runs: number;
}

const SCENARIOS = ["plugin", "users", "stacks", "cost", "executables", "autostop", "fleet"];

const USAGE =
  "usage: node dist/bench/run.js [--quick] [--only plugin|users|cost|executables|autostop|fleet|stacks [--keys one|four] [--runs N]]\n";

export function benchOptions(argv: readonly string[]): BenchOptions {
  const flagValue = (flag: string) => {
    const at = argv.indexOf(flag);
    return at < 0 ? undefined : (argv[at + 1] ?? "");
  };
  const only = flagValue("--only");
  const keysFlag = flagValue("--keys");
  const runsFlag = flagValue("--runs");
  const keys = keysFlag ?? "one";
  const runs = Number(runsFlag ?? 1);
  const ok =
    (only === undefined || SCENARIOS.includes(only)) &&
    ["one", "four"].includes(keys) &&
    Number.isInteger(runs) &&
    runs >= 1 &&
    // --keys and --runs are 5b's alone.
    ((keysFlag === undefined && runsFlag === undefined) || only === "stacks");
  if (!ok) {
    process.stderr.write(USAGE);
    process.exit(2);
  }
  return { quick: argv.includes("--quick"), only, keys: keys as StackKeys, runs };
}
