#!/usr/bin/env bash
# Renders the README's pictures with zsetlab itself (headless, private Redis): run after a change
# to the window and commit the PNGs in docs/screenshots/.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
source "$top/scripts/deps.sh"
zsetlab_build dev
app="$top/build/dev/app/zsetlab"
out="$top/docs/screenshots"
mkdir -p "$out"
for scenario in classroom-demo compare real-clock-burst large-burst; do
    "$app" --scenario "$top/resources/scenarios/$scenario.json" --export-png "$out/$scenario.png" --size 1600x900
done
# The classroom story as a Vietnamese class sees it.
"$app" --lang vi --scenario "$top/resources/scenarios/classroom-demo.json" --export-png "$out/classroom-demo-vi.png" \
    --size 1600x900
# The lesson's stage, every step at a projector's 1280x720, in both languages (README, "Teaching
# with it"); the private Redis below answers them.
stage_pictures() {
    for lang in en vi; do
        "$app" --redis "$1" --lang "$lang" --lesson all --export-png "$work/stage-$lang/" --size 1280x720
        for picture in "$work/stage-$lang"/step-*.png; do
            cp "$picture" "$out/stage/$(basename "$picture" .png)-$lang.png"
        done
    done
}
mkdir -p "$out/stage"
# A replay as a web page (README, "A replay as a web page"): two runs with the same timestamps
# recorded from a private server, the page opened in headless Chromium at the first overwrite.
cli="$top/build/dev/cli/zsetlab-cli"
work=$(mktemp -d)
"$cli" server >"$work/url" 2>/dev/null &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do [ -s "$work/url" ] && break; sleep 0.1; done
url=$(head -1 "$work/url")
stage_pictures "$url"
for strategy in now request-id; do
    "$cli" run --redis "$url" --limiter "$strategy" --requests 120 --pace poisson:3 --clock schedule --window 50 \
        --limit 20 --seed 7 --save-replay "$work/$strategy.zsetreplay" >/dev/null
done
"$cli" replay "$work/now.zsetreplay" --export-html "$work/page.html" --beside "$work/request-id.zsetreplay" >/dev/null
first=1
until "$cli" replay "$work/now.zsetreplay" --at "$first" --json | grep -q '"added":0'; do first=$((first + 1)); done
chromium --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update \
    --disable-sync --no-first-run --proxy-server=127.0.0.1:9 --proxy-bypass-list='<-loopback>' \
    --host-resolver-rules='MAP * ~NOTFOUND' --hide-scrollbars --window-size=1280,1000 --virtual-time-budget=10000 \
    --user-data-dir="$work/profile" --screenshot="$out/web-page.png" "file://$work/page.html#request=$first" 2>/dev/null
ls -l "$out"
