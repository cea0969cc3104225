/**
 * The package as users get it: `npm pack` of this repository, installed with npm into a fresh
 * program folder outside the repository, beside the program's own dependencies.
 */
import { execFile } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { packCheckout } from "../../harness/pack.js";
import { REPO_ROOT } from "../../harness/pulumi-cli.js";
import { oncePerRun } from "../support/once-per-run.js";

const run = promisify(execFile);

/**
 * `npm pack` of the built repository (dist/ must be built), once for the whole run: the tarball's
 * path, which every test file installs from and none changes.
 */
export function packTarball(): Promise<string> {
  return oncePerRun("npm-pack", packCheckout);
}

/** Runs npm in `cwd` with output kept for the error message. */
export async function npm(cwd: string, args: readonly string[]): Promise<{ stdout: string; stderr: string }> {
  try {
    return await run("npm", [...args, "--no-audit", "--no-fund"], { cwd, maxBuffer: 64 * 1024 * 1024 });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `npm ${args.join(" ")} failed in ${cwd}: ${e.message}\n${e.stdout ?? ""}\n${e.stderr ?? ""}`,
    );
  }
}

/**
 * A copy of an example program in a fresh folder, its package.json rewritten with `dependencies`,
 * then `npm install`ed. Returns the folder.
 */
export async function installProgram(
  exampleDir: string,
  pkg: { dependencies: Record<string, string>; devDependencies?: Record<string, string> },
): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "runpod-program-"));
  cpSync(exampleDir, dir, {
    recursive: true,
    filter: (src) => !/[\\/](node_modules|package-lock\.json)$/.test(src),
  });
  writeFileSync(
    join(dir, "package.json"),
    `${JSON.stringify({ name: "user-program", private: true, main: "index.ts", ...pkg }, null, 2)}\n`,
  );
  await npm(dir, ["install"]);
  return dir;
}

/** Every copy of a package in a node_modules tree, as `path@version`. */
export function copiesOf(dir: string, name: string): string[] {
  const found: string[] = [];
  const walk = (modules: string) => {
    let entries: string[];
    try {
      entries = readdirSync(modules);
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.startsWith("@")) {
        for (const scoped of readdirSync(join(modules, entry)))
          visit(join(modules, entry, scoped), `${entry}/${scoped}`);
      } else if (!entry.startsWith(".")) {
        visit(join(modules, entry), entry);
      }
    }
  };
  const visit = (pkgDir: string, pkgName: string) => {
    if (pkgName === name) {
      const { version } = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")) as {
        version: string;
      };
      found.push(`${pkgDir.slice(dir.length + 1)}@${version}`);
    }
    walk(join(pkgDir, "node_modules"));
  };
  walk(join(dir, "node_modules"));
  return found.sort();
}

/** The template `pulumi new` is pointed at in docs/template.md. */
export const TEMPLATE = join(REPO_ROOT, "templates", "runpod-gpu-pod");

/**
 * A copy of the template in `dir` whose package.json takes runpod-dynamic from `tarball`: the
 * template names the release it will work with (a version range), which the registry does not
 * have before it is published.
 */
export function templateWith(dir: string, tarball: string): string {
  const copy = join(dir, "template");
  cpSync(TEMPLATE, copy, { recursive: true });
  const file = join(copy, "package.json");
  const pkg = JSON.parse(readFileSync(file, "utf8")) as { dependencies: Record<string, string> };
  if (pkg.dependencies["runpod-dynamic"] === undefined)
    throw new Error(`${file} does not depend on runpod-dynamic`);
  pkg.dependencies["runpod-dynamic"] = `file:${tarball}`;
  writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
  return copy;
}

/**
 * A folder in `dir` holding only yarn and pnpm, the versions this repository pins (its
 * devDependencies), to put first on PATH: what Pulumi's Node runtime runs is the first on PATH.
 */
export function packageManagersBin(dir: string): string {
  const bin = join(dir, "package-managers");
  mkdirSync(bin);
  for (const name of ["yarn", "pnpm"])
    symlinkSync(join(REPO_ROOT, "node_modules", ".bin", name), join(bin, name));
  return bin;
}
