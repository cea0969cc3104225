import { expect } from "vitest";
import { apiFor } from "../support/emulator.js";
import { exampleSuite } from "./example-suite.js";
import { SECRET_SHOWN } from "./phases.js";

exampleSuite(
  {
    example: "gitops",
    config: { "runpod-gitops:hfToken": "hf_GITOPS_SECRET" },
    secretConfig: ["runpod-gitops:hfToken"],
    // Parked, the pod stays parked through the replacement: a new pod is created, stopped, and the
    // old one deleted.
    writes: { up: 2, update: 1, replace: 3, destroy: 2 },
    resources: ["notebook", "workspace"],
    afterUp: (out) => {
      expect([out.status, out.desiredStatus]).toEqual(["RUNNING", "RUNNING"]);
      expect(out.jupyterPassword).toBe(SECRET_SHOWN);
    },
    // The workflow's evening run: the pod is stopped in place (POST /v2/pods/{id}/action).
    update: { config: { "runpod-gitops:parked": "true" }, updated: ["notebook"] },
    replace: { config: { "runpod-gitops:gpuType": "NVIDIA L40S" }, replaced: { notebook: ["gpu.id"] } },
    drift: {
      // Drift is measured against what the program declares: a port list edited in the console.
      change: async (emu, idOf) => {
        await apiFor(emu).pods.update(await idOf("notebook"), { ports: ["8888/http", "22/tcp"] });
      },
      drifted: { notebook: ["ports"] },
    },
  },
  71,
);
