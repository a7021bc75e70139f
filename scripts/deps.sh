#!/usr/bin/env bash
# Installs the Debian packages zsetlab needs to build, test and run, skipping those already
# installed: the same names on Debian 12 (bookworm) and Debian 13 (trixie). Sourced by
# scripts/run.sh and scripts/test.sh; safe to run again.
set -euo pipefail

# tests/check-packages.sh (ctest package_list) fails when the build uses a package that this list
# does not pull in. Debian 12's qt6-charts-dev needs libqt6opengl6-dev without depending on it. poppler-utils:
# the handout test reads the PDF back (pdftotext, pdfimages). chromium, chromium-driver and
# python3-selenium: the web page test opens a replay's page in a real browser. clang-format,
# clang-tidy and clazy: scripts/lint.sh. dpkg-dev and file: the .deb's dependencies (dpkg-shlibdeps, which
# CPack runs only where file is installed: a fresh Debian has no file). mold:
# links the test programs several times faster than GNU ld.
ZSETLAB_PACKAGES=(
    cmake ninja-build g++ pkg-config mold
    qt6-base-dev qt6-charts-dev libqt6opengl6-dev qt6-svg-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
    libgl-dev libhiredis-dev liblua5.1-0-dev libssl-dev zlib1g-dev
    libavcodec-dev libavformat-dev libavfilter-dev libswscale-dev libavutil-dev
    redis-server redis-tools
    ccache clang-format clang-tidy clazy dpkg-dev file
    poppler-utils chromium chromium-driver python3-selenium
)

zsetlab_missing_packages() {
    local package
    for package in "${ZSETLAB_PACKAGES[@]}"; do
        if [ "$(dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null)" != "installed" ]; then
            printf '%s\n' "$package"
        fi
    done
}

zsetlab_install_deps() {
    local missing
    mapfile -t missing < <(zsetlab_missing_packages)
    if [ "${#missing[@]}" -eq 0 ]; then
        echo "zsetlab: all build and runtime packages are installed."
        return 0
    fi
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || { echo "zsetlab: run as root or install sudo to add: ${missing[*]}" >&2; exit 1; }
        sudo=(sudo)
    fi
    echo "zsetlab: installing ${missing[*]}"
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

zsetlab_build() {
    local preset=${1:-dev}
    local top
    top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
    cd "$top"
    if [ ! -f "build/$preset/CMakeCache.txt" ]; then
        cmake --preset "$preset"
    fi
    shift || true
    cmake --build --preset "$preset" "$@"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    zsetlab_install_deps
fi
