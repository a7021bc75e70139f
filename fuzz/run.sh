#!/usr/bin/env bash
# Builds the libFuzzer targets (preset "fuzz": clang, ASan + UBSan) and runs each one for a bounded
# time, then prints how many inputs each executed and how many crashed.
#
#   fuzz/run.sh                      every target, 60 s each
#   fuzz/run.sh 300                  every target, 300 s each
#   fuzz/run.sh 30 fuzz_burstplan    one target
#
# The seeds in fuzz/corpus/<target>/ are only read; what a run discovers goes to
# build/fuzz/corpus/<target>/ (kept between runs) and crashing inputs to
# build/fuzz/artifacts/<stamp>/<target>/. libFuzzer stops a target at its first crash; replay one
# with build/fuzz/fuzz/<target> <file>. Exits 1 when any target crashed.
set -euo pipefail
source "$(dirname "$0")/../scripts/deps.sh"
# libFuzzer's runtime comes with clang's compiler-rt, which the main build does not need.
ZSETLAB_PACKAGES+=(clang libclang-rt-14-dev)

seconds=${1:-60}
if ! [[ $seconds =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: fuzz/run.sh [SECONDS] [TARGET...]" >&2
    exit 2
fi
shift $(($# > 0 ? 1 : 0))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_redisendpoint fuzz_burstplan fuzz_limiterreply fuzz_monitorline fuzz_replayfile)

zsetlab_install_deps
zsetlab_build fuzz # leaves the working directory at the top of the repository

stamp=$(date +%Y%m%d-%H%M%S)
# Findings must stop the target; leaks of one input count too.
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

failed=0
summary=()
for target in "${targets[@]}"; do
    binary=build/fuzz/fuzz/$target
    [ -x "$binary" ] || { echo "fuzz/run.sh: no target $target (see fuzz/CMakeLists.txt)" >&2; exit 2; }
    corpus=build/fuzz/corpus/$target
    artifacts=build/fuzz/artifacts/$stamp/$target
    log=build/fuzz/artifacts/$stamp/$target.log
    mkdir -p "$corpus" "$artifacts"
    echo "fuzz/run.sh: $target for $seconds s (log: $log)"
    set +e
    "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$artifacts/" "$corpus" "fuzz/corpus/$target" >"$log" 2>&1
    status=$?
    set -e
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    # A crash can end the run before the final stats: fall back to the last status line.
    [ -n "$runs" ] || runs=$(grep -o '^#[0-9]*' "$log" | tail -n 1 | tr -d '#')
    crashes=$(find "$artifacts" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'oom-*' -o -name 'timeout-*' \) \
        | wc -l)
    if [ "$status" -ne 0 ] && [ "$crashes" -eq 0 ]; then
        crashes=1 # died without leaving an input (e.g. a sanitizer abort outside an input)
    fi
    [ "$crashes" -eq 0 ] || failed=1
    summary+=("$(printf '%-20s executions %12s   crashes %d' "$target" "${runs:-0}" "$crashes")")
done

echo
echo "fuzz/run.sh: $seconds s per target"
printf '  %s\n' "${summary[@]}"
if [ "$failed" -ne 0 ]; then
    echo "fuzz/run.sh: crashing inputs are in build/fuzz/artifacts/$stamp/" >&2
    exit 1
fi
