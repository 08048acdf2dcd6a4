#!/usr/bin/env bash
# `make fault-matrix` (SHORT=1 for the short form CI runs): every shipped profile against the
# simulators with a fault at every phase. Writes .build/fault-matrix/results.json; exits 1 when
# any case's report disagrees with what the device holds, or an error does not say what it holds.
# Extra arguments go to dfukit-fault-matrix (--short, --only SUBJECT).
set -uo pipefail
cd "$(dirname "$0")/.."
swift build --product dfukit-fault-matrix || { echo "fault matrix: build failed"; exit 1; }
bin=$(swift build --product dfukit-fault-matrix --show-bin-path)/dfukit-fault-matrix
"$bin" --output .build/fault-matrix/results.json "$@"
