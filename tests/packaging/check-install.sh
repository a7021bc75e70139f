#!/usr/bin/env bash
# Installs the build into a staging folder and checks that a Linux desktop finds everything where
# it expects it; validates the .desktop and AppStream files when the validators are installed.
set -euo pipefail
build=$1
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
cmake --install "$build" --prefix "$stage/usr" >/dev/null

failures=0
expect() {
    if [ -e "$stage/usr/$1" ]; then
        echo "ok      $1"
    else
        echo "MISSING $1"
        failures=$((failures + 1))
    fi
}
expect bin/zsetlab
expect bin/zsetlab-cli
for script in now random request-id sequence; do expect "share/zsetlab/lua/$script.lua"; done
expect share/zsetlab/scenarios/classroom-demo.json
expect share/applications/org.zsetlab.zsetlab.desktop
expect share/metainfo/org.zsetlab.zsetlab.metainfo.xml
expect share/mime/packages/org.zsetlab.zsetlab.xml
grep -q 'application/x-zsetlab-replay' "$stage/usr/share/applications/org.zsetlab.zsetlab.desktop" \
    && echo "ok      the desktop file opens replays" || { echo "BAD     the desktop file does not open replays"; failures=$((failures + 1)); }
expect share/icons/hicolor/scalable/apps/org.zsetlab.zsetlab.svg
expect share/doc/zsetlab/README.md

"$stage/usr/bin/zsetlab-cli" --version | grep -q zsetlab-cli || { echo "installed zsetlab-cli does not run"; failures=$((failures + 1)); }

if command -v desktop-file-validate >/dev/null; then
    desktop-file-validate "$stage/usr/share/applications/org.zsetlab.zsetlab.desktop" && echo "ok      desktop-file-validate" \
        || failures=$((failures + 1))
fi
if command -v appstreamcli >/dev/null; then
    appstreamcli validate --no-net --pedantic "$stage/usr/share/metainfo/org.zsetlab.zsetlab.metainfo.xml" \
        && echo "ok      appstreamcli validate" || failures=$((failures + 1))
fi
echo "$failures problem(s)"
[ "$failures" -eq 0 ]
