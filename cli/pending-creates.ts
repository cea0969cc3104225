/**
 * `runpod-dynamic pending-creates [file]`: the pods a killed `pulumi up` was creating, found on the
 * account, and the `pulumi import` that puts each into state.
 *
 *   pulumi stack export | runpod-dynamic pending-creates --import-file pods.json
 *
 * A run killed while a create was in flight leaves a pending create in the stack's state, which
 * Pulumi keeps until the user says what became of it. A pod's pending create carries the create key
 * its run computed (the `__createKey` input), and the pod that create made carries the same key in
 * its environment: this command pairs them. Unlike the provider's own take-over of an interrupted
 * create, it needs neither the stack's identity nor the plugin version that computed the key, so it
 * finishes a create interrupted under any version (docs/reliability.md, "A create interrupted under
 * another plugin version").
 *
 * Pulumi's own answer, `pulumi refresh --import-pending-creates <urn> <id>`, drops the pending
 * create without recording the resource (Pulumi v3.259.0: nothing in the engine carries out an
 * "importing" operation). So the pods are given to `pulumi import` instead, with the provider
 * instance and parent the interrupted create had, and `pulumi refresh --clear-pending-creates`
 * then drops what is settled.
 *
 * It reads and prints (and writes the import file it is asked for); the commands are the user's to run.
 */
import { writeFileSync } from "node:fs";
import type { Command } from "commander";
import { z } from "zod";
import type { schemas } from "../provider/client/index.js";
import { carries, createKeyIn } from "../provider/resources/pod/translate.js";
import { runpodTypeName } from "../provider/resources/type-tokens.js";
import { connect } from "./connect.js";
import { type ImportFile, importFileOf, shellQuote } from "./import-file.js";
import type { Terminal } from "./output.js";
import { addOutputOptions, readTextArgument } from "./parse.js";
import { nameOf, parseStackExport } from "./stack-export.js";

/** The part of `pulumi stack export` this command reads; everything else is let through. */
const StackExport = z.looseObject({
  deployment: z.looseObject({
    pending_operations: z
      .array(
        z.looseObject({
          type: z.string(),
          resource: z.looseObject({
            urn: z.string(),
            type: z.string(),
            parent: z.string().optional(),
            /** `<the provider instance's urn>::<its id>`. */
            provider: z.string().optional(),
            inputs: z.record(z.string(), z.unknown()).optional(),
          }),
        }),
      )
      .optional(),
  }),
});

type PendingResource = NonNullable<
  z.infer<typeof StackExport>["deployment"]["pending_operations"]
>[number]["resource"];

/** What became of one pending create. */
export type PendingVerdict =
  /** Its pod is on the account: import it. */
  | "found"
  /** No pod carries its key: the create never reached RunPod, and the pending create can go. */
  | "none"
  /** Not a pod of this provider, or one without a create key: only the user can tell. */
  | "unknown";

export interface PendingCreate {
  readonly urn: string;
  readonly type: string;
  readonly verdict: PendingVerdict;
  /** The pod to import (the newest that carries the key). */
  readonly podId: string | null;
  readonly status: string | null;
  /** Other pods that carry the same key: duplicates, for the user to terminate. */
  readonly duplicates: readonly string[];
}

export interface PendingReport {
  readonly pendingCreates: readonly PendingCreate[];
  /** The found pods, for `pulumi import --file`; null when none was found. */
  readonly importFile: ImportFile | null;
  /**
   * Whether `pulumi refresh --clear-pending-creates` settles the rest once the import is done: true
   * when every pending create is a pod either imported or proven never made.
   */
  readonly clearAfter: boolean;
}

/** The pending creates of `text` (a `pulumi stack export`). */
function pendingCreatesIn(text: string, where: string): PendingResource[] {
  return (parseStackExport(text, where, StackExport).deployment.pending_operations ?? [])
    .filter((op) => op.type === "creating")
    .map((op) => op.resource);
}

/** The pod a pending create made, if it carries a create key and a pod carries it too. */
function verdictOn(resource: PendingResource, pods: readonly schemas.Pod[]): PendingCreate {
  const key = runpodTypeName(resource.type) === "Pod" ? createKeyIn(resource.inputs) : undefined;
  const base = { urn: resource.urn, type: resource.type };
  if (key === undefined) return { ...base, verdict: "unknown", podId: null, status: null, duplicates: [] };
  const [pod, ...duplicates] = pods
    .filter((p) => carries(key, p) && p.status !== "TERMINATED")
    .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
  return pod
    ? {
        ...base,
        verdict: "found",
        podId: pod.id,
        status: pod.status,
        duplicates: duplicates.map((p) => p.id),
      }
    : { ...base, verdict: "none", podId: null, status: null, duplicates: [] };
}

