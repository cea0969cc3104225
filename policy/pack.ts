/**
 * The pack's contents, in one list; index.ts serves it. Kept apart from index.ts because
 * constructing a `PolicyPack` starts a gRPC server, which tests must never do in-process.
 */
import type { Policies } from "@pulumi/policy";
import { autostopPolicies } from "./autostop-policies";
import { budgetPolicies } from "./budget-policies";
import { limitPolicies } from "./limit-policies";
import { podPolicies } from "./pod-policies";
import { envSecretsPolicy } from "./secret-policies";
import { serverlessPolicies } from "./serverless-policies";
import { stackPolicies } from "./stack-policies";

/** Must match `^[a-zA-Z0-9-_.]{1,100}$`; the version comes from ./package.json. */
export const PACK_NAME = "runpod-policies";

export const PACK_DESCRIPTION =
  "Rejects RunPod pods and serverless endpoints the API would refuse, and warns about settings that silently do not work.";

/**
 * Every policy of the pack, grouped by area: Pod, autostop, ServerlessEndpoint, env, limits, stack, budget.
 * @param options.secretsVisible whether `keepSecretMarkers()` succeeded (see secret-policies.ts).
 * @example new PolicyPack(PACK_NAME, { policies: runpodPolicies({ secretsVisible: keepSecretMarkers() }) });
 */
export function runpodPolicies(options: { readonly secretsVisible: boolean }): Policies {
  return [
    ...podPolicies,
    ...autostopPolicies,
    ...serverlessPolicies,
    envSecretsPolicy(options),
    ...limitPolicies,
    ...stackPolicies,
    ...budgetPolicies,
  ];
}
