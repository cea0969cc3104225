/**
 * The compiled package, loaded the way Pulumi loads it: through Node's own require, from dist/
 * (built by `tsc`, never transformed by Vite). Types come from the sources.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const nodeRequire = createRequire(import.meta.url);
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export function loadDist<T>(relative: string): T {
  return nodeRequire(join(REPO_ROOT, "dist", relative)) as T;
}

export const clientLib =
  loadDist<typeof import("../../provider/client/index.js")>("provider/client/index.js");
