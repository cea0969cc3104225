/** This package's version, for the User-Agent. Read at run time so the build does not copy package.json. */
import { readFileSync } from "node:fs";
import { join } from "node:path";

function findVersion(): string {
  // dist/provider/client/version.js -> package root is three levels up; provider/client/version.ts two.
  for (const up of ["../../..", "../.."]) {
    try {
      const pkg = JSON.parse(readFileSync(join(__dirname, up, "package.json"), "utf8")) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === "runpod-dynamic" && pkg.version) return pkg.version;
    } catch {
      // try the next candidate
    }
  }
  return "0.0.0";
}

export const PACKAGE_VERSION = findVersion();
