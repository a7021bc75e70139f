#!/usr/bin/env bash
# Fails when the build uses a file from a Debian package that scripts/deps.sh does not install,
# neither by name nor through the dependencies of a package it lists. A used machine that happens
# to have such a package builds fine, while a fresh Debian 12 stops at configure; this check sees
# the difference on the used machine.
#
# What the build used, read from the configured and built tree, whichever generator made it
# (Ninja or Unix Makefiles):
#   - every file the configure step read (build.ninja's RERUN_CMAKE inputs, or the Makefiles'
#     CMAKE_MAKEFILE_DEPENDS: each found package's config files, the find modules), and each
#     <Package>_DIR in the CMake cache;
#   - every system path the build commands name (compiler, archiver, include directories,
#     libraries, rcc, lrelease) and the moc/uic that AUTOMOC/AUTOUIC run;
#   - every header the compiler read (ninja -t deps, or the compiler's .d files);
#   - the programs the tests run (ZSETLAB_TEST_TOOL_* in the cache, from tests/CMakeLists.txt).
# Usage: tests/check-packages.sh BUILD_DIR [--without PACKAGE]
#        checks ZSETLAB_PACKAGES from scripts/deps.sh, less PACKAGE if given (to see the check fail)
set -euo pipefail
build=$(cd "$1" && pwd)
shift
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
without=
[ "${1:-}" = --without ] && without=${2:?--without needs a package}
# shellcheck source=../scripts/deps.sh
source "$source_dir/scripts/deps.sh"
packages=()
for package in "${ZSETLAB_PACKAGES[@]}"; do
    [ "$package" = "$without" ] || packages+=("$package")
done

if [ -f "$build/build.ninja" ]; then
    generator=ninja
    [ -f "$build/.ninja_deps" ] || { echo "check-packages: $build is not built yet (cmake --build first)"; exit 1; }
elif [ -f "$build/Makefile" ] && [ -f "$build/CMakeFiles/Makefile.cmake" ]; then
    generator=make
    [ -n "$(find "$build" -name '*.o.d' -print -quit)" ] || { echo "check-packages: $build is not built yet (cmake --build first)"; exit 1; }
else
    echo "check-packages: $build is not a configured CMake build (Ninja or Unix Makefiles)"
    exit 1
