#!/usr/bin/env bash
# The habits nothing else enforces, checked the way CI checks them (.ci/run runs this after
# scripts/test.sh):
#   format  every tracked .cpp and .h is formatted as .clang-format says (clang-format);
#   layers  every include stays within the layers its folder links (scripts/check-layers.sh);
#   tidy    clang-tidy with the checks in .clang-tidy;
#   clazy   clazy with the Qt checks listed below;
# over zsetlab's own sources: the .cpp files in build/dev/compile_commands.json that git tracks
# (moc, rcc and other generated files are left out; tests and benchmarks are in). It fails on a
# finding that scripts/lint-baseline.txt does not list, and says where and how to fix it.
#
# Usage: scripts/lint.sh [--changed] [format] [layers] [tidy] [clazy] [mark]   (no step: the first four)
# tidy and clazy need a built build/$PRESET (default dev: the generated headers, and the compiler's
# record of the headers each file includes); the script builds it first, as scripts/test.sh does.
#
# --changed (CI on a cold machine): tidy and clazy check only what changed since the commit in
# scripts/lint-checked, at which they found nothing new over the whole tree: each changed .cpp,
# and for each changed header one file that includes it (its own .cpp where there is one), which
# brings that header's findings out. Without that commit in the clone, every file is checked.
# mark (after tidy and clazy passed over the whole tree, with nothing uncommitted): writes HEAD
# into scripts/lint-checked. Commit it with the change it checked.
#
# Each file's result is cached in ~/.cache/zsetlab-lint (ZSETLAB_LINT_CACHE), keyed by a hash of
# the file and every header it includes (as the last build read them), its compile command, the
# tool's version and its configuration: a machine that ran it before re-checks only what changed,
# whatever folder the clone is in. JOBS (default 2) files are checked at a time.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"
jobs=${JOBS:-2}
cache=${ZSETLAB_LINT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/zsetlab-lint}
preset=${PRESET:-dev}
build=build/$preset
baseline=scripts/lint-baseline.txt
checked_file=scripts/lint-checked
changed_only=0
if [ "${1:-}" = --changed ]; then
    changed_only=1
    shift
fi

# clazy: its levels 0 and 1 (no false positives to speak of, cheap fixes), and the checks beyond
# them that fit a code base built on signals, translations and threads.
clazy_checks=level0,level1
# Left out: returning-void-expression (style: `return f();` in a void function), and the level 2
# checks that ask for a taste (rule-of-three, function-args-by-ref: clang-tidy's performance-*
# checks find the copies that cost).
clazy_checks+=,old-style-connect,static-pmf,virtual-call-ctor,base-class-event,copyable-polymorphic
clazy_checks+=,missing-qobject-macro,signal-with-return-value,thread-with-slots,tr-non-literal
clazy_checks+=,assert-with-side-effects,container-inside-loop
# Findings in the project's own headers count; Qt's and generated ones (under build/) do not.
source_dirs="app|cli|core|tests|bench"
header_filter="^$top/($source_dirs)/"
# Part of every cache key: raise it when the way findings are read from a tool's output changes.
cache_format=1

# One file, one tool (run by xargs): writes its findings, from the cache when the key is known,
# to a file of its own in $ZSETLAB_LINT_FOUND. Not to a shared stdout: jobs running side by side
# would write through one file offset, and cat's copy_file_range moves that offset without a lock,
# so one job's lines could land over another's (a finding lost, a fragment of it left behind).
# Paths in the output and in the cache are relative to the checkout.
if [ "${1:-}" = --one ]; then
    tool=$2 key=$3 file=$4
    entry="$cache/$tool/${key:0:2}/$key"
    found="$ZSETLAB_LINT_FOUND/${file//\//%}"
    if [ -n "$key" ] && [ -f "$entry" ]; then
        touch "$entry"
        cp "$entry" "$found"
        exit 0
    fi
    out=$(mktemp)
    trap 'rm -f "$out" "$out.tmp"' EXIT
    status=0
    case $tool in
        tidy) clang-tidy -p "$ZSETLAB_LINT_DB" --quiet --header-filter="$header_filter" "$file" >"$out" 2>&1 || status=$? ;;
        clazy) clazy-standalone -p "$ZSETLAB_LINT_DB" --checks="$clazy_checks" --header-filter="$header_filter" \
            --ignore-dirs="^$top/build/" "$file" >"$out" 2>&1 || status=$? ;;
    esac
    # Only the finding lines; a file that does not compile is a finding too. clazy also passes on
    # clang's own warnings for the build's -Wall -pedantic (-Wgnu-zero-variadic-macro-arguments...):
    # those are the compiler's business, and only its [-Wclazy-...] ones are kept.
    if [ "$tool" = clazy ]; then
        grep -E '^/[^:]+:[0-9]+:[0-9]+: (warning: .*\[-Wclazy-[a-z0-9-]+\]$|error: )' "$out"
    else
        grep -E '^/[^:]+:[0-9]+:[0-9]+: (warning|error): ' "$out"
    fi | sed "s|^$top/||" >"$out.tmp" || true
    if [ "$status" -gt 1 ] || { [ "$status" -ne 0 ] && [ ! -s "$out.tmp" ]; }; then
        echo "lint: $tool failed on $file (exit $status):" >&2
        tail -20 "$out" >&2
        exit 255 # stops xargs: a broken tool is not a clean result
    fi
    if [ -n "$key" ]; then
        mkdir -p "${entry%/*}"
        cp "$out.tmp" "$entry.$$" && mv "$entry.$$" "$entry"
    fi
    cp "$out.tmp" "$found"
    exit 0
