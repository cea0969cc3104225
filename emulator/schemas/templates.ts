/**
 * Template bodies (v2 description: CreateTemplateRequest, UpdateTemplateRequest, TemplateMounts).
 * A template mounts at most a persistent volume; a `network` mount is a 422.
 */
import { z } from "zod";
import { ContainerFields, CudaVersion } from "./common.js";

/** Console grouping only (v2 description: TemplateCategory); no effect on scheduling. */
export const TEMPLATE_CATEGORIES = ["CPU", "NVIDIA", "AMD"] as const;

const TemplateMounts = z.strictObject({
  persistent: z.strictObject({ size: z.int().min(10), path: z.string().min(1) }).optional(),
});

const templateFields = {
  ...ContainerFields,
  allowedCudaVersions: z.array(CudaVersion).optional(),
  category: z.enum(TEMPLATE_CATEGORIES).optional(),
  mounts: TemplateMounts.optional(),
  public: z.boolean().optional(),
  serverless: z.boolean().optional(),
  startJupyter: z.boolean().optional(),
  startSsh: z.boolean().optional(),
};

/** `name` and `image` are required at create. */
export const CreateTemplateRequest = z.strictObject({
  name: z.string().min(1),
  ...templateFields,
  image: z.string().min(1),
});
export type CreateTemplateRequest = z.infer<typeof CreateTemplateRequest>;

/** Every field optional; an explicit `allowedCudaVersions: []` clears the constraint. */
export const UpdateTemplateRequest = z.strictObject({
  name: z.string().min(1).optional(),
  ...templateFields,
});
export type UpdateTemplateRequest = z.infer<typeof UpdateTemplateRequest>;
