#!/usr/bin/env bash
# The test suite against the servers people run beside Debian 12's Redis 7.0: Valkey 8.1 and
# Redis 8.0, as Debian 13 packages them. A Debian 13 root is made once with debootstrap and kept
# (ZSETLAB_TRIXIE_ROOT, default /var/tmp/zsetlab-trixie); the suite starts its servers from it
# through ZSETLAB_REDIS_SERVER and ZSETLAB_REDIS_CLI. Needs root (debootstrap, chroot, mounts) and
# a build (scripts/test.sh makes it).
#
#   scripts/compat.sh                 both servers
#   scripts/compat.sh redis8          one of: redis8 valkey
#
# Tests known to differ on a server are named here, run apart, and reported without failing the
# run; every other test must pass. Exit 0: passed; 1: a test failed; 3: the Debian 13 root could
# not be made (no mirror reachable): nothing was tested.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
PRESET=${PRESET:-dev}
ROOT=$(realpath -m -- "${ZSETLAB_TRIXIE_ROOT:-/var/tmp/zsetlab-trixie}")
[ "$ROOT" != / ] || { echo "compat: ZSETLAB_TRIXIE_ROOT must not be /" >&2; exit 2; }
MARK=.zsetlab-compat-root # written in a root this script made: the only kind it deletes
servers=("$@")
[ ${#servers[@]} -gt 0 ] || servers=(redis8 valkey)
# None today: the Lua debugger's "<command>" lines and MONITOR's unescaped quotes of Valkey 8.1
# are read as Redis's "<redis>" lines and escaped quotes are.
declare -A known=([valkey]="" [redis8]="")

if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null && sudo -n true 2>/dev/null && exec sudo -n -E "$0" "$@"
    echo "compat: needs root for debootstrap and chroot (or sudo without a password): nothing tested" >&2
    exit 3
fi
[ -f "$top/build/$PRESET/CTestTestfile.cmake" ] || { echo "compat: build first: PRESET=$PRESET scripts/test.sh" >&2; exit 1; }

# Deletes a root only when nothing is mounted inside it (a bound /dev would go with it).
remove_root() {
    local r=$1 m
    [ -e "$r" ] || return 0
    for m in $(awk -v r="$r/" 'index($2, r) == 1 {print $2}' /proc/mounts | sort -r); do umount "$m" || umount -l "$m"; done
    if awk -v r="$r/" 'index($2, r) == 1 {found=1} END {exit !found}' /proc/mounts; then
        echo "compat: $r still has mounts inside; not deleting it" >&2
        return 1
    fi
    if [ ! -e "$r/$MARK" ] && [ -n "$(ls -A "$r" 2>/dev/null)" ]; then
        echo "compat: $r was not made by compat.sh; not deleting it" >&2
        return 1
    fi
    rm -rf --one-file-system -- "$r"
}

make_root() {
    [ -x "$ROOT/usr/bin/valkey-server" ] && [ -x "$ROOT/usr/bin/redis-server" ] && return 0
    command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap
    # The machine's own Debian mirror, as apt uses it.
    local mirror
    mirror=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
    [ -n "$mirror" ] || mirror=$(awk '/^deb /{print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
    [ -n "$mirror" ] || mirror=http://deb.debian.org/debian
    echo "compat: making the Debian 13 root in $ROOT (once)"
    remove_root "$ROOT.new" || exit 3
    mkdir -p "$ROOT.new" && touch "$ROOT.new/$MARK"
    if ! debootstrap --variant=minbase trixie "$ROOT.new" "$mirror" >/tmp/zsetlab-compat-root.log 2>&1 \
        || ! chroot "$ROOT.new" apt-get install -y -qq --no-install-recommends valkey-server valkey-tools \
            redis-server redis-tools >>/tmp/zsetlab-compat-root.log 2>&1; then
        echo "compat: could not make the Debian 13 root from $mirror (see /tmp/zsetlab-compat-root.log)" >&2
        remove_root "$ROOT.new" || true
        exit 3
    fi
    remove_root "$ROOT" || exit 3
    mv "$ROOT.new" "$ROOT"
}

mounted=()
unmount() {
    local m
    for m in "${mounted[@]}"; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true; done
}
trap unmount EXIT
mount_into_root() {
    # The servers' sockets, folders and certificates live under /tmp: the same paths on both sides.
    local d
    for d in proc dev tmp; do
        if ! mountpoint -q "$ROOT/$d"; then
            mount --bind "/$d" "$ROOT/$d"
            mounted+=("$ROOT/$d")
        fi
    done
}

make_root
mount_into_root
bin=$(mktemp -d /tmp/zsetlab-compat-XXXXXX)
failed=0
for server in "${servers[@]}"; do
    case $server in
    redis8) programs=(redis-server redis-cli) ;;
    valkey) programs=(valkey-server valkey-cli) ;;
    *) echo "compat: no server $server (redis8 or valkey)" >&2; exit 2 ;;
    esac
    for p in "${programs[@]}"; do
        printf '#!/bin/sh\nexec chroot %s /usr/bin/%s "$@"\n' "$ROOT" "$p" > "$bin/$p"
        chmod +x "$bin/$p"
    done
    export ZSETLAB_REDIS_SERVER=$bin/${programs[0]} ZSETLAB_REDIS_CLI=$bin/${programs[1]}
    echo "compat: the suite against $("$ZSETLAB_REDIS_SERVER" --version | cut -d' ' -f1-3)"
    cd "$top/build/$PRESET"
    skip=${known[$server]}
    if [ -n "$skip" ]; then
        ctest -j2 --output-on-failure -E "^($skip)\$" || failed=1
        echo "compat: known to differ on $server (reported, not failing):"
        ctest -j2 -R "^($skip)\$" | grep -E '^ *[0-9]+/[0-9]+ Test' || true
    else
        ctest -j2 --output-on-failure || failed=1
    fi
    cd "$top"
done
rm -rf "$bin"
exit $failed
