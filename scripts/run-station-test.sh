#!/usr/bin/env bash
# `make test-station` (and `make demo-station` with `demo`): installs what the station test needs
# when it is missing (Debian's chromium and chromium-driver, PostgreSQL through
# scripts/start-postgres.sh, selenium from PyPI in .build/station-venv), builds dfukit and runs
# scripts/station-test.py: two stations on one PostgreSQL ledger, the dashboard in headless
# Chromium. Screenshots in .build/station/. Extra arguments go to the script (e.g. --keep).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-run}
shift || true

install_missing() {
    local missing=()
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "installing: ${missing[*]}" >&2
    if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq >&2 && $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

python=python3
if [ "$mode" = run ]; then
    install_missing chromium chromium-driver fonts-dejavu-core postgresql postgresql-client python3-venv
    venv=.build/station-venv
    if ! "$venv/bin/python" -c "import selenium" 2>/dev/null; then
        python3 -m venv "$venv"
        "$venv/bin/pip" install -q "selenium==4.27.1" >&2
    fi
    python=$venv/bin/python
fi
swift build --product dfukit >&2
exec "$python" scripts/station-test.py "$mode" --dfukit .build/debug/dfukit "$@"
