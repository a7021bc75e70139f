#!/usr/bin/env bash
# zsetlab on Debian 13 (trixie: Qt 6.8, hiredis 1.2, gcc 14, Redis 8.0 and Valkey 8.1), from this
# Debian 12 machine: a minimal Debian 13 root is made once with debootstrap and kept
# (ZSETLAB_TRIXIE_ROOT, default /var/tmp/zsetlab-trixie), the checkout is mounted inside it, and
# the README's test command runs there as it would on a Debian 13 machine: scripts/deps.sh installs
# Debian 13's packages, the build goes to build/debian13, and the suite runs against that root's
# own redis-server (Redis 8.0), then against its valkey-server (Valkey 8.1). Needs root
# (debootstrap, chroot, mounts).
#
#   scripts/debian13.sh                   build, then the suite against Redis 8.0 and Valkey 8.1
#   scripts/debian13.sh redis8            one of: redis8 valkey
#   scripts/debian13.sh --shell 'CMD'     CMD in the checkout inside the root (e.g. a package build)
#
# PRESET (default debian13) picks the build; TESTS="a b" runs only those tests, as in test.sh.
# Exit 0: passed; 1: a build or a test failed; 3: the root could not be made (no Debian mirror
# reachable): nothing was tested.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
export PRESET=${PRESET:-debian13}
ROOT=$(realpath -m -- "${ZSETLAB_TRIXIE_ROOT:-/var/tmp/zsetlab-trixie}")
[ "$ROOT" != / ] || { echo "debian13: ZSETLAB_TRIXIE_ROOT must not be /" >&2; exit 2; }
MARK=.zsetlab-debian13-root # written in a root this script made: the only kind it deletes
INSIDE=/zsetlab             # where the checkout is mounted in the root

if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null && sudo -n true 2>/dev/null && exec sudo -n -E "$0" "$@"
    echo "debian13: needs root for debootstrap and chroot (or sudo without a password): nothing tested" >&2
    exit 3
fi

# Deletes a root only when nothing is mounted inside it (a bound /dev would go with it).
remove_root() {
    local r=$1 m
    [ -e "$r" ] || return 0
    for m in $(awk -v r="$r/" 'index($2, r) == 1 {print $2}' /proc/mounts | sort -r); do umount "$m" || umount -l "$m"; done
    if awk -v r="$r/" 'index($2, r) == 1 {found=1} END {exit !found}' /proc/mounts; then
        echo "debian13: $r still has mounts inside; not deleting it" >&2
        return 1
    fi
    if [ ! -e "$r/$MARK" ] && [ -n "$(ls -A "$r" 2>/dev/null)" ]; then
        echo "debian13: $r was not made by debian13.sh; not deleting it" >&2
        return 1
    fi
    rm -rf --one-file-system -- "$r"
}

mounted=()
unmount() {
    local m i
    for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
        m=${mounted[i]}
        umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true
    done
    mounted=()
}
trap unmount EXIT
# /proc, /dev and /tmp are this machine's (the tests' sockets and folders live under /tmp), the
# checkout is bound at $INSIDE.
mount_into() {
    local r=$1 d
    for d in proc dev tmp; do
        mountpoint -q "$r/$d" || { mount --bind "/$d" "$r/$d" && mounted+=("$r/$d"); }
    done
    mkdir -p "$r$INSIDE"
    mountpoint -q "$r$INSIDE" || { mount --bind "$top" "$r$INSIDE" && mounted+=("$r$INSIDE"); }
    cp /etc/resolv.conf "$r/etc/resolv.conf" 2>/dev/null || true
}

make_root() {
    [ -f "$ROOT/$MARK" ] && [ -x "$ROOT/usr/bin/valkey-server" ] && [ -x "$ROOT/usr/bin/git" ] && return 0
    command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap
    # The machine's own Debian mirror, as apt uses it.
    local mirror log=/tmp/zsetlab-debian13-root.log
    mirror=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
    [ -n "$mirror" ] || mirror=$(awk '/^deb /{print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
    [ -n "$mirror" ] || mirror=http://deb.debian.org/debian
    echo "debian13: making the Debian 13 root in $ROOT (once; a few minutes)"
    remove_root "$ROOT.new" || exit 3
    mkdir -p "$ROOT.new" && touch "$ROOT.new/$MARK"
    if ! debootstrap --variant=minbase trixie "$ROOT.new" "$mirror" >"$log" 2>&1; then
        echo "debian13: could not make the Debian 13 root from $mirror (see $log)" >&2
        remove_root "$ROOT.new" || true
        exit 3
    fi
    mount_into "$ROOT.new"
    # The project's own package list, as a Debian 13 user's scripts/test.sh installs it; git, which
    # such a user cloned with (the layers check asks it for the tracked files); and Valkey beside
    # Debian 13's redis-server.
    if ! chroot "$ROOT.new" bash -c "cd $INSIDE && scripts/deps.sh && DEBIAN_FRONTEND=noninteractive \
            apt-get install -y -qq --no-install-recommends git valkey-server valkey-tools" >>"$log" 2>&1; then
        echo "debian13: could not install the packages in the Debian 13 root (see $log)" >&2
        unmount
        remove_root "$ROOT.new" || true
        exit 3
    fi
    unmount
    remove_root "$ROOT" || exit 3
    mv "$ROOT.new" "$ROOT"
}

inside() {
    chroot "$ROOT" env -i HOME=/root PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 CI="${CI:-}" \
        PRESET="$PRESET" TESTS="${TESTS:-}" ZSETLAB_REDIS_SERVER="${ZSETLAB_REDIS_SERVER:-}" \
        ZSETLAB_REDIS_CLI="${ZSETLAB_REDIS_CLI:-}" bash -c "cd $INSIDE && $1"
}

make_root
mount_into "$ROOT"
if [ "${1:-}" = --shell ]; then
    inside "$2"
    exit $?
fi
servers=("$@")
[ ${#servers[@]} -gt 0 ] || servers=(redis8 valkey)
failed=0
first=1
for server in "${servers[@]}"; do
    case $server in
    redis8) export ZSETLAB_REDIS_SERVER=redis-server ZSETLAB_REDIS_CLI=redis-cli ;;
    valkey) export ZSETLAB_REDIS_SERVER=valkey-server ZSETLAB_REDIS_CLI=valkey-cli ;;
    *) echo "debian13: no server $server (redis8 or valkey)" >&2; exit 2 ;;
    esac
    echo "debian13: the suite on $(inside '. /etc/os-release; echo $PRETTY_NAME') against $(inside "$ZSETLAB_REDIS_SERVER --version" | cut -d' ' -f1-3)"
    if [ $first -eq 1 ]; then
        inside scripts/test.sh || failed=1 # builds, then runs
        first=0
    else
        inside "ctest --preset $PRESET ${TESTS:+-R \"^(${TESTS// /|})\\\$\"}" || failed=1
    fi
done
exit $failed
