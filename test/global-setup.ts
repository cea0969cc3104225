/**
 * The suite's global setup: a scratch folder for the run, which test/support/once-per-run.ts keeps
 * the work of several test files in (the packed package, the plugin asset, an example's
 * dependencies), removed with everything in it when the run ends.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's scratch folder (test/support/once-per-run.ts). */
    runScratch: string;
  }
}

const EXAMPLES = join(__dirname, "..", "examples");

export default function setup(project: TestProject): () => void {
  const scratch = mkdtempSync(join(tmpdir(), "runpod-run-"));
  project.provide("runScratch", scratch);
  return () => {
    rmSync(scratch, { recursive: true, force: true });
    // The examples' copies and the dependency installs they share sit beside the examples
    // (test/e2e/phases.ts); a run removes its own copies, an interrupted one may not.
    for (const entry of readdirSync(EXAMPLES)) {
      if (entry.startsWith(".install-")) rmSync(join(EXAMPLES, entry), { recursive: true, force: true });
    }
  };
}
