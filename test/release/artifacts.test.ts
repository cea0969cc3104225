/**
 * What a release holds, read from the rehearsal's folder (harness/release-rehearse.ts): one plugin
 * archive per platform, each with only the executable Pulumi looks for at its top, in its
 * platform's format and architecture, the macOS ones with an ad-hoc signature that verifies; the
 * Python SDK's wheel and sdist carrying the plugin's download location; the Node.js SDK's package;
 * the Go module in the proxy's layout; and a checksum for every file.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { archiveName, executableName, PLATFORMS, platformName } from "../../harness/plugin-executables.js";
import { PACK_FOLDER, policyPackArchiveName } from "../../harness/policy-pack-release.js";
import { REPO_ROOT } from "../../harness/pulumi-cli.js";
import type { Rehearsal } from "../../harness/release-rehearse.js";
import { PLUGIN_DOWNLOAD_URL } from "../../provider/plugin/tokens.js";
import { rehearsal } from "../support/release.js";

const run = promisify(execFile);
const VERIFY_MACHO = join(__dirname, "..", "support", "verify_macho_sig.py");

let release: Rehearsal;
let scratch: string;

beforeAll(async () => {
  release = await rehearsal();
  scratch = mkdtempSync(join(tmpdir(), "runpod-release-"));
}, 600_000);
afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** What an executable's first bytes say it is: its format and its machine. */
function formatOf(bytes: Buffer): string {
  if (bytes.readUInt32BE(0) === 0x7f454c46) {
    const machine = bytes.readUInt16LE(18);
    return `ELF ${machine === 0x3e ? "x86-64" : machine === 0xb7 ? "aarch64" : machine.toString(16)}`;
  }
  if (bytes.readUInt32LE(0) === 0xfeedfacf) {
    const cpu = bytes.readUInt32LE(4);
    return `Mach-O ${cpu === 0x01000007 ? "x86-64" : cpu === 0x0100000c ? "arm64" : cpu.toString(16)}`;
  }
  if (bytes.toString("latin1", 0, 2) === "MZ") {
    const pe = bytes.readUInt32LE(0x3c);
    const machine = bytes.toString("latin1", pe, pe + 4) === "PE\0\0" ? bytes.readUInt16LE(pe + 4) : -1;
    return `PE ${machine === 0x8664 ? "x86-64" : machine === 0xaa64 ? "arm64" : machine.toString(16)}`;
  }
  return "unknown";
}

const EXPECTED_FORMAT: Record<string, string> = {
  "linux-amd64": "ELF x86-64",
  "linux-arm64": "ELF aarch64",
  "darwin-amd64": "Mach-O x86-64",
  "darwin-arm64": "Mach-O arm64",
  "windows-amd64": "PE x86-64",
};

/** Whether the Mach-O file's signature verifies (an independent reader of Apple's format). */
async function signatureVerifies(file: string): Promise<boolean> {
  return run("python3", [VERIFY_MACHO, file]).then(
    () => true,
    () => false,
  );
}

describe("the release's plugin archives", { timeout: 120_000 }, () => {
  it.each(PLATFORMS.map((p) => [platformName(p), p] as const))(
    "%s: the executable alone at the top, executable, in its platform's format",
    async (name, platform) => {
      const archive = join(release.dir, archiveName(platform, release.version));
      const { stdout: listing } = await run("tar", ["-tvzf", archive]);
      const dir = join(scratch, name);
      await run("mkdir", ["-p", dir]);
      await run("tar", ["-xzf", archive, "-C", dir]);
      const exe = join(dir, executableName(platform));
      const lines = listing.trim().split("\n");
      expect({
        entries: lines.map((l) => l.split(/\s+/).pop()),
        mode: lines[0]?.slice(0, 10),
        format: formatOf(readFileSync(exe).subarray(0, 4096)),
        signed: platform.os === "darwin" ? await signatureVerifies(exe) : "not macOS",
      }).toEqual({
        entries: [executableName(platform)],
        mode: "-rwxr-xr-x",
        format: EXPECTED_FORMAT[name],
        signed: platform.os === "darwin" ? true : "not macOS",
      });
    },
  );

  it("a changed byte in a signed macOS executable fails the signature check", async () => {
    const platform = PLATFORMS.find((p) => p.os === "darwin" && p.arch === "arm64");
    if (!platform) throw new Error("no darwin-arm64 platform");
    const exe = join(scratch, "darwin-arm64", executableName(platform));
    const tampered = join(scratch, "tampered");
    copyFileSync(exe, tampered);
    const bytes = readFileSync(tampered);
    const at = Math.floor(bytes.length / 2);
    bytes[at] = (bytes[at] ?? 0) ^ 0xff;
    writeFileSync(tampered, bytes);
    expect([await signatureVerifies(exe), await signatureVerifies(tampered)]).toEqual([true, false]);
  });
});

