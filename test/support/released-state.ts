/**
 * State a released version wrote (test/fixtures/state-<version>.json; test/fixtures/README.md says
 * how each was made), pointed at a running emulator and imported into a new stack: where each test
 * of "state written by one minor version refreshes, updates and destroys under the next" starts.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ProgramStack } from "../../harness/stack.js";
import type { RunningEmulator } from "./emulator.js";
import { stackOnEmulator } from "./stack.js";

/** One resource of an exported state, as the tests read and rewrite it. */
export interface StateFileResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/** `pulumi stack export`'s document: only what the tests touch is typed. */
export interface StateFile {
  version: number;
  deployment: { resources: StateFileResource[] } & Record<string, unknown>;
}

const FIXTURES = join(__dirname, "..", "fixtures");

/** The state the release `version` (e.g. "0.2.0") wrote, as exported. */
export function releasedState(version: string): StateFile {
  return JSON.parse(readFileSync(join(FIXTURES, `state-${version}.json`), "utf8")) as StateFile;
}

/** The one resource of type `type` in `state`; fails when there is not exactly one. */
export function onlyResource(state: StateFile, type: string): StateFileResource & { id: string } {
  const found = state.deployment.resources.filter((r) => r.type === type);
  const [only] = found;
  if (found.length !== 1 || only?.id === undefined) {
    throw new Error(`the state holds ${found.length} resources of type ${type}, not one with an id`);
  }
  return { ...only, id: only.id };
}

/**
 * A new stack of `programDir` on `emu` holding `state`, with every id of an object the old
 * emulator made replaced by the id of the same object made again in `emu` (`ids`, old to new).
 * The ids are replaced in the whole text, as they appear in ids, outputs, other resources' inputs
 * and derived strings (URLs, SSH user names); encrypted values hold none of them.
 */
export async function importReleasedState(
  emu: RunningEmulator,
  programDir: string,
  state: StateFile,
  ids: ReadonlyMap<string, string>,
): Promise<ProgramStack> {
  // Refresh runs with the provider configuration recorded in state at the last update (not the
  // stack config of today): the recorded addresses are this emulator's, as they would be the
  // service's for a user. The recorded key stays as it was written.
  const { "runpod:apiKey": _key, ...urls } = emu.pulumiConfig();
  for (const r of state.deployment.resources.filter((x) => x.type.startsWith("pulumi:providers:"))) {
    Object.assign(r.inputs ?? {}, urls);
    Object.assign(r.outputs ?? {}, urls);
  }
  let text = JSON.stringify(state);
  for (const [from, to] of ids) text = text.replaceAll(from, to);
  const stack = await stackOnEmulator(emu, programDir);
  const file = join(stack.workDir, "released-state.json");
  writeFileSync(file, text);
  await stack.expect(["stack", "import", "--file", file]);
  return stack;
}
