/** The types of `Template`: the inputs `check` accepts, the arguments a program writes, the outputs state keeps. */
import type * as pulumi from "@pulumi/pulumi";
import type { TemplateCategory } from "../../client/vocabulary.js";
import type { ContainerArgs, ContainerInputs, ContainerOutputs } from "../container.js";

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

export interface TemplateOutputs extends ContainerOutputs {
  /** The template id; also the resource id. Give it to a Pod's or ServerlessEndpoint's `templateId`. */
  templateId: string;
  name: string;
  mounts: { persistent: { size: number; path: string } | null };
  allowedCudaVersions: string[];
  startSsh: boolean;
  startJupyter: boolean;
  public: boolean;
  serverless: boolean;
  category: string;
}
