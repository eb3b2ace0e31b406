#!/bin/sh
# Regenerates the shipped traces from the real recordings with FeedSim's own importers.
# Usage (from the package root): Seeds/traces/regenerate.sh [DATA_DIR]
# DATA_DIR defaults to $FEEDSIM_SHARED_DATA, else ../shared/data/real. See Seeds/traces/NOTICE.md.
set -eu
DATA="${1:-${FEEDSIM_SHARED_DATA:-../shared/data/real}}"
OUT=Seeds/traces
swift build --product feedsim >/dev/null
FEEDSIM="$(swift build --show-bin-path)/feedsim"
for name in EP0430M09-1-finger-drag-up-down EP0430M09-2-finger-scroll-down Atmel-maXTouch-1-finger-drag-up-down; do
    "$FEEDSIM" trace import --from evemu "$DATA/evemu-$name.events" -o "$OUT/evemu-$name.jsonl"
done
# No A: lines in this older capture: ranges from the repository's "SynPS2 Synaptics TouchPad.desc";
# a 1280x800 laptop screen as the viewport, so the pad's full height scrolls one screen.
"$FEEDSIM" trace import --from evemu "$DATA/evemu-Synaptics-TouchPad-2-finger-vert-scroll.events" \
    --axis-x 1472:5472 --axis-y 1408:4448 --viewport 1280x800 -o "$OUT/evemu-Synaptics-TouchPad-2-finger-vert-scroll.jsonl"
# Logical pixels already (points); the phone's scale was 3.5 (see SOURCES.md).
"$FEEDSIM" trace import --from touch-csv "$DATA/flutter-velocity-tracker-drags.csv" --px-per-pt 1 --screen-scale 3.5 \
    -o "$OUT/flutter-velocity-tracker-drags.jsonl"
# sailfish = 1080x1920 px at 2.625 px/pt; gestures on their own clocks, placed 500 ms apart.
"$FEEDSIM" trace import --from touch-csv "$DATA/aosp-velocitytracker-flings.csv" --px-per-pt 2.625 \
    -o "$OUT/aosp-velocitytracker-flings.jsonl"
# The 48 mouse-wheel notches (real deltas); the touch drag has no deltas and is left out.
"$FEEDSIM" trace import --from chrome "$DATA/chrome-trace-multiple_input_latency.json" \
    -o "$OUT/chrome-wheel.jsonl"
