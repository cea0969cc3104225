/**
 * `Template` (type `pulumi-nodejs:dynamic/runpod:Template`): one of the account's own templates,
 * managed through `{base_url}/v2/templates`.
 *
 * A template is a snapshot applied once, when a pod or endpoint is created from it (contract:
 * template rules 1 and 5; v2 description of `updateTemplate`): editing it here changes the template
 * only. Pods and endpoints already created from it keep the settings they were created with; the
 * preview says so on every in-place change.
 *
 * In place: everything `UpdateTemplateRequest` carries. Replaced: removing the persistent mount
 * (PATCH treats an absent or empty `mounts` as "unchanged", so a mount cannot be removed) and
 * flipping `serverless` (see `diffTemplate`).
 */
import * as pulumi from "@pulumi/pulumi";
import { ERROR_CODES, isRunpodApiError } from "../client/errors.js";
import type { TemplateCategory } from "../client/vocabulary.js";
import { api, configureRuntime } from "../host/context.js";
import { createOnce } from "../host/create-once.js";
import { progress } from "../host/progress.js";
import { thinProvider } from "../program/thin.js";
import {
  byName,
  checkResult,
  diffResult,
  named,
  optionInputs,
  unlessGone,
  withSecretOutputs,
} from "./common.js";
import type { ContainerArgs, ContainerInputs } from "./container.js";
import { createTemplateBody, templatePatchBody } from "./template-body.js";
import { checkTemplate } from "./template-check.js";
import { diffTemplate } from "./template-diff.js";
import { inputsFromOutputs, templateOutputs } from "./template-outputs.js";

export { checkTemplate, templateRuleFailures } from "./template-check.js";
export { TEMPLATE_API_DEFAULTS } from "./template-defaults.js";
export { diffTemplate, type TemplateDiff } from "./template-diff.js";

export const TEMPLATE_TYPE = "pulumi-nodejs:dynamic/runpod:Template";

/**
 * Checked inputs of a Template: `TemplateArgs` resolved to plain values, as `check` accepts them
 * and the provider sees them.
 */
export interface TemplateInputs extends ContainerInputs {
  name: string;
  image: string;
  mounts?: { persistent?: { size: number; path: string } | undefined } | undefined;
  allowedCudaVersions?: string[] | undefined;
  startSsh?: boolean | undefined;
  startJupyter?: boolean | undefined;
  public?: boolean | undefined;
  serverless?: boolean | undefined;
  category?: TemplateCategory | undefined;
  adoptId?: string | undefined;
}

type In<T> = pulumi.Input<T>;
type InList<T> = pulumi.Input<pulumi.Input<T>[]>;

/** How the program describes a template. Every field may be a Pulumi Input. */
export interface TemplateArgs extends ContainerArgs {
  name: In<string>;
  /** Container image. */
  image: In<string>;
  /** Environment variables. Stored as secrets in state; visible to other users if `public`. */
  env?: In<Record<string, In<string>>>;
  /** Host-local persistent storage for pods created from the template. Not allowed with `serverless`. Removing it replaces the template. */
  mounts?: In<{ persistent?: In<{ size: In<number>; path: In<string> }> }>;
  /** Exact acceptable host CUDA versions (`major.minor`) for GPU pods and endpoints created from it. */
  allowedCudaVersions?: InList<string>;
  /** Pods created from it get the account's SSH keys. @default true */
  startSsh?: In<boolean>;
  /** Pods created from it get a generated JUPYTER_PASSWORD. @default true */
  startJupyter?: In<boolean>;
  /** Visible to other RunPod users, env included. @default false */
  public?: In<boolean>;
  /** For serverless endpoints (true) or pods (false). A serverless template cannot back a pod. Changing it replaces the template. @default false */
  serverless?: In<boolean>;
  /** Console grouping only; no effect on scheduling. @default "NVIDIA" */
  category?: In<TemplateCategory>;
  /** Adopt this existing template of yours instead of creating one (`pulumi import` does not work for dynamic providers). */
  adoptId?: In<string>;
}

