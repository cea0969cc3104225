/**
 * The RunPod policy pack: `pulumi preview --policy-pack policy`. Constructing the `PolicyPack`
 * starts its gRPC server, so nothing may import this file; the policies live in pack.ts.
 */
import { PolicyPack } from "@pulumi/policy";
import { PACK_DESCRIPTION, PACK_NAME, runpodPolicies } from "./pack";
import { keepSecretMarkers } from "./secret-policies";

// Before the server exists: lets env-secrets tell secrets from plain values (secret-policies.ts).
const secretsVisible = keepSecretMarkers();

new PolicyPack(PACK_NAME, { description: PACK_DESCRIPTION, policies: runpodPolicies({ secretsVisible }) });
