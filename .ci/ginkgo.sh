#!/usr/bin/env bash
# make test-suites, make test-portable: run the Ginkgo CLI with the given
# arguments, keep its output, and when it fails collect what failed:
#   - each failing suite's "Summarizing … Failures" block;
#   - each plain go test's "--- FAIL" line with the lines it logged;
#   - each data race report;
#   - each package line that says it failed.
# A run over every suite prints thousands of lines, and a log read from its
# end otherwise names only the suites that failed, not the specs.
#   GINKGO    the command that runs the Ginkgo CLI (default: go run …ginkgo)
#   FAILURES  a file to append the collected failures to, for a caller that
#             runs several suites and prints them all last; without it they
#             are printed at the end of this run
set -uo pipefail
GINKGO=${GINKGO:-go run github.com/onsi/ginkgo/v2/ginkgo}
log=$(mktemp "${TMPDIR:-/tmp}/airwire-ginkgo.XXXXXX")
trap 'rm -f "$log"' EXIT
# shellcheck disable=SC2086 # GINKGO is a command line
$GINKGO "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
[ "$status" -eq 0 ] && exit 0

collect() {
  echo "== what failed in: ginkgo $* =="
  # Ginkgo colours its output. A Ginkgo summary block runs from
  # "Summarizing" to the "Ran N of M Specs" line; a go test failure is its
  # "--- FAIL" line and the indented lines after it; a race report runs to
  # its closing "=====" line.
  sed 's/\x1b\[[0-9;]*m//g' "$log" | awk '
    /^Summarizing [0-9]+ Failure/ { block = 1 }
    block { print; if (/^Ran [0-9]+ of [0-9]+ Specs/) block = 0; next }
    /^WARNING: DATA RACE/ { race = 1; n = 0 }
    race { print; if (/^==================/ || ++n > 60) race = 0; next }
    /^[ \t]*--- FAIL:/ { print; fail = 1; n = 0; next }
    fail && /^[ \t]+/ && n++ < 40 { print; next }
    { fail = 0 }
    /^(FAIL[ \t]|--- FAIL|panic:)/ || /Test Suite Failed/ || /^Failed to compile/ { print }
  '
}
if [ -n "${FAILURES:-}" ]; then
  collect "$@" >> "$FAILURES"
else
  echo
  collect "$@"
fi
exit "$status"
