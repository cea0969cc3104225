/**
 * What the cost command reads: the document `pulumi preview --json` writes (a change: each
 * resource before and after it), or the one `pulumi stack export` writes (what runs now). Either
 * becomes a list of {@link CostChange}s, each side a resource as the estimate reads it.
 *
 * A preview shows a secret as `"[secret]"` and a value it cannot know yet as the unknown
 * sentinel; an export holds a secret as an encrypted envelope. All three reach the estimate as a
 * value it cannot read, so it says "unknown" and never prices them as zero.
 */
import type { PricedResource } from "../../provider/cost/estimate.js";
import { HIDDEN } from "../../provider/cost/estimate-fields.js";
import { STACK_IDENTITY_TYPE } from "../../provider/resources/type-tokens.js";
import { UsageError } from "../errors.js";
import { nameOf } from "../stack-export.js";

/** What happens to one resource in the change. */
export type CostOp = "create" | "update" | "replace" | "delete" | "same" | "read" | "import";

export interface CostChange {
  readonly urn: string;
  /** The resource's id, once it exists. */
  readonly id: string | undefined;
  /** The resource's name in the program (`new Pod("trainer", ...)`). */
  readonly name: string;
  readonly type: string;
  readonly op: CostOp;
  readonly before: PricedResource | null;
  readonly after: PricedResource | null;
}

/** Where the changes came from: a preview (before and after) or a state export (now). */
export interface CostDocument {
  readonly kind: "preview" | "state";
  readonly changes: readonly CostChange[];
  /**
   * Resources the change leaves alone that the preview does not list: `pulumi preview --json`
   * shows them only with `--show-sames`, so without it the totals cover what changes only.
   */
  readonly unlisted: number;
}

type Fields = Record<string, unknown>;

interface ResourceState {
  readonly urn?: string;
  readonly id?: string;
  readonly type?: string;
  readonly inputs?: Fields;
  readonly outputs?: Fields;
}

interface Step {
  readonly op?: string;
  readonly urn?: string;
  readonly oldState?: ResourceState;
  readonly newState?: ResourceState;
}

/** The envelope state files keep a secret in (`pulumi stack export`). */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";

function isRecord(value: unknown): value is Fields {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A copy with every secret, shown or encrypted, turned into {@link HIDDEN}. */
function readable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(readable);
  if (isRecord(value)) {
    if (SECRET_SIG in value) return HIDDEN;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, readable(v)]));
  }
  return value;
}

const props = (value: Fields | undefined): Fields => (isRecord(value) ? (readable(value) as Fields) : {});

/** A resource that exists: declared as `inputs`, placed as `outputs` say. */
function existing(state: ResourceState, type: string): PricedResource {
  return { type, inputs: props(state.inputs), live: props(state.outputs) };
}

const typeOfUrn = (urn: string): string => urn.split("::")[2]?.split("$").pop() ?? "";

/**
 * Resources nothing bills and no change is about: the engine's own (the stack, provider
 * instances) and the stack's identity, which this provider keeps in state for itself.
 */
const isBookkeeping = (type: string) =>
  type === "pulumi:pulumi:Stack" || type.startsWith("pulumi:providers:") || type === STACK_IDENTITY_TYPE;

/**
 * A preview's steps grouped by resource: with `--show-replacement-steps` a replacement is three
 * steps (create-replacement, replace, delete-replaced), without it one.
 */
