/**
 * Reading the values an estimate needs from a resource's inputs and outputs: a value preview does
 * not know yet (or a secret) stops the estimate as "unknown", one it cannot use as an "error" that
 * names the field.
 */
import { isUnknown } from "../validation/unknown.js";

/** How a preview shows a secret value; the estimate cannot read it, so it is "unknown" there too. */
export const HIDDEN = "[secret]";

/** Thrown while reading: the value at `field` is unknown, or is not what the estimate can use. */
export class Stop extends Error {
  constructor(
    readonly kind: "unknown" | "error",
    readonly field: string,
    reason: string,
  ) {
    super(reason);
  }
}

export type Fields = Readonly<Record<string, unknown>>;

export function record(value: unknown): Fields | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Fields) : undefined;
}

/** `value`, unless preview does not know it yet. */
export function known<T>(value: T, field: string): T {
  if (isUnknown(value)) throw new Stop("unknown", field, `${field} is not known until the change is applied`);
  if (value === HIDDEN) throw new Stop("unknown", field, `${field} is a secret`);
  return value;
}

export function text(value: unknown, field: string): string {
  known(value, field);
  if (typeof value !== "string" || value === "") throw new Stop("error", field, `${field} must name an id`);
  return value;
}

/** A count or size; `fallback` when absent. */
export function amount(value: unknown, field: string, fallback: number): number;
export function amount(value: unknown, field: string): number | undefined;
export function amount(value: unknown, field: string, fallback?: number): number | undefined {
  known(value, field);
  if (value === undefined || value === null) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0)
    throw new Stop("error", field, `${field} must be a number of at least 0`);
  return value;
}
