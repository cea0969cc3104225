/**
 * ServerlessEndpoint policies (type `pulumi-nodejs:dynamic/runpod:ServerlessEndpoint`): the
 * provider's own check (`checkServerlessEndpoint`), so the pack and `pulumi up` cannot disagree.
 * Its two cross-field rules have policies of their own, worded for review; everything else it
 * rejects is reported by `serverless-valid-inputs`. A field the program leaves out takes the API's
 * default, as the provider sends nothing for it.
 */
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { type CheckFailure, checkServerlessEndpoint, ENDPOINT_API_DEFAULTS } from "runpod-dynamic";
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
    description: "A serverless endpoint's workersMin cannot exceed its workersMax.",
    enforcementLevel: "mandatory",
    types: [SERVERLESS_ENDPOINT_TYPE],
    validate: (endpoint, _config, report) => {
      if (!breaks(endpoint.props, "serverless-workers-range")) return;
      const min = endpoint.props.workersMin ?? ENDPOINT_API_DEFAULTS.workersMin;
      const max = endpoint.props.workersMax ?? ENDPOINT_API_DEFAULTS.workersMax;
      const which = endpoint.props.workersMax === undefined ? " (the default)" : "";
      report(
        violation(
          subject(endpoint.type, endpoint.name),
          "workersMin",
          `workersMin ${min} is above workersMax ${max}${which}`,
          "raise workersMax to at least workersMin, or lower workersMin",
        ),
      );
    },
  }),
  resourcePolicy({
    name: "serverless-gpu-types",
    description: "A GPU serverless endpoint lists at least one GPU type.",
    enforcementLevel: "mandatory",
    types: [SERVERLESS_ENDPOINT_TYPE],
    validate: (endpoint, _config, report) => {
      if (!breaks(endpoint.props, "serverless-gpu-types")) return;
      const gpuTypeIds = endpoint.props.gpuTypeIds;
      const computeNote = endpoint.props.computeType === undefined ? " (computeType defaults to GPU)" : "";
      report(
        violation(
          subject(endpoint.type, endpoint.name),
          "gpuTypeIds",
          `a GPU endpoint needs at least one GPU type and gpuTypeIds is ${gpuTypeIds === undefined ? "missing" : "empty"}${computeNote}`,
          'list GPU types in priority order, e.g. gpuTypeIds: ["NVIDIA A40", "NVIDIA L40S"], or set computeType: "CPU" with cpuFlavorIds',
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
            "correct the input as the ServerlessEndpoint inputs reference in the README describes",
          ),
        );
      }
    },
  }),
];
