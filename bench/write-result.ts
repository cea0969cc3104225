/** A scenario's figures written where bench/readme.ts reads them: bench/results/<name>.json. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export function writeResult(root: string, name: string, report: object): void {
  const dir = join(root, "bench", "results");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.json`), `${JSON.stringify(report, null, 2)}\n`);
}
