/**
 * Existing objects of every type read by id, whose ids stack config gives:
 *
 *   pulumi config set ids '{"pod": "…", "endpoint": "…", "template": "…", "volume": "…",
 *     "registry": "…", "secret": "…", "sshKey": "SHA256:…", "cluster": "…"}'
 *
 * Each is read with its class's `get`; the secret a second time with the `id` resource option
 * (what `get` uses), given a value, which a read never stores. `ids.retiredTemplate`, when set, is
 * one more template read, for a refresh after it is deleted. With `ids.adoptVolume` set, that
 * volume is taken over with `adoptId` (managed from then on), for contrast. With `importPod` set, a
 * pod is declared with the `import` resource option, which the engine cannot do for a dynamic
 * provider.
 */
import * as pulumi from "@pulumi/pulumi";
import {
  Cluster,
  NetworkVolume,
  Pod,
  Registry,
  Secret,
  ServerlessEndpoint,
  SshKey,
  Template,
} from "runpod-dynamic";

interface Ids {
  pod: string;
  endpoint: string;
  template: string;
  volume: string;
  registry: string;
  secret: string;
  sshKey: string;
  cluster: string;
  adoptVolume?: string;
  retiredTemplate?: string;
}

const config = new pulumi.Config();
const ids = config.requireObject<Ids>("ids");

const pod = Pod.get("pod", ids.pod);
const endpoint = ServerlessEndpoint.get("endpoint", ids.endpoint);
const template = Template.get("template", ids.template);
const volume = NetworkVolume.get("volume", ids.volume);
const registry = Registry.get("registry", ids.registry);
const secret = Secret.get("secret", ids.secret);
const sshKey = SshKey.get("ssh-key", ids.sshKey);
const cluster = Cluster.get("cluster", ids.cluster);
const secretByOption = new Secret(
  "secret-by-option",
  { name: "HF_TOKEN", value: pulumi.secret("hf_value_given_in_the_program") },
  { id: ids.secret },
);

if (ids.retiredTemplate) Template.get("retired", ids.retiredTemplate);
if (ids.adoptVolume) {
  new NetworkVolume("adopted", {
    name: "scratch",
    size: 10,
    dataCenterId: "US-KS-2",
    adoptId: ids.adoptVolume,
  });
}

const importPod = config.get("importPod");
if (importPod) {
  new Pod(
    "imported",
    { name: "notebook", image: "runpod/base:0.6.2-cpu", cpu: { id: "cpu3c", vcpuCount: 2 } },
    { import: importPod },
  );
}

export const read = {
  pod: { id: pod.id, name: pod.name, image: pod.image, status: pod.status, cpu: pod.cpu, ports: pod.ports },
  podEnv: pulumi.unsecret(pod.env),
  endpoint: {
    id: endpoint.id,
    name: endpoint.name,
    type: endpoint.type,
    gpu: endpoint.gpu,
    workers: endpoint.workers,
    scaling: endpoint.scaling,
    timeout: endpoint.timeout,
    jobUrl: endpoint.jobUrl,
  },
  endpointEnv: pulumi.unsecret(endpoint.env),
  template: {
    id: template.id,
    name: template.name,
    image: template.image,
    disk: template.disk,
    ports: template.ports,
  },
  templateEnv: pulumi.unsecret(template.env),
  volume: {
    id: volume.id,
    name: volume.name,
    size: volume.size,
    dataCenterId: volume.dataCenterId,
    type: volume.type,
  },
  registry: { id: registry.id, name: registry.name },
  secret: { id: secret.id, name: secret.name, reference: secret.reference, createdAt: secret.createdAt },
  secretByOption: { id: secretByOption.id, name: secretByOption.name, reference: secretByOption.reference },
  sshKey: { id: sshKey.id, publicKey: sshKey.publicKey, keyType: sshKey.keyType, comment: sshKey.comment },
  cluster: {
    id: cluster.id,
    name: cluster.name,
    type: cluster.type,
    dataCenterId: cluster.dataCenterId,
    members: cluster.members.apply((m) => m.map((x) => x.podId)),
  },
  clusterEnv: pulumi.unsecret(cluster.env),
};
