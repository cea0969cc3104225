import { expect } from "vitest";
import { apiFor } from "../support/emulator.js";
import { exampleSuite } from "./example-suite.js";

exampleSuite(
  {
    example: "placement-fallback",
    writes: { up: 1, update: 1, replace: 2, destroy: 1 },
    resources: ["inference"],
    afterUp: (out) => {
      // Candidates are read from the catalog, Europe first; the first one with stock wins.
      expect((out.candidates as unknown[]).slice(0, 2)).toEqual([
        { dataCenterId: "EU-RO-1", gpuTypeId: "NVIDIA A40" },
        { dataCenterId: "EUR-IS-1", gpuTypeId: "NVIDIA GeForce RTX 4090" },
      ]);
      expect([out.placedIn, out.placedGpu, out.status]).toEqual(["EU-RO-1", "NVIDIA A40", "RUNNING"]);
    },
    update: {
      config: { "runpod-placement-fallback:image": "vllm/vllm-openai:v0.6.4" },
      updated: ["inference"],
    },
    replace: {
      config: { "runpod-placement-fallback:gpuType": "NVIDIA L40S" },
      replaced: { inference: ["gpu.id"] },
    },
    drift: {
      change: async (emu, idOf) => {
        await apiFor(emu).pods.update(await idOf("inference"), { ports: ["8000/http", "22/tcp"] });
      },
      drifted: { inference: ["ports"] },
    },
  },
  41,
);
