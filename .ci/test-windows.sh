#!/usr/bin/env bash
# make test-windows: compile the Windows (amd64) test binaries of the
# packages listed in WINE_PKGS and run each under Wine, in its package's
# directory as go test would, so their Windows code paths run here; then
# run the conformance scenarios of WINE_CONFORM with airwire.exe.
#
# Wine comes from the system (apt-get install wine wine64 when it is
# missing and apt-get can run); its prefix lives in .deps/wine. Wine before
# 8.13 has no bcryptprimitives.dll, which every Go program for Windows
# loads at start-up; the stand-in in .ci/wine is then built with MinGW into
# the prefix. Without Wine the target fails under CI=true and is skipped,
# with a message, elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
GO=${GO:-go}
: "${WINE_PKGS:?make test-windows sets WINE_PKGS}"
export WINEPREFIX=${WINEPREFIX:-$ROOT/.deps/wine} WINEDEBUG=${WINEDEBUG:--all} WINEDLLOVERRIDES=${WINEDLLOVERRIDES:-mscoree,mshtml=}

# need CMD APT-PACKAGE…: make CMD available, installing the packages with
# apt-get when it is missing; false when that cannot be done.
need() {
  local cmd=$1
  shift
  command -v "$cmd" >/dev/null && return 0
  command -v apt-get >/dev/null || return 1
  local sudo=
  [ "$(id -u)" = 0 ] || sudo=sudo
  echo "make test-windows: installing $*" >&2
  { $sudo apt-get update && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "$@"; } >/dev/null || return 1
  command -v "$cmd" >/dev/null
}

if ! need wine wine wine64; then
  if [ "${CI:-}" = true ]; then
    echo "make test-windows: Wine is missing and could not be installed (apt-get install wine wine64)" >&2
    exit 1
  fi
  echo "make test-windows: skipped: no Wine (apt-get install wine wine64)" >&2
  exit 0
fi

# The prefix: made once; the stand-in DLL only when Wine lacks its own.
sys32=$WINEPREFIX/drive_c/windows/system32
if [ ! -d "$sys32" ]; then
  mkdir -p "$WINEPREFIX"
  wineboot --init >/dev/null 2>&1 || true
  wineserver -w || true
fi
[ -d "$sys32" ] || { echo "make test-windows: wineboot made no prefix in $WINEPREFIX" >&2; exit 1; }
if [ ! -f "$sys32/bcryptprimitives.dll" ]; then
  need x86_64-w64-mingw32-gcc gcc-mingw-w64-x86-64-win32 ||
    { echo "make test-windows: Wine lacks bcryptprimitives.dll and MinGW is missing to build its stand-in" >&2; exit 1; }
  x86_64-w64-mingw32-gcc -shared -O2 -s -o "$sys32/bcryptprimitives.dll" .ci/wine/bcryptprimitives.c -ladvapi32
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
failed=()
rerun=()
for pkg in $WINE_PKGS; do
  exe=$out/$(echo "${pkg#./}" | tr / _).test.exe
  start=$SECONDS
  if ! GOOS=windows GOARCH=amd64 CGO_ENABLED=0 "$GO" test -c -o "$exe" "$pkg"; then
    failed+=("$pkg (build)")
    continue
  fi
  [ -f "$exe" ] || { echo "make test-windows: $pkg: no test files"; continue; }
  if (cd "$pkg" && wine "$exe" -test.timeout=10m -test.count=1 > "$out/log" 2>&1); then
    echo "ok   $pkg (windows/amd64 under Wine, $((SECONDS - start))s)"
  else
    cat "$out/log"
    echo "FAIL $pkg (windows/amd64 under Wine)"
    # Go 1.26's os.RemoveAll deletes with FileDispositionInformationEx, which
    # Wine before 9 answers with "Invalid function": t.TempDir's clean-up
    # then fails a test that left files in it.
    if grep -q 'unlinkat .*: Invalid function' "$out/log"; then
      echo "  (this Wine cannot remove a directory with files the way Go does: a package whose tests leave files in t.TempDir needs Wine 9 or later)"
    fi
    failed+=("$pkg")
  fi
done

# The conformance suite on Windows: airwire.exe replays the scenarios that
# WINE_CONFORM's globs select against its own agent, as a client team runs
# it there (paths with backslashes, drive letters, .exe stand-ins).
if [ -n "${WINE_CONFORM:-}" ]; then
  schema=${AIRWIRE_ACP_SCHEMA_DIR:-}
  if [ -z "$schema" ] && [ -f .deps/paths.env ]; then
    schema=$(sed -n 's/^AIRWIRE_ACP_SCHEMA_DIR=//p' .deps/paths.env)
  fi
  [ -n "$schema" ] || { echo "make test-windows: no ACP schema for the suite: run make deps, or set AIRWIRE_ACP_SCHEMA_DIR" >&2; exit 1; }
  exe=$out/airwire.exe
  GOOS=windows GOARCH=amd64 CGO_ENABLED=0 "$GO" build -o "$exe" ./cmd/airwire
  read -ra globs <<< "$WINE_CONFORM"
  for glob in "${globs[@]}"; do
    start=$SECONDS
    if wine "$exe" conform --acp-schema "Z:$schema" --scenario "$glob" --jobs 2 > "$out/log" 2>&1; then
      echo "ok   airwire conform --scenario '$glob' (windows/amd64 under Wine, $((SECONDS - start))s): $(tail -n 1 "$out/log")"
      continue
    fi
    cat "$out/log"
    # A run that failed is run once more, alone, as the suites' specs are
    # (a process start under Wine takes about half a second, which a loaded
    # machine can push past the suite's settle); what it failed with the
    # first time is repeated at the end of the output.
    runs=$(sed -n '/^failed:$/,$s/^  \([^ /]*\)\/\([^ ]*\).*/\1 \2/p' "$out/log")
    [ -n "$runs" ] || { failed+=("airwire conform --scenario '$glob'"); continue; }
    while read -r name profile; do
      if wine "$exe" conform --acp-schema "Z:$schema" --scenario "$name" --profile "$profile" > "$out/rerun" 2>&1; then
        echo "ok   airwire conform --scenario '$name' --profile '$profile' on its second attempt: $(tail -n 1 "$out/rerun")"
        rerun+=("$name/$profile")
      else
        cat "$out/rerun"
        failed+=("airwire conform --scenario '$name' --profile '$profile' (twice)")
      fi
    done <<< "$runs"
    sed -n '/^causes/,/^failed:$/p' "$out/log" | cut -c1-300 >> "$out/first"
  done
  # Wine before 9 cannot remove the runs' directories (see above).
  rm -rf "$WINEPREFIX"/drive_c/users/*/Temp/aw-*
fi

wineserver -k 2>/dev/null || true
if [ ${#rerun[@]} -gt 0 ]; then
  printf 'make test-windows: matched on the second attempt only: %s\n' "${rerun[@]}"
  echo "what the first attempts failed with:"
  cat "$out/first"
fi
if [ ${#failed[@]} -gt 0 ]; then
  printf 'make test-windows: failed: %s\n' "${failed[@]}" >&2
  exit 1
fi
