#!/usr/bin/env bash
# The Python client's checks, as CI runs them on Debian's Python (python3-venv, python3-setuptools,
# python3-wheel, python3-pytest, python3-mypy from apt; .ci/run installs them): `pip install` of this folder
# into a venv made with --system-site-packages and built without isolation (only Debian's packages are
# reachable), then `mypy --strict` and the pytest suite against the built service (`npm run build` first;
# the Node first on PATH serves it). Any failure fails the script, and so does pytest collecting no tests
# (its exit code 5). Usage: clients/python/ci.sh
set -euo pipefail
cd "$(dirname "$0")"
python="${VERIFIED_PYTHON:-/usr/bin/python3}"
work="$(mktemp -d)"
trap 'rm -rf "$work" build src/*.egg-info' EXIT
"$python" -m venv --system-site-packages "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --no-build-isolation --no-index .
echo "== mypy --strict (clients/python)"
"$work/venv/bin/python" -m mypy --strict --cache-dir "$work/mypy-cache"
echo "== pytest (clients/python) on $("$work/venv/bin/python" --version), node $(node --version)"
# The installed copy is what the tests import: nothing puts src/ on the path.
env -u PYTHONPATH PYTHONDONTWRITEBYTECODE=1 "$work/venv/bin/python" -m pytest -p no:cacheprovider -q tests
