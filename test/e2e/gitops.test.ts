import { expect } from "vitest";
import { apiFor } from "../support/emulator.js";
import { exampleSuite } from "./example-suite.js";
import { SECRET_SHOWN } from "./phases.js";

exampleSuite(
  {
    example: "gitops",
    config: { "runpod-gitops:hfToken": "hf_GITOPS_SECRET" },
    secretConfig: ["runpod-gitops:hfToken"],
    writes: { up: 1, update: 1, replace: 2, destroy: 1 },
    resources: ["notebook"],
    afterUp: (out) => {
      expect(out.status).toBe("RUNNING");
      expect(out.jupyterPassword).toBe(SECRET_SHOWN);
    },
    update: {
      config: { "runpod-gitops:image": "runpod/pytorch:2.5.1-py3.11-cuda12.4.1-devel-ubuntu22.04" },
      updated: ["notebook"],
    },
    replace: { config: { "runpod-gitops:gpuType": "NVIDIA L40S" }, replaced: { notebook: ["gpu.id"] } },
    drift: {
      // Drift is measured against what the program declares: a port list edited in the console.
      change: async (emu, idOf) => {
        await apiFor(emu).updatePod(await idOf("notebook"), { ports: ["8888/http", "22/tcp"] });
      },
      drifted: { notebook: ["ports"] },
    },
  },
  71,
);
