/** What an SshKey is, how a program reads an existing one, and examples, for the class and every SDK. */
import type { Example, ReadById } from "../../fields/declaration.js";

export const SSH_KEY_DESCRIPTION =
  "An SSH public key registered with the account: pods created with SSH after it get it, so make them depend on it. A key the account already has is not added twice, and a key several stacks declare stays until the last of them lets go of it.";

export const SSH_KEY_GET: ReadById = {
  description:
    "A key the account already has, read by its fingerprint and never changed by this program: `pulumi up` reads it (a read step), `pulumi refresh` reads it again, and `pulumi destroy` forgets it without removing it from the account. To take a key over and manage it, declare it with its public key instead: a key the account has is not added twice.",
  id: "The key's SHA-256 fingerprint as `ssh-keygen -lf` prints it (`SHA256:...`); an SshKey's id.",
  example: `const laptop = SshKey.get("laptop", "SHA256:2nEG8eBCXPWZ5Tjc1EahMkFnqBpAvUODKyo3Ybo6eys");
export const laptopKey = laptop.publicKey;`,
};

export const SSH_KEY_EXAMPLES: readonly Example[] = [
  {
    title: "A key, and a pod that gets it",
    typescript: `import * as fs from "node:fs";
import * as os from "node:os";
import { Pod, SshKey } from "runpod-dynamic";

const key = new SshKey("laptop", {
  publicKey: fs.readFileSync(\`\${os.homedir()}/.ssh/id_ed25519.pub\`, "utf8"),
});
new Pod("dev", {
  name: "dev",
  image: "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
  gpu: { id: "NVIDIA A40" },
  ports: ["22/tcp"],
  startSsh: true,
}, { dependsOn: [key] });`,
    python: `import os
import pulumi
import pulumi_runpod_dynamic as runpod

with open(os.path.expanduser("~/.ssh/id_ed25519.pub")) as f:
    key = runpod.SshKey("laptop", public_key=f.read())
runpod.Pod(
    "dev",
    name="dev",
    image="runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
    gpu=runpod.PodGpuArgs(id="NVIDIA A40"),
    ports=["22/tcp"],
    start_ssh=True,
    opts=pulumi.ResourceOptions(depends_on=[key]),
)`,
    go: `package main

import (
	"os"
	"path/filepath"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	runpod "github.com/runpod-dynamic/runpod-dynamic/sdk/go/runpoddynamic"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		home, err := os.UserHomeDir()
		if err != nil {
			return err
		}
		line, err := os.ReadFile(filepath.Join(home, ".ssh", "id_ed25519.pub"))
		if err != nil {
			return err
		}
		key, err := runpod.NewSshKey(ctx, "laptop", &runpod.SshKeyArgs{PublicKey: pulumi.String(string(line))})
		if err != nil {
			return err
		}
		_, err = runpod.NewPod(ctx, "dev", &runpod.PodArgs{
			Name:     pulumi.String("dev"),
			Image:    pulumi.String("runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04"),
			Gpu:      &runpod.PodGpuArgs{Id: pulumi.String("NVIDIA A40")},
			Ports:    pulumi.StringArray{pulumi.String("22/tcp")},
			StartSsh: pulumi.Bool(true),
		}, pulumi.DependsOn([]pulumi.Resource{key}))
		return err
	})
}`,
    yaml: `config:
  sshPublicKey:
    type: string
resources:
  laptop:
    type: runpod-dynamic:SshKey
    properties:
      publicKey: \${sshPublicKey}
  dev:
    type: runpod-dynamic:Pod
    properties:
      name: dev
      image: runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04
      gpu:
        id: NVIDIA A40
      ports: ["22/tcp"]
      startSsh: true
    options:
      dependsOn:
        - \${laptop}`,
  },
];
