/**
 * The provider plugin as users install it: this machine's standalone executable, in the archive the
 * run's release rehearsal made (test/support/release.ts), installed with `pulumi plugin install --file`
 * into a stack's own Pulumi home; and stacks whose `runpod-dynamic:*` config points at an emulator.
 */
import { join } from "node:path";
import { archiveName, BUILD_PLATFORM } from "../../harness/plugin-executables.js";
import { ProgramStack, type StackOptions } from "../../harness/stack.js";
import { packageVersion } from "../../provider/package-file.js";
import type { RunningEmulator } from "./emulator.js";
import { rehearsal } from "./release.js";
import { TIME_SCALE } from "./stack.js";

export const PLUGIN_VERSION = packageVersion();

/**
 * This machine's archive of the plugin, from the run's release rehearsal: the .tar.gz's path. The
 * file that asks first builds the whole release, which takes minutes beside other files' work:
 * a hook awaiting it allows 600 s, as the once-per-run wait does.
 */
export async function pluginAsset(): Promise<string> {
  const { dir, version } = await rehearsal();
  return join(dir, archiveName(BUILD_PLATFORM, version));
}

/** The emulator's settings as the plugin's stack config: `runpod-dynamic:baseUrl`, ... */
export function pluginConfig(emu: RunningEmulator): {
  plain: Record<string, string>;
  secret: Record<string, string>;
} {
  const { "runpod:apiKey": apiKey, ...urls } = emu.pulumiConfig();
  const plain = Object.fromEntries(
    Object.entries(urls).map(([k, v]) => [k.replace(/^runpod:/, "runpod-dynamic:"), String(v)]),
  );
  return { plain, secret: { "runpod-dynamic:apiKey": String(apiKey) } };
}

/**
 * A new stack of a program in another language on `emu`, the plugin installed from `asset` into
 * the stack's Pulumi home, no RUNPOD_* variables from the test process, the plugin's clock scaled
 * like the emulator's.
 */
export async function pluginStackOnEmulator(
  emu: RunningEmulator,
  asset: string,
  programDir: string,
  options: Omit<StackOptions, "programDir"> = {},
): Promise<ProgramStack> {
  const stack = await ProgramStack.create({
    ...options,
    programDir,
    env: {
      RUNPOD_API_KEY: "",
      RUNPOD_BASE_URL: "",
      RUNPOD_DYNAMIC_TIME_SCALE: String(TIME_SCALE),
      ...options.env,
    },
  });
  await stack.expect(["plugin", "install", "resource", "runpod-dynamic", PLUGIN_VERSION, "--file", asset]);
  const { plain, secret } = pluginConfig(emu);
  await stack.setConfig(plain, secret);
  return stack;
}
