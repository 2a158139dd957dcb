#!/usr/bin/env bash
# Sets up and runs the Python example against a running cluster:
#   1. a venv in .venv/ (git-ignored) with requirements.txt installed (again only when it changed),
#   2. the stubs generated from proto/ into gen/ (git-ignored),
#   3. python strata_example.py with this script's arguments.
#
#   ./run.sh                                              # bin/strata-dev's first node, 127.0.0.1:7100
#   ./run.sh --endpoints 127.0.0.1:7100,127.0.0.1:7110,127.0.0.1:7120
#
# Environment:
#   PYTHON          the interpreter that makes the venv (default python3; 3.9 or newer)
#   STRATA_PY_VENV  where the venv goes (default .venv/ beside this script)
#   STRATA_PY_GEN   where the stubs go (default gen/ beside this script)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="${STRATA_PY_VENV:-$here/.venv}"
export STRATA_PY_GEN="${STRATA_PY_GEN:-$here/gen}"

if [[ ! -x "$venv/bin/python" ]]; then
  echo "creating a venv in $venv" >&2
  "${PYTHON:-python3}" -m venv "$venv"
fi
# requirements.txt copied into the venv marks what is installed there.
if ! cmp -s "$here/requirements.txt" "$venv/strata-requirements.txt"; then
  echo "installing requirements.txt into $venv" >&2
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/requirements.txt"
  cp "$here/requirements.txt" "$venv/strata-requirements.txt"
fi
"$here/generate.sh" "$venv/bin/python" >&2
exec "$venv/bin/python" "$here/strata_example.py" "$@"
