/**
 * Compile-time proof that a hand-written type and a zod-inferred one describe the same values.
 *
 * The declarations a Pulumi program compiles against carry hand-written types only: a program
 * compiled without `esModuleInterop` (what `pulumi new typescript` sets up) fails inside zod's own
 * declaration files as soon as one of ours imports zod. Where a hand-written type has a schema
 * twin, a statement outside those declarations, `true satisfies Same<Written, Inferred>;`, fails
 * the build as soon as the two drift apart. Optional fields are written `?: T | undefined`, as zod
 * infers them, so the two stay equal under `exactOptionalPropertyTypes`.
 */

/**
 * Every property made required, at every depth. Two types that differ only by an optional property
 * are assignable to each other; filled in, they are not, so such a drift is caught too.
 */
type Filled<T> = T extends object ? { [K in keyof T]-?: Filled<T[K]> } : T;

/** `true` when A and B, every property filled in, are assignable to each other; `false` otherwise. */
export type Same<A, B> = [Filled<A>] extends [Filled<B>]
  ? [Filled<B>] extends [Filled<A>]
    ? true
    : false
  : false;