fi

# shellcheck source=deps.sh
source scripts/deps.sh
zsetlab_install_deps
steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(format layers tidy clazy)
failed=0

now() { echo "${EPOCHREALTIME/./}"; } # microseconds
took() {
    local tenths=$((($(now) - $1) / 100000))
    echo "$((tenths / 10)).$((tenths % 10)) s"
}

lint_format() {
    command -v clang-format >/dev/null || { echo "lint: clang-format is missing: run scripts/deps.sh"; return 1; }
    local start bad
    start=$(now)
    mapfile -t bad < <(git ls-files -z '*.cpp' '*.h' | xargs -0 -n 40 -P "$jobs" clang-format --dry-run --Werror 2>&1 \
        | sed -n 's/^\(.*\.\(cpp\|h\)\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' | sort -u)
    if [ ${#bad[@]} -gt 0 ]; then
        echo "lint: format: ${#bad[@]} file(s) differ from .clang-format:"
        printf '    %s\n' "${bad[@]}"
        echo "  See where: clang-format --dry-run FILE. Fix them all with:"
        echo "    clang-format -i ${bad[*]}"
        echo "lint: format: FAILED ($(took "$start"))"
        return 1
    fi
    echo "lint: format: $(git ls-files '*.cpp' '*.h' | wc -l) files formatted as .clang-format says ($(took "$start"))"
}

# "key<TAB>file" for each of the project's translation units. The key covers the file and every
# header the compiler read for it (ninja's record of the last build), its compile command, the
# tool's version and configuration; it is empty when ninja has no up-to-date record (then the file
# is checked every time).
lint_units() {
    local tool=$1 version config
    case $tool in
        tidy) version=$(clang-tidy --version); config="$(cat .clang-tidy) $source_dirs $cache_format" ;;
        clazy) version=$(clazy-standalone --version); config="$clazy_checks $source_dirs $cache_format" ;;
    esac
    ninja -C "$build" -t deps >"$work/deps"
    git ls-files '*.cpp' >"$work/tracked"
    TOP=$top BUILD=$build TOOL=$tool VERSION=$version CONFIG=$config CHANGED=$changed_only python3 - "$work" <<'EOF'
import hashlib, json, os, shlex, sys
work = sys.argv[1]
# With --changed: the paths that changed since the checked commit (lint_changed_files).
changed = set(open(f"{work}/changed").read().split("\n")) - {""} if os.environ["CHANGED"] == "1" else None
top, build = os.environ["TOP"], os.environ["BUILD"]
tracked = set(open(f"{work}/tracked").read().split("\n"))
deps, current = {}, None
for line in open(f"{work}/deps"):
    if not line.startswith(" "):
        name, _, rest = line.partition(": #deps")
        current = name if "(VALID)" in rest else None
        if current:
            deps[current] = []
    elif current and line.strip():
        deps[current].append(line.strip())
seen = {}
def digest(path):
    if path not in seen:
        try:
            with open(path, "rb") as f:
                seen[path] = hashlib.sha256(f.read()).hexdigest()
        except OSError:
            seen[path] = "missing"
    return seen[path]
base = hashlib.sha256()
for part in ("TOOL", "VERSION", "CONFIG"):
    base.update(os.environ[part].encode() + b"\0")
done, units = set(), []
for entry in json.load(open(os.environ["ZSETLAB_LINT_DB"] + "/compile_commands.json")):
    path = os.path.relpath(entry["file"], top)
    if path not in tracked or path in done:
        continue  # generated (moc, rcc), outside the checkout, or built for a second target too
    done.add(path)
    args = shlex.split(entry["command"])
    output = args[args.index("-o") + 1] if "-o" in args else ""
    key, headers = "", set()
    if output in deps:
        h = base.copy()
        h.update(entry["command"].replace(top, "@TOP@").encode() + b"\0")
        for dep in deps[output]:
            full = os.path.normpath(os.path.join(top, build, dep))
            h.update(full.replace(top, "@TOP@").encode() + b"\0" + digest(full).encode() + b"\0")
            headers.add(os.path.relpath(full, top))
        key = h.hexdigest()
    units.append((key, path, headers))
if changed is not None:
    # Each changed .cpp, and one file for each changed header: its own .cpp, else the first that
    # includes it.
    paths = {path for _, path, _ in units}
    chosen = {path for path in paths if path in changed}
    for header in sorted(p for p in changed if p.endswith(".h")):
        own = header[:-2] + ".cpp"
        if own in paths:
            chosen.add(own)
        else:
            chosen.update([path for _, path, headers in sorted(units, key=lambda u: u[1]) if header in headers][:1])
    units = [u for u in units if u[1] in chosen]
for key, path, _ in units:
    print(f"{key}\t{path}")
EOF
}

