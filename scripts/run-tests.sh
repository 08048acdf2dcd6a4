#!/usr/bin/env bash
# Builds and runs the XCTest suites, then builds and runs the examples (scripts/run-examples.sh:
# Examples/ against the library products), then prints one closing line "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
swift build --build-tests "$@" || exit 1
swift test --skip-build --disable-swift-testing "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
scripts/run-examples.sh "$@"
examples=$?
passed=$(grep -cE "^Test Case '.*' passed" "$log")
failed=$(grep -cE "^Test Case '.*' failed" "$log")
echo "${passed} passed, ${failed} failed"
if [ "$status" -ne 0 ] || [ "$failed" -ne 0 ] || [ "$passed" -eq 0 ] || [ "$examples" -ne 0 ]; then
    exit 1
fi
