/** What a NetworkVolume is, how a program reads an existing one, and examples, for the class and every SDK. */
import type { Example, ReadById } from "../../fields/declaration.js";

export const NETWORK_VOLUME_DESCRIPTION =
  "A RunPod network volume: network-attached storage in one data center, 10 to 4096 GB. A pod mounts it by the volume's id, which both places the pod in the volume's data center and makes the pod depend on the volume, so a destroy deletes the pod first (the API refuses to delete a volume a pod still mounts). The size can only grow; the data center and the storage type are fixed at create. Global volumes have no management API: a pod refers to an existing one by id.";

export const NETWORK_VOLUME_GET: ReadById = {
  description:
    "An existing network volume, read by its id and never changed by this program: `pulumi up` reads it (a read step), `pulumi refresh` reads it again, and `pulumi destroy` forgets it without deleting it (nor its data). Pods mount it by its id as they mount a managed one. To take a volume over and manage it (rename it, grow it), give `adoptId` instead.",
  id: "The volume's id, as the RunPod console and `GET /v2/network-volumes` show it.",
  example: `const datasets = NetworkVolume.get("datasets", "k2q4xnyy7l");
new Pod("trainer", {
  name: "trainer",
  image: "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
  gpu: { id: "NVIDIA A40" },
  mounts: { network: [{ volumeId: datasets.id, path: "/data" }] },
});`,
};

export const NETWORK_VOLUME_EXAMPLES: readonly Example[] = [
  {
    title: "A volume and a pod that mounts it",
    typescript: `import { NetworkVolume, Pod } from "runpod-dynamic";

const data = new NetworkVolume("datasets", { name: "datasets", size: 100, dataCenterId: "EU-RO-1" });
new Pod("trainer", {
  name: "trainer",
  image: "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
  gpu: { id: "NVIDIA A40" },
  mounts: { network: [{ volumeId: data.id, path: "/data" }] },
});`,
    python: `import pulumi_runpod_dynamic as runpod

data = runpod.NetworkVolume("datasets", name="datasets", size=100, data_center_id="EU-RO-1")
runpod.Pod(
    "trainer",
    name="trainer",
    image="runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
    gpu=runpod.PodGpuArgs(id="NVIDIA A40"),
    mounts=runpod.PodMountsArgs(network=[runpod.NetworkMountArgs(volume_id=data.id, path="/data")]),
)`,
    go: `package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	runpod "github.com/runpod-dynamic/runpod-dynamic/sdk/go/runpoddynamic"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		data, err := runpod.NewNetworkVolume(ctx, "datasets", &runpod.NetworkVolumeArgs{
			Name:         pulumi.String("datasets"),
			Size:         pulumi.Int(100),
			DataCenterId: pulumi.String("EU-RO-1"),
		})
		if err != nil {
			return err
		}
		_, err = runpod.NewPod(ctx, "trainer", &runpod.PodArgs{
			Name:  pulumi.String("trainer"),
			Image: pulumi.String("runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04"),
			Gpu:   &runpod.PodGpuArgs{Id: pulumi.String("NVIDIA A40")},
			Mounts: &runpod.PodMountsArgs{
				Network: runpod.NetworkMountArray{
					&runpod.NetworkMountArgs{VolumeId: data.ID(), Path: pulumi.String("/data")},
				},
			},
		})
		return err
	})
}`,
    yaml: `resources:
  datasets:
    type: runpod-dynamic:NetworkVolume
    properties:
      name: datasets
      size: 100
      dataCenterId: EU-RO-1
  trainer:
    type: runpod-dynamic:Pod
    properties:
      name: trainer
      image: runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04
      gpu:
        id: NVIDIA A40
      mounts:
        network:
          - volumeId: \${datasets.id}
            path: /data`,
  },
];
