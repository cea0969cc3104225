import { relative } from "node:path";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The tiers that drive the real Pulumi CLI, npm or a provider host, in the order they start: they
 * take minutes where the rest take seconds, so they go first and the short files fill the workers
 * around them. Without this a fresh clone (no timings cached yet) would start the largest files
 * first, and a small file that runs for two minutes would start last and run on alone.
 */
const SLOW_FIRST = ["test/package/", "test/e2e/", "test/plugin/", "test/engine/", "test/chaos/"];

class SlowTiersFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const tier = (spec: TestSpecification) => {
      const path = relative(spec.project.config.root, spec.moduleId);
      const i = SLOW_FIRST.findIndex((prefix) => path.startsWith(prefix));
      return i < 0 ? SLOW_FIRST.length : i;
    };
    // Array.prototype.sort is stable: within a tier, vitest's own order (slowest last time first).
    return sorted.sort((a, b) => tier(a) - tier(b));
  }
}

export default defineConfig({
  test: {
    environment: "node",
    // Provider hosts, policy servers and CLI children are real processes: isolate test files.
    pool: "forks",
    // Four files at a time, whatever the machine: a real-CLI file keeps about one core busy part of
    // the time and waits on the emulator's clock and on its child processes the rest, so on two
    // cores two more files fill the gaps (three left a quarter of the two cores idle); vitest's
    // default (one fewer than the cores) would run them one by one on a two-core machine.
    maxWorkers: 4,
    sequence: { sequencer: SlowTiersFirst },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The run's scratch folder, where work several files need is done once
    // (test/support/once-per-run.ts).
    globalSetup: ["test/global-setup.ts"],
    include: ["test/**/*.test.ts"],
  },
});