# The .cpp and .h files that differ from the commit in scripts/lint-checked (committed since, or
# not yet), into $work/changed; fails when that commit is not in this clone.
lint_changed_files() {
    local since
    since=$(grep -v -e '^#' -e '^$' "$checked_file" 2>/dev/null | head -1)
    if [ -z "$since" ] || ! git cat-file -e "$since^{commit}" 2>/dev/null; then
        echo "lint: --changed: ${since:-no commit} (from $checked_file) is not in this clone: checking every file"
        return 1
    fi
    { git diff --name-only "$since" -- '*.cpp' '*.h'; git ls-files --others --exclude-standard -- '*.cpp' '*.h'; } \
        | sort -u >"$work/changed"
    echo "lint: --changed: $(wc -l <"$work/changed") .cpp/.h file(s) differ from $since, the last commit checked whole"
}

lint_tool() {
    local tool=$1 name start total fresh
    case $tool in
        tidy) name=clang-tidy; command -v clang-tidy >/dev/null || { echo "lint: clang-tidy is missing: run scripts/deps.sh"; return 1; } ;;
        clazy) name=clazy; command -v clazy-standalone >/dev/null || { echo "lint: clazy is missing: run scripts/deps.sh"; return 1; } ;;
    esac
    start=$(now)
    if [ "$changed_only" -eq 1 ] && [ ! -f "$work/changed" ] && ! lint_changed_files; then
        changed_only=0
    fi
    lint_units "$tool" | sort -t "$(printf '\t')" -k2 >"$work/units.$tool"
    total=$(wc -l <"$work/units.$tool")
    fresh=0
    while IFS=$'\t' read -r key _; do
        [ -n "$key" ] && [ -f "$cache/$tool/${key:0:2}/$key" ] || fresh=$((fresh + 1))
    done <"$work/units.$tool"
    mkdir "$work/found-$tool"
    if ! tr '\t' '\n' <"$work/units.$tool" \
        | ZSETLAB_LINT_FOUND="$work/found-$tool" xargs -d '\n' -n 2 -P "$jobs" "$0" --one "$tool"; then
        echo "lint: $name: FAILED to run (see above)"
        return 1
    fi
    find "$work/found-$tool" -type f -exec cat {} + >"$work/found.$tool"
    sort -u "$work/found.$tool" -o "$work/found.$tool"
    # Baseline lines are "path: message [check]": no line numbers, so that they survive edits above.
    sed -E 's/^([^:]+):[0-9]+:[0-9]+: (warning|error): /\1: /' "$work/found.$tool" >"$work/found-keys.$tool"
    grep -v -e '^#' -e '^$' "$baseline" 2>/dev/null >"$work/baseline" || true
    # Each baseline line covers one finding: a second one of the same text in the same file is new.
    local new count baselined
    new=$(paste -d '\t' "$work/found-keys.$tool" "$work/found.$tool" \
        | awk -F'\t' 'FILENAME == ARGV[1] { known[$0]++; next } known[$1] > 0 { known[$1]--; next } { print $2 }' \
            "$work/baseline" -)
    count=$(wc -l <"$work/found.$tool")
    baselined=$((count - $(printf '%s' "$new" | grep -c . || true)))
    if [ -n "$new" ]; then
        echo "lint: $name: $(echo "$new" | wc -l) new finding(s):"
        echo "$new" | sed 's/^/    /'
        echo "  Fix each at the file and line named. If one is a false positive, say so on its line:"
        if [ "$tool" = tidy ]; then
            echo "    // NOLINT(check-name): the reason        (the check is the name in [brackets])"
            echo "  clang-tidy -p $build --fix FILE fixes some of them for you."
        else
            echo "    // clazy:exclude=check-name (and the reason)   (the check is the name after clazy-)"
        fi
        echo "lint: $name: FAILED ($total files, $fresh checked, the rest cached; $(took "$start"))"
        return 1
    fi
    local scope="$total files"
    [ "$changed_only" -eq 0 ] || scope="$total files changed since $(grep -v -e '^#' -e '^$' "$checked_file" | head -1 | cut -c1-10)"
    echo "lint: $name: no new findings ($baselined known, listed in $baseline; $scope, $fresh checked, the rest cached; $(took "$start"))"
}

