/**
 * Validates HTTP exchanges against RunPod's v2 description (with the contract overlay applied):
 * which operation a request is (the description's path templates, concrete paths before templated
 * ones), its path, query and header parameters and its body, and the answer's status, headers and
 * body for that status and content type.
 *
 * Schemas are checked by Ajv's JSON Schema 2020-12 build, which implements `unevaluatedProperties`
 * (the description closes its allOf bodies with it; a draft-07 validator would pass a stray field).
 * OpenAPI's own keywords are handled so: `example` and `x-*` are annotations; a `discriminator`
 * whose mapping pins each variant's property becomes an if/then chain, equivalent to its oneOf but
 * reporting only the chosen variant's errors; the description is OpenAPI 3.1, so null is a type
 * (`["string", "null"]`), never `nullable`. Unknown keywords and formats are errors (strict mode),
 * so a new construct in the description is noticed, not skipped.
 */
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { parseList } from "structured-headers";
import {
  extensionKeywords,
  OPENAPI_NUMBER_FORMATS,
  prepared,
  retarget,
  SCHEMAS_ID,
  violationsOf,
} from "./ajv-schemas.js";
import {
  type Description,
  deref,
  describedOperations,
  type Header,
  HTTP_METHODS,
  loadDescription,
  type Operation,
  type Parameter,
  type PathItem,
  pointerToken,
  type Response,
  type Schema,
} from "./description.js";
import {
  applyOverlay,
  ERRATA,
  type Erratum,
  NEWER_ROUTES,
  type NewerRoutes,
  OVERLAY,
  type OverlayEntry,
} from "./overlay.js";

export type Direction = "request" | "answer";

/** One way an exchange departs from the description. */
export interface Violation {
  /** The operationId, or `METHOD /template` when the method is not described on the path. */
  readonly operation: string;
  readonly direction: Direction;
  /** JSON pointer into the exchange: `/path/id`, `/query/include`, `/headers/retry-after`, `/body/gpu/id`, `/status`. */
  readonly pointer: string;
  readonly message: string;
}

