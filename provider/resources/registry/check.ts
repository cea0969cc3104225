/** Registry's check: the strict schema. */
import type { CheckFailure } from "../../validation/check-failure.js";
import { schemaFailures } from "../../validation/failures.js";
import { withoutInternal } from "../common.js";
import { RegistryArgsSchema } from "./fields.js";

export function checkRegistry(news: Record<string, unknown>): CheckFailure[] {
  return schemaFailures(RegistryArgsSchema, withoutInternal(news));
}
