/**
 * `Registry` (type `pulumi-nodejs:dynamic/runpod:Registry`): credentials for a private container
 * registry, managed through `{base_url}/v2/registries`. A `Pod`, `Template` or `ServerlessEndpoint`
 * pulls its image with them when given `registry: registry.id`.
 *
 * The API has no update and never returns the username or password, so any change replaces the
 * credential. To see a changed password without keeping it, the outputs hold a salted scrypt digest
 * of the username and password (itself stored as a secret); the password is a secret input and
 * never an output.
 */
import { randomBytes, scryptSync } from "node:crypto";
import * as pulumi from "@pulumi/pulumi";
import type { CheckFailure } from "../both/check-failure.js";
import { isUnknown } from "../both/unknown.js";
import { schemaFailures } from "../both/validation.js";
import { ERROR_CODES, isRunpodApiError } from "../client/errors.js";
import type { Registry as ApiRegistry } from "../client/schemas/registries.js";
import { api, configureRuntime } from "../host/context.js";
import { createOnce } from "../host/create-once.js";
import { progress } from "../host/progress.js";
import { thinProvider } from "../program/thin.js";
import {
  byName,
  checkResult,
  differs,
  diffResult,
  named,
  optionInputs,
  unlessGone,
  withoutInternal,
  withSecretOutputs,
} from "./common.js";
import { RegistryArgsSchema } from "./registry-schema.js";
import { deleteWhenReleased } from "./release-wait.js";

export const REGISTRY_TYPE = "pulumi-nodejs:dynamic/runpod:Registry";

/** Checked inputs of a Registry, as `check` accepts them and the provider sees them. */
export interface RegistryInputs {
  name: string;
  username: string;
  password: string;
  adoptId?: string | undefined;
}

/** How the program describes registry credentials. Every field may be a Pulumi Input. */
export interface RegistryArgs {
  /** The credential's name in the account. Changing it replaces the credential (there is no update). */
  name: pulumi.Input<string>;
  /** Registry user (for Docker Hub, the account; for GHCR, the GitHub user). Changing it replaces the credential. */
  username: pulumi.Input<string>;
  /** Password or access token. Always stored as a secret; never an output. Changing it replaces the credential. */
  password: pulumi.Input<string>;
  /**
   * Adopt this existing credential instead of creating one. The API cannot tell whether the given
   * username and password are the ones it holds: they are recorded as given.
   */
  adoptId?: pulumi.Input<string>;
}

export interface RegistryOutputs {
  /** The credential's id; also the resource id. Give it to a pod's, template's or endpoint's `registry`. */
  registryId: string;
  name: string;
  /** Salted scrypt digest of the username and password, so a new password is seen. A secret. */
  credentialsDigest: string;
  credentialsSalt: string;
}

/**
 * Private registry credentials for pulling images.
 * @example
 * const ghcr = new Registry("ghcr", {
 *   name: "ghcr",
 *   username: "my-org-bot",
 *   password: config.requireSecret("ghcrToken"),
 * });
 * new Pod("app", { name: "app", image: "ghcr.io/my-org/app:1.4", registry: ghcr.id, gpu: { id: "NVIDIA A40" } });
 */
export class Registry extends pulumi.dynamic.Resource {
  declare readonly registryId: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;

  constructor(name: string, args: RegistryArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(
      thinProvider("Registry"),
      name,
      {
        registryId: undefined,
        credentialsDigest: undefined,
        credentialsSalt: undefined,
        ...args,
        // Secret in state whatever the program passed.
        password: pulumi.secret(args.password),
        ...optionInputs(opts),
      },
      withSecretOutputs(opts, "credentialsDigest"),
      "runpod",
      "Registry",
    );
  }
}

// ---------------------------------------------------------------- check

export function checkRegistry(news: Record<string, unknown>): CheckFailure[] {
  return schemaFailures(RegistryArgsSchema, withoutInternal(news));
}

// ---------------------------------------------------------------- diff

/** The digest the outputs keep: scrypt of the username and the password, with the credential's salt. */
export function credentialsDigest(username: string, password: string, salt: string): string {
  return scryptSync(`${username}\0${password}`, salt, 32).toString("hex");
}

/**
 * The replace table (pure): the API has no update, so a new name, username or password replaces.
 * The username and password are compared through the recorded digest; an unknown value (preview)
 * counts as a change.
 */
