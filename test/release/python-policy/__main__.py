"""Pods the released policy pack judges, chosen by the config value `case`:

- "invalid": a pod whose mounts the API would refuse (a persistent disk beside a network volume);
- "env": two pods whose HF_TOKEN is given two ways, as plain text in the program and from secret
  config (`hfToken`)."""
import pulumi
import pulumi_runpod_dynamic as runpod

config = pulumi.Config()
case = config.require("case")


def cpu_pod(name: str, hf_token: pulumi.Input[str]) -> runpod.Pod:
    return runpod.Pod(
        name,
        name=name,
        image="runpod/base:0.6.2-cpu",
        cpu={"id": "cpu3c", "vcpu_count": 2},
        env={"HF_TOKEN": hf_token},
    )


if case == "invalid":
    runpod.Pod(
        "notebook",
        name="notebook",
        image="runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
        gpu={"id": "NVIDIA A40"},
        mounts={
            "persistent": {"size": 20, "path": "/data"},
            "network": [{"volume_id": "vol-from-elsewhere", "path": "/workspace"}],
        },
    )
elif case == "env":
    cpu_pod("plain", "hf_written_in_the_program")
    cpu_pod("kept", config.require_secret("hfToken"))
else:
    raise ValueError(f"case: {case!r} is not 'invalid' or 'env'")
