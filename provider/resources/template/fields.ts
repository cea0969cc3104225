/**
 * A Template's fields, each declared once (docs/decisions.md, "One declaration per field"): the
 * inputs (every one goes in the create body; the update body takes them all), then the outputs.
 */
import { z } from "zod";
import { EnvMap } from "../../client/schemas/common.js";
import { TEMPLATE_CATEGORIES } from "../../client/vocabulary.js";
import { declareResource, mirror } from "../../fields/declaration.js";
import { choice } from "../../fields/meta.js";
import { AllowedCudaVersions, adoptId, CONTAINER_FIELDS, PersistentMount } from "../common-fields.js";
import { TEMPLATE_DESCRIPTION, TEMPLATE_EXAMPLES, TEMPLATE_GET } from "./docs.js";

export const TemplateCategory = choice(
  "TemplateCategory",
  "How the RunPod console groups a template; no effect on scheduling.",
  TEMPLATE_CATEGORIES,
);

export const TemplateMounts = z
  .strictObject({
    persistent: PersistentMount.optional().meta({
      description: "Host-local persistent storage for pods created from the template.",
      defaultText: "none",
    }),
  })
  .meta({ id: "TemplateMounts", description: "The storage pods created from a template get." });

/** The fields of the create body, every one also in the update body. */
export const TEMPLATE_BODY = {
  name: z.string().min(1).meta({ description: "Template name.", onChange: "update" }),
  image: z.string().min(1).meta({ description: "Container image.", onChange: "update" }),
  ...CONTAINER_FIELDS,
  env: EnvMap.optional().meta({
    description:
      "Environment variables, always secret in state; visible to other users when the template is public.",
    default: {},
    onChange: "update",
    secret: true,
  }),
  mounts: TemplateMounts.optional().meta({
    description:
      "Host-local persistent storage for pods created from the template. Not on a serverless template.",
    defaultText: "none",
    onChange: {
      kinds: ["update", "replace"],
      detail:
        "adding or changing the mount updates the template in place; removing it replaces the template (the API's update cannot remove a mount)",
    },
  }),
  allowedCudaVersions: AllowedCudaVersions.optional().meta({
    description:
      "Exact acceptable host CUDA versions, each `major.minor`, for GPU pods and endpoints created from it.",
    defaultText: "any version",
    onChange: "update",
  }),
  startSsh: z.boolean().optional().meta({
    description: "Pods created from it get the account's SSH keys.",
    default: true,
    onChange: "update",
  }),
  startJupyter: z.boolean().optional().meta({
    description: "Pods created from it get a generated JUPYTER_PASSWORD.",
    default: true,
    onChange: "update",
  }),
  public: z.boolean().optional().meta({
    description: "Visible to other RunPod users, environment variables included.",
    default: false,
    onChange: "update",
  }),
  serverless: z
    .boolean()
    .optional()
    .meta({
      description:
        "For serverless endpoints (true) or pods (false). A serverless template cannot back a pod.",
      default: false,
      onChange: {
        kinds: ["replace"],
        detail: "the template's id would otherwise name another kind of template",
      },
    }),
  category: TemplateCategory.optional().meta({
    description: "How the console groups the template; no effect on scheduling.",
    default: "NVIDIA",
    onChange: "update",
  }),
};

export const TemplateArgsSchema = z.strictObject({
  ...TEMPLATE_BODY,
  adoptId: adoptId("a template"),
});

export const TemplateStorage = z
  .object({
    persistent: PersistentMount.nullable().meta({
      description: "Host-local persistent storage for pods created from the template; null without one.",
    }),
  })
  .meta({ id: "TemplateStorage", description: "The storage pods created from a template get." });

const input = TemplateArgsSchema.shape;

export const TemplateStateSchema = z.object({
  templateId: z.string().meta({
    description:
      "The template id; also the resource id. Give it to a Pod's or a ServerlessEndpoint's template id.",
  }),
  name: mirror(input.name, "api"),
  image: mirror(input.image, "api"),
  args: mirror(input.args, "api").meta({
    description: "The container command as one raw string, as the API stores it.",
  }),
  cmd: mirror(input.cmd, "built").meta({
    description: "CMD in exec form: as the API returned it, else decoded from the command string.",
  }),
  entrypoint: mirror(input.entrypoint, "built").meta({
    description: "ENTRYPOINT in exec form: as the API returned it, else decoded from the command string.",
  }),
  disk: mirror(input.disk, "api"),
  env: mirror(input.env, "api").meta({ description: "The environment variables (secret)." }),
  ports: mirror(input.ports, "api"),
  registry: mirror(input.registry, "api"),
  mounts: TemplateStorage.meta({ description: "The storage pods created from it get." }),
  allowedCudaVersions: mirror(input.allowedCudaVersions, "api").meta({
    description: "Exact acceptable host CUDA versions; empty for any.",
  }),
  startSsh: mirror(input.startSsh, "api"),
  startJupyter: mirror(input.startJupyter, "api"),
  public: mirror(input.public, "api"),
  serverless: mirror(input.serverless, "api"),
  category: mirror(input.category, "api"),
});

export const TEMPLATE = declareResource({
  kind: "Template",
  description: TEMPLATE_DESCRIPTION,
  get: TEMPLATE_GET,
  examples: TEMPLATE_EXAMPLES,
  inputs: TemplateArgsSchema,
  outputs: TemplateStateSchema,
});
