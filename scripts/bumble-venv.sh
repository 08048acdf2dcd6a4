#!/usr/bin/env bash
# Makes sure .build/bumble-venv holds the Python test peers' dependencies from PyPI: Bumble (BLE
# stack and virtual controllers) and smp (MCUmgr message encoding for the SMP peer), at the
# versions the peers and scripts/kernel-vm/bumble-bridge.py's patch were written against.
# Prints the venv's python on success; exits 1 with a message otherwise.
# Usage: python=$(scripts/bumble-venv.sh) || exit 1
set -u
cd "$(dirname "$0")/.."
venv=.build/bumble-venv
requirements=(bumble==0.0.236 smp==4.2.0)
if ! "$venv/bin/python" -c 'import bumble, smp' 2>/dev/null ||
   ! "$venv/bin/pip" show bumble 2>/dev/null | grep -qx 'Version: 0.0.236'; then
    echo "setting up $venv (pip install ${requirements[*]})" >&2
    { [ -x "$venv/bin/python" ] || python3 -m venv "$venv"; } &&
        "$venv/bin/pip" install --quiet "${requirements[@]}" >&2 || {
        echo "error: could not install ${requirements[*]} into $venv (needs python3-venv and access to PyPI)" >&2
        exit 1
    }
fi
echo "$PWD/$venv/bin/python"
