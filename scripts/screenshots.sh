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
ls -l "$out"
