#!/usr/bin/env bash
# Builds the release tarball a station installs:
#   .build/dist/dfukit-VERSION-linux-x86_64.tar.gz
# holding bin/dfukit (release build, Swift runtime linked statically: it needs only the Debian
# runtime libraries listed in share/dfukit/DEPENDS), share/dfukit/profiles (the shipped profiles,
# found by the binary relative to its own location), share/dfukit/profile.schema.json, and the man
# page and shell completions when the binary can generate them (`dfukit man`, `dfukit completion
# bash|zsh|fish`). VERSION is what `dfukit --version` reports (DFUKit.version, in Sources/DFUKit/DFUKit.swift).
# The build has its own scratch directory (.build/static) so it does not rebuild `make release`.
set -euo pipefail
cd "$(dirname "$0")/.."

# The Debian packages the binary may link against (directly); anything else fails the build.
runtime_packages=(libzip4 libcrypto++8 libbluetooth3 libyaml-0-2 libcbor0.8 libsqlite3-0 libpq5 libmicrohttpd12)
system_packages=(libc6 libstdc++6 libgcc-s1 zlib1g)

swift build -c release --static-swift-stdlib --product dfukit --scratch-path .build/static
binary=.build/static/release/dfukit

version=$("$binary" --version | awk '{print $2}')
[ -n "$version" ] || { echo "make-dist: '$binary --version' printed no version" >&2; exit 1; }
name="dfukit-${version}-linux-x86_64"
stage=".build/dist/${name}"
tarball=".build/dist/${name}.tar.gz"

# What the binary links against: no Swift runtime library, every library from an allowed package.
if ldd "$binary" | grep -E "libswift|/opt/swift|not found"; then
    echo "make-dist: $binary still needs the Swift toolchain's libraries (lines above)" >&2
    exit 1
fi
allowed=" ${runtime_packages[*]} ${system_packages[*]} "
for library in $(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    owners=$(dpkg -S "*/${library}" 2>/dev/null | sed 's/:.*//' | tr ', ' '\n\n' | sed '/^$/d' | sort -u || true)
    match=""
    for owner in $owners; do
        case "$allowed" in *" ${owner%%:*} "*) match=$owner ;; esac
    done
    if [ -z "$match" ]; then
        echo "make-dist: $binary needs $library (from: ${owners:-no Debian package}), not one of:$allowed" >&2
        exit 1
    fi
done

# Only this version's tarball: `make test-dist` checks the one it finds.
rm -rf .build/dist
install -d "$stage/bin" "$stage/share/dfukit/profiles"
install -m 0755 "$binary" "$stage/bin/dfukit"
strip "$stage/bin/dfukit"
install -m 0644 profiles/*.yaml "$stage/share/dfukit/profiles/"
"$binary" profile schema > "$stage/share/dfukit/profile.schema.json"
install -d "$stage/share/dfukit/output-schemas"
for output in flash batch-run scan exec; do
    "$binary" schema output "$output" > "$stage/share/dfukit/output-schemas/$output.schema.json"
done
printf '%s\n' "${runtime_packages[@]}" > "$stage/share/dfukit/DEPENDS"
install -m 0644 README.md "$stage/share/dfukit/README.md"

# Man page and completions: only from a binary that generates them.
if "$binary" man > /dev/null 2>&1; then
    install -d "$stage/share/man/man1"
    "$binary" man > "$stage/share/man/man1/dfukit.1"
else
    echo "make-dist: this dfukit has no 'man' command: the tarball has no man page"
fi
if "$binary" completion bash > /dev/null 2>&1; then
    install -d "$stage/share/bash-completion/completions" "$stage/share/zsh/site-functions" \
        "$stage/share/fish/vendor_completions.d"
    "$binary" completion bash > "$stage/share/bash-completion/completions/dfukit"
    "$binary" completion zsh > "$stage/share/zsh/site-functions/_dfukit"
    "$binary" completion fish > "$stage/share/fish/vendor_completions.d/dfukit.fish"
else
    echo "make-dist: this dfukit has no 'completion' command: the tarball has no shell completions"
fi

tar -C .build/dist --owner=0 --group=0 -czf "$tarball" "$name"
echo "$tarball ($(du -h "$tarball" | cut -f1)): $(cd "$stage" && find . -type f | sort | tr '\n' ' ')"
