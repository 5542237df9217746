#!/usr/bin/env bash
# Builds gannet_<version>_amd64.deb (`make deb`): the release `gannet` with the Swift runtime and
# Foundation linked in (--static-swift-stdlib), so it needs no Swift toolchain, only Debian's
# libcurl4, libssl3 and libxml2 (and libc6 from 2.36 on, for its packed relative relocations, and
# libgcc-s1, which every Debian system has, and libpsl5, the public-suffix list cookies are judged
# by, which libcurl4 itself depends on; not libstdc++6: the C++ library is linked in);
# the manual and the bash, zsh and fish completions go where Debian's tools look for them.
# Refuses to package a binary that links anything else (checked with ldd and dpkg -S).
#
#   bash scripts/build-deb.sh                          # writes .build/deb/gannet_<version>_amd64.deb
#   DEB_SCRATCH=.build-deb bash scripts/build-deb.sh   # builds in .build-deb instead
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Modules/GannetCLI/GannetVersion.swift)
[[ -n "$version" ]] || { echo "build-deb: no version in GannetVersion.swift" >&2; exit 1; }
arch=$(dpkg --print-architecture)

# DEB_SCRATCH: another build folder (e.g. .build-deb), so a debug build in .build is left alone.
scratch=(--scratch-path "${DEB_SCRATCH:-.build}")
# The compiler flags the command is built with (scripts/gannet-swiftc-flags says why).
swiftc_flags=()
while read -r flag; do
    [[ -z "$flag" || "$flag" == \#* ]] || swiftc_flags+=(-Xswiftc "$flag")
done <scripts/gannet-swiftc-flags
swift build "${scratch[@]}" -c release --product gannet --static-swift-stdlib "${swiftc_flags[@]}"
binary="$(swift build "${scratch[@]}" -c release --show-bin-path)/gannet"

# Every shared library the binary itself needs (its NEEDED entries; theirs are their packages'
# business) must come from an allowed package. libxml2 is not among them: gannet opens it with
# dlopen when it first parses XML (docs/performance.md, "Start-up"), so the package still
# depends on it. libstdc++6 is allowed here for the NEEDED entry dropped below, not a dependency.
allowed=" libc6 libcurl4 libssl3 libxml2 libpsl5 libstdc++6 libgcc-s1 "
resolved=$(ldd "$binary")
for soname in $(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    library=$(awk -v name="$soname" '$1 == name && $2 == "=>" { print $3 }' <<<"$resolved")
    [[ -n "$library" ]] || library=$(awk -v name="$soname" 'index($1, name) { print $1 }' <<<"$resolved")
    package=$(dpkg -S "$(readlink -f "$library")" 2>/dev/null | head -1 | cut -d: -f1 || true)
    [[ -n "$package" ]] || package=$(dpkg -S "$library" 2>/dev/null | head -1 | cut -d: -f1 || true)
    if [[ "$allowed" != *" $package "* ]]; then
        echo "build-deb: $binary needs $soname ($library, package: ${package:-none}), not one of:$allowed" >&2
        exit 1
    fi
done

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
install -d "$root/usr/bin"
# Without its NEEDED entry for libxml2: SwiftPM links it (pkg-config's -lxml2), but gannet calls
# it only through dlopen, when it parses XML, so the loader need not map it (and the ICU it
# brings) into every process. Nor for libstdc++.so.6: gannet links GCC's libstdc++.a
# (Modules/CStaticLibStdCxx), and the -lstdc++ that --static-swift-stdlib adds after it is left
# with nothing to give. Whatever the binary still needs must resolve without them.
python3 scripts/drop-needed.py "$binary" "$root/usr/bin/gannet" libxml2.so.2 libstdc++.so.6
chmod 755 "$root/usr/bin/gannet"
if unresolved=$(ldd -r "$root/usr/bin/gannet" 2>&1 | grep -E "undefined symbol|not found"); then
    echo "build-deb: without the NEEDED entries of libxml2 and libstdc++, gannet misses: $unresolved" >&2
    exit 1
fi
strip --strip-unneeded "$root/usr/bin/gannet"
install -d "$root/usr/share/man/man1"
gzip -9n <docs/man/gannet.1 >"$root/usr/share/man/man1/gannet.1.gz"
install -Dm644 completions/gannet.bash "$root/usr/share/bash-completion/completions/gannet"
install -Dm644 completions/_gannet "$root/usr/share/zsh/vendor-completions/_gannet"
install -Dm644 completions/gannet.fish "$root/usr/share/fish/vendor_completions.d/gannet.fish"
install -Dm644 docs/cli.md "$root/usr/share/doc/gannet/cli.md"

size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
install -d "$root/DEBIAN"
cat >"$root/DEBIAN/control" <<CONTROL
Package: gannet
Version: $version
Architecture: $arch
Maintainer: Gannet <gannet@localhost>
Installed-Size: $size
Depends: libc6 (>= 2.36), libcurl4 (>= 7.88.1), libssl3, libxml2, libpsl5, libgcc-s1
Section: web
Priority: optional
Homepage: https://github.com/gannet/gannet
Description: HTTP client with httpie's grammar, on libcurl and OpenSSL
 gannet sends HTTP requests the way httpie reads them (items for headers, query
 parameters and JSON or form fields), with certificate pinning, sessions,
 downloads, curl's --resolve, --connect-to and --unix-socket, and a config file
 of default options. Built on the Gannet Swift library.
CONTROL

mkdir -p .build/deb
output=".build/deb/gannet_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$output" >/dev/null
echo "$output"
