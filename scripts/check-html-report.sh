#!/usr/bin/env bash
# `make test-report`: renders the HTML batch report in headless Chromium and checks the result.
#
# Writes two sample ledgers through the ledger API (DFULedgerTests.BatchReportCommandTests):
# 24 devices on two stations with retries and failures (testWritesTheSampleLedger), and a simulated
# shift of 500 devices on three stations with skips and a pause between two runs
# (testWritesTheLargeSampleLedger). Runs `dfukit batch report --html --junit --json` on them, loads
# the pages in headless Chromium (installed with apt-get when missing) and checks the rendered DOM:
# the small page holds its per-device bar charts, the timeline and the device table; the large one
# holds the duration and throughput histograms and the stations' timeline (one bar per attempt)
# instead of one bar per device, every chart at most 1,000 px tall, and says the clock was
# simulated. Also that screenshots are produced and the JUnit file is well-formed (xmllint). Prints
# one closing line "N passed, N failed". Extra arguments go to swift (e.g. --scratch-path DIR).
# The files stay in .build/report-check (report.html, report-500.html, screenshot*.png).
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
    --filter 'DFULedgerTests.BatchReportCommandTests/testWritesThe(Large)?SampleLedger' >"$out/sample.log" 2>&1 \
    || { cat "$out/sample.log"; echo "0 passed, 1 failed (the sample ledgers were not written)"; exit 1; }

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
for chart in chart-duration chart-throughput chart-timeline chart-causes; do
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

# 500 devices: histograms and the stations' timeline, every chart's height bounded.
"$bin/dfukit" batch report --ledger "sqlite:$out/ledger-500.sqlite" --json --html "$out/report-500.html" \
    >"$out/report-500.json"
check "dfukit batch report exits 0 on 500 devices" test $? -eq 0
page500="file://$PWD/$out/report-500.html"
timeout 120 chromium "${chromium_flags[@]}" --dump-dom "$page500" >"$out/dom-500.html" 2>>"$out/chromium.log"
check "Chromium loads the 500-device page" test -s "$out/dom-500.html"
for chart in chart-duration-histogram chart-throughput-histogram chart-timeline chart-causes; do
    check "the 500-device DOM holds the SVG chart $chart" grep -q "<svg id=\"$chart\"" "$out/dom-500.html"
done
check "no chart has one bar per device past 40 devices" bash -c "! grep -q '<svg id=\"chart-duration\"' '$out/dom-500.html'"
attempts500=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['attempts'])" "$out/report-500.json")
spans=$(grep -o '<rect class="span ' "$out/dom-500.html" | wc -l)
check "the timeline has one bar per attempt ($spans of $attempts500)" test "$spans" -eq "$attempts500"
check "the histogram counts 500 devices" python3 - "$out/dom-500.html" <<'PY'
import re, sys
dom = open(sys.argv[1]).read()
chart = dom.split('<svg id="chart-duration-histogram"')[1].split('</svg>')[0]
counts = [int(m) for m in re.findall(r'<g class="column"><title>[^:]*: (\d+) devices', chart)]
sys.exit(0 if sum(counts) == 500 else 1)
PY
check "every chart is at most 1000 px tall" python3 - "$out/dom-500.html" <<'PY'
import re, sys
heights = [int(h) for h in re.findall(r'<svg [^>]*?height="(\d+)"', open(sys.argv[1]).read())]
print("  chart heights:", heights)
sys.exit(0 if heights and max(heights) <= 1000 else 1)
PY
check "the page says the clock was simulated" grep -q "Devices / hour simulated" "$out/dom-500.html"
check "the JSON says the clock was simulated" python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['clock'] == 'simulated' and d['devices'] == 500 and d['skipped'] == 20" "$out/report-500.json"
timeout 120 chromium "${chromium_flags[@]}" --window-size=1100,2600 --screenshot="$PWD/$out/screenshot-500.png" \
    "$page500" >>"$out/chromium.log" 2>&1
check "Chromium takes a screenshot of the 500-device page" test -s "$out/screenshot-500.png"

echo "screenshots: $out/screenshot.png $out/screenshot-500.png"
echo "${passed} passed, ${failed} failed"
[ "$failed" -eq 0 ]
