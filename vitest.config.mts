import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    environment: "node",
    // Provider hosts, policy servers and CLI children are real processes: isolate test files.
    pool: "forks",
    // Two files at a time, whatever the machine: a real-CLI file keeps about one core busy and waits
    // on the emulator's clock the rest of the time, so a second file fills the gaps; vitest's default
    // (one fewer than the cores) would run them one by one on a two-core machine.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: "suite", include: ["test/**/*.test.ts"], exclude: ["test/chaos/**"] },
      },
      {
        // The chaos suite drives a 50-pod program and kills provider hosts: it runs after the rest,
        // so that neither its load nor the rest's distorts the other's timing.
        extends: true,
        test: {
          name: "chaos",
          include: ["test/chaos/**/*.test.ts"],
          sequence: { groupOrder: 1 },
          // One at a time: each drives a 50-pod program or kills provider hosts under load.
          maxWorkers: 1,
        },
      },
    ],
  },
});
