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

/**
 * The plain values a program's arguments type resolves to, as `check` sees them: every
 * `pulumi.Input` unwrapped at every depth, optional fields `?: T | undefined`. A resource's checked
 * inputs are this of its arguments type, declared once there (a Pod's `PodInputs` is
 * `Resolved<PodArgs>`), and its zod schema is proven the same with {@link Same}.
 */
export type Resolved<T> =
  T extends OutputLike<infer U>
    ? Resolved<U>
    : T extends Promise<infer U>
      ? Resolved<U>
      : T extends readonly (infer E)[]
        ? Resolved<E>[]
        : T extends object
          ? { [K in keyof T]: Resolved<T[K]> | OptionalIn<T, K> }
          : T;

/** `undefined` for an optional property of `T` (not for an index signature's keys), else nothing. */
type OptionalIn<T, K extends keyof T> = string extends K
  ? never
  : Record<never, never> extends Pick<T, K>
    ? undefined
    : never;

/** What `pulumi.Input` wraps a value in besides a promise (`OutputInstance<T>`), by its shape. */
interface OutputLike<T> {
  apply<U>(func: (t: T) => U): unknown;
}
