/**
 * Liberal in what we accept: every example answer of RunPod's v2 description parses with the
 * schema the client reads that operation's answer with. The description's examples are RunPod's
 * own statement of a valid answer; a read that refuses one would fail a refresh, a wait or a CLI
 * command on a real answer. Fields the code only shows are optional when parsed; only what it
 * decides on is required.
 */
import { describe, expect, it } from "vitest";
import { deref, HTTP_METHODS, loadDescription, type Response } from "../support/conformance/description.js";
import { clientLib } from "../support/dist.js";

const { schemas } = clientLib;
type Parser = { safeParse(value: unknown): { success: boolean; error?: { issues: unknown[] } } };

/** The schema the client parses each operation's answer with (provider/client/api/*.ts). */
const CLIENT_SCHEMA: Readonly<Record<string, Parser>> = {
  getSshKeys: schemas.SshKeys,
  updateSshKeys: schemas.SshKeys,
  listPods: schemas.ListPodsResponse,
  createPod: schemas.Pod,
  getPod: schemas.Pod,
  updatePod: schemas.Pod,
  podAction: schemas.Pod,
  getPodLogs: schemas.PodLogLine,
  listClusters: schemas.ListClustersResponse,
  createCluster: schemas.Cluster,
  getCluster: schemas.Cluster,
  updateCluster: schemas.Cluster,
  listClusterPods: schemas.ListPodsResponse,
  listEndpoints: schemas.ListEndpointsResponse,
  createEndpoint: schemas.Endpoint,
  getEndpoint: schemas.Endpoint,
  updateEndpoint: schemas.Endpoint,
  listEndpointWorkers: schemas.ListEndpointWorkersResponse,
  listEndpointReleases: schemas.ListEndpointReleasesResponse,
  getWorkerLogs: schemas.PodLogLine,
  listTemplates: schemas.ListTemplatesResponse,
  createTemplate: schemas.Template,
  getTemplate: schemas.Template,
  updateTemplate: schemas.Template,
  listNetworkVolumes: schemas.ListNetworkVolumesResponse,
  createNetworkVolume: schemas.NetworkVolume,
  getNetworkVolume: schemas.NetworkVolume,
  updateNetworkVolume: schemas.NetworkVolume,
  listRegistries: schemas.ListRegistriesResponse,
  createRegistry: schemas.Registry,
  getRegistry: schemas.Registry,
  listGpuTypes: schemas.ListGpuTypesResponse,
  listCpuTypes: schemas.ListCpuFlavorsResponse,
  listDataCenters: schemas.ListDataCentersResponse,
  listPublicTemplates: schemas.ListTemplatesResponse,
  listBilling: schemas.ListBillingResponse,
  listPodBilling: schemas.ListPodBillingResponse,
  listServerlessBilling: schemas.ListServerlessBillingResponse,
  listNetworkVolumeBilling: schemas.ListNetworkVolumeBillingResponse,
  listClusterBilling: schemas.ListClusterBillingResponse,
};

/** An event-stream example's `data:` payloads, as JSON. */
function eventData(stream: string): unknown[] {
  return stream
    .split("\n")
    .filter((l) => l.startsWith("data: "))
    .map((l) => JSON.parse(l.slice("data: ".length)) as unknown);
}

const description = loadDescription();
/** Every example of every 2xx answer: `[operationId, example name, value]`. */
const examples: [string, string, unknown][] = [];
for (const item of Object.values(description.paths)) {
  for (const method of HTTP_METHODS) {
    const op = item[method];
    if (!op) continue;
    for (const [status, ref] of Object.entries(op.responses)) {
      if (!status.startsWith("2")) continue;
      const answer = deref<Response>(description, ref);
      for (const [type, media] of Object.entries(answer.content ?? {})) {
        for (const [name, example] of Object.entries(media.examples ?? {})) {
          const values = type === "text/event-stream" ? eventData(String(example.value)) : [example.value];
          for (const value of values) examples.push([op.operationId, name, value]);
        }
      }
    }
  }
}

describe("every example answer of the v2 description parses with the client's schema", () => {
  it("covers every operation the client reads; those it does not read are named", () => {
    const withExamples = [...new Set(examples.map(([op]) => op))];
    expect(withExamples.filter((op) => !(op in CLIENT_SCHEMA)).sort()).toEqual([
      "getCpuType",
      "getDataCenter",
      "getGpuType",
      "listEndpointBilling",
    ]);
    expect(examples.length).toBe(40);
  });

  it.each(examples.filter(([op]) => op in CLIENT_SCHEMA))("%s: %s", (op, _name, value) => {
    const result = CLIENT_SCHEMA[op]?.safeParse(value);
    expect([result?.success, result?.error?.issues ?? []]).toEqual([true, []]);
  });
});
