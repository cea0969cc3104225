/** What a Template is, how a program reads an existing one, and examples, for the class and every SDK. */
import type { Example, ReadById } from "../../fields/declaration.js";

export const TEMPLATE_DESCRIPTION =
  "A container template of the account's own. A template is applied once, at create: a pod created from it keeps the template's settings as they were then, and editing the template later does not change that pod (nor an endpoint's existing workers); to roll a change out to a pod, replace the pod. A serverless template cannot back a pod: the pod's create fails with the API's 422, which its error carries.";

export const TEMPLATE_GET: ReadById = {
  description:
    "An existing template, read by its id and never changed by this program: `pulumi up` reads it (a read step), `pulumi refresh` reads it again, and `pulumi destroy` forgets it without deleting it. One of the account's own templates or a public one; its environment variables are every one the template sets (secret in state). To take one of the account's templates over and manage it, give `adoptId` instead.",
  id: "The template's id, as the RunPod console and `GET /v2/templates` show it.",
  example: `const base = Template.get("base", "4pem0u1pcm");
new Pod("trainer", { name: "trainer", templateId: base.id, gpu: { id: "NVIDIA A40" } });`,
};

export const TEMPLATE_EXAMPLES: readonly Example[] = [
  {
    title: "A template, and a pod created from it",
    typescript: `import * as pulumi from "@pulumi/pulumi";
import { Pod, Template } from "runpod-dynamic";

const config = new pulumi.Config();
const tpl = new Template("trainer", {
  name: "trainer",
  image: "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
  ports: ["8888/http", "22/tcp"],
  env: { HF_TOKEN: config.requireSecret("hfToken") },
  startJupyter: false,
});
new Pod("trainer", { name: "trainer", templateId: tpl.id, gpu: { id: "NVIDIA A40" } });`,
    python: `import pulumi
import pulumi_runpod_dynamic as runpod

config = pulumi.Config()
tpl = runpod.Template(
    "trainer",
    name="trainer",
    image="runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
    ports=["8888/http", "22/tcp"],
    env={"HF_TOKEN": config.require_secret("hfToken")},
    start_jupyter=False,
)
runpod.Pod("trainer", name="trainer", template_id=tpl.id, gpu=runpod.PodGpuArgs(id="NVIDIA A40"))`,
    go: `package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
	runpod "github.com/runpod-dynamic/runpod-dynamic/sdk/go/runpoddynamic"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		conf := config.New(ctx, "")
		tpl, err := runpod.NewTemplate(ctx, "trainer", &runpod.TemplateArgs{
			Name:         pulumi.String("trainer"),
			Image:        pulumi.String("runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04"),
			Ports:        pulumi.StringArray{pulumi.String("8888/http"), pulumi.String("22/tcp")},
			Env:          pulumi.StringMap{"HF_TOKEN": conf.RequireSecret("hfToken")},
			StartJupyter: pulumi.Bool(false),
		})
		if err != nil {
			return err
		}
		_, err = runpod.NewPod(ctx, "trainer", &runpod.PodArgs{
			Name:       pulumi.String("trainer"),
			TemplateId: tpl.ID(),
			Gpu:        &runpod.PodGpuArgs{Id: pulumi.String("NVIDIA A40")},
		})
		return err
	})
}`,
    yaml: `config:
  hfToken:
    type: string
    secret: true
resources:
  template:
    type: runpod-dynamic:Template
    properties:
      name: trainer
      image: runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04
      ports: ["8888/http", "22/tcp"]
      env:
        HF_TOKEN: \${hfToken}
      startJupyter: false
  trainer:
    type: runpod-dynamic:Pod
    properties:
      name: trainer
      templateId: \${template.id}
      gpu:
        id: NVIDIA A40`,
  },
];
