import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
    // Provider hosts, policy servers and CLI children are real processes: isolate test files.
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
