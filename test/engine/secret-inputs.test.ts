/**
 * Credentials a program writes as plain strings (env of a Pod, a Template and a
 * ServerlessEndpoint, a Registry password) never reach the stack's state in plaintext, through the
 * real Pulumi CLI: the classes make them secrets before registering, so the state's inputs and
 * outputs hold them encrypted, while the API still receives the values.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProgramStack } from "../../harness/stack.js";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { stackOnEmulator, TIME_SCALE } from "../support/stack.js";

const TOKEN = "hf_PLAIN_CREDENTIAL_4711";
const ROTATED = "hf_ROTATED_CREDENTIAL_0815";

let emu: RunningEmulator;
let stack: ProgramStack;
beforeAll(async () => {
  emu = await emulatorLib.startEmulator({ clockScale: TIME_SCALE, randomSeed: 26 });
  stack = await stackOnEmulator(emu, join(__dirname, "secrets-program"));
});
const withToken = (token: string) => ({ SECRET_INPUTS_TOKEN: token });
afterAll(async () => {
  stack?.dispose();
  await emu?.close();
});

/** What the emulator holds of the stack's credentials, as the API received them. */
function received() {
  const s = emu.control.snapshot();
  const envOf = (r: object | undefined) =>
    ((r as { env?: unknown } | undefined)?.env ?? {}) as Record<string, string>;
  return {
    pod: envOf(s.pods.find((p) => p.name === "secret-inputs-box" && p.status !== "TERMINATED")).HF_TOKEN,
    template: envOf(s.templates.find((t) => t.name === "secret-inputs-worker")).HF_TOKEN,
    endpoint: envOf(s.endpoints.find((e) => e.name === "secret-inputs-api")).OPENAI_API_KEY,
  };
}

describe("plain-text credentials through the real CLI", { timeout: 180_000 }, () => {
  it("up: the API gets the values; `pulumi stack export` holds none of them in plaintext", async () => {
    const up = await stack.run(["up", "--yes", "--skip-preview"], withToken(TOKEN));
    const { text, deployment } = await stack.exportState();
    expect([up.code, received()]).toEqual([
      0,
      { pod: `${TOKEN}-POD`, template: `${TOKEN}-TEMPLATE`, endpoint: `${TOKEN}-ENDPOINT` },
    ]);
    expect(text).not.toContain(TOKEN);
    // The keys the program gave as plain text are recorded, names only, for the policy pack.
    const pod = deployment.resources?.find((r) => r.urn.endsWith("::box"));
    expect(pod?.inputs?.__plainEnvKeys).toEqual(["HF_TOKEN", "MODE"]);
  });

  it("a rotated value: the preview's diff does not print it, the update sends it, state stays encrypted", async () => {
    const preview = await stack.run(["preview", "--diff"], withToken(ROTATED));
    expect([preview.code, preview.stdout.includes(ROTATED), preview.stdout.includes(TOKEN)]).toEqual([
      0,
      false,
      false,
    ]);
    const up = await stack.run(["up", "--yes", "--skip-preview"], withToken(ROTATED));
    const { text } = await stack.exportState();
    expect([up.code, received(), text.includes(ROTATED), text.includes(TOKEN)]).toEqual([
      0,
      { pod: `${ROTATED}-POD`, template: `${ROTATED}-TEMPLATE`, endpoint: `${ROTATED}-ENDPOINT` },
      false,
      false,
    ]);
  });

  it("refresh and destroy keep it so", async () => {
    const refresh = await stack.run(["refresh", "--yes", "--skip-preview"], withToken(ROTATED));
    const { text } = await stack.exportState();
    const down = await stack.run(["destroy", "--yes", "--skip-preview"], withToken(ROTATED));
    expect([refresh.code, text.includes(ROTATED), down.code]).toEqual([0, false, 0]);
  });
});
