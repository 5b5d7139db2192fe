#!/usr/bin/env bash
# publint and @arethetypeswrong/cli on the tarball `npm pack` makes from a fresh build.
# attw's profile is esm-only: the package has no CommonJS build (the README says how CJS imports it).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
npm run build --silent
tarball=$(npm pack --silent --pack-destination "$dir")
npx publint run "$dir/$tarball" --strict
npx attw "$dir/$tarball" --profile esm-only
