#!/usr/bin/env bash
# make test-suites, make test-portable: run the Ginkgo CLI with the given
# arguments, keep its output, and when it fails repeat each failing suite's
# "Summarizing … Failures" block at the very end. A run over every suite
# prints thousands of lines, and a log read from its end otherwise names
# only the suites that failed, not the specs.
#   GINKGO   the command that runs the Ginkgo CLI (default: go run …ginkgo)
set -uo pipefail
GINKGO=${GINKGO:-go run github.com/onsi/ginkgo/v2/ginkgo}
log=$(mktemp "${TMPDIR:-/tmp}/airwire-ginkgo.XXXXXX")
trap 'rm -f "$log"' EXIT
# shellcheck disable=SC2086 # GINKGO is a command line
$GINKGO "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
  echo
  echo "== the specs that failed, suite by suite =="
  # Ginkgo colours its output; the summary blocks run from "Summarizing"
  # to the "Ran N of M Specs" line.
  sed 's/\x1b\[[0-9;]*m//g' "$log" | awk '/^Summarizing [0-9]+ Failure/ {on=1} on {print} /^Ran [0-9]+ of [0-9]+ Specs/ {on=0}'
fi
exit "$status"