/** A request as sent: the body is the raw text ("" for none). */
export interface RequestRecord {
  readonly method: string;
  readonly path: string;
  /** The query string without `?`. */
  readonly query: string;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** An answer as received: the body is the raw text ("" for none). */
export interface AnswerRecord {
  readonly status: number;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** False when the stream broke off (a client that left an event stream): the body is not checked. @default true */
  readonly complete?: boolean;
}

export interface OperationMatch {
  readonly operationId: string;
  readonly method: string;
  readonly template: string;
  readonly pathParams: Readonly<Record<string, string>>;
}

export type RequestCheck =
  /** The description has this path and method. */
  | { readonly kind: "described"; readonly operation: OperationMatch; readonly violations: Violation[] }
  /** The description has the path, not the method. */
  | { readonly kind: "method-not-described"; readonly operation: string; readonly violations: Violation[] }
  /** No path of the description matches. */
  | { readonly kind: "undescribed" };

interface CompiledTemplate {
  readonly template: string;
  readonly regex: RegExp;
  readonly names: readonly string[];
  readonly literalSegments: number;
}

function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

function isJsonMedia(media: string): boolean {
  return media === "application/json" || /^application\/[\w.+-]+\+json$/.test(media);
}

function compileTemplate(template: string): CompiledTemplate {
  const names: string[] = [];
  let literalSegments = 0;
  const source = template
    .split("/")
    .map((segment) => {
      const m = /^\{(.+)\}$/.exec(segment);
      if (m?.[1]) {
        names.push(m[1]);
        return "([^/]+)";
      }
      if (segment !== "") literalSegments += 1;
      return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("/");
  return { template, regex: new RegExp(`^${source}$`), names, literalSegments };
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A query or header value as the type its schema names (strings that do not convert stay strings). */
function coerce(value: string, type: unknown): unknown {
  if (type === "integer" || type === "number")
    return /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(value) ? Number(value) : value;
  if (type === "boolean") return value === "true" ? true : value === "false" ? false : value;
  return value;
}

export class DescriptionValidator {
  readonly description: Description;
  private readonly ajv: Ajv2020;
  private readonly templates: CompiledTemplate[];
  private readonly compiled = new Map<string, ValidateFunction>();
  /** The component schemas as Ajv has them (references retargeted, discriminators and conditionals rewritten). */
  private readonly defs: Record<string, unknown>;

  /** Loads the description from `path` and applies the overlay, the errata and the newer routes to it. */
  static load(
    options: {
      path?: string;
      overlay?: readonly OverlayEntry[];
      errata?: readonly Erratum[];
      newer?: readonly NewerRoutes[];
    } = {},
  ): DescriptionValidator {
    return new DescriptionValidator(
      applyOverlay(
        loadDescription(options.path),
        options.overlay ?? OVERLAY,
        options.errata ?? ERRATA,
        options.newer ?? NEWER_ROUTES,
      ),
    );
  }

  constructor(description: Description) {
    this.description = description;
    this.ajv = new Ajv2020({
      allErrors: true,
      // parentSchema on every error: needed to tell a stray property from an unevaluated echo.
      verbose: true,
      strict: true,
      // OpenAPI composes objects with allOf members that do not repeat `type: object`; Ajv's
      // strictTypes would flag every one of them. Unknown keywords and formats stay errors.
      strictTypes: false,
      strictRequired: false,
    });
    addFormats(this.ajv);
    for (const format of OPENAPI_NUMBER_FORMATS) this.ajv.addFormat(format, true);
    this.ajv.addVocabulary(["example", "discriminator", ...extensionKeywords(description)]);
    const components = description.components.schemas as Record<string, Schema>;
    const schemas: Record<string, Schema> = {};
    for (const [name, schema] of Object.entries(components)) schemas[name] = prepared(schema, components);
    this.defs = retarget(schemas) as Record<string, unknown>;
    this.ajv.addSchema({ $id: SCHEMAS_ID, $defs: this.defs });
    this.templates = Object.keys(description.paths)
      .map(compileTemplate)
      // OpenAPI: concrete paths match before templated ones (/v2/registries/delegations before /v2/registries/{id}).
      .sort((a, b) => b.literalSegments - a.literalSegments);
  }

  /** Every described operation (method in upper case). */
  operations(): { method: string; template: string; operationId: string }[] {
    return describedOperations(this.description);
  }

  /** Which path template `path` is, and the operation for `method` on it. */
  match(
    method: string,
    path: string,
  ): { operation: OperationMatch } | { template: string; methods: string[] } | undefined {
    for (const t of this.templates) {
      const m = t.regex.exec(path);
      if (!m) continue;
      const item = this.description.paths[t.template] as PathItem;
      const op = item[method.toLowerCase() as (typeof HTTP_METHODS)[number]];
      if (!op) {
        const methods = HTTP_METHODS.filter((x) => item[x]).map((x) => x.toUpperCase());
        return { template: t.template, methods };
      }
      const pathParams: Record<string, string> = {};
      t.names.forEach((name, i) => {
        pathParams[name] = decode(m[i + 1] ?? "");
      });
      return {
        operation: {
          operationId: op.operationId,
          method: method.toUpperCase(),
          template: t.template,
          pathParams,
        },
      };
    }
    return undefined;
  }

  /** Checks a request: which operation it is, its parameters and its body. */
  validateRequest(req: RequestRecord): RequestCheck {
    const found = this.match(req.method, req.path);
    if (!found) return { kind: "undescribed" };
    if (!("operation" in found)) {
      const operation = `${req.method.toUpperCase()} ${found.template}`;
      return {
        kind: "method-not-described",
        operation,
        violations: [
          {
            operation,
            direction: "request",
            pointer: "",
            message: `the description has no ${req.method.toUpperCase()} on ${found.template} (it has ${found.methods.join(", ")})`,
          },
        ],
      };
    }
    const match = found.operation;
    const op = this.operation(match);
    const violations = [
      ...this.checkParameters(match, op, req),
      ...this.checkRequestBody(match.operationId, op, req),
    ];
    return { kind: "described", operation: match, violations };
  }

  /** Checks the answer to a described operation: its status, headers and body. */
  validateAnswer(match: OperationMatch, answer: AnswerRecord): Violation[] {
    const op = this.operation(match);
    const id = match.operationId;
    const fail = (pointer: string, message: string): Violation => ({
      operation: id,
      direction: "answer",
      pointer,
      message,
    });
    const status = String(answer.status);
    const listed = op.responses[status] ?? op.responses[`${status[0]}XX`];
    // `default` is the description's error answer: a success it does not list is not one.
    const spec = listed ?? (answer.status >= 300 ? op.responses.default : undefined);
    if (!spec) {
      return [
        fail(
          "/status",
          `${status} is not an answer of ${id} (it gives ${Object.keys(op.responses).join(", ")})`,
        ),
      ];
    }
    const response = deref<Response>(this.description, spec);
    const location = `${id} ${op.responses[status] ? status : "default"}`;
    const out: Violation[] = [];

    for (const [name, headerOrRef] of Object.entries(response.headers ?? {})) {
      const header = deref<Header>(this.description, headerOrRef);
      const value = answer.headers[name.toLowerCase()];
      const pointer = `/headers/${pointerToken(name.toLowerCase())}`;
      if (value === undefined) {
        if (header.required) out.push(fail(pointer, "required header is missing"));
        continue;
      }
      if (header.schema) {
        const validate = this.compile(`${location} header ${name}`, header.schema);
        if (!validate(coerce(value, deref<Schema>(this.description, header.schema).type))) {
          out.push(...violationsOf(validate.errors, pointer, id, "answer", this.defs));
        }
      }
      const structured = rateLimitStructure(name, value);
      if (structured) out.push(fail(pointer, structured));
    }

    const content = response.content ?? {};
    const media = mediaTypeOf(answer.headers["content-type"]);
    const described = Object.keys(content).join(", ");
    // A stream that broke off: its status and headers are checked, not its body.
    const complete = answer.complete !== false;
    if (described === "") {
      if (complete && answer.body !== "") {
        const type = media || "no content type";
        out.push(
          fail(
            "/body",
            `the description gives no body for ${status}; the answer had ${answer.body.length} bytes (${type})`,
          ),
        );
      }
      return out;
    }
    if (complete && answer.body === "" && (media === "" || isJsonMedia(media))) {
      out.push(fail("/body", `the description gives a ${described} body for ${status}; the answer had none`));
      return out;
    }
    const mediaSpec = content[media];
    if (!mediaSpec) {
      out.push(fail("/headers/content-type", `${media || "no content type"} is not one of ${described}`));
      return out;
    }
    // An event stream that sent no event is an empty string, which its schema (a string) allows.
    if (complete && mediaSpec.schema) {
      out.push(...this.checkBody(`${location} ${media}`, mediaSpec.schema, media, answer.body, id, "answer"));
    }
    return out;
  }

  private operation(match: OperationMatch): Operation & { pathParameters: readonly Parameter[] } {
    const item = this.description.paths[match.template] as PathItem;
    const op = item[match.method.toLowerCase() as (typeof HTTP_METHODS)[number]] as Operation;
    const params = new Map<string, Parameter>();
    for (const p of [...(item.parameters ?? []), ...(op.parameters ?? [])]) {
      const param = deref<Parameter>(this.description, p);
      params.set(`${param.in}:${param.name}`, param);
    }
    return { ...op, pathParameters: [...params.values()] };
  }

  private compile(key: string, schema: Schema): ValidateFunction {
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(
        retarget(prepared(schema, this.description.components.schemas as Record<string, Schema>)) as Schema,
      );
      this.compiled.set(key, validate);
    }
    return validate;
  }

  private checkParameters(
    match: OperationMatch,
    op: Operation & { pathParameters: readonly Parameter[] },
    req: RequestRecord,
  ): Violation[] {
    const id = match.operationId;
    const out: Violation[] = [];
    const fail = (pointer: string, message: string) =>
      out.push({ operation: id, direction: "request", pointer, message });
    const query = new URLSearchParams(req.query);
    const describedQuery = new Set<string>();
    for (const param of op.pathParameters) {
      const schema = param.schema ?? {};
      const resolved = deref<Schema>(this.description, schema);
      const validate = () => this.compile(`${id} ${param.in} ${param.name}`, schema);
      const pointer = `/${param.in}/${pointerToken(param.name)}`;
      const check = (value: unknown) => {
        const v = validate();
        if (!v(value)) out.push(...violationsOf(v.errors, pointer, id, "request", this.defs));
      };
      if (param.in === "path") {
        const value = match.pathParams[param.name];
        if (value === undefined) fail(pointer, "path parameter is missing");
        else check(coerce(value, resolved.type));
      } else if (param.in === "header") {
        const value = req.headers[param.name.toLowerCase()];
        if (value === undefined) {
          if (param.required) fail(pointer, "required header is missing");
        } else check(coerce(value, resolved.type));
      } else if (param.in === "query") {
        describedQuery.add(param.name);
        const values = query.getAll(param.name);
        if (values.length === 0) {
          if (param.required) fail(pointer, "required query parameter is missing");
          continue;
        }
        // OpenAPI: style defaults to form for query parameters, and form's explode to true.
        const explode = param.explode ?? (param.style ?? "form") === "form";
        if (resolved.type === "array") {
          const items = deref<Schema>(this.description, (resolved.items as Schema | undefined) ?? {});
          let list = values;
          if (!explode) {
            if (values.length > 1) {
              fail(
                pointer,
                `sent ${values.length} times; the description serialises it as one comma-separated value (style form, explode false)`,
              );
            }
            list = values.flatMap((v) => v.split(","));
          }
          check(list.map((v) => coerce(v, items.type)));
        } else {
          if (values.length > 1) fail(pointer, `sent ${values.length} times; it takes one value`);
          check(coerce(values[0] ?? "", resolved.type));
        }
      }
    }
    for (const name of new Set(query.keys())) {
      if (!describedQuery.has(name)) {
        fail(`/query/${pointerToken(name)}`, `not a query parameter of ${id}`);
      }
    }
    return out;
  }

  private checkRequestBody(id: string, op: Operation, req: RequestRecord): Violation[] {
    const fail = (pointer: string, message: string): Violation[] => [
      { operation: id, direction: "request", pointer, message },
    ];
    const spec = op.requestBody;
    if (!spec)
      return req.body === ""
        ? []
        : fail("/body", `${id} takes no request body; ${req.body.length} bytes were sent`);
    if (req.body === "") return spec.required ? fail("/body", "required request body is missing") : [];
    const media = mediaTypeOf(req.headers["content-type"]);
    const mediaSpec = spec.content[media];
    if (!mediaSpec) {
      return fail(
        "/headers/content-type",
        `${media || "no content type"} is not one of ${Object.keys(spec.content).join(", ")}`,
      );
    }
    return mediaSpec.schema
      ? this.checkBody(`${id} request ${media}`, mediaSpec.schema, media, req.body, id, "request")
      : [];
  }

  private checkBody(
    key: string,
    schema: Schema,
    media: string,
    text: string,
    id: string,
    direction: Direction,
  ): Violation[] {
    let value: unknown = text;
    if (isJsonMedia(media)) {
      try {
        value = JSON.parse(text);
      } catch {
        return [{ operation: id, direction, pointer: "/body", message: `not valid JSON (${media})` }];
      }
    }
    const validate = this.compile(key, schema);
    return validate(value) ? [] : violationsOf(validate.errors, "/body", id, direction, this.defs);
  }
}

/**
 * The description's RateLimit headers are RFC 8941 lists with one member per window carrying
 * integer parameters (`r`, `t` for RateLimit; `q`, `w` for RateLimit-Policy); the contract's
 * Limits section says the same. Undefined when `value` is one, else what is wrong.
 */
function rateLimitStructure(name: string, value: string): string | undefined {
  const params = { ratelimit: ["r", "t"], "ratelimit-policy": ["q", "w"] }[name.toLowerCase()];
  if (!params) return undefined;
  let list: ReturnType<typeof parseList>;
  try {
    list = parseList(value);
  } catch (err) {
    return `not a structured-field list: ${err instanceof Error ? err.message : String(err)}`;
  }
  if (list.length === 0) return "an empty list: one member per window is expected";
  for (const [, memberParams] of list) {
    for (const p of params) {
      if (!Number.isInteger(memberParams.get(p))) {
        return `every window needs an integer parameter ${p}: ${value}`;
      }
    }
  }
  return undefined;
}
