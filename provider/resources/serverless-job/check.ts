/** ServerlessJob's check: the strict schema. */
import type { CheckFailure } from "../../validation/check-failure.js";
import { schemaFailures } from "../../validation/failures.js";
import { withoutInternal } from "../common.js";
import { ServerlessJobArgsSchema } from "./fields.js";

export function checkServerlessJob(news: Record<string, unknown>): CheckFailure[] {
  const inputs = withoutInternal(news);
  return schemaFailures(ServerlessJobArgsSchema, inputs);
}
