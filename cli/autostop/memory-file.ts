/**
 * Where the autostop watcher keeps its samples between passes: one JSON file, which a scheduled job
 * keeps from run to run (the GitOps example caches it). Lost or new, it only costs time: a pod's
 * window must then be watched again before anything is stopped (docs/decisions.md, "Where autostop
 * keeps its samples").
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { z } from "zod";
import { CliError } from "../errors.js";
import type { PodMemory } from "./decide.js";

const Sample = z.strictObject({ uptime: z.number(), gpu: z.number(), cpu: z.number() });
const MemoryFile = z.strictObject({
  version: z.literal(1),
  pods: z.record(
    z.string(),
    z.strictObject({
      startedAt: z.string().nullable(),
      samples: z.array(Sample),
      warnedAt: z.number().optional(),
    }),
  ),
});

export type Memories = Record<string, PodMemory>;

/** The file's memories; none when it does not exist yet. */
export function readMemories(path: string): Memories {
  if (!existsSync(path)) return {};
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new CliError(
      `${path}: not the autostop samples file (${(err as Error).message}); move it away to start afresh.`,
    );
  }
  const parsed = MemoryFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CliError(
      `${path}: not the autostop samples file (${issue?.path.join(".")}: ${issue?.message}); move it away to start afresh.`,
    );
  }
  return parsed.data.pods;
}

/** Writes the memories whole, through a new file renamed over the old: a killed pass leaves one or the other. */
export function writeMemories(path: string, pods: Memories): void {
  const next = `${path}.next`;
  writeFileSync(next, `${JSON.stringify({ version: 1, pods }, null, 1)}\n`);
  renameSync(next, path);
}
