#!/usr/bin/env bash
# README.md's "Use DFUKit from Swift", followed as a new user would: a new package made of the
# block marked `<!-- readme-library: Package.swift -->` (its Package.swift) and the block marked
# `<!-- readme-example: ... -->` (its Sources/TARGET/main.swift), in .build/readme-library.
#   1. SwiftPM loads that manifest as written, byte for byte, with the DFUKit checkout where the
#      manifest's `.package(path:)` says (a symlink to this checkout in that place), so a wrong
#      package identity or product name fails here;
#   2. the same package, with only the dependency's location changed to this checkout (path and
#      the identity SwiftPM derives from it, as Examples/Package.swift does), is built with the
#      Examples' scratch path (.build/examples: the library is already built there) and run with
#      PACKAGE.zip; it must exit 0 and print `verified: the device holds ["installed"]`.
# Usage: scripts/check-readme-library.sh PACKAGE.zip (scripts/run-examples.sh runs it).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 1 ] || { echo "usage: $0 PACKAGE.zip" >&2; exit 64; }
firmware=$(readlink -f "$1")
checkout=$(pwd -P)
work=.build/readme-library
scratch=.build/examples

# The code block (```swift ... ```) right after the first line that starts with MARKER.
block() {
    awk -v marker="$1" '
        !found && index($0, marker) == 1 { found = 1; next }
        found && !inside && /^```swift$/ { inside = 1; next }
        inside && /^```$/ { exit }
        inside { print }' README.md
}
manifest=$(block '<!-- readme-library: Package.swift -->')
main=$(block '<!-- readme-example: ')
[ -n "$manifest" ] || { echo "readme-library: README.md has no block marked <!-- readme-library: Package.swift -->" >&2; exit 1; }
[ -n "$main" ] || { echo "readme-library: README.md has no block marked <!-- readme-example: ... -->" >&2; exit 1; }

# What the manifest says: the dependency's path, its identity in `.product(..., package:)`, the target.
path=$(sed -n 's/.*\.package(path: "\([^"]*\)").*/\1/p' <<<"$manifest" | head -1)
identity=$(sed -n 's/.*\.product(name: "DFUKit", package: "\([^"]*\)").*/\1/p' <<<"$manifest" | head -1)
target=$(sed -n 's/.*\.executableTarget(name: "\([^"]*\)".*/\1/p' <<<"$manifest" | head -1)
[ -n "$path" ] && [ -n "$target" ] || {
    echo "readme-library: the README's Package.swift has no .package(path: \"...\") or no .executableTarget(name: \"...\")" >&2
    exit 1; }
case "$path" in /*) echo "readme-library: the README's path should be relative, not $path" >&2; exit 1 ;; esac

rm -rf "$work"
# 1. As written: the new package in $work/app/MyPackage... and the checkout at app/<path>.
app=$work/app/$target
mkdir -p "$app/Sources/$target"
printf '%s\n' "$manifest" > "$app/Package.swift"
printf '%s\n' "$main" > "$app/Sources/$target/main.swift"
link=$(realpath -m "$app/$path")
case "$link" in "$checkout/$work"/*) ;; *) echo "readme-library: $path leads out of $work" >&2; exit 1 ;; esac
mkdir -p "$(dirname "$link")"
ln -s "$checkout" "$link"
echo "readme-library: loading the README's Package.swift as written (DFUKit at $path)"
swift package --package-path "$app" --scratch-path "$work/scratch" show-dependencies >/dev/null || {
    echo "readme-library: SwiftPM does not accept the README's Package.swift (above)" >&2; exit 1; }

# 2. Built against this checkout, where Examples/ finds it (the identity: the checkout's folder).
[ -n "$identity" ] || { echo "readme-library: the README's Package.swift has no .product(name: \"DFUKit\", package: \"...\")" >&2; exit 1; }
here=$(basename "$checkout")
built=$work/built/$target
mkdir -p "$built/Sources/$target"
python3 - "$app/Package.swift" "$built/Package.swift" "$path" "$checkout" "$identity" "$here" <<'PY'
import sys
source, destination, path, checkout, identity, here = sys.argv[1:]
text = open(source).read()
for old, new in ((f'.package(path: "{path}")', f'.package(path: "{checkout}")'),
                 (f'package: "{identity}")', f'package: "{here}")')):
    if old not in text:
        sys.exit(f"readme-library: {old} is not in the README's Package.swift")
    text = text.replace(old, new)
open(destination, "w").write(text)
PY
cp "$app/Sources/$target/main.swift" "$built/Sources/$target/main.swift"
echo "readme-library: building $target against $checkout (scratch path $scratch)"
swift build --package-path "$built" --scratch-path "$scratch" --product "$target" || {
    echo "readme-library: the README's package does not build (above)" >&2; exit 1; }
bin=$(swift build --package-path "$built" --scratch-path "$scratch" --show-bin-path)
echo "readme-library: $target $firmware"
"$bin/$target" "$firmware"
