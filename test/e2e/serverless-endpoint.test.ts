import { expect } from "vitest";
import { apiFor } from "../support/emulator.js";
import { exampleSuite } from "./example-suite.js";

exampleSuite(
  {
    example: "serverless-endpoint",
    writes: { up: 4, update: 1, replace: 1, destroy: 2 },
    resources: ["vllm", "worker", "smoke", "picture"],
    afterUp: (out) => {
      expect([out.smokeStatus, out.workersMax]).toEqual(["COMPLETED", 2]);
      expect(out.imageUrl).toMatch(/^https:\/\//);
    },
    update: { config: { "runpod-serverless-endpoint:workersMax": "4" }, updated: ["worker"] },
    replace: {
      config: { "runpod-serverless-endpoint:smokePrompt": "Say goodbye." },
      replaced: { smoke: ["input"] },
    },
    drift: {
      change: async (emu, idOf) => {
        await apiFor(emu).endpoints.update(await idOf("worker"), { workers: { min: 0, max: 9 } });
      },
      drifted: { worker: ["workers"] },
    },
  },
  51,
);
