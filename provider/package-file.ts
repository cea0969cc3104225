/**
 * A file of this package read at run time (package.json, sdk/schema.json): from the package's folder
 * beside the code, or, in the plugin's standalone executable, which has no folder, from the assets
 * it was built with (harness/plugin-executables.ts).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { getAsset, isSea } from "node:sea";

/** The package's folder: two levels above dist/provider/, one above provider/ (the sources vitest runs). */
function packageRoot(): string {
  for (const up of ["../..", ".."]) {
    const root = join(__dirname, up);
    try {
      const { name } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { name?: string };
      if (name === "runpod-dynamic") return root;
    } catch {
      // not this one: try the next
    }
  }
  throw new Error(`runpod-dynamic: no package.json of this package above ${__dirname}`);
}

/** The text of `path` (relative to the package's folder, `/`-separated). */
export function readPackageFile(path: string): string {
  return isSea() ? getAsset(path, "utf8") : readFileSync(join(packageRoot(), ...path.split("/")), "utf8");
}

/** This package's version. */
export function packageVersion(): string {
  return (JSON.parse(readPackageFile("package.json")) as { version: string }).version;
}
