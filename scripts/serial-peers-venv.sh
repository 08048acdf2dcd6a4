#!/usr/bin/env bash
# Makes sure the third-party serial/UDP peers that scripts/serial-peer.py runs are installed from
# PyPI at the versions scripts/serial-peers.md was written against:
#   .build/serial-venv          python3 (Debian 12: 3.11): smpmgr 0.19.1 (with smpclient 7.3.0 and
#                               smp 4.2.0, which decide its framing) and mcumgr-toolkit 0.20.0
#                               (Python bindings of the Rust crate; an API, no CLI)
#   .build/serial-venv-nrfutil  Python 3.10: nrfutil 6.1.7 (pc-nrfutil's last release). Its
#                               dependency pc-ble-driver-py 0.17.0 requires Python >= 3.7, < 3.11,
#                               so pip on 3.11 offers nrfutil 5.2.0 at most, which installs but is
#                               Python 2 code: `dfu serial` dies with a TypeError after the ping.
#                               Python 3.10: $PYTHON310, else python3.10 on PATH, else pyenv's
#                               ($PYENV_ROOT or ~/.pyenv)/versions/3.10.*.
# When the pinned versions are already installed it only checks them (no network, well under a
# second). Prints each venv's directory on stdout; exits 1 with a message on stderr when one cannot
# be set up.
# Usage: scripts/serial-peers-venv.sh [all|smp|nrfutil]    (default all)
set -u
cd "$(dirname "$0")/.."
what=${1:-all}
case $what in all|smp|nrfutil) ;; *) echo "usage: $0 [all|smp|nrfutil]" >&2; exit 2 ;; esac

smp_venv=.build/serial-venv
nrf_venv=.build/serial-venv-nrfutil
smp_requirements=(smpmgr==0.19.1 smpclient==7.3.0 smp==4.2.0 mcumgr-toolkit==0.20.0 pyserial==3.5)
nrf_requirements=(nrfutil==6.1.7 pc-ble-driver-py==0.17.0 protobuf==3.20.3 pyserial==3.5)

# installed VENV REQUIREMENT...: true when every NAME==VERSION is what the venv has.
installed() {
    local venv=$1; shift
    [ -x "$venv/bin/python" ] && "$venv/bin/python" - "$@" 2>/dev/null <<'PY'
import sys, importlib.metadata as metadata
for requirement in sys.argv[1:]:
    name, version = requirement.split('==')
    if metadata.version(name) != version:
        sys.exit(1)
PY
}

# setup VENV PYTHON REQUIREMENT...: creates the venv if needed and pip-installs the pins.
setup() {
    local venv=$1 python=$2; shift 2
    echo "setting up $venv (pip install $*)" >&2
    if [ ! -x "$venv/bin/python" ]; then
        "$python" -m venv "$venv" >&2 || {
            echo "error: '$python -m venv $venv' failed (Debian's python3 needs the python3-venv package)" >&2
            return 1
        }
    fi
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$@" >&2 || {
        echo "error: could not pip install $* into $venv (needs access to PyPI the first time)" >&2
        return 1
    }
    installed "$venv" "$@" || { echo "error: $venv does not hold $* after pip install" >&2; return 1; }
}

find_python310() {
    local candidate
    for candidate in "${PYTHON310:-}" "$(command -v python3.10 2>/dev/null)" \
                     $(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.10.*/bin/python3.10 2>/dev/null | sort -V -r); do
        [ -n "$candidate" ] && [ -x "$candidate" ] &&
            "$candidate" -c 'import sys, venv; sys.exit(sys.version_info[:2] != (3, 10))' 2>/dev/null &&
            { echo "$candidate"; return 0; }
    done
    return 1
}

status=0
if [ "$what" != nrfutil ]; then
    if installed "$smp_venv" "${smp_requirements[@]}" || setup "$smp_venv" python3 "${smp_requirements[@]}"; then
        echo "$PWD/$smp_venv"
    else
        status=1
    fi
fi
if [ "$what" != smp ]; then
    if installed "$nrf_venv" "${nrf_requirements[@]}"; then
        echo "$PWD/$nrf_venv"
    elif ! python310=$(find_python310); then
        echo "error: nrfutil 6.1.7 needs Python 3.10 (pc-ble-driver-py 0.17.0 requires < 3.11 and Debian 12 has 3.11 only);" \
             "set PYTHON310=/path/to/python3.10 (${PYTHON310:+PYTHON310=$PYTHON310 is not a Python 3.10 with venv; }none on PATH" \
             "or under ${PYENV_ROOT:-$HOME/.pyenv}/versions)" >&2
        status=1
    elif setup "$nrf_venv" "$python310" "${nrf_requirements[@]}"; then
        echo "$PWD/$nrf_venv"
    else
        status=1
    fi
fi
exit $status
