/**
 * A Cluster's `check`: the strict schema, then the one cross-field rule.
 */
import type { CheckFailure } from "../../validation/check-failure.js";
import { schemaFailures } from "../../validation/failures.js";
import { withoutInternal } from "../common.js";
import { ClusterArgsSchema } from "./fields.js";

/** Every check failure for a Cluster's inputs: the strict schema, then "an image or a template". */
export function checkCluster(news: Record<string, unknown>): CheckFailure[] {
  const inputs = withoutInternal(news);
  const failures = schemaFailures(ClusterArgsSchema, inputs);
  if (inputs.image === undefined && inputs.templateId === undefined && inputs.adoptId === undefined) {
    failures.push({ property: "image", reason: "is required unless templateId is set" });
  }
  return failures;
}
