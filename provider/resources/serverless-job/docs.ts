/** What a ServerlessJob is, why it cannot be read by id, and examples, for the class and every SDK. */
import type { Example } from "../../fields/declaration.js";

export const SERVERLESS_JOB_DESCRIPTION =
  "Runs one job on an endpoint when created, and again when its input changes, and keeps its result: a deploy-time smoke test, so an update fails when the endpoint cannot answer and the output is in the stack. A job cannot be deleted, so a delete forgets it. The service keeps a job's result for 30 minutes; media URLs in the output expire after 7 days.";

/** Why a ServerlessJob has no `get` and refuses the `id` resource option. */
export const SERVERLESS_JOB_NO_GET =
  "a job cannot be read by id (the id resource option): the service keeps a job's result for 30 minutes at most (1 for /runsync). Call getJobStatus(endpointId, jobId) to read one while it is kept.";

export const SERVERLESS_JOB_EXAMPLES: readonly Example[] = [
  {
    title: "A smoke test of an endpoint",
    typescript: `import { ServerlessEndpoint, ServerlessJob } from "runpod-dynamic";

const endpoint = new ServerlessEndpoint("sdxl", {
  name: "sdxl",
  image: "runpod/worker-sdxl:3.1.0",
  gpu: { pools: ["ADA_24"] },
});
const smoke = new ServerlessJob("smoke", { endpointId: endpoint.id, input: { prompt: "ping" } });
export const smokeOutput = smoke.output;`,
    python: `import pulumi
import pulumi_runpod_dynamic as runpod

endpoint = runpod.ServerlessEndpoint(
    "sdxl",
    name="sdxl",
    image="runpod/worker-sdxl:3.1.0",
    gpu=runpod.EndpointGpuArgs(pools=["ADA_24"]),
)
smoke = runpod.ServerlessJob("smoke", endpoint_id=endpoint.id, input={"prompt": "ping"})
pulumi.export("smoke_output", smoke.output)`,
    go: `package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	runpod "github.com/runpod-dynamic/runpod-dynamic/sdk/go/runpoddynamic"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		endpoint, err := runpod.NewServerlessEndpoint(ctx, "sdxl", &runpod.ServerlessEndpointArgs{
			Name:  pulumi.String("sdxl"),
			Image: pulumi.String("runpod/worker-sdxl:3.1.0"),
			Gpu:   &runpod.EndpointGpuArgs{Pools: pulumi.StringArray{pulumi.String("ADA_24")}},
		})
		if err != nil {
			return err
		}
		smoke, err := runpod.NewServerlessJob(ctx, "smoke", &runpod.ServerlessJobArgs{
			EndpointId: endpoint.ID(),
			Input:      pulumi.Map{"prompt": pulumi.String("ping")},
		})
		if err != nil {
			return err
		}
		ctx.Export("smokeOutput", smoke.Output)
		return nil
	})
}`,
    yaml: `resources:
  sdxl:
    type: runpod-dynamic:ServerlessEndpoint
    properties:
      name: sdxl
      image: runpod/worker-sdxl:3.1.0
      gpu:
        pools: ["ADA_24"]
  smoke:
    type: runpod-dynamic:ServerlessJob
    properties:
      endpointId: \${sdxl.id}
      input:
        prompt: ping
outputs:
  smokeOutput: \${smoke.output}`,
  },
];
