/** Templates (`{base_url}/v2/templates`, `/v2/catalog/templates`). */
import { z } from "zod";
import { TEMPLATE_BODY } from "../../resources/template/fields.js";
import { TEMPLATE_CATEGORIES } from "../vocabulary.js";
import { EnvMap } from "./common.js";

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

/**
 * The create body: the fields a Template declares (provider/resources/template/fields.ts), as the
 * program gives them. Closed, as the contract's is.
 */
export const CreateTemplateRequest = z.strictObject(TEMPLATE_BODY);
export type CreateTemplateRequest = z.infer<typeof CreateTemplateRequest>;

export const UpdateTemplateRequest = CreateTemplateRequest.partial();
export type UpdateTemplateRequest = z.infer<typeof UpdateTemplateRequest>;
