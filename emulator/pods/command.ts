/**
 * The container command as the emulator reads it (docs/api-model.md, Container config, `args`), kept apart
 * from the provider's encoder so each checks the other. `args` is one raw string: a JSON object
 * string with `entrypoint` and/or `cmd` string arrays, or else a shell string that is the CMD, split
 * into words. A body's `cmd`/`entrypoint` are encoded into `args`; `args` together with them is
 * accepted only when all describe the same command.
 */
import { badRequest } from "../http/errors.js";

export interface Command {
  entrypoint: string[];
  cmd: string[];
}

/** POSIX-shell-like word splitting: whitespace separates, quotes group, backslash escapes. */
function words(text: string): string[] {
  const out: string[] = [];
  let word: string | undefined;
  let quote = "";
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charAt(i);
    if (quote === "'") {
      if (c === "'") quote = "";
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = "";
      else if (c === "\\" && i + 1 < text.length) word += text.charAt(++i);
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= "";
    } else if (c === "\\" && i + 1 < text.length) {
      word = (word ?? "") + text.charAt(++i);
    } else if (c === " " || c === "\t" || c === "\n" || c === "\r") {
      if (word !== undefined) out.push(word);
      word = undefined;
    } else {
      word = (word ?? "") + c;
    }
  }
  if (word !== undefined) out.push(word);
  return out;
}

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === "string");

/** The command an `args` string stands for. */
export function readCommand(args: string): Command {
  const text = args.trim();
  if (text.startsWith("{")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
      const o = parsed as Record<string, unknown>;
      const onlyKnown = Object.keys(o).every((k) => k === "entrypoint" || k === "cmd");
      const ok = (v: unknown) => v === undefined || isStrings(v);
      if (onlyKnown && ok(o.entrypoint) && ok(o.cmd)) {
        return { entrypoint: [...((o.entrypoint as string[]) ?? [])], cmd: [...((o.cmd as string[]) ?? [])] };
      }
    }
  }
  return { entrypoint: [], cmd: text === "" ? [] : words(text) };
}

/** The `args` string for a command given as arrays: the JSON form, or `""` for no command. */
export function writeCommand(command: Command): string {
  const o: Partial<Command> = {};
  if (command.entrypoint.length > 0) o.entrypoint = command.entrypoint;
  if (command.cmd.length > 0) o.cmd = command.cmd;
  return Object.keys(o).length === 0 ? "" : JSON.stringify(o);
}

const same = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * The stored `args` once a body's `args`/`cmd`/`entrypoint` apply to `current`, or the 400 naming
 * the disagreement. An omitted field leaves its part unchanged; `[]` clears it.
 */
export function nextArgs(
  current: string,
  body: { args?: string | undefined; cmd?: string[] | undefined; entrypoint?: string[] | undefined },
): string {
  if (body.args !== undefined) {
    const read = readCommand(body.args);
    for (const part of ["cmd", "entrypoint"] as const) {
      const given = body[part];
      if (given !== undefined && !same(given, read[part])) {
        throw badRequest(
          `args and ${part} describe different commands; send one of them, or both describing the same command`,
        );
      }
    }
    return body.args;
  }
  if (body.cmd === undefined && body.entrypoint === undefined) return current;
  const now = readCommand(current);
  return writeCommand({ entrypoint: body.entrypoint ?? now.entrypoint, cmd: body.cmd ?? now.cmd });
}
