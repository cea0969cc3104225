/**
 * The input in which a resource class lists the env keys the program gave as plain text (names
 * only; provider/program/secret-inputs.ts). One underscore, not the two of the provider's other
 * internal inputs: the engine keeps `__`-prefixed properties from policy packs, and the env-secrets
 * policy reads this one. check() leaves it out of the inputs it validates (withoutInternal).
 */
export const PLAIN_ENV_KEYS = "_plainEnvKeys";
