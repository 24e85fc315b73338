#!/usr/bin/env bash
# `npm test`'s first step: the system tools the suite needs, checked before minutes of work.
# Missing ones are installed when we can (root with apt, as .ci/run does); otherwise the run stops
# at once with the exact command to run.
set -euo pipefail

chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
need=()
[ -x "$chromium" ] || need+=(chromium)
command -v "${FFPROBE_PATH:-ffprobe}" >/dev/null 2>&1 && command -v "${FFMPEG_PATH:-ffmpeg}" >/dev/null 2>&1 || need+=(ffmpeg)
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
# the scale test (deploy/scale.test.ts) puts nginx in front of three app processes
[ -x /usr/sbin/nginx ] || need+=(nginx)

[ ${#need[@]} -eq 0 ] && exit 0

cmd="apt-get install -y --no-install-recommends ${need[*]}"
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing the system packages the tests need: ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  exit 0
fi
echo "The tests need system packages that are missing: ${need[*]}" >&2
echo "Install them, then run npm test again:" >&2
echo "  sudo $cmd" >&2
exit 1
