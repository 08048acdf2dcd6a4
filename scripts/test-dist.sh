#!/usr/bin/env bash
# Checks the release tarball (make dist) as a station would use it: unpacks it in a fresh
# directory and, with the Swift toolchain's libraries out of the search path (env -i,
# PATH=/usr/bin:/bin, LD_LIBRARY_PATH empty, started through a symlink elsewhere), runs
# `dfukit --version`, finds the shipped profiles next to the binary, and flashes simulated
# devices with them. Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
tarballs=(.build/dist/dfukit-*-linux-x86_64.tar.gz)
if [ ! -f "${tarballs[0]}" ] || [ ${#tarballs[@]} -ne 1 ]; then
    echo "test-dist: expected one .build/dist/dfukit-*-linux-x86_64.tar.gz (run make dist): ${tarballs[*]}" >&2
    exit 1
fi
tarball="$repo/${tarballs[0]}"
name=$(basename "$tarball" .tar.gz)
version=${name#dfukit-}; version=${version%-linux-x86_64}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/opt" "$work/bin" "$work/run"
tar -C "$work/opt" -xzf "$tarball"
prefix="$work/opt/$name"
ln -s "$prefix/bin/dfukit" "$work/bin/dfukit"
cp firmware-samples/demo-app.hex "$work/run/"

passed=0; failed=0
check() { # check DESCRIPTION COMMAND...: runs COMMAND, counts it
    local description=$1; shift
    if output=$("$@" 2>&1); then
        echo "ok: $description"; passed=$((passed + 1))
    else
        echo "FAILED: $description"; echo "$output" | sed 's/^/    /'; failed=$((failed + 1))
    fi
}
# A station's environment: no toolchain on PATH, no library path, a working directory with no
# ./profiles.
station() { (cd "$work/run" && env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH= HOME="$work/run" "$work/bin/dfukit" "$@"); }

check "the tarball holds bin/dfukit, profiles, the schemas and DEPENDS" \
    test -x "$prefix/bin/dfukit" -a -f "$prefix/share/dfukit/profiles/vendor-ctrlpt.yaml" \
         -a -f "$prefix/share/dfukit/profiles/mcumgr-smp.yaml" -a -s "$prefix/share/dfukit/profile.schema.json" \
         -a -s "$prefix/share/dfukit/output-schemas/flash.schema.json" \
         -a -s "$prefix/share/dfukit/output-schemas/exec.schema.json" -a -s "$prefix/share/dfukit/DEPENDS"
check "ldd: no Swift runtime library, nothing missing" \
    bash -c "out=\$(env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH= ldd '$prefix/bin/dfukit') || exit 1; echo \"\$out\";
             ! echo \"\$out\" | grep -E 'libswift|/opt/swift|not found'"
check "dfukit --version says $version" \
    bash -c "[ \"\$(cd '$work/run' && env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH= '$work/bin/dfukit' --version)\" = 'dfukit $version' ]"
# Every profile --profile NAME loads (the first of its name) comes from the tarball.
check "the profiles found are the tarball's" \
    bash -c "cd '$work/run' && env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH= '$work/bin/dfukit' profiles --json |
             python3 -c 'import json, sys
rows = [row for row in json.load(sys.stdin) if not row[\"hidden\"]]
names = {row[\"name\"] for row in rows}
assert {\"vendor-ctrlpt\", \"mcumgr-smp\"} <= names, names
wrong = [row[\"path\"] for row in rows if row[\"directory\"] != sys.argv[1] or row[\"origin\"] != \"installed\"]
assert not wrong, wrong' '$prefix/share/dfukit/profiles'"
check "profile check of a shipped profile" station profile check "$prefix/share/dfukit/profiles/vendor-ctrlpt.yaml"
check "package create with the shipped vendor-ctrlpt profile" \
    station package create --profile vendor-ctrlpt --version 1.0.0 --output app.zip demo-app.hex
check "a simulated flash ends verified" \
    bash -c "cd '$work/run' && env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH= '$work/bin/dfukit' flash --profile vendor-ctrlpt \
             --device 'sim:vendor-ctrlpt?mtu=247' app.zip --json > flash.json && grep -q '\"verified\"' flash.json"
check "a simulated MCUmgr SMP flash ends verified" \
    bash -c "cd '$work/run' && env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH= '$work/bin/dfukit' flash --profile mcumgr-smp \
             --device sim:mcumgr-smp '$repo/firmware-samples/mcuboot/app-ecdsa-p256.bin' --json > smp.json && grep -q '\"verified\"' smp.json"
if [ -f "$prefix/share/man/man1/dfukit.1" ]; then
    check "the man page is roff with a NAME section" grep -q '^\.SH NAME' "$prefix/share/man/man1/dfukit.1"
fi
if [ -f "$prefix/share/bash-completion/completions/dfukit" ]; then
    check "the bash completion parses" bash -n "$prefix/share/bash-completion/completions/dfukit"
fi
echo "${passed} passed, ${failed} failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
