/** Secret's check: the strict schema (the API's name, value and description rules). */
import type { CheckFailure } from "../../both/check-failure.js";
import { schemaFailures } from "../../both/validation.js";
import { withoutInternal } from "../common.js";
import { SecretArgsSchema } from "./schema.js";

export function checkSecret(news: Record<string, unknown>): CheckFailure[] {
  return schemaFailures(SecretArgsSchema, withoutInternal(news));
}
