import { relative } from "node:path";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** The folders whose files share a worker's modules (the in-process project below). */
const IN_PROCESS = [
  "test/unit/**/*.test.ts",
  "test/client/**/*.test.ts",
  "test/emulator/**/*.test.ts",
  "test/provider/**/*.test.ts",
  "test/policy/**/*.test.ts",
  "test/conformance/**/*.test.ts",
  "test/cli/**/*.test.ts",
  "test/host/**/*.test.ts",
];

/**
 * The tiers that drive the real Pulumi CLI, npm or a provider host, in the order they start: they
 * take minutes where the rest take seconds, so they go first and the short files fill the workers
 * around them. Without this a fresh clone (no timings cached yet) would start the largest files
 * first, and a small file that runs for two minutes would start last and run on alone.
 */
const SLOW_FIRST = [
  "test/release/",
  "test/package/",
  "test/e2e/",
  "test/plugin/",
  "test/engine/",
  "test/chaos/",
  // The files outside those tiers that take half a minute or more: started last, they ran on alone
  // after the short files had finished.
  "test/docs/reference.test.ts",
  "test/security/",
  "test/provider/readiness.test.ts",
  "test/conformance/traffic.test.ts",
];

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
    projects: [
      // Each project names its own files: `extends: true` concatenates arrays, so an `include` set
      // above would be added to each project's.
      {
        extends: true,
        test: {
          name: "processes",
          include: ["test/**/*.test.ts"],
          exclude: IN_PROCESS,
          // The run's scratch folder, where work several files need is done once
          // (test/support/once-per-run.ts).
          globalSetup: ["test/global-setup.ts"],
        },
      },
      {
        // Files that run the provider, client, emulator, CLI and policy code in their own process
        // (starting a provider host at most) share their workers' loaded modules instead of each
        // starting a fresh one: a worker's start and imports cost more than most of these files'
        // tests (measured on their 82 files: 76 s and 111 CPU-s isolated, 48 s and 68 CPU-s not).
        // They can: provider/ keeps no run state at module level (test/unit/module-state.test.ts),
        // the clients' default pools and budgets are kept per address and key, and none of these
        // files changes the process's globals.
        extends: true,
        test: { name: "in-process", include: IN_PROCESS, isolate: false },
      },
    ],
  },
});
