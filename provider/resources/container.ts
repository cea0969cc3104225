/**
 * The container command codec a pod and a template share (docs/api-model.md, Container config,
 * `args`); the container fields themselves are declared in common-fields.ts.
 *
 * `args` is one raw string in one of two shapes: a bare shell string (treated as CMD and split
 * into arguments) or a JSON object string with `entrypoint` and/or `cmd` arrays. `cmd` and
 * `entrypoint` in a body are encoded into `args`. A body may carry `args` together with them only
 * when both describe the same command, so a client can send back what it read.
 */

export interface ContainerCommand {
  readonly entrypoint: readonly string[];
  readonly cmd: readonly string[];
}

/** Splits a shell string into arguments, honouring single quotes, double quotes and backslashes. */
export function shellSplit(text: string): string[] {
  const out: string[] = [];
  let current = "";
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charAt(i);
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === "\\" && quote === '"' && i + 1 < text.length) current += text.charAt(++i);
      else current += c;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === "\\" && i + 1 < text.length) {
      current += text.charAt(++i);
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) out.push(current);
      current = "";
      inWord = false;
    } else {
      current += c;
      inWord = true;
    }
  }
  if (inWord) out.push(current);
  return out;
}

export function stringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((s) => typeof s === "string");
}

/** The command an `args` string describes. */
export function decodeArgs(args: string): ContainerCommand {
  const trimmed = args.trim();
  if (trimmed === "") return { entrypoint: [], cmd: [] };
  if (trimmed.startsWith("{")) {
    try {
      const parsed = JSON.parse(trimmed) as Record<string, unknown>;
      const keys = Object.keys(parsed);
      if (
        parsed &&
        typeof parsed === "object" &&
        keys.every((k) => k === "entrypoint" || k === "cmd") &&
        (parsed.entrypoint === undefined || stringArray(parsed.entrypoint)) &&
        (parsed.cmd === undefined || stringArray(parsed.cmd))
      ) {
        return { entrypoint: (parsed.entrypoint as string[]) ?? [], cmd: (parsed.cmd as string[]) ?? [] };
      }
    } catch {
      // not JSON: a shell string that happens to start with a brace
    }
  }
  return { entrypoint: [], cmd: shellSplit(trimmed) };
}

/** The `args` string for a command given as arrays. */
export function encodeArgs(command: ContainerCommand): string {
  const body: { entrypoint?: readonly string[]; cmd?: readonly string[] } = {};
  if (command.entrypoint.length > 0) body.entrypoint = command.entrypoint;
  if (command.cmd.length > 0) body.cmd = command.cmd;
  return Object.keys(body).length === 0 ? "" : JSON.stringify(body);
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((v, i) => v === b[i]);

export interface CommandFields {
  readonly args?: string | undefined;
  readonly cmd?: readonly string[] | undefined;
  readonly entrypoint?: readonly string[] | undefined;
}

/**
 * The stored `args` after applying a body's `args`/`cmd`/`entrypoint` to `currentArgs`, or the
 * reason they are inconsistent. Omitted fields leave the command unchanged; `[]` clears a part.
 */
export function applyCommand(
  currentArgs: string,
  fields: CommandFields,
): { args: string } | { error: string } {
  if (fields.args !== undefined) {
    const decoded = decodeArgs(fields.args);
    if (fields.cmd !== undefined && !sameList(fields.cmd, decoded.cmd)) {
      return {
        error:
          "args and cmd describe different commands; send one of them, or both describing the same command",
      };
    }
    if (fields.entrypoint !== undefined && !sameList(fields.entrypoint, decoded.entrypoint)) {
      return {
        error:
          "args and entrypoint describe different commands; send one of them, or both describing the same command",
      };
    }
    return { args: fields.args };
  }
  if (fields.cmd === undefined && fields.entrypoint === undefined) return { args: currentArgs };
  const current = decodeArgs(currentArgs);
  return {
    args: encodeArgs({ entrypoint: fields.entrypoint ?? current.entrypoint, cmd: fields.cmd ?? current.cmd }),
  };
}
