/** Registry's check: the strict schema. */
import type { CheckFailure } from "../../both/check-failure.js";
import { schemaFailures } from "../../both/validation.js";
import { withoutInternal } from "../common.js";
import { RegistryArgsSchema } from "./schema.js";

export function checkRegistry(news: Record<string, unknown>): CheckFailure[] {
  return schemaFailures(RegistryArgsSchema, withoutInternal(news));
}
