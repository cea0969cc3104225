/** The emulator's one error type and its translation to application/problem+json (docs/api-model.md, Errors). */

const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  402: "Payment Required",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  410: "Gone",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Entity",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
};

export class HttpError extends Error {
  readonly title: string;
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly errors?: readonly string[],
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.title = TITLES[status] ?? "Error";
  }

  body(): { title: string; status: number; detail: string; errors?: readonly string[] } {
    return {
      title: this.title,
      status: this.status,
      detail: this.detail,
      ...(this.errors && this.errors.length > 0 ? { errors: this.errors } : {}),
    };
  }
}

export const badRequest = (detail: string) => new HttpError(400, detail);
export const notFound = (detail: string) => new HttpError(404, detail);
export const conflict = (detail: string) => new HttpError(409, detail);
export const unprocessable = (
  errors: readonly string[],
  detail = "Request body does not match the contract.",
) => new HttpError(422, detail, errors);

/** The message the service gives when a GPU/data-center combination cannot be placed. */
export const NO_CAPACITY =
  "There are no longer any instances available with the requested specifications. Please refresh and try again.";
