/**
 * `npm pack` of this checkout as it is built: the package a release publishes, as a tarball. No
 * build again (`--ignore-scripts`): dist/ must be built.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT } from "./pulumi-cli.js";

/** Packs the built checkout into `dir`; resolves to the tarball's path. */
export async function packCheckout(dir: string): Promise<string> {
  const { stdout } = await promisify(execFile)(
    "npm",
    ["pack", "--ignore-scripts", "--json", "--pack-destination", dir],
    { cwd: REPO_ROOT, maxBuffer: 64 * 1024 * 1024 },
  );
  const [packed] = JSON.parse(stdout) as { filename: string }[];
  if (!packed) throw new Error("npm pack printed no tarball");
  return join(dir, packed.filename);
}