export interface TemplateOutputs {
  /** The template id; also the resource id. Give it to a Pod's or ServerlessEndpoint's `templateId`. */
  templateId: string;
  name: string;
  image: string;
  args: string;
  cmd: string[];
  entrypoint: string[];
  disk: number;
  env: Record<string, string>;
  ports: string[];
  registry: string | null;
  mounts: { persistent: { size: number; path: string } | null };
  allowedCudaVersions: string[];
  startSsh: boolean;
  startJupyter: boolean;
  public: boolean;
  serverless: boolean;
  category: string;
}

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
  declare readonly templateId: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly image: pulumi.Output<string>;
  declare readonly args: pulumi.Output<string>;
  declare readonly cmd: pulumi.Output<string[]>;
  declare readonly entrypoint: pulumi.Output<string[]>;
  declare readonly disk: pulumi.Output<number>;
  declare readonly env: pulumi.Output<Record<string, string>>;
  declare readonly ports: pulumi.Output<string[]>;
  declare readonly registry: pulumi.Output<string | null>;
  declare readonly mounts: pulumi.Output<TemplateOutputs["mounts"]>;
  declare readonly allowedCudaVersions: pulumi.Output<string[]>;
  declare readonly startSsh: pulumi.Output<boolean>;
  declare readonly startJupyter: pulumi.Output<boolean>;
  declare readonly public: pulumi.Output<boolean>;
  declare readonly serverless: pulumi.Output<boolean>;
  declare readonly category: pulumi.Output<string>;

  constructor(name: string, args: TemplateArgs, opts: pulumi.CustomResourceOptions = {}) {
    const outputs = Object.fromEntries(TEMPLATE_OUTPUT_KEYS.map((k) => [k, undefined]));
    super(
      thinProvider("Template"),
      name,
      { ...outputs, ...args, ...optionInputs(opts) },
      withSecretOutputs(opts, "env"),
      "runpod",
      "Template",
    );
  }
}

/** Outputs the program may leave out as inputs: listed so `template.x` resolves either way. */
const TEMPLATE_OUTPUT_KEYS = [
  "templateId",
  "args",
  "cmd",
  "entrypoint",
  "disk",
  "env",
  "ports",
  "registry",
  "mounts",
  "allowedCudaVersions",
  "startSsh",
  "startJupyter",
  "public",
  "serverless",
  "category",
] as const;

// ---------------------------------------------------------------- the provider

const label = byName("Template");

/** Templates this process created or found: an unanswered create never takes one of them twice. */
const claimed = new Set<string>();