/**
 * The import of the found pods: each under the provider instance its interrupted create had (so the
 * next `up` moves it to the program's provider like every other resource) and its parent.
 */
function importOfFound(found: readonly [PendingResource, string][]): ImportFile | null {
  if (found.length === 0) return null;
  return importFileOf(
    found.map(([resource, id]) => ({
      type: resource.type,
      name: nameOf(resource.urn),
      id,
      providerUrn: resource.provider?.slice(0, resource.provider.lastIndexOf("::")),
      parentUrn: resource.parent,
    })),
  );
}

/** Each pending create paired with the pods on the account, and what settles them. */
export function settlePendingCreates(
  pending: readonly PendingResource[],
  pods: readonly schemas.Pod[],
): PendingReport {
  const pendingCreates = pending.map((resource) => verdictOn(resource, pods));
  const found = pending.flatMap((resource, i): [PendingResource, string][] => {
    const podId = pendingCreates[i]?.podId;
    return podId ? [[resource, podId]] : [];
  });
  return {
    pendingCreates,
    importFile: importOfFound(found),
    clearAfter: pendingCreates.length > 0 && pendingCreates.every((p) => p.verdict !== "unknown"),
  };
}

/** The commands that settle the report, for people to run. */
function settlingCommands(report: PendingReport, importFile: string | undefined): string[] {
  return [
    ...(report.importFile
      ? [
          `pulumi import --file ${shellQuote(importFile ?? "<the import file: --import-file>")} --yes --protect=false --generate-code=false`,
        ]
      : []),
    report.clearAfter ? "pulumi refresh --yes --clear-pending-creates" : "pulumi refresh",
  ];
}

function humanReport(report: PendingReport, importFile: string | undefined): string[] {
  if (report.pendingCreates.length === 0) return ["The stack has no pending create."];
  const lines = report.pendingCreates.map((p) => {
    const what =
      p.verdict === "found"
        ? `pod ${p.podId} (${p.status}) carries its create key${p.duplicates.length > 0 ? `; so do ${p.duplicates.join(", ")}, duplicates to terminate by hand` : ""}`
        : p.verdict === "none"
          ? "no pod carries its create key: the create never reached RunPod"
          : "not a pod of this provider with a create key: say what became of it in an interactive `pulumi refresh`";
    return `${p.urn}: ${what}`;
  });
  return [
    ...lines,
    "",
    `Settle them (the pods found are read into state; nothing is created, changed or deleted)${report.clearAfter ? "" : ", then answer for the rest"}:`,
    ...settlingCommands(report, importFile).map((c) => `  ${c}`),
  ];
}

export function registerPendingCreates(program: Command, out: Terminal): void {
  addOutputOptions(
    program
      .command("pending-creates")
      .description(
        "The pods a killed `pulumi up` was creating (pulumi stack export), found on the account, and the `pulumi import` that puts them into state.",
      )
      .argument("[file]", "the stack's export; - for standard input", "-")
      .option("--import-file <path>", "write the import file for `pulumi import --file` here"),
  )
    .addHelpText(
      "after",
      "\nJSON fields (one object): pendingCreates (urn, type, verdict: found, none or unknown, podId, status, duplicates), importFile (for `pulumi import --file`; null when no pod was found), clearAfter (whether `pulumi refresh --clear-pending-creates` settles the rest after the import).",
    )
    .action(async (file: string, opts: { importFile?: string }) => {
      const pending = pendingCreatesIn(
        readTextArgument("pending-creates", file, out.stdin),
        file === "-" ? "standard input" : file,
      );
      const pods =
        pending.length === 0 ? [] : await out.spin("Listing pods", () => connect(out).api.pods.list());
      const report = settlePendingCreates(pending, pods);
      if (opts.importFile && report.importFile)
        writeFileSync(opts.importFile, `${JSON.stringify(report.importFile, null, 2)}\n`);
      out.data(report, () => humanReport(report, opts.importFile));
    });
}
