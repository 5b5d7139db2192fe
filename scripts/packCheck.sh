#!/usr/bin/env bash
# publint and @arethetypeswrong/cli on the tarball `npm pack` makes (its prepack script builds first;
# `--no-build` packs dist/ as it stands, for CI, which has just built it).
# attw's profile is esm-only: the package has no CommonJS build (the README says how CJS imports it).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
pack_flags=()
if [[ "${1:-}" == "--no-build" ]]; then
  [[ -f dist/index.js ]] || { echo "pack:check --no-build: dist/ is missing; run npm run build first" >&2; exit 1; }
  pack_flags=(--ignore-scripts)
fi
# The last line of `npm pack` is the file name.
tarball=$(npm pack --silent "${pack_flags[@]}" --pack-destination "$dir" | tail -n 1)
npx publint run "$dir/$tarball" --strict
npx attw "$dir/$tarball" --profile esm-only
