/** Secret's request bodies and its outputs from the API's answer. */
import type {
  Secret as ApiSecret,
  CreateSecretRequest,
  UpdateSecretRequest,
} from "../../client/schemas/secrets.js";
import { secretReference } from "../secret.js";
import type { SecretInputs, SecretOutputs } from "./types.js";

export function createSecretBody(inputs: SecretInputs): CreateSecretRequest {
  return {
    name: inputs.name,
    value: inputs.value,
    ...(inputs.description !== undefined ? { description: inputs.description } : {}),
  };
}

/** Only what changed: the value and the description are independent fields of the PATCH. */
export function patchBody(updates: readonly string[], news: SecretInputs): Partial<UpdateSecretRequest> {
  return {
    ...(updates.includes("value") ? { value: news.value } : {}),
    ...(updates.includes("description") && news.description !== undefined
      ? { description: news.description }
      : {}),
  };
}

/** Every field the API answered, JSON-clean; never a value (the API has none to give). */
export function secretOutputs(s: ApiSecret): SecretOutputs {
  return {
    secretId: s.id,
    name: s.name,
    description: s.description ?? null,
    createdAt: s.createdAt ?? null,
    valueLastUpdatedAt: s.valueLastUpdatedAt ?? null,
    reference: secretReference(s.name),
  };
}