export class TemplateProvider implements pulumi.dynamic.ResourceProvider<TemplateInputs, TemplateOutputs> {
  async configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
    configureRuntime(req);
  }

  async check(_olds: TemplateInputs, news: TemplateInputs) {
    return checkResult(news, checkTemplate(news as unknown as Record<string, unknown>));
  }

  async diff(_id: string, olds: TemplateOutputs, news: TemplateInputs): Promise<pulumi.dynamic.DiffResult> {
    const d = diffTemplate(olds, news);
    // Preview has no other channel from a dynamic provider: the host's stderr reaches the terminal.
    if (d.replaces.length > 0) {
      progress(
        label(news),
        `replacing it (${d.replaces.join(", ")}) gives it a new id: pods that take their templateId from it are replaced, endpoints are updated to the new id${d.replaces.includes("serverless") ? "; a serverless template cannot back a pod, and a pod template cannot back an endpoint" : ""}`,
      );
    } else if (d.changes) {
      progress(
        label(news),
        `changing ${d.updates.join(", ")} edits the template only: pods and endpoints already created from it keep the settings they were created with (a template is applied once, at create)`,
      );
    }
    return diffResult(d, news);
  }

  async create(inputs: TemplateInputs): Promise<pulumi.dynamic.CreateResult<TemplateOutputs>> {
    if (inputs.adoptId) return this.adopt(inputs.adoptId, inputs);
    const body = createTemplateBody(inputs);
    // Never doubled: an unanswered create is resolved by looking among the account's templates for
    // one with the same name and image (provider/host/create-once.ts).
    const t = await createOnce({
      what: `a template named ${body.name}`,
      create: () => api().createTemplate(body),
      list: () => api().listTemplates(),
      matches: (x) => x.name === body.name && x.image === body.image,
      claimed,
    });
    progress(label(inputs), `created ${t.id}`);
    return { id: t.id, outs: templateOutputs(t) };
  }

  /** `adoptId`: take over one of the account's templates, then apply what differs in place. */
  private async adopt(
    id: string,
    inputs: TemplateInputs,
  ): Promise<pulumi.dynamic.CreateResult<TemplateOutputs>> {
    let t = await unlessGone(api().getTemplate(id));
    if (!t)
      throw new Error(`${label(inputs)}: adoptId ${id}: no such template (or this API key cannot see it).`);
    const current = templateOutputs(t);
    const d = diffTemplate(current, inputs);
    if (d.replaces.length > 0) {
      throw new Error(
        `${label(inputs)}: adoptId ${id} cannot be adopted: it differs from the inputs in ${d.replaces.join(", ")}, which cannot change in place.`,
      );
    }
    if (d.updates.length > 0) {
      try {
        t = await api().updateTemplate(id, templatePatchBody(d.updates, current, inputs));
      } catch (err) {
        if (isRunpodApiError(err, ERROR_CODES.NOT_FOUND)) {
          throw new Error(
            `${label(inputs)}: adoptId ${id} is not one of your templates (public catalog templates can be read but not changed); create your own instead.`,
          );
        }
        throw err;
      }
    }
    claimed.add(id);
    progress(label(inputs), `adopted existing template ${id}`);
    return { id, outs: templateOutputs(t) };
  }

  async read(id: string, props?: TemplateOutputs): Promise<pulumi.dynamic.ReadResult<TemplateOutputs>> {
    const t = await unlessGone(api().getTemplate(id));
    if (!t) return {};
    const outs = templateOutputs(t);
    const prior = (props ?? {}) as Partial<TemplateInputs>;
    // ReadResult types `inputs` as outputs; they are inputs.
    return { id, props: outs, inputs: inputsFromOutputs(outs, prior) as unknown as TemplateOutputs };
  }

  async update(
    id: string,
    olds: TemplateOutputs,
    news: TemplateInputs,
  ): Promise<pulumi.dynamic.UpdateResult<TemplateOutputs>> {
    const d = diffTemplate(olds, news);
    const body = templatePatchBody(d.updates, olds, news);
    const t =
      Object.keys(body).length > 0 ? await api().updateTemplate(id, body) : await api().getTemplate(id);
    return { outs: templateOutputs(t) };
  }

  /** DELETE; 404 is success. A template an endpoint is bound to is refused (400): say what to do. */
  async delete(id: string, props: TemplateOutputs): Promise<void> {
    const what = label(props, id);
    try {
      await api().deleteTemplate(id);
    } catch (err) {
      if (isRunpodApiError(err, ERROR_CODES.NOT_FOUND)) return;
      if (isRunpodApiError(err, ERROR_CODES.BAD_REQUEST)) {
        throw new Error(
          `${what}: template ${id} cannot be deleted while it is in use: ${err.detail ?? err.message}. ` +
            "Delete that endpoint or point it at another template first. In a Pulumi program, give the endpoint " +
            "the template's id as an Output (templateId: template.id) so that destroy deletes the endpoint first.",
        );
      }
      throw err;
    }
    progress(what, `deleted ${id} (pods created from it keep their settings)`);
  }
}

export const templateProvider = named(new TemplateProvider(), label);