function fromPreview(steps: readonly Step[], where: string): CostChange[] {
  const byUrn = new Map<string, Step[]>();
  steps.forEach((step, i) => {
    if (typeof step?.op !== "string" || typeof step.urn !== "string")
      throw new UsageError(
        `${where}: steps[${i}] has no op or urn: this is not what \`pulumi preview --json\` writes.`,
      );
    byUrn.set(step.urn, [...(byUrn.get(step.urn) ?? []), step]);
  });
  const changes: CostChange[] = [];
  for (const [urn, group] of byUrn) {
    const type = group.map((s) => s.newState?.type ?? s.oldState?.type).find((t) => t) ?? typeOfUrn(urn);
    if (isBookkeeping(type)) continue;
    const ops = new Set(group.map((s) => s.op));
    const old = group.find((s) => s.oldState)?.oldState;
    const next = group.find((s) => s.newState && s.op !== "delete-replaced")?.newState;
    const base = { urn, id: old?.id, name: nameOf(urn), type };
    // What the resource will be: a new one is priced from its inputs alone (it is not placed yet);
    // one updated in place keeps where it runs, so its outputs say that, but not what it is billed.
    const planned = (state: ResourceState | undefined): PricedResource => ({
      type,
      inputs: props(state?.inputs),
    });
    if (ops.has("replace") || ops.has("create-replacement")) {
      changes.push({
        ...base,
        op: "replace",
        before: old ? existing(old, type) : null,
        after: planned(next),
      });
    } else if (ops.has("create")) {
      changes.push({ ...base, op: "create", before: null, after: planned(next) });
    } else if (ops.has("delete") || ops.has("discard") || ops.has("delete-replaced")) {
      changes.push({ ...base, op: "delete", before: old ? existing(old, type) : null, after: null });
    } else if (ops.has("update") || ops.has("same") || ops.has("refresh")) {
      if (!old) continue;
      const before = existing(old, type);
      const { cost: _billedBefore, ...placed } = before.live ?? {};
      const op = ops.has("update") ? "update" : "same";
      const after =
        op === "same" ? before : { type, inputs: props(next?.inputs ?? old.inputs), live: placed };
      changes.push({ ...base, op, before, after });
    } else if (ops.has("import")) {
      changes.push({ ...base, op: "import", before: null, after: next ? existing(next, type) : null });
    } else {
      // read (a `get` of something the stack does not manage) and anything newer: listed, not counted.
      changes.push({ ...base, op: "read", before: null, after: null });
    }
  }
  return changes;
}

function fromState(resources: readonly ResourceState[], where: string): CostChange[] {
  return resources.flatMap((r, i) => {
    if (typeof r?.urn !== "string" || typeof r.type !== "string")
      throw new UsageError(
        `${where}: deployment.resources[${i}] has no urn or type: this is not what \`pulumi stack export\` writes.`,
      );
    if (isBookkeeping(r.type)) return [];
    const now = existing(r, r.type);
    return [
      {
        urn: r.urn,
        id: r.id,
        name: nameOf(r.urn),
        type: r.type,
        op: "same" as const,
        before: now,
        after: now,
      },
    ];
  });
}

/** The changes a preview or a state export describes; `where` names the file in errors. */
export function readCostDocument(text: string, where: string): CostDocument {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new UsageError(
      `${where} is not JSON (${(err as Error).message}): give the output of \`pulumi preview --json\` or \`pulumi stack export\`.`,
    );
  }
  if (isRecord(json) && Array.isArray(json.steps)) {
    const changes = fromPreview(json.steps, where);
    // The summary counts the stack itself among the unchanged, and the stack's identity (listed
    // with --show-sames, never priced).
    const identity = json.steps.some(
      (s) =>
        isRecord(s) &&
        s.op === "same" &&
        typeof s.urn === "string" &&
        typeOfUrn(s.urn) === STACK_IDENTITY_TYPE,
    );
    const same = isRecord(json.changeSummary)
      ? Number(json.changeSummary.same ?? 0) - 1 - (identity ? 1 : 0)
      : 0;
    const listed = changes.filter((c) => c.op === "same").length;
    return { kind: "preview", changes, unlisted: Math.max(0, same - listed) };
  }
  const deployment = isRecord(json) ? json.deployment : undefined;
  if (isRecord(deployment)) {
    const resources = deployment.resources ?? [];
    if (!Array.isArray(resources))
      throw new UsageError(
        `${where}: deployment.resources is not a list: this is not what \`pulumi stack export\` writes.`,
      );
    return { kind: "state", changes: fromState(resources, where), unlisted: 0 };
  }
  throw new UsageError(
    `${where} is neither a preview (\`pulumi preview --json\`, with "steps") nor a state export (\`pulumi stack export\`, with "deployment").`,
  );
}
