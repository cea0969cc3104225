/**
 * Writes everything generated from the resources' declarations: the provider plugin's schema
 * (codegen/schema.ts) to sdk/schema.json, the SDKs Pulumi's own code generators make from it to
 * sdk/<language>/ (harness/sdk-gen, built by `npm run pulumi-cli`), and the dynamic provider's
 * classes and types (codegen/typescript.ts) to provider/dynamic/resources/. `npm run sdk` runs it;
 * test/plugin/sdk.test.ts runs it into a scratch folder and compares.
 *
 *   node dist/codegen/sdks.js [sdk-dir [dynamic-dir]]   (default: sdk/ and provider/dynamic/resources/)
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { packageSchema } from "./schema.js";
import { dynamicFiles } from "./typescript.js";

const ROOT = path.resolve(__dirname, "..", "..");
export const LANGUAGES = ["python", "go", "nodejs", "dotnet"] as const;

/**
 * A binary harness/sdk-gen/build.sh built for the CLI's Pulumi version: `sdk-gen`, or
 * `python-program-host` (Pulumi's Python program generator behind a language host's one call).
 */
export function sdkGenTool(name: "sdk-gen" | "python-program-host"): string {
  const mod = readFileSync(path.join(ROOT, "harness", "sdk-gen", "go.mod"), "utf8");
  const version = /github\.com\/pulumi\/pulumi\/pkg\/v3 (v\S+)/.exec(mod)?.[1];
  const bin = path.join(ROOT, ".tools", "sdk-gen", version ?? "?", name);
  if (!existsSync(bin)) throw new Error(`no ${bin}: run \`npm run pulumi-cli\` (builds it with Go)`);
  return bin;
}

/** Writes schema.json and every SDK into `out`. */
export function writeSdks(out: string): void {
  const { version } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
    version: string;
  };
  mkdirSync(out, { recursive: true });
  const schemaFile = path.join(out, "schema.json");
  writeFileSync(schemaFile, `${JSON.stringify(packageSchema(version), null, 2)}\n`);
  execFileSync(sdkGenTool("sdk-gen"), [schemaFile, out, ...LANGUAGES], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  // pyproject.toml names README.md beside it as the package's description; Pulumi's generator
  // writes it into the module's folder only.
  copyFileSync(
    path.join(out, "python", "pulumi_runpod_dynamic", "README.md"),
    path.join(out, "python", "README.md"),
  );
}

/** `text` as the repository's formatter writes a TypeScript file (biome.json). */
function formatted(name: string, text: string): string {
  return execFileSync(
    process.execPath,
    [
      path.join(ROOT, "node_modules", "@biomejs", "biome", "bin", "biome"),
      "format",
      `--stdin-file-path=${name}`,
    ],
    { cwd: ROOT, input: text, encoding: "utf8" },
  );
}

/** Writes the dynamic provider's generated classes and types into `out`, formatted. */
export function writeDynamic(out: string): void {
  mkdirSync(out, { recursive: true });
  for (const [name, text] of Object.entries(dynamicFiles())) {
    writeFileSync(path.join(out, name), formatted(path.join("provider", "dynamic", "resources", name), text));
  }
}

if (require.main === module) {
  writeDynamic(path.resolve(process.argv[3] ?? path.join(ROOT, "provider", "dynamic", "resources")));
  writeSdks(path.resolve(process.argv[2] ?? path.join(ROOT, "sdk")));
}
