/** What a Cluster is, how a program reads an existing one, and examples, for the class and every SDK. */
import type { Example, ReadById } from "../../fields/declaration.js";

export const CLUSTER_DESCRIPTION =
  "An instant cluster: 2 to 250 identical GPU pods in one data center on a private network. Create waits until every member pod runs. Only the name changes in place (the API's update is a rename); everything else replaces the cluster. Delete terminates the members and waits until they are gone. Member pods are not Pod resources: the API refuses changes to them. With a template, its image, command, disk, ports and environment variables are read and sent, the program's own values winning.";

export const CLUSTER_GET: ReadById = {
  description:
    "An existing instant cluster, read by its id and never changed by this program: `pulumi up` reads it (a read step), `pulumi refresh` reads it again, and `pulumi destroy` forgets it without deleting it (its pods keep running, and billing). Its environment variables are every one its pods were given (secret in state). To take a cluster over and manage it, give `adoptId` instead.",
  id: "The cluster's id, as `GET /v2/clusters` lists it.",
  example: `const trainers = Cluster.get("trainers", "su3fh1x1omktyn");
export const primary = trainers.primary;`,
};

export const CLUSTER_EXAMPLES: readonly Example[] = [
  {
    title: "A training cluster on a network volume",
    typescript: `import { Cluster, NetworkVolume } from "runpod-dynamic";

const datasets = new NetworkVolume("datasets", { name: "datasets", size: 500, dataCenterId: "US-TX-3" });
const cluster = new Cluster("trainers", {
  name: "trainers",
  type: "TRAINING",
  compute: { gpuTypeId: "NVIDIA H100 80GB HBM3", gpuCountPerPod: 8, podCount: 4 },
  image: "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
  mounts: { network: [{ volumeId: datasets.id, path: "/data" }] },
});
export const primary = cluster.primary;`,
    python: `import pulumi
import pulumi_runpod_dynamic as runpod

datasets = runpod.NetworkVolume("datasets", name="datasets", size=500, data_center_id="US-TX-3")
cluster = runpod.Cluster(
    "trainers",
    name="trainers",
    type=runpod.ClusterType.TRAINING,
    compute=runpod.ClusterComputeArgs(gpu_type_id="NVIDIA H100 80GB HBM3", gpu_count_per_pod=8, pod_count=4),
    image="runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
    mounts=runpod.ClusterMountsArgs(network=[runpod.NetworkMountArgs(volume_id=datasets.id, path="/data")]),
)
pulumi.export("primary", cluster.primary)`,
    go: `package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	runpod "github.com/runpod-dynamic/runpod-dynamic/sdk/go/runpoddynamic"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		datasets, err := runpod.NewNetworkVolume(ctx, "datasets", &runpod.NetworkVolumeArgs{
			Name:         pulumi.String("datasets"),
			Size:         pulumi.Int(500),
			DataCenterId: pulumi.String("US-TX-3"),
		})
		if err != nil {
			return err
		}
		cluster, err := runpod.NewCluster(ctx, "trainers", &runpod.ClusterArgs{
			Name: pulumi.String("trainers"),
			Type: runpod.ClusterTypeTraining,
			Compute: &runpod.ClusterComputeArgs{
				GpuTypeId:      pulumi.String("NVIDIA H100 80GB HBM3"),
				GpuCountPerPod: pulumi.Int(8),
				PodCount:       pulumi.Int(4),
			},
			Image: pulumi.String("runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04"),
			Mounts: &runpod.ClusterMountsArgs{
				Network: runpod.NetworkMountArray{
					&runpod.NetworkMountArgs{VolumeId: datasets.ID(), Path: pulumi.String("/data")},
				},
			},
		})
		if err != nil {
			return err
		}
		ctx.Export("primary", cluster.Primary)
		return nil
	})
}`,
    yaml: `resources:
  datasets:
    type: runpod-dynamic:NetworkVolume
    properties:
      name: datasets
      size: 500
      dataCenterId: US-TX-3
  trainers:
    type: runpod-dynamic:Cluster
    properties:
      name: trainers
      type: TRAINING
      compute:
        gpuTypeId: NVIDIA H100 80GB HBM3
        gpuCountPerPod: 8
        podCount: 4
      image: runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04
      mounts:
        network:
          - volumeId: \${datasets.id}
            path: /data
outputs:
  primary: \${trainers.primary}`,
  },
];
