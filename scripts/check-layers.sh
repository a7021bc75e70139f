#!/usr/bin/env bash
# The house's lines (HACKING.md, "The house"): a file in core/<layer>/ or app/<part>/ includes only
# its own folder and the libraries its CMakeLists.txt links, directly or through their PUBLIC
# links. Reads the links from the CMakeLists.txt files and the includes from the tracked sources;
# prints each include that crosses a line, with the link that would allow it, and fails on any.
# Every include path is core/ or app/, so `#include "burst/burstplan.h"` compiles wherever it is
# written: this check is what keeps the layers apart. Run by scripts/lint.sh layers (and CI).
#   scripts/check-layers.sh [--with FILE INCLUDE]
# --with checks as if FILE also held `#include "INCLUDE"` (the test that the check still catches one).
set -euo pipefail
cd "$(dirname "$0")/.."
with_file= with_include=
if [ "${1:-}" = --with ]; then
    with_file=$2 with_include=$3
fi

# The library of a folder: core/burst -> zsetlab_burst, app/run -> zsetlab_gui_run, app -> zsetlab_gui.
library_of() {
    case $1 in
        core/*) echo "zsetlab_${1#core/}" ;;
        app/*) echo "zsetlab_gui_${1#app/}" ;;
        app) echo zsetlab_gui ;;
    esac
}

# "target mode dependency" lines from every target_link_libraries() of the core and the window.
links=$(for file in core/*/CMakeLists.txt app/*/CMakeLists.txt; do
    tr '\n' ' ' <"$file" | grep -oE 'target_link_libraries\([^)]*\)' || true
done | awk '{
    gsub(/^target_link_libraries\(|\)$/, "")
    target = $1; mode = "PUBLIC"
    for (i = 2; i <= NF; i++) {
        if ($i ~ /^(PUBLIC|PRIVATE|INTERFACE)$/) { mode = $i; continue }
        if ($i ~ /^zsetlab_/) print target, mode, $i
    }
}')

# A layer's include lines "file<TAB>included library<TAB>what it wrote", for the awk below.
includes() {
    local folder=$1 file name dir resolved
    git ls-files "$folder/*.cpp" "$folder/*.h" | while read -r file; do
        [ "$(dirname "$file")" = "$folder" ] || continue
        dir=$(dirname "$file")
        {
            grep -oE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"[^"]+"' "$file" | sed -E 's/.*"([^"]+)"/\1/' || true
            [ "$file" != "$with_file" ] || echo "$with_include"
        } | while read -r name; do
            resolved=
            if [ -f "$dir/$name" ]; then
                continue
            elif [[ $name == */* ]] && [ -f "core/$name" ]; then
                resolved=core/${name%/*}
            elif [[ $name == */* ]] && [ -f "app/$name" ]; then
                resolved=app/${name%/*}
            elif [ -f "app/$name" ]; then
                resolved=app
            fi
            [ -n "$resolved" ] && printf '%s\t%s\t%s\n' "$file" "$(library_of "$resolved")" "$name"
        done
    done
}

status=0
for folder in core/* app/*; do
    [ -f "$folder/CMakeLists.txt" ] || continue
    library=$(library_of "$folder")
    includes "$folder" >"${TMPDIR:-/tmp}/layers.$$" || true
    if ! awk -v self="$library" -v links="$links" '
        BEGIN {
            n = split(links, lines, "\n")
            for (i = 1; i <= n; i++) {
                split(lines[i], f, " ")
                deps[f[1]] = deps[f[1]] " " f[3]
                if (f[2] != "PRIVATE") public[f[1]] = public[f[1]] " " f[3]
            }
            # What self may include: itself, its own links, and what they link PUBLIC, transitively.
            allowed[self] = 1
            m = split(deps[self], queue, " ")
            while (m > 0) {
                lib = queue[m--]
                if (lib in allowed) continue
                allowed[lib] = 1
                k = split(public[lib], more, " ")
                for (j = 1; j <= k; j++) queue[++m] = more[j]
            }
            # zsetlab_core stands for every core library.
            if ("zsetlab_core" in allowed) core = 1
        }
        {
            split($0, f, "\t")
            if (f[2] in allowed || (core && f[2] ~ /^zsetlab_/ && f[2] !~ /^zsetlab_gui/)) next
            printf "%s: #include \"%s\" reaches %s, which %s does not link\n", f[1], f[3], f[2], self
            bad = 1
        }
        END { exit bad }' "${TMPDIR:-/tmp}/layers.$$"; then
        status=1
    fi
done
rm -f "${TMPDIR:-/tmp}/layers.$$"
if [ "$status" -ne 0 ]; then
    echo "layers: FAILED. Include only the layers your folder's CMakeLists.txt links (HACKING.md, \"The house\");"
    echo "  if the layer should use that one, add the link there, and keep the table in HACKING.md in step."
    exit 1
fi
echo "layers: every include stays within the links its folder's CMakeLists.txt draws"
