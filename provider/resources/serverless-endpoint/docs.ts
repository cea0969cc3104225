/** What a ServerlessEndpoint is, how a program reads an existing one, and examples, for the class and every SDK. */
import type { Example, ReadById } from "../../fields/declaration.js";

export const SERVERLESS_ENDPOINT_DESCRIPTION =
  "A serverless endpoint: workers that run a container on demand, from an image or a template, and scale on a job queue or on requests. How it takes requests and whether it runs on GPUs or CPUs are fixed at create and replace it; everything else changes in place, and a change of pools, GPU count or worker counts may restart its active workers (the preview says so). Deleting an endpoint removes its configuration, logs and job history for good: protect production endpoints.";

export const SERVERLESS_ENDPOINT_GET: ReadById = {
  description:
    "An existing endpoint, read by its id and never changed by this program: `pulumi up` reads it (a read step), `pulumi refresh` reads it again, and `pulumi destroy` forgets it without deleting it (its logs and job history stay). Its environment variables are every one the endpoint has (secret in state). Jobs run on it by its id as on a managed one. To take an endpoint over and manage it, give `adoptId` instead.",
  id: "The endpoint's id, as the RunPod console and `GET /v2/serverless` show it.",
  example: `const sdxl = ServerlessEndpoint.get("sdxl", "89zegalif9p80d");
export const runUrl = sdxl.requestUrls.apply((u) => u.run);`,
};

export const SERVERLESS_ENDPOINT_EXAMPLES: readonly Example[] = [
  {
    title: "A GPU endpoint that scales to zero",
    typescript: `import { ServerlessEndpoint } from "runpod-dynamic";

const endpoint = new ServerlessEndpoint("sdxl", {
  name: "sdxl",
  image: "runpod/worker-sdxl:3.1.0",
  gpu: { pools: ["ADA_24", "ADA_48_PRO"] },
  workers: { min: 0, max: 2, idleTimeout: 30 },
}, { protect: true });
export const jobUrl = endpoint.jobUrl;`,
    python: `import pulumi
import pulumi_runpod_dynamic as runpod

endpoint = runpod.ServerlessEndpoint(
    "sdxl",
    name="sdxl",
    image="runpod/worker-sdxl:3.1.0",
    gpu=runpod.EndpointGpuArgs(pools=["ADA_24", "ADA_48_PRO"]),
    workers=runpod.EndpointWorkersArgs(min=0, max=2, idle_timeout=30),
    opts=pulumi.ResourceOptions(protect=True),
)
pulumi.export("job_url", endpoint.job_url)`,
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
			Gpu: &runpod.EndpointGpuArgs{
				Pools: pulumi.StringArray{pulumi.String("ADA_24"), pulumi.String("ADA_48_PRO")},
			},
			Workers: &runpod.EndpointWorkersArgs{
				Min:         pulumi.Int(0),
				Max:         pulumi.Int(2),
				IdleTimeout: pulumi.Int(30),
			},
		}, pulumi.Protect(true))
		if err != nil {
			return err
		}
		ctx.Export("jobUrl", endpoint.JobUrl)
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
        pools: ["ADA_24", "ADA_48_PRO"]
      workers:
        min: 0
        max: 2
        idleTimeout: 30
    options:
      protect: true
outputs:
  jobUrl: \${sdxl.jobUrl}`,
  },
];
