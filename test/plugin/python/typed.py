"""What a Python user's type checker sees of the generated SDK: every output typed as declared.

Not run: mypy checks it (test/plugin/python.test.ts). Each `assert_type` fails the check when the
SDK types the output otherwise, `Output[Any]` included.
"""
from typing import Any, Mapping, Optional, Sequence, assert_type

import pulumi
import pulumi_runpod_dynamic as runpod

pod = runpod.Pod(
    "typed",
    name="typed",
    image="runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
    gpu=runpod.PodGpuArgs(id="NVIDIA A40", count=2),
    cloud=runpod.Cloud.SECURE,
    args="python -m http.server 8080",
    desired_status=runpod.PodDesiredStatus.RUNNING,
    placement=runpod.PodPlacementArgs(regions=[runpod.Region.EUROPE], max_candidates=4),
)

assert_type(pod.disk, pulumi.Output[int])
assert_type(pod.cost, pulumi.Output[Optional[float]])
assert_type(pod.locked, pulumi.Output[bool])
assert_type(pod.cloud, pulumi.Output[runpod.Cloud])
assert_type(pod.status, pulumi.Output[runpod.PodStatus])
assert_type(pod.args, pulumi.Output[str])
assert_type(pod.ports, pulumi.Output[Sequence[str]])
assert_type(pod.gpu, pulumi.Output[Optional[runpod.outputs.PodGpuAllocation]])
doubled: pulumi.Output[int] = pod.disk.apply(lambda disk: disk * 2)

volume = runpod.NetworkVolume("typed", name="typed", size=20, data_center_id="EU-RO-1")
assert_type(volume.size, pulumi.Output[int])

template = runpod.Template("typed", name="typed", image="nginx:1.27")
assert_type(template.disk, pulumi.Output[int])
assert_type(template.start_ssh, pulumi.Output[bool])
assert_type(template.start_jupyter, pulumi.Output[bool])
assert_type(template.public, pulumi.Output[bool])
assert_type(template.serverless, pulumi.Output[bool])

endpoint = runpod.ServerlessEndpoint(
    "typed",
    name="typed",
    image="nginx:1.27",
    cpu=[runpod.EndpointCpuArgs(id="cpu3c", vcpu_count=2)],
)
assert_type(endpoint.timeout, pulumi.Output[int])

job = runpod.ServerlessJob("typed", endpoint_id=endpoint.id, input={"prompt": "ping"})
assert_type(job.delay_time, pulumi.Output[Optional[int]])
assert_type(job.execution_time, pulumi.Output[Optional[int]])
assert_type(job.output, pulumi.Output[Optional[Any]])
assert_type(job.id, pulumi.Output[str])
