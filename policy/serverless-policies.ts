/**
 * ServerlessEndpoint policies (type `pulumi-nodejs:dynamic/runpod:ServerlessEndpoint`): the
 * provider's own check (`checkServerlessEndpoint`), so the pack and `pulumi up` cannot disagree.
 * Its two cross-field rules have policies of their own, worded for review; everything else it
 * rejects is reported by `serverless-valid-inputs`. A field the program leaves out takes the API's
 * default, as the provider sends nothing for it.
 */
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { type CheckFailure, checkServerlessEndpoint, ENDPOINT_API_DEFAULTS } from "runpod-dynamic/review";
import { type Props, resourcePolicy, SERVERLESS_ENDPOINT_TYPE, subject, violation } from "./common";

const OWN_RULES = ["serverless-workers-range", "serverless-gpu-types"];

/** `checkServerlessEndpoint`, never throwing (an exception would fail the whole Analyze call). */
function endpointFailures(props: Props): CheckFailure[] {
  try {
    return checkServerlessEndpoint(props);
  } catch (err) {
    return [{ property: "", reason: `the provider's check could not run: ${(err as Error).message}` }];
  }
}

const breaks = (props: Props, rule: string) => endpointFailures(props).some((f) => f.rules?.includes(rule));

/** Every ServerlessEndpoint policy. */
export const serverlessPolicies: readonly ResourceValidationPolicy[] = [
  resourcePolicy({
    name: "serverless-workers-range",
    description: "A serverless endpoint's workers.min cannot exceed its workers.max.",
    enforcementLevel: "mandatory",
    types: [SERVERLESS_ENDPOINT_TYPE],
    validate: (endpoint, _config, report) => {
      if (!breaks(endpoint.props, "serverless-workers-range")) return;
      const workers = (endpoint.props.workers ?? {}) as { min?: number; max?: number };
      const min = workers.min ?? ENDPOINT_API_DEFAULTS.workersMin;
      const max = workers.max ?? ENDPOINT_API_DEFAULTS.workersMax;
      const which = workers.max === undefined ? " (the default)" : "";
      report(
        violation(
          subject(endpoint.type, endpoint.name),
          "workers.min",
          `workers.min ${min} is above workers.max ${max}${which}`,
          "raise workers.max to at least workers.min, or lower workers.min",
        ),
      );
    },
  }),
  resourcePolicy({
    name: "serverless-gpu-types",
    description: "A serverless endpoint names its compute: GPU pools, or CPU configurations.",
    enforcementLevel: "mandatory",
    types: [SERVERLESS_ENDPOINT_TYPE],
    validate: (endpoint, _config, report) => {
      if (!breaks(endpoint.props, "serverless-gpu-types")) return;
      report(
        violation(
          subject(endpoint.type, endpoint.name),
          "gpu",
          "the endpoint has neither gpu nor cpu, so the API cannot place its workers",
          'list serverless GPU pools in order, e.g. gpu: { pools: ["ADA_24", "ADA_48_PRO"] } (getGpuTypes() shows each type\'s pool), or cpu: [{ id: "cpu5c", vcpuCount: 4 }]',
        ),
      );
    },
  }),
  resourcePolicy({
    name: "serverless-valid-inputs",
    description: "ServerlessEndpoint inputs must pass the provider's check.",
    enforcementLevel: "mandatory",
    types: [SERVERLESS_ENDPOINT_TYPE],
    validate: (endpoint, _config, report) => {
      for (const f of endpointFailures(endpoint.props)) {
        if (f.rules?.some((r) => OWN_RULES.includes(r))) continue;
        report(
          violation(
            subject(endpoint.type, endpoint.name),
            f.property,
            f.reason,
            "correct the input as the ServerlessEndpoint reference (docs/reference) describes",
          ),
        );
      }
    },
  }),
];
