/** The types of `Template`: the inputs `check` accepts, the arguments a program writes, the outputs state keeps. */

import type * as pulumi from "@pulumi/pulumi";
import type { TemplateCategory } from "../../client/vocabulary.js";
import type { ContainerArgs, ContainerOutputs } from "../container.js";
import type { PersistentMountArgs } from "../mounts.js";
import type { Resolved } from "../same-type.js";

/**
 * Checked inputs of a Template: `TemplateArgs` resolved to plain values, as `check` accepts them
 * and the provider sees them.
 */
export type TemplateInputs = Resolved<TemplateArgs>;

/**
 * How the program describes a template. Every field may be a Pulumi Input. Edits change the
 * template only: pods and endpoints already created from it keep their settings.
 */
export interface TemplateArgs extends ContainerArgs {
  /**
   * Template name.
   * @onChange update
   */
  name: pulumi.Input<string>;
  /**
   * Container image.
   * @onChange update
   */
  image: pulumi.Input<string>;
  /**
   * Environment variables. Stored as secrets in state; visible to other users if `public`.
   * @defaultValue `{}`
   * @onChange update
   */
  env?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /**
   * Host-local persistent storage for pods created from the template. Not allowed with `serverless`.
   * @defaultValue none
   * @onChange update, replace: adding or changing the mount updates in place; removing it replaces
   * the template (the API's update cannot remove a mount).
   */
  mounts?: pulumi.Input<TemplateMountsArgs>;
  /**
   * Exact acceptable host CUDA versions (`major.minor`) for GPU pods and endpoints created from it.
   * @defaultValue none: any version
   * @onChange update
   */
  allowedCudaVersions?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Pods created from it get the account's SSH keys.
   * @defaultValue `true`
   * @onChange update
   */
  startSsh?: pulumi.Input<boolean>;
  /**
   * Pods created from it get a generated JUPYTER_PASSWORD.
   * @defaultValue `true`
   * @onChange update
   */
  startJupyter?: pulumi.Input<boolean>;
  /**
   * Visible to other RunPod users, env included.
   * @defaultValue `false`
   * @onChange update
   */
  public?: pulumi.Input<boolean>;
  /**
   * For serverless endpoints (true) or pods (false). A serverless template cannot back a pod.
   * @defaultValue `false`
   * @onChange replace: the id would otherwise name another kind of template.
   */
  serverless?: pulumi.Input<boolean>;
  /**
   * Console grouping only (`NVIDIA`, `AMD`, `CPU`); no effect on scheduling.
   * @defaultValue `"NVIDIA"`
   * @onChange update
   */
  category?: pulumi.Input<TemplateCategory>;
  /**
   * Adopt this existing template of yours instead of creating one (`pulumi import` does not work
   * for dynamic providers).
   * @defaultValue none: create a template
   * @onChange none
   */
  adoptId?: pulumi.Input<string>;
}

/** A template's `mounts`. */
export interface TemplateMountsArgs {
  /**
   * Host-local persistent storage for pods created from the template.
   * @defaultValue none
   */
  persistent?: pulumi.Input<PersistentMountArgs>;
}

export interface TemplateOutputs extends ContainerOutputs {
  /** The template id; also the resource id. Give it to a Pod's or ServerlessEndpoint's `templateId`. */
  templateId: string;
  name: string;
  mounts: {
    /** Host-local persistent storage for pods created from the template; null without one. */
    persistent: {
      /** Size in GB. */
      size: number;
      /** Where it is mounted. */
      path: string;
    } | null;
  };
  allowedCudaVersions: string[];
  startSsh: boolean;
  startJupyter: boolean;
  public: boolean;
  serverless: boolean;
  category: string;
}
