#!/usr/bin/env bash
set -euo pipefail
# Pick the test runner from the files in the current project.
if [ -f package.json ] && grep -q '"test"' package.json; then
  exec npm test
elif [ -f pyproject.toml ] || [ -f pytest.ini ] || [ -f setup.cfg ]; then
  exec python -m pytest -q
elif [ -f go.mod ]; then
  exec go test ./...
elif [ -f Cargo.toml ]; then
  exec cargo test
else
  echo "No known test runner found in $(pwd)" >&2
  exit 1
fi