fi
for tool in dpkg-query apt-cache realpath $([ "$generator" = ninja ] && echo ninja); do
    command -v "$tool" >/dev/null || { echo "check-packages: needs $tool"; exit 1; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

# 1. What the build used: "path<TAB>why" lines.
configure_inputs() {
    if [ "$generator" = ninja ]; then
        grep '^build build.ninja: RERUN_CMAKE' "$build/build.ninja" | tr ' ' '\n' | grep '^/'
    else
        sed -n '/^set(CMAKE_MAKEFILE_DEPENDS/,/^ *)/p' "$build/CMakeFiles/Makefile.cmake" | sed -n 's/^ *"\(\/[^"]*\)".*/\1/p'
    fi
}
build_commands() {
    if [ "$generator" = ninja ]; then
        ninja -C "$build" -t commands
    else # the make rules and the compile and link lines (the shell make runs them with is not the build's)
        find "$build" \( -name build.make -o -name flags.make -o -name link.txt \) -exec cat {} + | grep -v '^SHELL = '
    fi
}
compiler_inputs() {
    if [ "$generator" = ninja ]; then
        ninja -C "$build" -t deps | grep -E '^\s+/' | sed -E 's/^\s+//'
    else
        find "$build" -name '*.o.d' -exec cat {} + | tr ' \\' '\n\n' | sed 's/:$//' | grep '^/'
    fi
}
{
    configure_inputs | sed 's/$/\tread by the configure step/'
    sed -n 's/^\([A-Za-z0-9_]*_DIR\):PATH=\(\/.*\)$/\2\t\1 in the CMake cache/p' "$build/CMakeCache.txt"
    build_commands | tr ' ;"=' '\n\n\n\n' | grep -E '^-?[IL]?/' | sed -E 's/^-[IL]//' \
        | sed 's/$/\tnamed by a build command/'
    find "$build" -name AutogenInfo.json -exec sed -n 's/.*"QT_[A-Z]*_EXECUTABLE" : "\(\/[^"]*\)".*/\1/p' {} + \
        | sed 's/$/\trun by AUTOMOC or AUTOUIC/'
    compiler_inputs | sed 's/$/\tincluded by the compiler/'
} | grep -v -e "^$build/" -e "^$source_dir/" | sort -u -t "$(printf '\t')" -k1,1 >"$work/used.raw"

# The tests' programs: a missing one is a failure in itself.
while IFS='=' read -r name path; do
    name=${name%%:*}
    if [ -z "$path" ] || [[ "$path" == *NOTFOUND ]]; then
        echo "MISSING program ${name#ZSETLAB_TEST_TOOL_}: the tests run it, and it is not on PATH"
        failures=$((failures + 1))
    else
        printf '%s\tthe tests run it (%s)\n' "$path" "$name" >>"$work/used.raw"
    fi
done < <(grep '^ZSETLAB_TEST_TOOL_[A-Z_]*:FILEPATH=' "$build/CMakeCache.txt" || true)

# Each path as the build named it (with ".." folded, as in .../gcc/12/../../../../include) and
# with its symlinks resolved: /usr/lib/.../libhiredis.so belongs to libhiredis-dev, the file it
# points to to libhiredis0.14, and /usr/bin/c++ is an alternative that only g++-12 owns.
cut -f1 "$work/used.raw" >"$work/paths"
paste <(xargs -d '\n' realpath -ms -- <"$work/paths") <(xargs -d '\n' realpath -m -- <"$work/paths") \
    <(cut -f2 "$work/used.raw") | sort -u >"$work/used"

# 2. Which package owns each path. dpkg's lists name files as the package shipped them; on a
# merged-/usr system /usr/lib/x and /lib/x are the same file, so both spellings are looked up.
awk -F'\t' 'FILENAME == ARGV[1] {
        for (i = 1; i <= 2; ++i) {
            want[$i] = 1
            if ($i ~ /^\/usr\/(lib|lib64|bin|sbin)\//) want[substr($i, 5)] = 1
        }
        next
    }
    ($0 in want) {
        pkg = FILENAME; sub(/.*\//, "", pkg); sub(/\.list$/, "", pkg); sub(/:.*/, "", pkg)
        print $0 "\t" pkg
    }' "$work/used" /var/lib/dpkg/info/*.list | sort -u >"$work/owners"

# 3. The packages that deps.sh installs, with everything they pull in.
apt-cache depends --recurse --installed --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces \
    --no-enhances "${packages[@]}" 2>/dev/null | grep -v '^ ' | tr -d '<>' | sort -u >"$work/closure"
for package in "${packages[@]}"; do
    if ! grep -qx "$package" "$work/closure"; then
        echo "NOT INSTALLED $package (listed in scripts/deps.sh): run scripts/deps.sh first"
        failures=$((failures + 1))
    fi
done

# 4. Each used path needs one owner in the closure. Paths nobody owns: directories are only
# containers, but a file that no package installed is missing on a fresh machine.
awk -F'\t' -v closure="$work/closure" -v unowned="$work/unowned" -v ownerfile="$work/owners" '
    BEGIN {
        while ((getline line < closure) > 0) ok[line] = 1
        while ((getline line < ownerfile) > 0) {
            split(line, f, "\t")
            own[f[1]] = own[f[1]] " " f[2]
        }
    }
    function owners(path,   o) {
        o = own[path]
        if (o == "" && path ~ /^\/usr\/(lib|lib64|bin|sbin)\//) o = own[substr(path, 5)]
        return o
    }
    {
        path = $1
        o = owners($1)
        if (o == "") o = owners($2)
        if (o == "") {
            print $2 "\t" $3 > unowned
            next
        }
        n = split(o, list, " ")
        covered = 0
        for (i = 1; i <= n; ++i) if (list[i] in ok) covered = 1
        if (!covered && !(o in reported)) {
            printf "MISSING%s: needed for %s (%s)\n", o, path, $3
            reported[o] = 1
        }
    }' "$work/used" >"$work/problems"

touch "$work/unowned"
while IFS=$'\t' read -r path why; do
    [ -f "$path" ] && echo "UNOWNED $path ($why): no Debian package installed it" >>"$work/problems"
done <"$work/unowned"

checked=$(wc -l <"$work/used")
if [ -s "$work/problems" ]; then
    cat "$work/problems"
    echo "Add the package(s) above to ZSETLAB_PACKAGES in scripts/deps.sh: a fresh Debian 12 does not have them."
    failures=$((failures + $(wc -l <"$work/problems")))
fi
echo "check-packages: $checked paths used by the build, ${#packages[@]} packages listed, $(wc -l <"$work/closure") with their dependencies, $failures problem(s)"
[ "$failures" -eq 0 ]
