#!/usr/bin/env bash
# Quick start, command 2: install what is missing, build, and run every test with ctest.
# The tests start their own private redis-server on a unix socket; GUI tests use the offscreen
# platform, so no display is needed. PRESET=asan scripts/test.sh runs them under the sanitizers.
set -euo pipefail
source "$(dirname "$0")/deps.sh"
preset=${PRESET:-dev}
zsetlab_install_deps
zsetlab_build "$preset"
ctest --preset "$preset"
