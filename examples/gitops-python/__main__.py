"""The program the workflow previews on pull requests and deploys from main: one GPU pod for
notebooks on a network volume, with its Hugging Face token taken from encrypted stack config,
stopped by the workflow's autostop job when its GPU has been idle for an hour.

    pulumi config set --secret hfToken hf_...

The workflow parks the pod every weekday evening and wakes it every weekday morning by running
`pulumi up` with `parked` set (see .github/workflows/runpod.yml)."""
import pulumi
import pulumi_runpod_dynamic as runpod

config = pulumi.Config()

# The notebooks live here: a stop (by the park or by autostop) keeps them, and so does a replacement.
workspace = runpod.NetworkVolume(
    "workspace",
    name="notebook-workspace",
    size=20,
    data_center_id=config.get("dataCenter") or "US-KS-2",
    type=runpod.VolumeType.STANDARD,
)

notebook = runpod.Pod(
    "notebook",
    name="notebook",
    image=config.get("image") or "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
    gpu={"id": config.get("gpuType") or "NVIDIA A40"},
    # A secret input stays encrypted in state and masked in previews (policy env-secrets).
    env={"HF_TOKEN": config.require_secret("hfToken")},
    ports=["8888/http"],
    start_jupyter=True,
    mounts={"network": [{"volume_id": workspace.id, "path": "/workspace"}]},
    # Another GPU type in the volume's data center when the first has no capacity
    # (policy pod-placement-fallback).
    placement={"regions": ["NORTH_AMERICA"], "gpu_type_ids": ["NVIDIA L40S"]},
    # Stopped by the workflow's autostop job after an hour with its GPU under 5 % (the repository's
    # docs/autostop.md); the morning wake leaves a pod autostop stopped alone.
    autostop={"idle_minutes": 60, "gpu_util_below": 5},
    # Parked at night by the workflow's schedule: stopped, the disk kept, the GPU not billed.
    desired_status=(
        runpod.PodDesiredStatus.STOPPED if config.get_bool("parked") else runpod.PodDesiredStatus.RUNNING
    ),
)

pulumi.export("pod_id", notebook.id)
pulumi.export("volume_id", workspace.id)
pulumi.export("status", notebook.status)
pulumi.export("desired_status", notebook.desired_status)
pulumi.export("jupyter_password", notebook.jupyter_password)
