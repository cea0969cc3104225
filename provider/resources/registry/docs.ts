/** What a Registry is, how a program reads an existing one, and examples, for the class and every SDK. */
import type { Example, ReadById } from "../../fields/declaration.js";

export const REGISTRY_DESCRIPTION =
  "Credentials for pulling images from a private registry. The API never shows the username or the password again: a salted digest in state shows a new one, and every change replaces the credential (the API has no update). A pod or endpoint pulls with it by its id; passing the id output also makes a destroy delete the pod before the credential.";

export const REGISTRY_GET: ReadById = {
  description:
    "An existing registry credential, read by its id and never changed by this program: `pulumi up` reads it (a read step), `pulumi refresh` reads it again, and `pulumi destroy` forgets it without deleting it. The API shows only its id and name, never the username or password, and a pod pulls with it by its id as with a managed one. To take a credential over and manage it, give `adoptId` instead.",
  id: "The credential's id, as `runpod-dynamic registries list` shows it.",
  example: `const ghcr = Registry.get("ghcr", "xdph7swyaa");
new Pod("app", { name: "app", image: "ghcr.io/my-org/app:1.4", registry: ghcr.id, gpu: { id: "NVIDIA A40" } });`,
};

export const REGISTRY_EXAMPLES: readonly Example[] = [
  {
    title: "A private image",
    typescript: `import * as pulumi from "@pulumi/pulumi";
import { Pod, Registry } from "runpod-dynamic";

const config = new pulumi.Config();
const ghcr = new Registry("ghcr", {
  name: "ghcr",
  username: "my-org-bot",
  password: config.requireSecret("ghcrToken"),
});
new Pod("app", { name: "app", image: "ghcr.io/my-org/app:1.4", registry: ghcr.id, gpu: { id: "NVIDIA A40" } });`,
    python: `import pulumi
import pulumi_runpod_dynamic as runpod

config = pulumi.Config()
ghcr = runpod.Registry("ghcr", name="ghcr", username="my-org-bot", password=config.require_secret("ghcrToken"))
runpod.Pod(
    "app",
    name="app",
    image="ghcr.io/my-org/app:1.4",
    registry=ghcr.id,
    gpu=runpod.PodGpuArgs(id="NVIDIA A40"),
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
		ghcr, err := runpod.NewRegistry(ctx, "ghcr", &runpod.RegistryArgs{
			Name:     pulumi.String("ghcr"),
			Username: pulumi.String("my-org-bot"),
			Password: conf.RequireSecret("ghcrToken"),
		})
		if err != nil {
			return err
		}
		_, err = runpod.NewPod(ctx, "app", &runpod.PodArgs{
			Name:     pulumi.String("app"),
			Image:    pulumi.String("ghcr.io/my-org/app:1.4"),
			Registry: ghcr.ID(),
			Gpu:      &runpod.PodGpuArgs{Id: pulumi.String("NVIDIA A40")},
		})
		return err
	})
}`,
    yaml: `config:
  ghcrToken:
    type: string
    secret: true
resources:
  ghcr:
    type: runpod-dynamic:Registry
    properties:
      name: ghcr
      username: my-org-bot
      password: \${ghcrToken}
  app:
    type: runpod-dynamic:Pod
    properties:
      name: app
      image: ghcr.io/my-org/app:1.4
      registry: \${ghcr.id}
      gpu:
        id: NVIDIA A40`,
  },
];
