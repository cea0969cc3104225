/**
 * `Template` (type `pulumi-nodejs:dynamic/runpod:Template`): one of the account's own templates,
 * managed through `{base_url}/v2/templates`.
 *
 * A template is a snapshot applied once, when a pod or endpoint is created from it (docs/api-model.md,
 * Templates on create, rule 4; v2 description of `updateTemplate`): editing it here changes the template
 * only. Pods and endpoints already created from it keep the settings they were created with; the
 * preview says so on every in-place change.
 *
 * In place: everything `UpdateTemplateRequest` carries. Replaced: removing the persistent mount
 * (PATCH treats an absent or empty `mounts` as "unchanged", so a mount cannot be removed) and
 * flipping `serverless` (see `diffTemplate`).
 */
import * as pulumi from "@pulumi/pulumi";
import { secretEnv } from "../program/secret-inputs.js";
import { thinProvider } from "../program/thin.js";
import { type OutputNames, optionInputs, readById, unsetOutputs, withSecretOutputs } from "./common.js";
import { SECRET_FIELDS } from "./secret-fields.js";
import type { TemplateArgs, TemplateOutputs } from "./template/types.js";

/** One thin provider for every Template: Pulumi serializes it once per program. */
const TEMPLATE_PROVIDER = thinProvider("Template");

/**
 * A container template of the account's own.
 *
 * A template is applied once, at create: a pod created from it keeps the template's settings as
 * they were then, and editing the template later does not change that pod (nor an endpoint's
 * existing workers). To roll a template change out to a pod, replace the pod.
 *
 * A serverless template (`serverless: true`) cannot back a pod: Pod `check` cannot see the
 * template's flag without an API call, so the pod's create fails with the API's 422, which the
 * error message carries.
 *
 * @example
 * const tpl = new Template("trainer", {
 *   name: "trainer",
 *   image: "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
 *   ports: ["8888/http", "22/tcp"],
 *   env: { HF_TOKEN: config.requireSecret("hfToken") },
 *   startJupyter: false,
 * });
 * new Pod("trainer", { name: "trainer", templateId: tpl.id, gpu: { id: "NVIDIA A40" } });
 */
export class Template extends pulumi.dynamic.Resource {
  /** The template id; also the resource id. Give it to a Pod's or ServerlessEndpoint's `templateId`. */
  declare readonly templateId: pulumi.Output<string>;
  /** Template name. */
  declare readonly name: pulumi.Output<string>;
  /** Container image. */
  declare readonly image: pulumi.Output<string>;
  /** The container command as one raw string, as the API stores it. */
  declare readonly args: pulumi.Output<string>;
  /** CMD in exec form: as the API returned it, else decoded from `args`. */
  declare readonly cmd: pulumi.Output<string[]>;
  /** ENTRYPOINT in exec form: as the API returned it, else decoded from `args`. */
  declare readonly entrypoint: pulumi.Output<string[]>;
  /** Container disk in GB. */
  declare readonly disk: pulumi.Output<number>;
  /** The environment variables (secret). */
  declare readonly env: pulumi.Output<Record<string, string>>;
  /** Exposed ports, `<port>/<protocol>`. */
  declare readonly ports: pulumi.Output<string[]>;
  /** The registry credential id, or `null`. */
  declare readonly registry: pulumi.Output<string | null>;
  /** The persistent mount pods created from it get (`persistent`: size and path, or `null`). */
  declare readonly mounts: pulumi.Output<TemplateOutputs["mounts"]>;
  /** Exact acceptable host CUDA versions; empty for any. */
  declare readonly allowedCudaVersions: pulumi.Output<string[]>;
  /** Whether pods created from it get the account's SSH keys. */
  declare readonly startSsh: pulumi.Output<boolean>;
  /** Whether pods created from it get a generated JUPYTER_PASSWORD. */
  declare readonly startJupyter: pulumi.Output<boolean>;
  /** Whether other RunPod users can see it (env included). */
  declare readonly public: pulumi.Output<boolean>;
  /** Whether it is for serverless endpoints (true) or pods (false). */
  declare readonly serverless: pulumi.Output<boolean>;
  /** Console grouping (`NVIDIA`, `AMD`, `CPU`). */
  declare readonly category: pulumi.Output<string>;

  /**
   * An existing template, read by its id and never changed by this program: `pulumi up` reads it
   * (a `read` step), `pulumi refresh` reads it again, and `pulumi destroy` forgets it without
   * deleting it. One of the account's own templates or a public one; `env` holds every variable
   * the template sets (secret in state). To take one of the account's templates over and manage
   * it, give `adoptId` instead.
   *
   * @param name The resource's name in the stack.
   * @param id The template's id, as the RunPod console and `GET /v2/templates` show it.
   * @param opts Resource options; the `id` option is set from `id`.
   * @example
   * const base = Template.get("base", "4pem0u1pcm");
   * new Pod("trainer", { name: "trainer", templateId: base.id, gpu: { id: "NVIDIA A40" } });
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Template {
    return readById(Template, name, id, opts);
  }

  constructor(name: string, args: TemplateArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(
      TEMPLATE_PROVIDER,
      name,
      { ...unsetOutputs(TEMPLATE_OUTPUTS), ...args, ...secretEnv(args.env), ...optionInputs(opts) },
      withSecretOutputs(opts, ...SECRET_FIELDS.Template.outputs),
      "runpod",
      "Template",
    );
  }
}

/** Every output of a Template (common.ts `OutputNames`). */
const TEMPLATE_OUTPUTS: OutputNames<Template> = {
  templateId: true,
  name: true,
  image: true,
  args: true,
  cmd: true,
  entrypoint: true,
  disk: true,
  env: true,
  ports: true,
  registry: true,
  mounts: true,
  allowedCudaVersions: true,
  startSsh: true,
  startJupyter: true,
  public: true,
  serverless: true,
  category: true,
};
