/**
 * What every typed call accepts besides its own arguments, handed on to `RunpodClient.request`.
 *
 * The query shapes of these modules are type aliases, not interfaces: only an alias is assignable
 * to the request's query record (an interface has no implicit index signature).
 */
export type CallOptions = {
  readonly signal?: AbortSignal | undefined;
  readonly deadlineMs?: number;
  readonly priority?: "foreground" | "background";
  /** Whether the client may send it again after a 5xx or a broken connection. @default not for POST */
  readonly idempotent?: boolean;
};

/** An id placed in a path segment: ids come from users and state files, so they are escaped. */
export const segment = encodeURIComponent;
