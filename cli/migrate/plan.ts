/**
 * The move of a stack from RunPod's official provider to this one, planned from the stack's export
 * and what the account holds: the old resources and their provider instances are deleted from state
 * alone (`pulumi state delete`, which calls no provider), then each object is read into state under
 * our type, by the same name and id (`pulumi import --file`). Nothing on the account is created,
 * changed, stopped or deleted at any step (docs/from-pulumi-runpod.md, "Moving a stack").
 */
import { z } from "zod";
import { pluginToken } from "../../provider/resources/type-tokens.js";
import { type ImportFile, importFileOf } from "../import-file.js";
import { nameOf, parseStackExport } from "../stack-export.js";
import {
  OFFICIAL_DEFAULT_API_URL,
  OFFICIAL_KINDS,
  OFFICIAL_PREFIX,
  OFFICIAL_PROVIDER_TYPE,
  type OurKind,
} from "./official-provider.js";

const Resource = z.looseObject({
  urn: z.string(),
  type: z.string(),
  id: z.string().optional(),
  custom: z.boolean().optional(),
  protect: z.boolean().optional(),
  parent: z.string().optional(),
  provider: z.string().optional(),
  dependencies: z.array(z.string()).optional(),
  propertyDependencies: z.record(z.string(), z.array(z.string())).optional(),
  deletedWith: z.string().optional(),
  inputs: z.record(z.string(), z.unknown()).optional(),
});
type Resource = z.infer<typeof Resource>;

/** The part of `pulumi stack export` the move reads; everything else is let through. */
const StackExport = z.looseObject({
  deployment: z.looseObject({
    resources: z.array(Resource).optional(),
    pending_operations: z.array(z.unknown()).optional(),
  }),
});

/** One resource of the official provider and what becomes of it. */
export interface MovedResource {
  readonly urn: string;
  /** Its type's kind, `Pod` of `runpod:index:Pod`. */
  readonly official: string;
  /** Ours, `Pod`; null for a kind this package has no counterpart of. */
  readonly ours: OurKind | null;
  readonly name: string;
  readonly id: string;
  /** Whether the account has the object; null when the kind has no counterpart. */
  readonly onAccount: boolean | null;
  /** Inputs the old resource set that nothing of ours carries: the move drops them. */
  readonly dropped: readonly string[];
  /** The input the program must give again (the API never answers it): `password`, `value`. */
  readonly giveAgain: string | null;
  readonly protect: boolean;
}

export interface MigrationPlan {
  readonly resources: readonly MovedResource[];
  /** Every moved object found on the account, for `pulumi import --file`; null when none is. */
  readonly importFile: ImportFile | null;
  /** What `pulumi state delete` removes, dependents before what they depend on, provider instances last. */
  readonly stateDeletes: readonly string[];
  /** Whether any of them is protected (`--force`). */
  readonly forceDelete: boolean;
  /** Resources of other providers that depend on an official one: state delete refuses while they do. */
  readonly blockers: readonly { urn: string; dependsOn: string }[];
  /** What the old provider instances were configured with, as the move needs it said. */
  readonly config: { readonly apiKey: boolean; readonly apiUrl: string | null };
}

/** The part of a stack's export the move reads, parsed once. */
export interface ExportedStack {
  readonly resources: readonly Resource[];
  /** Operations a killed run left in the stack: the move waits until they are settled. */
  readonly pendingOperations: number;
}

/** `text`, a `pulumi stack export`; `where` names it in errors. */
export function readExportedStack(text: string, where: string): ExportedStack {
  const deployment = parseStackExport(text, where, StackExport).deployment;
  return {
    resources: deployment.resources ?? [],
    pendingOperations: deployment.pending_operations?.length ?? 0,
  };
}

const isOfficial = (r: Resource) =>
  r.type.startsWith(OFFICIAL_PREFIX) && r.custom !== false && r.id !== undefined;
