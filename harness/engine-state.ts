/**
 * The stand-in engine's state (harness/engine.ts): resources in registration order, secret
 * values as Pulumi marks them, the encrypted state file, and the order deletes run in.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";

export const SECRET_SIG = "4dabf18193072939515e22adb298388d";
export const SECRET_VALUE = "1b47061264138c4ac30d75fd1eb44270";
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export const isSecret = (v: unknown): v is { value: unknown } =>
  v !== null && typeof v === "object" && (v as Record<string, unknown>)[SECRET_SIG] === SECRET_VALUE;
export const secret = (value: unknown) => ({ [SECRET_SIG]: SECRET_VALUE, value });

export interface ResourceState {
  urn: string;
  type: string;
  name: string;
  custom: boolean;
  id: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  /** Top-level output keys stored as secrets. */
  secretKeys: string[];
  dependencies: string[];
}

/** A stack's state: resources in registration order, and the stack outputs. */
export class StackState {
  resources = new Map<string, ResourceState>();
  outputs: Record<string, unknown> = {};
  /**
   * Replaced resources whose delete failed. As in the real engine's state (`delete: true`), they
   * stay known, and the next run deletes them first.
   */
  pendingDeletes: ResourceState[] = [];

  /** JSON with every secret value encrypted (AES-256-GCM), as a state file would hold it. */
  toJSON(key: Buffer): string {
    const seal = (v: unknown) => {
      const iv = randomBytes(12);
      const c = createCipheriv("aes-256-gcm", key, iv);
      const data = Buffer.concat([c.update(JSON.stringify(v), "utf8"), c.final()]);
      return {
        [SECRET_SIG]: SECRET_VALUE,
        ciphertext: Buffer.concat([iv, c.getAuthTag(), data]).toString("base64"),
      };
    };
    const resources = [...this.resources.values(), ...this.pendingDeletes].map((r, i) => ({
      ...r,
      ...(i >= this.resources.size ? { delete: true } : {}),
      inputs: Object.fromEntries(
        Object.entries(r.inputs).map(([k, v]) => [k, isSecret(v) ? seal(v.value) : v]),
      ),
      outputs: Object.fromEntries(
        Object.entries(r.outputs).map(([k, v]) => [k, r.secretKeys.includes(k) ? seal(v) : v]),
      ),
    }));
    const outputs = Object.fromEntries(
      Object.entries(this.outputs).map(([k, v]) => [k, isSecret(v) ? seal(v.value) : v]),
    );
    return JSON.stringify({ version: 1, resources, outputs }, null, 2);
  }

  static fromJSON(text: string, key: Buffer): StackState {
    const open = (v: unknown): unknown => {
      if (!isSecret(v) || typeof (v as Record<string, unknown>).ciphertext !== "string") return v;
      const raw = Buffer.from((v as unknown as { ciphertext: string }).ciphertext, "base64");
      const d = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
      d.setAuthTag(raw.subarray(12, 28));
      return JSON.parse(Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString("utf8"));
    };
    const parsed = JSON.parse(text) as {
      resources: (ResourceState & { delete?: boolean })[];
      outputs: Record<string, unknown>;
    };
    const state = new StackState();
    for (const { delete: pending, ...r } of parsed.resources) {
      const opened: ResourceState = {
        ...r,
        inputs: Object.fromEntries(
          Object.entries(r.inputs).map(([k, v]) => [k, isSecret(v) ? secret(open(v)) : v]),
        ),
        outputs: Object.fromEntries(Object.entries(r.outputs).map(([k, v]) => [k, open(v)])),
      };
      if (pending) state.pendingDeletes.push(opened);
      else state.resources.set(r.urn, opened);
    }
    state.outputs = Object.fromEntries(
      Object.entries(parsed.outputs).map(([k, v]) => [k, isSecret(v) ? secret(open(v)) : v]),
    );
    return state;
  }

  save(path: string, key: Buffer): void {
    writeFileSync(path, this.toJSON(key));
  }

  static load(path: string, key: Buffer): StackState {
    return StackState.fromJSON(readFileSync(path, "utf8"), key);
  }
}

/** Removes secret wrappers at any depth (dynamic providers do not accept secrets). */
function reveal(v: unknown): { value: unknown; secret: boolean } {
  if (isSecret(v)) return { value: reveal(v.value).value, secret: true };
  if (Array.isArray(v)) {
    const items = v.map(reveal);
    return { value: items.map((i) => i.value), secret: items.some((i) => i.secret) };
  }
  if (v !== null && typeof v === "object") {
    const entries = Object.entries(v).map(([k, x]) => [k, reveal(x)] as const);
    return {
      value: Object.fromEntries(entries.map(([k, x]) => [k, x.value])),
      secret: entries.some(([, x]) => x.secret),
    };
  }
  return { value: v, secret: false };
}

/** Plain inputs, and the top-level keys that held a secret anywhere inside (the engine re-marks those outputs). */
export const unwrap = (props: Record<string, unknown>) => {
  const secretKeys: string[] = [];
  const plain: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(props)) {
    const r = reveal(v);
    if (r.secret) secretKeys.push(k);
    plain[k] = r.value;
  }
  return { plain, secretKeys };
};

export function plainInputs(r: ResourceState): Record<string, unknown> {
  return unwrap(r.inputs).plain;
}

export function isSecretInput(r: ResourceState, key: string): boolean {
  return isSecret(r.inputs[key]);
}

/** Reverse registration order, with every resource after the ones that depend on it. */
export function deletionOrder(resources: ResourceState[]): ResourceState[] {
  const out: ResourceState[] = [];
  const pending = [...resources].reverse();
  while (pending.length > 0) {
    const index = pending.findIndex((r) => !pending.some((o) => o !== r && o.dependencies.includes(r.urn)));
    const [next] = pending.splice(index < 0 ? 0 : index, 1);
    if (next) out.push(next);
  }
  return out;
}
