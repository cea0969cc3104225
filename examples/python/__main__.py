"""A team's GPU pod: on a network volume, reachable over SSH with the team's key, with a secret
environment value. The Python program of docs/languages.md."""
import pulumi
import pulumi_runpod_dynamic as runpod

config = pulumi.Config()

# The team's public key, added to the account's SSH keys; pods started with start_ssh get it.
team_key = runpod.SshKey("team", public_key=config.require("sshPublicKey"))

volume = runpod.NetworkVolume(
    "workspace",
    name="python-workspace",
    size=50,
    data_center_id="US-TX-3",
    type=runpod.VolumeType.STANDARD,
)

pod = runpod.Pod(
    "trainer",
    name=config.get("podName") or "python-trainer",
    image="runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
    gpu={"id": "NVIDIA H100 80GB HBM3"},
    ports=["22/tcp", "8888/http"],
    start_ssh=True,
    env={"HF_TOKEN": config.require_secret("hfToken")},
    mounts={"network": [{"volume_id": volume.id, "path": "/workspace"}]},
    # The key is on the account before the pod starts and reads it.
    opts=pulumi.ResourceOptions(depends_on=[team_key]),
)

pulumi.export("pod_id", pod.id)
pulumi.export("status", pod.status)
pulumi.export("data_center", pod.data_center_id)
