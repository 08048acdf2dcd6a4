#!/usr/bin/env bash
# `make docs`: the API reference and the articles as a static HTML site, with the toolchain's own
# tools only (swift-symbolgraph-extract through `swift package dump-symbol-graph`, then docc).
#   1. builds the package and extracts the public symbol graphs of the library modules;
#   2. fails, naming FILE:LINE and the symbol, on a public symbol without a doc comment in the
#      modules scripts/check-doc-coverage.py checks (its CHECKED_MODULES: every module below);
#   3. assembles the catalog: Documentation/DFUKit.docc, with the reference parts of three articles
#      appended from the files that already hold them (profiles/README.md, README.md's
#      "The simulated link" and "Provisioning lines"), so the site says what the README says;
#   4. runs `docc convert` for static hosting into .build/docs/site (open .build/docs/site/index.html
#      through a web server, e.g. `python3 -m http.server -d .build/docs/site`, then /documentation/).
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
DOCC=${DOCC:-$(dirname "$(readlink -f "$(command -v "$SWIFT")")")/docc}
[ -x "$DOCC" ] || DOCC=$(command -v docc || true)
[ -n "$DOCC" ] || { echo "docs: no docc next to $SWIFT nor on PATH (it ships with the Swift toolchain since 5.6)" >&2; exit 1; }
OUT=.build/docs
# The library modules the site documents (not the command line's own modules nor the C shims).
MODULES="DFUBytes DFUPackage DFUProfile DFUGATT DFUSimulator DFUHCI DFUATT DFUHCITransport DFUEngine
DFUTrace DFUBatch DFULedger DFUBlueZ DFUWire DFUSerial DFUCapture DFUStation"
[ -d Sources/DFUKit ] && MODULES="DFUKit $MODULES"

rm -rf "$OUT/symbol-graphs" "$OUT/DFUKit.docc" "$OUT/site"
mkdir -p "$OUT/symbol-graphs"
# dump-symbol-graph builds the non-test targets, then extracts a graph for every library module of
# the package, and on Linux those include the two modules SwiftPM synthesizes to run the tests
# (DFUKitPackageTests, DFUKitPackageDiscoveredTests), which only a test build makes. On a fresh
# clone (no `make test` yet) it therefore fails for those two alone, after writing the others'
# graphs; no option leaves them out. So a failure is accepted when every error it reports is one
# of those two modules not loading (the graphs needed here are checked below), and any other
# error fails the docs as before.
dump=$("$SWIFT" package dump-symbol-graph --minimum-access-level public 2>&1) || {
    errors=$(echo "$dump" | grep '^error: ' || true)
    others=$(echo "$errors" | grep -vE "^error: Failed to emit symbol graph for '[A-Za-z0-9_]+Package(Discovered)?Tests': Couldn't load module" || true)
    if [ -z "$errors" ] || [ -n "$others" ]; then echo "$dump" >&2; exit 1; fi
    echo "docs: no symbol graphs for the test runner modules (not built without the tests; not documented)"
}
graphs=$(echo "$dump" | sed -n 's/^Files written to //p' | tail -1)
[ -d "$graphs" ] || { echo "$dump" >&2; echo "docs: no symbol graph directory in that output" >&2; exit 1; }
for module in $MODULES; do
    [ -s "$graphs/$module.symbols.json" ] || { echo "$dump" >&2; echo "docs: no symbol graph for $module" >&2; exit 1; }
    cp "$graphs/$module.symbols.json" "$OUT/symbol-graphs/"
    cp "$graphs/$module"@*.symbols.json "$OUT/symbol-graphs/" 2>/dev/null || true
done

python3 scripts/check-doc-coverage.py "$OUT/symbol-graphs" --all --summary
python3 scripts/check-doc-coverage.py "$OUT/symbol-graphs"

# A README section, from its "## TITLE" line up to the next "## " heading, without the title.
section() { awk -v title="## $2" '$0 == title { on = 1; next } on && /^## / { exit } on { print }' "$1"; }
# Headings one level down (`#` -> `##`), leaving lines inside ``` code blocks alone.
demote() { awk '/^```/ { code = !code } !code && /^#/ { $0 = "#" $0 } { print }'; }
cp -R Documentation/DFUKit.docc "$OUT/DFUKit.docc"
{ echo; echo "## Reference"; echo; echo "What follows is profiles/README.md, the language reference."; echo
  awk 'done || !/^# / { print; next } { done = 1 }' profiles/README.md | demote; } >> "$OUT/DFUKit.docc/WritingAProfile.md"
{ echo; echo "## Keys and faults"; echo; echo "From README.md, The simulated link:"; echo
  section README.md "The simulated link" | demote; } >> "$OUT/DFUKit.docc/Simulators.md"
{ echo; echo "## The line file and the ledger"; echo; echo "From README.md, Provisioning lines:"; echo
  section README.md "Provisioning lines" | demote; } >> "$OUT/DFUKit.docc/ProvisioningLines.md"

"$DOCC" convert "$OUT/DFUKit.docc" --additional-symbol-graph-dir "$OUT/symbol-graphs" \
    --output-path "$OUT/site" --transform-for-static-hosting \
    --fallback-display-name DFUKitGuide --fallback-bundle-identifier org.dfukit.DFUKitGuide \
    --diagnostics-file "$OUT/diagnostics.json" > "$OUT/docc.log" 2>&1 || { cat "$OUT/docc.log" >&2; exit 1; }
for page in index.html data/documentation/dfukitguide.json; do
    [ -s "$OUT/site/$page" ] || { echo "docs: $OUT/site/$page is missing" >&2; exit 1; }
done
for module in $MODULES; do
    lower=$(echo "$module" | tr '[:upper:]' '[:lower:]')
    [ -s "$OUT/site/data/documentation/$lower.json" ] || { echo "docs: no page for $module" >&2; exit 1; }
done
echo "docs: $OUT/site ($(find "$OUT/site/data/documentation" -name '*.json' | wc -l) pages;" \
     "docc's warnings in $OUT/docc.log)"
