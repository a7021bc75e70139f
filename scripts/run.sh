#!/usr/bin/env bash
# Quick start, command 1: install what is missing, build, and launch zsetlab.
# Arguments go to zsetlab, e.g. scripts/run.sh --redis redis://127.0.0.1:6380
# Without --redis, zsetlab uses a Redis on 127.0.0.1:6379 or starts a private one.
set -euo pipefail
source "$(dirname "$0")/deps.sh"
zsetlab_install_deps
zsetlab_build dev
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
    echo "zsetlab: built, but there is no display (DISPLAY/WAYLAND_DISPLAY unset). Run it from a desktop" >&2
    echo "session, or under a virtual one: xvfb-run -a scripts/run.sh" >&2
    exit 1
fi
exec "$(dirname "$0")/../build/dev/app/zsetlab" "$@"
