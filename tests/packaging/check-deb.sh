#!/usr/bin/env bash
# Builds the Debian package (cpack) from a built tree and checks that it installs on the
# distribution it was built on: its Depends name, for every shared library zsetlab and zsetlab-cli
# load, the package of this system that holds that library (so a package built on Debian 12 asks
# for libhiredis0.14 and one built on Debian 13 for libhiredis1.1.0), every package it names
# exists here, and it recommends redis-server.
set -euo pipefail
build=$(cd "$1" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for tool in cpack dpkg-deb dpkg-shlibdeps dpkg-query; do
    command -v "$tool" >/dev/null || { echo "check-deb: needs $tool (scripts/deps.sh installs it)"; exit 1; }
done
(cd "$build" && cpack -G DEB -B "$out" >"$out/cpack.log" 2>&1) || { cat "$out/cpack.log"; echo "check-deb: cpack failed"; exit 1; }
deb=$(find "$out" -maxdepth 1 -name 'zsetlab_*.deb' -print -quit)
[ -n "$deb" ] || { cat "$out/cpack.log"; echo "check-deb: cpack made no .deb"; exit 1; }
depends=$(dpkg-deb -f "$deb" Depends)
echo "check-deb: $(basename "$deb"): Depends: $depends"
names=$(echo "$depends" | tr ',' '\n' | sed -E 's/^ *//; s/[ (].*//; s/:.*//' | sort -u)

failures=0
for program in zsetlab zsetlab-cli; do
    binary=$(find "$build/app" "$build/cli" -maxdepth 1 -type f -name "$program" -print -quit)
    [ -n "$binary" ] || { echo "check-deb: $program is not built"; exit 1; }
    # The libraries the program names itself (NEEDED), as the loader finds them here.
    while read -r library path; do
        [ -n "$path" ] || continue
        owner=$(dpkg-query -S "$(realpath "$path")" 2>/dev/null | head -1 | cut -d: -f1) \
            || owner=$(dpkg-query -S "$path" 2>/dev/null | head -1 | cut -d: -f1) || true
        if [ -z "$owner" ]; then
            echo "check-deb: $program needs $library ($path), which no package holds"
            failures=$((failures + 1))
        elif ! grep -qx "$owner" <<<"$names"; then
            echo "MISSING $owner: $program needs $library, and the package does not depend on it"
            failures=$((failures + 1))
        fi
    done < <(objdump -p "$binary" | awk '$1 == "NEEDED" {print $2}' | while read -r lib; do
        echo "$lib $(ldd "$binary" | awk -v l="$lib" '$1 == l {print $3}')"
    done)
done
recommends=$(dpkg-deb -f "$deb" Recommends)
grep -qw redis-server <<<"$recommends" || { echo "BAD     Recommends: '$recommends' (redis-server expected: zsetlab starts a private one)"; failures=$((failures + 1)); }
for name in $names; do
    apt-cache show "$name" >/dev/null 2>&1 || dpkg-query -W "$name" >/dev/null 2>&1 \
        || { echo "MISSING $name: the package depends on it, and this system has no such package"; failures=$((failures + 1)); }
done
[ "$failures" -eq 0 ] && echo "check-deb: every library the programs load is a dependency of the package"
exit $((failures > 0))
