/**
 * ServerlessEndpoint policies (type `pulumi-nodejs:dynamic/runpod:ServerlessEndpoint`), over the
 * v1 endpoint fields. A field the program leaves out takes the API's default, as the provider
 * sends nothing for it.
 */
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { ENDPOINT_API_DEFAULTS } from "runpod-dynamic";
import { isUnknown, list, resourcePolicy, SERVERLESS_ENDPOINT_TYPE, subject, violation } from "./common";

/** The API's defaults where a program leaves them out (the provider's own constant). */
export const ENDPOINT_DEFAULTS = ENDPOINT_API_DEFAULTS;

const isNumber = (v: unknown): v is number => typeof v === "number";

/** Every ServerlessEndpoint policy. */
export const serverlessPolicies: readonly ResourceValidationPolicy[] = [
  resourcePolicy({
    name: "serverless-workers-range",
    description: "A serverless endpoint's workersMin cannot exceed its workersMax.",
    enforcementLevel: "mandatory",
    types: [SERVERLESS_ENDPOINT_TYPE],
    validate: (endpoint, _config, report) => {
      const min = endpoint.props.workersMin ?? ENDPOINT_DEFAULTS.workersMin;
      const max = endpoint.props.workersMax ?? ENDPOINT_DEFAULTS.workersMax;
      if (!isNumber(min) || !isNumber(max) || min <= max) return;
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
      const compute = endpoint.props.computeType ?? ENDPOINT_DEFAULTS.computeType;
      const gpuTypeIds = endpoint.props.gpuTypeIds;
      if (compute !== "GPU" || isUnknown(gpuTypeIds)) return;
      if (gpuTypeIds !== undefined && (list(gpuTypeIds)?.length ?? 1) > 0) return;
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
];
