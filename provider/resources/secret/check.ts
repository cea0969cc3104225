/** Secret's check: the strict schema (the API's name, value and description rules). */
import type { CheckFailure } from "../../validation/check-failure.js";
import { schemaFailures } from "../../validation/failures.js";
import { withoutInternal } from "../common.js";
import { SecretArgsSchema } from "./fields.js";

export function checkSecret(news: Record<string, unknown>): CheckFailure[] {
  return schemaFailures(SecretArgsSchema, withoutInternal(news));
}
