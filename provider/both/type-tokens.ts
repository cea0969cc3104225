/**
 * The type token of every resource (`pulumi-nodejs:dynamic/runpod:<Name>`), declared once: the
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

/** `Pod` for `pulumi-nodejs:dynamic/runpod:Pod`; undefined for a token of another provider. */
export function runpodTypeName(token: string): string | undefined {
  return token.startsWith(PREFIX) ? token.slice(PREFIX.length) : undefined;
}
