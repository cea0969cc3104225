import { expect } from "vitest";
import { apiFor } from "../support/emulator.js";
import { exampleSuite } from "./example-suite.js";

exampleSuite(
  {
    example: "private-image",
    config: {
      "runpod-private-image:registryUser": "acme-bot",
      "runpod-private-image:registryPassword": "ghp_FIRST",
    },
    secretConfig: ["runpod-private-image:registryPassword"],
    // up: the credential, the template, the pod. replace: a new credential, then the template and
    // the pod move to it (updates), then the old credential goes.
    writes: { up: 3, update: 1, replace: 4, destroy: 3 },
    resources: ["ghcr", "app-image", "app"],
    afterUp: (out) => {
      expect([out.status, out.image]).toEqual(["RUNNING", "ghcr.io/acme/app:1.4.0"]);
      expect(out.registryId).toMatch(/^\w+$/);
    },
    // A template edit changes the template only: the pod keeps what it was created with.
    update: { config: { "runpod-private-image:image": "ghcr.io/acme/app:1.5.0" }, updated: ["app-image"] },
    replace: {
      config: { "runpod-private-image:registryPassword": "ghp_ROTATED" },
      replaced: { ghcr: ["credentials"] },
      updated: ["app", "app-image"],
    },
    drift: {
      change: async (emu, idOf) => {
        await apiFor(emu).templates.update(await idOf("app-image"), { image: "someone/else:latest" });
      },
      drifted: { "app-image": ["image"] },
    },
  },
  111,
);