describe("the release's packages", { timeout: 120_000 }, () => {
  it("SHA256SUMS holds every file's checksum", () => {
    const sums = readFileSync(join(release.dir, "SHA256SUMS"), "utf8").trim().split("\n");
    const listed = Object.fromEntries(sums.map((l) => l.split(/\s+/).reverse()));
    const actual = Object.fromEntries(
      Object.keys(release.files).map((name) => [
        name,
        createHash("sha256")
          .update(readFileSync(join(release.dir, name)))
          .digest("hex"),
      ]),
    );
    expect(listed).toEqual(actual);
  });

  it("the Python wheel and sdist, named for `pip install pulumi-runpod-dynamic`, carry the download location", async () => {
    const wheel = `pulumi_runpod_dynamic-${release.version}-py3-none-any.whl`;
    // What pip reads of the wheel: the metadata's name, and the module's plugin file.
    const read = [
      "import json, sys, zipfile",
      "z = zipfile.ZipFile(sys.argv[1])",
      "meta = next(n for n in z.namelist() if n.endswith('.dist-info/METADATA'))",
      "name = next(l for l in z.read(meta).decode().splitlines() if l.startswith('Name: '))",
      "print(json.dumps({'name': name, 'plugin': json.loads(z.read('pulumi_runpod_dynamic/pulumi-plugin.json'))}))",
    ].join("\n");
    const { stdout } = await run("python3", ["-c", read, join(release.dir, wheel)]);
    const { name, plugin } = JSON.parse(stdout) as { name: string; plugin: unknown };
    expect({
      plugin,
      name,
      sdist: `pulumi_runpod_dynamic-${release.version}.tar.gz` in release.files,
    }).toEqual({
      plugin: {
        resource: true,
        name: "runpod-dynamic",
        version: release.version,
        server: PLUGIN_DOWNLOAD_URL,
      },
      name: "Name: pulumi_runpod_dynamic",
      sdist: true,
    });
  });

  it("the Node.js SDK's package is compiled, and names the plugin and where to fetch it", async () => {
    const tgz = join(release.dir, `runpod-dynamic-pulumi-${release.version}.tgz`);
    const { stdout: listing } = await run("tar", ["-tzf", tgz]);
    const { stdout: manifest } = await run("tar", ["-xOzf", tgz, "package/package.json"]);
    const pkg = JSON.parse(manifest) as { name: string; pulumi: unknown };
    const files = listing.trim().split("\n");
    expect({
      name: pkg.name,
      pulumi: pkg.pulumi,
      compiled: ["package/index.js", "package/index.d.ts", "package/pod.js"].every((f) => files.includes(f)),
      sources: files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts")),
    }).toEqual({
      name: "@runpod-dynamic/pulumi",
      pulumi: {
        resource: true,
        name: "runpod-dynamic",
        version: release.version,
        server: PLUGIN_DOWNLOAD_URL,
      },
      compiled: true,
      sources: [],
    });
  });

  it("the policy pack is a folder of its own: the pack and the review code it shares in one script, only Pulumi's two packages to install", async () => {
    const archive = join(release.dir, policyPackArchiveName(release.version));
    const { stdout: listing } = await run("tar", ["-tzf", archive]);
    const { stdout: manifest } = await run("tar", ["-xOzf", archive, `${PACK_FOLDER}/package.json`]);
    const { stdout: script } = await run("tar", ["-xOzf", archive, `${PACK_FOLDER}/index.js`], {
      maxBuffer: 16 * 1024 * 1024,
    });
    const lock = JSON.parse(readFileSync(join(REPO_ROOT, "package-lock.json"), "utf8")) as {
      packages: Record<string, { version: string }>;
    };
    const pkg = JSON.parse(manifest) as {
      name: string;
      version: string;
      main: string;
      dependencies: unknown;
    };
    expect({
      files: listing.trim().split("\n").sort(),
      name: pkg.name,
      version: pkg.version,
      main: pkg.main,
      dependencies: pkg.dependencies,
      required: [...new Set([...script.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]))].sort(),
    }).toEqual({
      files: ["", "PulumiPolicy.yaml", "README.md", "index.js", "npm-shrinkwrap.json", "package.json"].map(
        (f) => `${PACK_FOLDER}/${f}`,
      ),
      name: "runpod-policies",
      version: release.version,
      main: "index.js",
      dependencies: {
        "@pulumi/policy": lock.packages["node_modules/@pulumi/policy"]?.version,
        "@pulumi/pulumi": lock.packages["node_modules/@pulumi/pulumi"]?.version,
      },
      required: ["@pulumi/policy", "@pulumi/policy/deserialize", "node:fs", "node:path"],
    });
  });

  it("the Go module, in a module proxy's layout at the release's version", () => {
    const at = join(release.goproxy, "github.com", "runpod-dynamic", "runpod-dynamic", "sdk", "go", "@v");
    expect({
      list: readFileSync(join(at, "list"), "utf8"),
      mod: readFileSync(join(at, `v${release.version}.mod`), "utf8").split("\n")[0],
      info: (JSON.parse(readFileSync(join(at, `v${release.version}.info`), "utf8")) as { Version: string })
        .Version,
    }).toEqual({
      list: `v${release.version}\n`,
      mod: "module github.com/runpod-dynamic/runpod-dynamic/sdk/go",
      info: `v${release.version}`,
    });
  });
});