# The build's compile commands as clang reads them: without the tests' precompiled headers
# (tests/CMakeLists.txt), which are gcc's, and which clang would find beside the header CMake
# passes with -include and refuse. The header's own includes are read as text instead.
lint_database() {
    mkdir -p "$work/db"
    python3 - "$build/compile_commands.json" "$work/db/compile_commands.json" <<'EOF'
import json, re, sys
entries = json.load(open(sys.argv[1]))
for entry in entries:
    entry["command"] = re.sub(r" -Winvalid-pch| -include \S*/cmake_pch\.hxx", "", entry["command"])
json.dump(entries, open(sys.argv[2], "w"), indent=0)
EOF
    export ZSETLAB_LINT_DB=$work/db
}

# Records HEAD as checked whole: only after tidy and clazy passed over every file in this run.
lint_mark() {
    local ran=" ${steps[*]} "
    if [ "$failed" -ne 0 ] || [ "$changed_only" -eq 1 ] || [[ "$ran" != *" tidy "* ]] || [[ "$ran" != *" clazy "* ]]; then
        echo "lint: mark: needs tidy and clazy to pass over every file in the same run (scripts/lint.sh tidy clazy mark)"
        return 1
    fi
    if [ -n "$(git status --porcelain -- '*.cpp' '*.h' .clang-tidy "$baseline")" ]; then
        echo "lint: mark: commit the .cpp and .h files first: what is checked must be a commit"
        return 1
    fi
    printf '# The last commit at which scripts/lint.sh tidy clazy found nothing new over every file:\n# CI checks what changed since (scripts/lint.sh --changed). Written by scripts/lint.sh tidy clazy mark.\n%s\n' \
        "$(git rev-parse HEAD)" >"$checked_file"
    echo "lint: mark: $(git rev-parse --short HEAD) recorded in $checked_file"
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for step in "${steps[@]}"; do
    case $step in
        format | layers) ;;
        tidy | clazy)
            if [ ! -f "$work/built" ]; then
                zsetlab_build "$preset" >"$work/build.log" 2>&1 || { cat "$work/build.log"; echo "lint: $build does not build"; exit 1; }
                lint_database
                touch "$work/built"
            fi
            ;;
        mark) ;;
        *) echo "usage: scripts/lint.sh [--changed] [format] [layers] [tidy] [clazy] [mark]"; exit 2 ;;
    esac
done
[ ! -d "$cache" ] || find "$cache" -type f -mtime +30 -delete 2>/dev/null || true
for step in "${steps[@]}"; do
    case $step in
        format) lint_format || failed=1 ;;
        layers) scripts/check-layers.sh || failed=1 ;;
        tidy) lint_tool tidy || failed=1 ;;
        clazy) lint_tool clazy || failed=1 ;;
        mark) lint_mark || failed=1 ;;
    esac
done
[ "$failed" -eq 0 ] && echo "lint: all clean" || echo "lint: FAILED (see above)"
exit "$failed"
