/**
 * The chaos suite's fleet: SSH keys, pods and serverless endpoints read from the stack
 * config `runpod-chaos:fleet`, so that every phase of the test (create, update, replace) is a
 * config change of one program. Entries marked `secretEnv` get the secret `runpod-chaos:hfToken`
 * as HF_TOKEN, so that the suite can check it never reaches state or logs in plain text.
 */
import * as pulumi from "@pulumi/pulumi";
import { Pod, type PodArgs, ServerlessEndpoint, type ServerlessEndpointArgs, SshKey } from "runpod-dynamic";

interface Fleet {
  readonly sshKeys: readonly { readonly name: string; readonly publicKey: string }[];
  readonly pods: readonly { readonly name: string; readonly args: PodArgs; readonly secretEnv?: boolean }[];
  readonly endpoints: readonly {
    readonly name: string;
    readonly args: ServerlessEndpointArgs;
    readonly secretEnv?: boolean;
  }[];
}

const config = new pulumi.Config();
const fleet = config.requireObject<Fleet>("fleet");
const token = config.requireSecret("hfToken");

const withToken = (env: pulumi.Input<Record<string, pulumi.Input<string>>> | undefined) =>
  pulumi.all([env ?? {}, token]).apply(([plain, t]) => ({ ...plain, HF_TOKEN: t }));

const keys = fleet.sshKeys.map((k) => new SshKey(k.name, { publicKey: k.publicKey }));

const pods = fleet.pods.map(
  (p) =>
    new Pod(
      p.name,
      { ...p.args, ...(p.secretEnv ? { env: withToken(p.args.env) } : {}) },
      // Keys reach only pods created after them.
      { dependsOn: p.args.startSsh ? keys : [] },
    ),
);

const endpoints = fleet.endpoints.map(
  (e) =>
    new ServerlessEndpoint(e.name, {
      ...e.args,
      ...(e.secretEnv ? { env: withToken(e.args.env) } : {}),
    }),
);

export const podIds = pulumi.all(pods.map((p) => p.id));
export const podStatuses = pulumi.all(pods.map((p) => p.status));
export const endpointIds = pulumi.all(endpoints.map((e) => e.endpointId));
export const fingerprints = pulumi.all(keys.map((k) => k.fingerprint));
export const tokenEcho = token;
