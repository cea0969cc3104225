"""A GPU pod on a network volume, with a secret environment value: the README's Python program."""
import pulumi
import pulumi_runpod_dynamic as runpod

config = pulumi.Config()

volume = runpod.NetworkVolume(
    "workspace",
    name="python-workspace",
    size=50,
    data_center_id="US-TX-3",
)

pod = runpod.Pod(
    "trainer",
    name=config.get("podName") or "python-trainer",
    image="runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
    gpu={"id": "NVIDIA H100 80GB HBM3"},
    ports=["22/tcp", "8888/http"],
    env={"HF_TOKEN": config.require_secret("hfToken")},
    mounts={"network": [{"volume_id": volume.id, "path": "/workspace"}]},
)

pulumi.export("pod_id", pod.id)
pulumi.export("status", pod.status)
pulumi.export("data_center", pod.data_center_id)
