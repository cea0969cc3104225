/**
 * A Template's `check`: the strict schema, then the cross-field rules, each failure naming the
 * property.
 */

import { encodeBody } from "../../client/request-body.js";
import { MAX_REQUEST_BYTES } from "../../client/schemas/common.js";
import type { CheckFailure } from "../../validation/check-failure.js";
import { commandFailure, largestField, schemaFailures } from "../../validation/failures.js";
import { containsUnknown, isUnknown } from "../../validation/unknown.js";
import { withoutInternal } from "../common.js";
import { createTemplateBody } from "./body.js";
import { TemplateArgsSchema } from "./fields.js";
import type { TemplateInputs } from "./types.js";

/** The cross-field rules, skipping what preview cannot know yet. */
export function templateRuleFailures(inputs: Record<string, unknown>): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const fail = (property: string, reason: string) => failures.push({ property, reason });
  const mounts = inputs.mounts as Record<string, unknown> | undefined;
  if (
    inputs.serverless === true &&
    mounts !== undefined &&
    !isUnknown(mounts) &&
    mounts.persistent !== undefined
  ) {
    fail(
      "mounts.persistent",
      "a serverless template cannot have a persistent mount (the API answers 400); attach a network volume to the endpoint instead (networkVolumeId)",
    );
  }
  const command = commandFailure(inputs);
  if (command) fail("args", command);
  if (!containsUnknown(inputs)) {
    // The limit applies to every pod create expanded with this template (docs/api-model.md, Limits).
    const { bytes } = encodeBody(createTemplateBody(inputs as unknown as TemplateInputs));
    if (bytes > MAX_REQUEST_BYTES) {
      fail(
        largestField(inputs),
        `the template would be ${bytes} bytes, over the API's ${MAX_REQUEST_BYTES}-byte request limit that every pod created from it must meet; reduce env or args`,
      );
    }
  }
  return failures;
}

/** Every check failure for a Template's inputs: the strict schema, then the cross-field rules. */
export function checkTemplate(news: Record<string, unknown>): CheckFailure[] {
  const inputs = withoutInternal(news);
  return [...schemaFailures(TemplateArgsSchema, inputs), ...templateRuleFailures(inputs)];
}
