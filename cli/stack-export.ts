/**
 * A document `pulumi stack export` wrote, read by a command that needs part of it (the pending
 * creates, the pods that declare autostop, the resources to price): parsed with the command's own
 * schema of that part, and refused with a usage error that names the file and what is wrong; and
 * the names its URNs give.
 */
import type { z } from "zod";
import { UsageError } from "./errors.js";

/** The resource's name in its program: `trainer` of `urn:pulumi:dev::app::runpod-dynamic:index:Pod::trainer`. */
export const nameOf = (urn: string): string => urn.slice(urn.lastIndexOf("::") + 2);

export function parseStackExport<T extends z.ZodType>(text: string, where: string, schema: T): z.infer<T> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UsageError(`${where}: not JSON; give what \`pulumi stack export\` writes.`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(
      `${where}: ${issue?.path.join(".")}: ${issue?.message}; give what \`pulumi stack export\` writes.`,
    );
  }
  return parsed.data;
}
