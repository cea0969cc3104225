/** What a Pod is, how a program reads an existing one, and examples, for the class and every SDK. */
import type { Example, ReadById } from "../../fields/declaration.js";

export const POD_DESCRIPTION =
  "A RunPod GPU or CPU pod. Create walks the placement candidates, falling back across data centers and GPU types when one has no capacity, and waits until the pod is ready (not only created); a pod whose container will never start fails the create at once. A pod that fails after the API accepted it is terminated (or kept, and recorded in state) and the error names its id. Changes the API can make in place are updates; the GPU, the cloud, the template and the storage's kind are fixed at create and replace the pod.";

export const POD_GET: ReadById = {
  description:
    "An existing pod, read by its id and never changed by this program: `pulumi up` reads it (a read step), `pulumi refresh` reads it again, and `pulumi destroy` forgets it without terminating it. Its outputs are the API's answer; its environment variables are every one the pod was given (secret in state). To take a pod over and manage it from then on, give `adoptId` instead.",
  id: "The pod's id, as the RunPod console and `runpod-dynamic pods list` show it.",
  example: `const notebook = Pod.get("notebook", "5s2rzot80s4vlq");
export const notebookSsh = notebook.ssh;`,
};

export const POD_EXAMPLES: readonly Example[] = [
  {
    title: "A GPU pod with SSH, falling back to other GPU types",
    typescript: `import { Pod } from "runpod-dynamic";

const pod = new Pod("trainer", {
  name: "trainer",
  image: "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
  gpu: { id: "NVIDIA A40" },
  ports: ["22/tcp", "8888/http"],
  startSsh: true,
  placement: { regions: ["EUROPE", "NORTH_AMERICA"], gpuTypeIds: ["NVIDIA L40S"] },
});
export const ssh = pod.ssh;`,
    python: `import pulumi
import pulumi_runpod_dynamic as runpod

pod = runpod.Pod(
    "trainer",
    name="trainer",
    image="runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
    gpu=runpod.PodGpuArgs(id="NVIDIA A40"),
    ports=["22/tcp", "8888/http"],
    start_ssh=True,
    placement=runpod.PodPlacementArgs(
        regions=[runpod.Region.EUROPE, runpod.Region.NORTH_AMERICA],
        gpu_type_ids=["NVIDIA L40S"],
    ),
)
pulumi.export("ssh", pod.ssh)`,
    go: `package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	runpod "github.com/runpod-dynamic/runpod-dynamic/sdk/go/runpoddynamic"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		pod, err := runpod.NewPod(ctx, "trainer", &runpod.PodArgs{
			Name:     pulumi.String("trainer"),
			Image:    pulumi.String("runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04"),
			Gpu:      &runpod.PodGpuArgs{Id: pulumi.String("NVIDIA A40")},
			Ports:    pulumi.StringArray{pulumi.String("22/tcp"), pulumi.String("8888/http")},
			StartSsh: pulumi.Bool(true),
			Placement: &runpod.PodPlacementArgs{
				Regions:    runpod.RegionArray{runpod.RegionEurope, runpod.RegionNorthAmerica},
				GpuTypeIds: pulumi.StringArray{pulumi.String("NVIDIA L40S")},
			},
		})
		if err != nil {
			return err
		}
		ctx.Export("ssh", pod.Ssh)
		return nil
	})
}`,
    yaml: `resources:
  trainer:
    type: runpod-dynamic:Pod
    properties:
      name: trainer
      image: runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04
      gpu:
        id: NVIDIA A40
      ports: ["22/tcp", "8888/http"]
      startSsh: true
      placement:
        regions: [EUROPE, NORTH_AMERICA]
        gpuTypeIds: [NVIDIA L40S]
outputs:
  ssh: \${trainer.ssh}`,
  },
];
