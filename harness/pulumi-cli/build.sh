#!/usr/bin/env bash
# Builds the Pulumi CLI from source into .tools/pulumi/<version>/bin (ignored by git) and puts the
# plugin shims the CLI's release archive would carry beside it. Does nothing when that version is
# already there. Needs Go (1.26) and the Go module proxy; see docs/real-engine.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
version=$(awk '$1 == "github.com/pulumi/pulumi/pkg/v3" { print $2 }' "$here/go.mod")
bin="$root/.tools/pulumi/$version/bin"
mkdir -p "$bin"
cp "$here"/shims/* "$bin/"

if [ -x "$bin/pulumi" ] && [ "$("$bin/pulumi" version 2>/dev/null)" = "$version" ]; then
  echo "pulumi $version: already built in ${bin#"$root"/}"
  exit 0
fi
if ! command -v go >/dev/null; then
  echo "Building the Pulumi CLI needs Go 1.26 or later (https://go.dev/dl/), or put pulumi on PATH." >&2
  exit 1
fi

echo "pulumi $version: building from source with $(go version | cut -d' ' -f3) (several minutes the first time)"
start=$(date +%s)
(
  cd "$here"
  go build -trimpath \
    -ldflags "-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=$version" \
    -o "$bin/pulumi.partial" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi
)
mv "$bin/pulumi.partial" "$bin/pulumi"
echo "pulumi $version: built in $(($(date +%s) - start)) s into ${bin#"$root"/} ($(du -sh "$bin/pulumi" | cut -f1))"
