#!/usr/bin/env bash
# publint and @arethetypeswrong/cli on the tarball `npm pack` makes (its prepack script builds first).
# attw's profile is esm-only: the package has no CommonJS build (the README says how CJS imports it).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# `prepack` builds dist/ first, so a tarball never ships without it; the last line is the file name.
tarball=$(npm pack --silent --pack-destination "$dir" | tail -n 1)
npx publint run "$dir/$tarball" --strict
npx attw "$dir/$tarball" --profile esm-only
