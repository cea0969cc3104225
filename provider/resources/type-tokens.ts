/**
 * The type token of every resource (`pulumi-nodejs:dynamic/runpod:<Name>`, and the provider
 * plugin's `runpod-dynamic:index:<Name>`), declared once: the
 * resource classes register under them, the policy pack and the cost estimate recognise resources
 * by them. Kept apart from the classes so that code reading state or a preview (the CLI, the
 * estimate) does not load @pulumi/pulumi to know a token.
 */

const PREFIX = "pulumi-nodejs:dynamic/runpod:";

export const CLUSTER_TYPE = `${PREFIX}Cluster`;
export const NETWORK_VOLUME_TYPE = `${PREFIX}NetworkVolume`;
export const POD_TYPE = `${PREFIX}Pod`;
export const REGISTRY_TYPE = `${PREFIX}Registry`;
export const SECRET_TYPE = `${PREFIX}Secret`;
export const SERVERLESS_ENDPOINT_TYPE = `${PREFIX}ServerlessEndpoint`;
export const SERVERLESS_JOB_TYPE = `${PREFIX}ServerlessJob`;
export const SSH_KEY_TYPE = `${PREFIX}SshKey`;
export const STACK_IDENTITY_TYPE = `${PREFIX}StackIdentity`;
export const TEMPLATE_TYPE = `${PREFIX}Template`;

/** The provider plugin's package name, and the module of every token it has. */
export const PLUGIN_PACKAGE = "runpod-dynamic";
const PLUGIN_PREFIX = `${PLUGIN_PACKAGE}:index:`;

/** `runpod-dynamic:index:Pod` for `Pod`: the provider plugin's token of a resource, type or function. */
export function pluginToken(name: string): string {
  return `${PLUGIN_PREFIX}${name}`;
}

/**
 * `Pod` for `pulumi-nodejs:dynamic/runpod:Pod` (the dynamic provider) and for
 * `runpod-dynamic:index:Pod` (the provider plugin); undefined for a token of another provider.
 */
export function runpodTypeName(token: string): string | undefined {
  if (token.startsWith(PREFIX)) return token.slice(PREFIX.length);
  if (token.startsWith(PLUGIN_PREFIX)) return token.slice(PLUGIN_PREFIX.length);
  return undefined;
}
