#!/usr/bin/env bash
# Part of make deps: Chromium, which opens the HTML report in the report test
# (cmd/conform). Debian's package is installed with apt-get when chromium is
# missing and this runs as root; otherwise the exact command to run is printed
# (the test then fails under CI=true and is skipped elsewhere). Quiet and
# idempotent: nothing happens when chromium is on PATH.
set -uo pipefail
command -v chromium >/dev/null && exit 0
if command -v apt-get >/dev/null; then
  if [ "$(id -u)" = 0 ]; then
    echo "make deps: installing chromium (apt-get install -y chromium)" >&2
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } >/dev/null 2>&1 ||
      echo "make deps: apt-get install -y chromium failed; run it by hand to see why" >&2
  else
    echo "make deps: chromium is missing (the HTML report's browser test needs it): run  sudo apt-get install -y chromium" >&2
  fi
else
  echo "make deps: chromium is missing (the HTML report's browser test needs it): install Chromium and put it on PATH as chromium" >&2
fi
exit 0
