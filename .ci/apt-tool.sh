#!/usr/bin/env bash
# Part of make deps: a Debian tool that a test needs, as
#   apt-tool.sh COMMAND PACKAGE PURPOSE
# (chromium opens the HTML report in the report tests; xmllint checks the
# JUnit report against its schema). When COMMAND is missing, Debian's PACKAGE
# is installed with apt-get if this runs as root; otherwise the exact command
# to run is printed (the test then fails under CI=true and is skipped
# elsewhere). Quiet and idempotent: nothing happens when COMMAND is on PATH.
set -uo pipefail
cmd=$1 pkg=$2 why=$3
command -v "$cmd" >/dev/null && exit 0
if command -v apt-get >/dev/null; then
  if [ "$(id -u)" = 0 ]; then
    echo "make deps: installing $cmd (apt-get install -y $pkg)" >&2
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg"; } >/dev/null 2>&1 ||
      echo "make deps: apt-get install -y $pkg failed; run it by hand to see why" >&2
  else
    echo "make deps: $cmd is missing ($why needs it): run  sudo apt-get install -y $pkg" >&2
  fi
else
  echo "make deps: $cmd is missing ($why needs it): install $pkg and put $cmd on PATH" >&2
fi
exit 0
