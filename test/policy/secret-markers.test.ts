/**
 * keepSecretMarkers() in-process: after it, the deserializer the policy server calls keeps secrets
 * wrapped for Analyze and AnalyzeStack too (secret-policies.ts). Its own file: it patches this
 * process's copy of @pulumi/policy.
 */
import { Secret } from "@pulumi/policy";
import { expect, it } from "vitest";
import { keepSecretMarkers } from "../../policy/secret-policies.js";
import { nodeRequire } from "../support/dist.js";
import { Struct } from "../support/host.js";
import { secret } from "../support/policy.js";

const deserialize = nodeRequire("@pulumi/policy/deserialize") as {
  deserializeProperties(struct: unknown, proxySecrets: boolean): Record<string, unknown>;
};
const rawEnv = (props: Record<string, unknown>) =>
  Object.getOwnPropertyDescriptor(props, "env")?.value as Record<string, unknown>;

it("makes the server's proxySecrets=false deserialization keep Secret wrappers, idempotently", () => {
  const wire = () => Struct.fromJavaScript({ env: { API_KEY: secret("s3cr3t"), MODEL: "llama" } });
  expect(rawEnv(deserialize.deserializeProperties(wire(), false))).toEqual({
    API_KEY: "s3cr3t",
    MODEL: "llama",
  });

  expect(keepSecretMarkers()).toBe(true);
  const patched = deserialize.deserializeProperties;
  expect(keepSecretMarkers()).toBe(true);
  expect(deserialize.deserializeProperties).toBe(patched);

  const props = deserialize.deserializeProperties(wire(), false);
  expect(rawEnv(props)).toEqual({ API_KEY: new Secret("s3cr3t"), MODEL: "llama" });
  expect(rawEnv(props).API_KEY).toBeInstanceOf(Secret);
  // Reading through the secrets-preserving proxy still gives the plaintext.
  expect((props.env as Record<string, unknown>).API_KEY).toBe("s3cr3t");
});
