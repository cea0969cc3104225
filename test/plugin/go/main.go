// Runs a Go program on the runpod-dynamic provider plugin through Pulumi's Automation API, as an
// inline program: the program runs inside this process, so no Go language host is needed
// (docs/plugin.md). One operation per run; it prints one JSON line with the operation's resource
// changes and the stack's outputs. Pulumi's backend, home, passphrase and PATH (the CLI, the
// plugin) come from the environment.
//
//	go run . <up|destroy> <work dir> '<{"plain": {...}, "secret": {...}}>'
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	runpod "github.com/runpod-dynamic/runpod-dynamic/sdk/go/runpoddynamic"
)

// program is the README's Go program: one GPU pod.
func program(ctx *pulumi.Context) error {
	pod, err := runpod.NewPod(ctx, "trainer", &runpod.PodArgs{
		Name:  pulumi.String("go-trainer"),
		Image: pulumi.String("runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04"),
		Gpu:   &runpod.PodGpuArgs{Id: pulumi.String("NVIDIA H100 80GB HBM3")},
		Ports: pulumi.StringArray{pulumi.String("22/tcp")},
	})
	if err != nil {
		return err
	}
	// The container disk is an integer in GB: the SDK types it so, not as pulumi.AnyOutput.
	var disk pulumi.IntOutput = pod.Disk
	ctx.Export("podId", pod.ID())
	ctx.Export("status", pod.Status)
	ctx.Export("diskGb", disk.ApplyT(func(gb int) int { return gb }))
	return nil
}

func run() error {
	if len(os.Args) != 4 {
		return fmt.Errorf("usage: go run . <up|destroy> <work dir> <config json>")
	}
	operation, workDir := os.Args[1], os.Args[2]
	var settings struct {
		Plain  map[string]string `json:"plain"`
		Secret map[string]string `json:"secret"`
	}
	if err := json.Unmarshal([]byte(os.Args[3]), &settings); err != nil {
		return err
	}
	ctx := context.Background()
	stack, err := auto.UpsertStackInlineSource(ctx, "dev", "runpod-go", program, auto.WorkDir(workDir))
	if err != nil {
		return err
	}
	config := auto.ConfigMap{}
	for k, v := range settings.Plain {
		config[k] = auto.ConfigValue{Value: v}
	}
	for k, v := range settings.Secret {
		config[k] = auto.ConfigValue{Value: v, Secret: true}
	}
	if err := stack.SetAllConfig(ctx, config); err != nil {
		return err
	}
	var changes *map[string]int
	switch operation {
	case "up":
		result, err := stack.Up(ctx, optup.ProgressStreams(os.Stderr))
		if err != nil {
			return err
		}
		changes = result.Summary.ResourceChanges
	case "destroy":
		result, err := stack.Destroy(ctx, optdestroy.ProgressStreams(os.Stderr))
		if err != nil {
			return err
		}
		changes = result.Summary.ResourceChanges
	default:
		return fmt.Errorf("unknown operation %s", operation)
	}
	outputs, err := stack.Outputs(ctx)
	if err != nil {
		return err
	}
	shown := map[string]interface{}{}
	for k, v := range outputs {
		shown[k] = v.Value
	}
	return json.NewEncoder(os.Stdout).Encode(map[string]interface{}{"changes": changes, "outputs": shown})
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
