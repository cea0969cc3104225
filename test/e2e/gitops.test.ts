import { expect } from "vitest";
import { apiFor } from "../support/emulator.js";
import { isSecret } from "./engine.js";
import { exampleSuite } from "./example-suite.js";

exampleSuite(
  {
    example: "gitops",
    project: "runpod-gitops",
    config: { "runpod-gitops:hfToken": "hf_GITOPS_SECRET" },
    secretConfig: ["runpod-gitops:hfToken"],
    writes: { up: 1, update: 1, replace: 2, destroy: 1 },
    resources: ["notebook"],
    unknownInPreview: "podId",
    afterUp: (out) => {
      expect(out.status).toBe("RUNNING");
      expect(isSecret(out.jupyterPassword)).toBe(true);
    },
    update: {
      config: { "runpod-gitops:image": "runpod/pytorch:2.5.1-py3.11-cuda12.4.1-devel-ubuntu22.04" },
      updated: ["notebook"],
    },
    replace: { config: { "runpod-gitops:gpuType": "NVIDIA L40S" }, replaced: { notebook: ["gpu.id"] } },
    drift: {
      change: async (emu, idOf) => {
        await apiFor(emu).updatePod(idOf("notebook"), { disk: 99 });
      },
      drifted: { notebook: ["disk"] },
    },
  },
  71,
);
