/**
 * Work several test files need whose result is the same for the whole run (the packed package, the
 * plugin asset, an install of one set of dependencies): done once per `vitest run` by whichever
 * worker asks first, while the others wait for its result. Worker processes share nothing but the
 * file system, so the first to create `<key>.lock` in the run's scratch folder (test/global-setup.ts)
 * does the work and writes `<key>.json`; a failure is written there too, and every asker gets it.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { inject } from "vitest";

/** Longer than any of the work takes on a loaded two-core machine. */
const WAIT_MS = 600_000;

/**
 * `build`'s result for `key` (a file-name-safe string), built once per run; `build` gets a folder
 * of its own to write in. The result must survive JSON.
 */
export async function oncePerRun<T>(key: string, build: (dir: string) => Promise<T>): Promise<T> {
  const scratch = inject("runScratch");
  const result = join(scratch, `${key}.json`);
  let mine = true;
  try {
    mkdirSync(join(scratch, `${key}.lock`));
  } catch {
    mine = false;
  }
  if (mine) {
    const dir = join(scratch, key);
    mkdirSync(dir);
    const outcome = await build(dir).then(
      (value) => ({ value }),
      (err: unknown) => ({ error: err instanceof Error ? (err.stack ?? err.message) : String(err) }),
    );
    // Written aside and renamed: a waiter never reads half a result.
    writeFileSync(`${result}.part`, JSON.stringify(outcome));
    renameSync(`${result}.part`, result);
  }
  for (const startedAt = Date.now(); !existsSync(result); await sleep(200)) {
    if (Date.now() - startedAt > WAIT_MS) throw new Error(`${key}: no result after ${WAIT_MS / 1000} s`);
  }
  const outcome = JSON.parse(readFileSync(result, "utf8")) as { value: T } | { error: string };
  if ("error" in outcome) throw new Error(`${key} failed (once for the run): ${outcome.error}`);
  return outcome.value;
}
