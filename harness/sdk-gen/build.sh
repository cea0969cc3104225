#!/usr/bin/env bash
# Builds sdk-gen (main.go here: Pulumi's SDK code generators for python, go, nodejs and dotnet,
# run offline on a schema file) into .tools/sdk-gen/<pulumi version>/sdk-gen (ignored by git), and
# beside it python-program-host (python-program-host/main.go: Pulumi's Python program generator
# behind the one language-host call `pulumi import` makes to write code). The
# version is the pkg/v3 this module pins, the same as harness/pulumi-cli's CLI. A stamp beside the
# binary holds the hash of main.go, go.mod and go.sum, so an edit to any of them rebuilds and an
# unchanged tree does nothing. Needs Go (1.26) and the Go module proxy the first time.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
version=$(awk '$1 == "github.com/pulumi/pulumi/pkg/v3" { print $2 }' "$here/go.mod")
dir="$root/.tools/sdk-gen/$version"
sources=$(cd "$here" && cat main.go python-program-host/main.go go.mod go.sum | sha256sum | cut -c1-16)

if [ -x "$dir/sdk-gen" ] && [ -x "$dir/python-program-host" ] && [ "$(cat "$dir/sdk-gen.sources" 2>/dev/null)" = "$sources" ]; then
  echo "sdk-gen $version: already built in ${dir#"$root"/} (sources $sources)"
  exit 0
fi
if ! command -v go >/dev/null; then
  echo "Building sdk-gen needs Go 1.26 or later (https://go.dev/dl/)." >&2
  exit 1
fi

echo "sdk-gen $version: building with $(go version | cut -d' ' -f3) (sources $sources)"
start=$(date +%s)
mkdir -p "$dir"
(cd "$here" && go build -trimpath -ldflags "-s -w" -o "$dir/sdk-gen.partial" .)
(cd "$here" && go build -trimpath -ldflags "-s -w" -o "$dir/python-program-host.partial" ./python-program-host)
mv "$dir/sdk-gen.partial" "$dir/sdk-gen"
mv "$dir/python-program-host.partial" "$dir/python-program-host"
echo "$sources" >"$dir/sdk-gen.sources"
echo "sdk-gen $version: built in $(($(date +%s) - start)) s into ${dir#"$root"/} ($(du -sh "$dir/sdk-gen" | cut -f1))"
