/** A stack of a program on the in-process emulator, driven through the real Pulumi CLI. */
import { ProgramStack, type StackOptions, type StateDeployment } from "../../harness/stack.js";
import { emulatorLib, type RunningEmulator } from "./emulator.js";

/** Time runs this many times faster in the emulator and in the provider host alike. */
export const TIME_SCALE = 50;

/**
 * A new stack of `programDir` whose `runpod:*` config points at `emu` (the API key as a secret),
 * with no RUNPOD_* variables from the test process and the provider host's clock scaled like the
 * emulator's.
 *
 * Programs run transpile-only (PULUMI_NODEJS_TRANSPILE_ONLY): type-checking a program again on
 * every preview, up, refresh and destroy is about a third of a CLI run's CPU, and says nothing new.
 * Every program here is type-checked once by `npm run typecheck` (tsconfig.test.json includes
 * examples/ and test/), each example under its own tsconfig by test/e2e, and a user's program under
 * the tsconfig `pulumi new` writes, type-checked by the Node host as users run it, by
 * test/package/install.test.ts and test/package/template.test.ts.
 */
export async function stackOnEmulator(
  emu: RunningEmulator,
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
      PULUMI_NODEJS_TRANSPILE_ONLY: "true",
      ...options.env,
    },
  });
  const { "runpod:apiKey": apiKey, ...urls } = emu.pulumiConfig();
  await stack.setConfig(urls, { "runpod:apiKey": String(apiKey) });
  return stack;
}

/** Resolves once `condition` holds, looking every 20 ms; fails after `timeoutMs`. */
export async function until(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("the condition never held");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The ids of the pods `emu` holds of the programs run on it: not cluster members, not terminated, not the seed's own. */
export function livePodIds(emu: RunningEmulator): string[] {
  const seeded: readonly string[] = emulatorLib.HISTORY_PODS;
  return emu.control
    .snapshot()
    .pods.filter((p) => !p.cluster && p.status !== "TERMINATED" && !seeded.includes(p.id))
    .map((p) => p.id);
}

/** The ids of the Pods a stack's state records. */
export function podIdsIn(d: StateDeployment): (string | undefined)[] {
  return (d.resources ?? []).filter((r) => r.type === "pulumi-nodejs:dynamic/runpod:Pod").map((r) => r.id);
}
