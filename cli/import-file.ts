/**
 * Pulumi's import file (`pulumi import --file`): the resources to read into a stack's state, each by
 * type, name and id, with the parent and provider instance it goes under named through the file's
 * name table. Written by the commands that hand existing objects to `pulumi import`
 * (`pending-creates`, `migrate`).
 */
import { nameOf } from "./stack-export.js";

/** A file for `pulumi import --file` (Pulumi's import file format: nameTable and resources). */
export interface ImportFile {
  readonly nameTable: Record<string, string>;
  readonly resources: readonly {
    type: string;
    name: string;
    id: string;
    provider?: string;
    parent?: string;
  }[];
}

/** One object to import: its type token, its name in the program, its id, where it goes. */
export interface ImportEntry {
  readonly type: string;
  readonly name: string;
  readonly id: string;
  /** The urn of the provider instance to import it under; the type's default provider when absent. */
  readonly providerUrn?: string | undefined;
  /** The urn of its parent; the stack when absent. */
  readonly parentUrn?: string | undefined;
}

const isStack = (urn: string) => urn.split("::")[2] === "pulumi:pulumi:Stack";

/** The import file of `entries`; a parent that is the stack is left out (the default). */
export function importFileOf(entries: readonly ImportEntry[]): ImportFile {
  const nameTable: Record<string, string> = {};
  const named = (urn: string) => {
    const existing = Object.entries(nameTable).find(([, u]) => u === urn)?.[0];
    if (existing) return existing;
    const name = `${nameOf(urn)}-${Object.keys(nameTable).length}`;
    nameTable[name] = urn;
    return name;
  };
  const resources = entries.map((e) => ({
    type: e.type,
    name: e.name,
    id: e.id,
    ...(e.providerUrn ? { provider: named(e.providerUrn) } : {}),
    ...(e.parentUrn && !isStack(e.parentUrn) ? { parent: named(e.parentUrn) } : {}),
  }));
  return { nameTable, resources };
}

/** `arg` as a POSIX shell word, for commands printed for people to paste. */
export const shellQuote = (arg: string): string =>
  /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`;
