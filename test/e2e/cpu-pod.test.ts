import { expect } from "vitest";
import { apiFor } from "../support/emulator.js";
import { exampleSuite } from "./example-suite.js";

exampleSuite(
  {
    example: "cpu-pod",
    writes: { up: 1, update: 1, replace: 2, destroy: 1 },
    resources: ["worker"],
    afterUp: (out) => expect([out.status, out.vcpus, out.memoryGb]).toEqual(["RUNNING", 4, 8]),
    update: { config: { "runpod-cpu-pod:image": "runpod/base:0.7.0-cpu" }, updated: ["worker"] },
    replace: { config: { "runpod-cpu-pod:vcpuCount": "8" }, replaced: { worker: ["cpu"] } },
    drift: {
      change: async (emu, idOf) => {
        await apiFor(emu).pods.update(await idOf("worker"), { image: "tampered:1" });
      },
      drifted: { worker: ["image"] },
    },
  },
  31,
);
