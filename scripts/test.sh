#!/usr/bin/env bash
# Quick start, command 2: install what is missing, build, and run every test with ctest.
# The tests start their own private redis-server on a unix socket; GUI tests use the offscreen
# platform, so no display is needed. PRESET=asan scripts/test.sh runs them under the sanitizers;
# TESTS="burstengine faults" builds and runs only those (and the CLI they start).
set -euo pipefail
source "$(dirname "$0")/deps.sh"
preset=${PRESET:-dev}
zsetlab_install_deps
if [ -z "${TESTS:-}" ]; then
    zsetlab_build "$preset"
    exec ctest --preset "$preset"
fi
targets=(zsetlab-cli)
for name in $TESTS; do targets+=("tst_$name"); done
zsetlab_build "$preset" --target "${targets[@]}"
exec ctest --preset "$preset" -R "^($(echo $TESTS | tr ' ' '|'))\$"
