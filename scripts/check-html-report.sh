#!/usr/bin/env bash
# `make test-report`: renders the HTML batch report in headless Chromium and checks the result.
#
# Writes a sample ledger (24 devices, two stations, retries, failures; written through the ledger
# API by the test DFULedgerTests.BatchReportCommandTests/testWritesTheSampleLedger), runs
# `dfukit batch report --html --junit --json` on it, then loads the page in headless Chromium
# (installed with apt-get when missing) and checks that the rendered DOM holds the three SVG charts
# with their bars and the device table, that a screenshot is produced, and that the JUnit file is
# well-formed (xmllint). Prints one closing line "N passed, N failed". Extra arguments go to swift
# (e.g. --scratch-path DIR). The files stay in .build/report-check (report.html, screenshot.png).
set -uo pipefail
cd "$(dirname "$0")/.."
out=.build/report-check
mkdir -p "$out"
rm -f "$out"/*

install_missing() {
    local missing=()
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "installing: ${missing[*]}"
    if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}
install_missing chromium libxml2-utils fonts-dejavu-core || exit 1

swift build --build-tests "$@" || exit 1
bin=$(swift build --show-bin-path "$@")
DFUKIT_REPORT_SAMPLE_DIR="$PWD/$out" swift test --skip-build --disable-swift-testing "$@" \
    --filter 'DFULedgerTests.BatchReportCommandTests/testWritesTheSampleLedger' >"$out/sample.log" 2>&1 \
    || { cat "$out/sample.log"; echo "0 passed, 1 failed (the sample ledger was not written)"; exit 1; }

passed=0
failed=0
check() {  # check DESCRIPTION COMMAND...
    local description=$1
    shift
    if "$@"; then
        passed=$((passed + 1))
        echo "ok: $description"
    else
        failed=$((failed + 1))
        echo "FAILED: $description"
    fi
}

"$bin/dfukit" batch report --ledger "sqlite:$out/ledger.sqlite" --json --junit "$out/junit.xml" \
    --html "$out/report.html" >"$out/report.json"
check "dfukit batch report exits 0" test $? -eq 0

# Chromium as root needs --no-sandbox; --headless renders without a display.
chromium_flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --disable-extensions
                --user-data-dir="$PWD/$out/chromium-profile")
page="file://$PWD/$out/report.html"
timeout 120 chromium "${chromium_flags[@]}" --dump-dom "$page" >"$out/dom.html" 2>"$out/chromium.log"
check "Chromium loads the page" test -s "$out/dom.html"
for chart in chart-duration chart-throughput chart-causes; do
    check "the DOM holds the SVG chart $chart" grep -q "<svg id=\"$chart\"" "$out/dom.html"
done
bars=$(grep -o '<g class="bar ' "$out/dom.html" | wc -l)
check "the charts have 24 + 24 + 4 bars (found $bars)" test "$bars" -eq 52
check "the device table has 24 rows" test "$(grep -o '<tr class="' "$out/dom.html" | wc -l)" -eq 24
check "the verdict is shown" grep -q "3 of 24 devices failed, 1 cancelled; 20 succeeded" "$out/dom.html"

timeout 120 chromium "${chromium_flags[@]}" --window-size=1100,2600 --screenshot="$PWD/$out/screenshot.png" \
    "$page" >>"$out/chromium.log" 2>&1
check "Chromium takes a screenshot" test -s "$out/screenshot.png"
check "the JUnit XML is well-formed" xmllint --noout "$out/junit.xml"
check "the JSON summary parses" python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['devices'] == 24" \
    "$out/report.json"

echo "screenshot: $out/screenshot.png"
echo "${passed} passed, ${failed} failed"
[ "$failed" -eq 0 ]
