/** Templates (`{base_url}/v2/templates`, `/v2/catalog/templates`). */
import { z } from "zod";
import { TEMPLATE_CATEGORIES } from "../vocabulary.js";
import { ContainerConfigRequest, CudaVersion, EnvMap } from "./common.js";
import { PersistentMount } from "./pods.js";

export { TEMPLATE_CATEGORIES };

export const TemplateCategory = z.enum(TEMPLATE_CATEGORIES);

export const Template = z.looseObject({
  id: z.string().min(1),
  name: z.string(),
  image: z.string(),
  args: z.string(),
  cmd: z.array(z.string()).optional(),
  entrypoint: z.array(z.string()).optional(),
  disk: z.number(),
  mounts: z.looseObject({ persistent: z.looseObject({ size: z.number(), path: z.string() }).optional() }),
  ports: z.array(z.string()),
  env: EnvMap,
  registry: z.string().nullable(),
  serverless: z.boolean(),
  public: z.boolean(),
  category: z.string(),
  startSsh: z.boolean(),
  startJupyter: z.boolean(),
  allowedCudaVersions: z.array(z.string()),
});
export type Template = z.infer<typeof Template>;
export const ListTemplatesResponse = z.looseObject({ templates: z.array(Template) });

const TemplateMountsRequest = z.strictObject({ persistent: PersistentMount.optional() });

export const CreateTemplateRequest = z.strictObject({
  name: z.string().min(1),
  ...ContainerConfigRequest,
  image: z.string().min(1),
  allowedCudaVersions: z.array(CudaVersion).optional(),
  category: TemplateCategory.optional(),
  mounts: TemplateMountsRequest.optional(),
  public: z.boolean().optional(),
  serverless: z.boolean().optional(),
  startJupyter: z.boolean().optional(),
  startSsh: z.boolean().optional(),
});
export type CreateTemplateRequest = z.infer<typeof CreateTemplateRequest>;

export const UpdateTemplateRequest = CreateTemplateRequest.partial();
export type UpdateTemplateRequest = z.infer<typeof UpdateTemplateRequest>;
