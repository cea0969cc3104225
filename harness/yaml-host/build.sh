#!/usr/bin/env bash
# Builds Pulumi's YAML language host (pulumi-language-yaml, from pulumi-yaml) into the CLI's own
# bin directory, .tools/pulumi/<cli version>/bin, where the CLI finds bundled language plugins, so
# `runtime: yaml` projects run with the from-source CLI (its release archive would carry it). The
# version is pinned here: `@latest` resolves to an older release. pulumi-yaml's go.mod has no
# replace directives, so plain `go install pkg@version` builds it. Does nothing when that version
# is already there. Needs Go (1.26) and the Go module proxy.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
version=v1.38.3
cli=$(awk '$1 == "github.com/pulumi/pulumi/pkg/v3" { print $2 }' "$root/harness/pulumi-cli/go.mod")
bin="$root/.tools/pulumi/$cli/bin"
exe="$bin/pulumi-language-yaml"

# The host has no --version flag; Go embeds "mod <path> <version>" in every binary it builds,
# which grep reads without needing Go.
if [ -x "$exe" ] && grep -qa "$(printf 'mod\tgithub.com/pulumi/pulumi-yaml\t%s\t' "$version")" "$exe"; then
  echo "pulumi-language-yaml $version: already built in ${bin#"$root"/}"
  exit 0
fi
if ! command -v go >/dev/null; then
  echo "Building pulumi-language-yaml needs Go 1.26 or later (https://go.dev/dl/)." >&2
  exit 1
fi

echo "pulumi-language-yaml $version: building with $(go version | cut -d' ' -f3) (a minute or two the first time)"
start=$(date +%s)
mkdir -p "$bin"
# Install into a scratch GOBIN beside bin (same file system, so the mv is a rename) and move into
# place, so an interrupted build leaves no half-written plugin for the CLI to find.
tmp=$(mktemp -d "$bin/../.pulumi-language-yaml.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# The -X sets the version the host reports to the engine, as pulumi-yaml's release builds do.
GOBIN="$tmp" go install -trimpath \
  -ldflags "-s -w -X github.com/pulumi/pulumi-yaml/pkg/version.Version=$version" \
  "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml@$version"
mv "$tmp/pulumi-language-yaml" "$exe"
echo "pulumi-language-yaml $version: built in $(($(date +%s) - start)) s into ${bin#"$root"/} ($(du -sh "$exe" | cut -f1))"
