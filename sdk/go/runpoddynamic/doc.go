// RunPod GPU pods, serverless endpoints, volumes, templates and more: placement across data centers, readiness, fail-fast and create keys that never leak a billed pod.
package runpoddynamic
