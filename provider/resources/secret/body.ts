/** Secret's request bodies and its outputs from the API's answer. */
import type {
  Secret as ApiSecret,
  CreateSecretRequest,
  UpdateSecretRequest,
} from "../../client/schemas/secrets.js";
import { apiBody } from "../../fields/derive.js";
import { SECRET, SECRET_CREATE_ONLY, SECRET_UPDATE } from "./fields.js";
import { secretReference } from "./reference.js";
import type { SecretInputs, SecretOutputs } from "./types.js";

export function createSecretBody(inputs: SecretInputs): CreateSecretRequest {
  return apiBody(SECRET, { ...SECRET_CREATE_ONLY, ...SECRET_UPDATE }, inputs) as CreateSecretRequest;
}

/** Only what changed: the value and the description are independent fields of the PATCH. */
export function patchBody(updates: readonly string[], news: SecretInputs): Partial<UpdateSecretRequest> {
  return apiBody(SECRET, SECRET_UPDATE, news, { only: updates });
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
