#!/usr/bin/env bash
# Runs vitest, and every Node process the tests start (programs under Pulumi's Node host, provider
# hosts, policy packs, the CLI), on a supported Node: 22 unless NODE_VERSION says otherwise. The
# machine's own Node may be older than the package supports (docs/releases.md, "Node versions").
#   bash .ci/vitest.sh                          the whole suite on Node 22
#   NODE_VERSION=24.21.0 bash .ci/vitest.sh test/engine
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(bash "$root/.ci/node.sh" "${NODE_VERSION:-22.23.3}")
cd "$root"
# Every Node process keeps the code it compiled (Node's compile cache) for the next one: the suite
# starts hundreds of provider hosts, language hosts and CLIs that load the same modules.
export NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-$root/.tools/node-compile-cache}"
PATH="$bin:$PATH" exec node node_modules/vitest/vitest.mjs run "$@"
