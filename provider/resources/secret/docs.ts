/** What a Secret is, how a program reads an existing one, and examples, for the class and every SDK. */
import type { Example, ReadById } from "../../fields/declaration.js";

export const SECRET_DESCRIPTION =
  "A RunPod account secret: an encrypted string that pods, templates and serverless endpoints refer to from their environment variables as `{{ RUNPOD_SECRET_<name> }}`; RunPod puts the value in when the pod or worker boots, so the environment in state, previews and the API's answers holds the reference, never the value. Give the secret's reference output as the value: the pod then depends on the secret, and a destroy deletes the pod first. A new value rotates the secret in place, and pods and workers get it at their next boot; a new name replaces it, and references to the old name stop resolving.";

export const SECRET_GET: ReadById = {
  description:
    "An existing account secret, read by its id and never changed by this program: `pulumi up` reads it (a read step), `pulumi refresh` reads it again, and `pulumi destroy` forgets it without deleting it. It has no value: the API never answers one, so a read secret gives its name, description, dates and reference, and state holds no value of it. To take a secret over and set its value from the program, give `adoptId` instead.",
  id: "The secret's id, as `GET /v2/account/secrets` lists it.",
  example: `const hf = Secret.get("hf-token", "l609r5w0qkkd");
new Pod("vllm", { name: "vllm", image: "vllm/vllm-openai:v0.6.3", gpu: { id: "NVIDIA A40" }, env: { HF_TOKEN: hf.reference } });`,
};

export const SECRET_EXAMPLES: readonly Example[] = [
  {
    title: "A secret a pod refers to",
    typescript: `import * as pulumi from "@pulumi/pulumi";
import { Pod, Secret } from "runpod-dynamic";

const config = new pulumi.Config();
const hf = new Secret("hf-token", { name: "hf-token", value: config.requireSecret("hfToken") });
new Pod("vllm", {
  name: "vllm",
  image: "vllm/vllm-openai:v0.6.3",
  gpu: { id: "NVIDIA A40" },
  env: { HF_TOKEN: hf.reference },
});`,
    python: `import pulumi
import pulumi_runpod_dynamic as runpod

config = pulumi.Config()
hf = runpod.Secret("hf-token", name="hf-token", value=config.require_secret("hfToken"))
runpod.Pod(
    "vllm",
    name="vllm",
    image="vllm/vllm-openai:v0.6.3",
    gpu=runpod.PodGpuArgs(id="NVIDIA A40"),
    env={"HF_TOKEN": hf.reference},
)`,
    go: `package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
	runpod "github.com/runpod-dynamic/runpod-dynamic/sdk/go/runpoddynamic"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		conf := config.New(ctx, "")
		hf, err := runpod.NewSecret(ctx, "hf-token", &runpod.SecretArgs{
			Name:  pulumi.String("hf-token"),
			Value: conf.RequireSecret("hfToken"),
		})
		if err != nil {
			return err
		}
		_, err = runpod.NewPod(ctx, "vllm", &runpod.PodArgs{
			Name:  pulumi.String("vllm"),
			Image: pulumi.String("vllm/vllm-openai:v0.6.3"),
			Gpu:   &runpod.PodGpuArgs{Id: pulumi.String("NVIDIA A40")},
			Env:   pulumi.StringMap{"HF_TOKEN": hf.Reference},
		})
		return err
	})
}`,
    yaml: `config:
  hfToken:
    type: string
    secret: true
resources:
  hf:
    type: runpod-dynamic:Secret
    properties:
      name: hf-token
      value: \${hfToken}
  vllm:
    type: runpod-dynamic:Pod
    properties:
      name: vllm
      image: vllm/vllm-openai:v0.6.3
      gpu:
        id: NVIDIA A40
      env:
        HF_TOKEN: \${hf.reference}`,
  },
];