export function diffRegistry(olds: Partial<RegistryOutputs>, news: RegistryInputs) {
  const replaces: string[] = [];
  if (differs(news.name, olds.name)) replaces.push("name");
  if (isUnknown(news.username) || isUnknown(news.password)) {
    replaces.push("credentials");
  } else if (
    olds.credentialsSalt === undefined ||
    credentialsDigest(news.username, news.password, olds.credentialsSalt) !== olds.credentialsDigest
  ) {
    replaces.push("credentials");
  }
  return { replaces, updates: [] as string[] };
}

// ---------------------------------------------------------------- the provider

const label = byName("Registry");

/** Credentials this process created or adopted: an unanswered create never takes one of them twice. */
const claimed = new Set<string>();

function registryOutputs(r: ApiRegistry, inputs: RegistryInputs, salt: string): RegistryOutputs {
  return {
    registryId: r.id,
    name: r.name,
    credentialsDigest: credentialsDigest(inputs.username, inputs.password, salt),
    credentialsSalt: salt,
  };
}

export class RegistryProvider implements pulumi.dynamic.ResourceProvider<RegistryInputs, RegistryOutputs> {
  async configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
    configureRuntime(req);
  }

  async check(_olds: RegistryInputs, news: RegistryInputs) {
    return checkResult(news, checkRegistry(news as unknown as Record<string, unknown>));
  }

  async diff(_id: string, olds: RegistryOutputs, news: RegistryInputs) {
    return diffResult(diffRegistry(olds, news), news);
  }

  async create(inputs: RegistryInputs): Promise<pulumi.dynamic.CreateResult<RegistryOutputs>> {
    const salt = randomBytes(16).toString("hex");
    if (inputs.adoptId) return this.adopt(inputs.adoptId, inputs, salt);
    // Credentials carry no creation time: the ones the account already has are never taken for
    // the one an unanswered create made.
    const before = new Set([...claimed, ...(await api().listRegistries()).map((r) => r.id)]);
    const r = await createOnce({
      what: `a registry credential named ${inputs.name}`,
      create: () =>
        api().createRegistry({ name: inputs.name, username: inputs.username, password: inputs.password }),
      list: () => api().listRegistries(),
      matches: (x) => x.name === inputs.name,
      claimed: before,
    });
    claimed.add(r.id);
    progress(label(inputs), `created ${r.id}`);
    return { id: r.id, outs: registryOutputs(r, inputs, salt) };
  }

  private async adopt(id: string, inputs: RegistryInputs, salt: string) {
    const r = await unlessGone(api().getRegistry(id));
    if (!r) throw new Error(`adoptId ${id}: no such registry credential (or this API key cannot see it).`);
    if (r.name !== inputs.name) {
      throw new Error(
        `adoptId ${id} cannot be adopted: it is named "${r.name}", the inputs say "${inputs.name}", and a credential cannot be renamed.`,
      );
    }
    claimed.add(id);
    progress(label(inputs), `adopted existing registry credential ${id}`);
    return { id, outs: registryOutputs(r, inputs, salt) };
  }

  async read(id: string, props?: RegistryOutputs): Promise<pulumi.dynamic.ReadResult<RegistryOutputs>> {
    const r = await unlessGone(api().getRegistry(id));
    if (!r) return {};
    // The API never shows the credentials: what was recorded stays.
    const outs: RegistryOutputs = {
      registryId: r.id,
      name: r.name,
      credentialsDigest: props?.credentialsDigest ?? "",
      credentialsSalt: props?.credentialsSalt ?? "",
    };
    return { id, props: outs };
  }

  /** Never called with a change (everything replaces); answers the credential as it is. */
  async update(id: string, olds: RegistryOutputs): Promise<pulumi.dynamic.UpdateResult<RegistryOutputs>> {
    const r = await api().getRegistry(id);
    return { outs: { ...olds, registryId: r.id, name: r.name } };
  }

  /**
   * DELETE; 404 is success. A 400 means a pod still pulls with it: retried while a pod deleted in
   * the same destroy lets go, then a clear error.
   */
  async delete(id: string, props: RegistryOutputs): Promise<void> {
    const what = label(props, id);
    const gone = await deleteWhenReleased({
      what,
      noun: "registry credential",
      id,
      remove: () => api().deleteRegistry(id),
      inUse: (err) => isRunpodApiError(err, ERROR_CODES.BAD_REQUEST),
      advice:
        "Terminate the pod that pulls its image with it, then run destroy again. In a Pulumi program, give the pod " +
        "`registry: registry.id` (an Output) so that destroy deletes the pod before the credential.",
    });
    if (gone) progress(what, `deleted ${id}`);
  }
}

export const registryProvider = named(new RegistryProvider(), label);