const kindOf = (r: Resource) => OFFICIAL_KINDS[r.type.slice(OFFICIAL_PREFIX.length)];
const isOfficialProvider = (r: Resource) => r.type === OFFICIAL_PROVIDER_TYPE;
const providerUrnOf = (ref: string | undefined) => ref?.slice(0, ref.lastIndexOf("::"));

/** Every URN `r` needs to exist before it: its dependencies, its parent, its provider instance. */
function needs(r: Resource): string[] {
  return [
    ...(r.dependencies ?? []),
    ...Object.values(r.propertyDependencies ?? {}).flat(),
    ...(r.parent ? [r.parent] : []),
    ...(r.deletedWith ? [r.deletedWith] : []),
    ...(r.provider ? [providerUrnOf(r.provider) ?? ""] : []),
  ];
}

function setInputs(r: Resource, names: readonly string[]): string[] {
  return names.filter((n) => r.inputs?.[n] !== undefined && r.inputs?.[n] !== null);
}

/** Our kinds the stack's official resources become: what the account is listed for. */
export function kindsToFind(stack: ExportedStack): Set<OurKind> {
  return new Set(stack.resources.filter(isOfficial).flatMap((r) => kindOf(r)?.ours ?? []));
}

/** The move of `stack`, given the ids the account has of each of our kinds. */
export function planMigration(
  stack: ExportedStack,
  accountIds: ReadonlyMap<OurKind, ReadonlySet<string>>,
): MigrationPlan {
  const all = stack.resources;
  const official = all.filter(isOfficial);
  const resources = official.map((r): MovedResource => {
    const kind = r.type.slice(OFFICIAL_PREFIX.length);
    const known = kindOf(r);
    const id = r.id ?? "";
    return {
      urn: r.urn,
      official: kind,
      ours: known?.ours ?? null,
      name: nameOf(r.urn),
      id,
      onAccount: known ? (accountIds.get(known.ours)?.has(id) ?? false) : null,
      dropped: known ? setInputs(r, known.noCounterpart) : [],
      giveAgain: known?.writeOnly ?? null,
      protect: r.protect === true,
    };
  });
  const providers = all.filter(isOfficialProvider);
  // A kind of theirs with no counterpart stays theirs, and so does the provider instance it uses.
  const staying = official.filter((r) => kindOf(r) === undefined);
  const kept = new Set(staying.map((r) => providerUrnOf(r.provider)));
  const leaving = new Set(
    [...official.filter((r) => !staying.includes(r)), ...providers.filter((p) => !kept.has(p.urn))].map(
      (r) => r.urn,
    ),
  );
  const found = resources.filter((m) => m.onAccount === true && m.ours !== null);
  const importFile =
    found.length === 0
      ? null
      : importFileOf(
          found.map((m) => ({
            type: pluginToken(m.ours ?? ""),
            name: m.name,
            id: m.id,
            // A parent that leaves too has no urn to import under; the stack takes its place.
            parentUrn: [official.find((r) => r.urn === m.urn)?.parent].find((u) => u && !leaving.has(u)),
          })),
        );
  const blockers = all
    .filter((r) => !leaving.has(r.urn))
    .flatMap((r) => {
      const on = needs(r).find((u) => leaving.has(u));
      return on ? [{ urn: r.urn, dependsOn: on }] : [];
    });
  // An export lists each resource after what it needs: the reverse deletes dependents first.
  const stateDeletes = [...[...official].reverse(), ...providers]
    .filter((r) => leaving.has(r.urn))
    .map((r) => r.urn);
  const apiUrls = providers.map((p) => p.inputs?.apiUrl).filter((u): u is string => typeof u === "string");
  return {
    resources,
    importFile,
    stateDeletes,
    forceDelete: all.some((r) => leaving.has(r.urn) && r.protect === true),
    blockers,
    config: {
      apiKey: providers.some((p) => p.inputs?.apiKey !== undefined),
      apiUrl: apiUrls.find((u) => u !== OFFICIAL_DEFAULT_API_URL) ?? null,
    },
  };
}
