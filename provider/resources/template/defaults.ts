/**
 * A Template's defaults, apart from the code that uses them so the declarations programs compile
 * against (which export them) never reach the zod-typed request bodies.
 */

/** The API's defaults (v2 description, CreateTemplateRequest), used where the program leaves a field out. */
export const TEMPLATE_API_DEFAULTS = {
  category: "NVIDIA",
  public: false,
  serverless: false,
  startSsh: true,
  startJupyter: true,
} as const;
