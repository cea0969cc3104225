import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    environment: "node",
    // Provider hosts, policy servers and CLI children are real processes: isolate test files.
    pool: "forks",
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
        test: { name: "chaos", include: ["test/chaos/**/*.test.ts"], sequence: { groupOrder: 1 } },
      },
    ],
  },
});
