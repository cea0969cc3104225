/**
 * The env value that refers to an account secret. Kept apart from the secret's declaration and
 * bodies: the root entry exports it, and the declarations a program compiles against never reach zod.
 */

/**
 * The env value that refers to the secret `name`: `{{ RUNPOD_SECRET_<name> }}`, replaced by the
 * secret's value when the pod or worker boots. The env keeps the reference as written, so state,
 * previews and the API's answers hold the name, never the value.
 * @example
 * new Pod("app", { ..., env: { HF_TOKEN: secretReference("hf-token") } }); // "{{ RUNPOD_SECRET_hf-token }}"
 */
export function secretReference(name: string): string {
  return `{{ RUNPOD_SECRET_${name} }}`;
}
