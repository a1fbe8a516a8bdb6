#!/usr/bin/env bash
# make release: one archive per platform in dist/, then SHA256SUMS, then a
# check that the archive for this machine's platform (and the windows/amd64
# one, under Wine, when make test-windows has set Wine up) runs and reports
# the version it was stamped with.
#
#   dist/airwire_<os>_<arch>.tar.gz   airwire, README.md (and LICENSE when there is one)
#   dist/airwire_windows_<arch>.zip   airwire.exe, README.md (…)
#
# Archive names carry no version, so that a release's
# …/releases/latest/download/airwire_<os>_<arch>.tar.gz never changes;
# the binary says its version (airwire --version). The files sit at the
# archive's top level. Archives are reproducible: entries are sorted and
# dated to the last commit, owned by 0:0.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${VERSION:?make release sets VERSION}"
GO=${GO:-go}
DIST=${DIST:-dist}
TARGETS=${TARGETS:-linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64}
EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}
LDFLAGS="-s -w -X github.com/airwire/airwire/cmd/cli.Version=$VERSION"

rm -rf "$DIST" && mkdir -p "$DIST"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

# archive OS ARCH: build one platform's binary into a fresh stage and pack it.
archive() {
  local os=$1 arch=$2 exe=airwire dir="$stage/$1_$2"
  [ "$os" = windows ] && exe=airwire.exe
  mkdir -p "$dir"
  CGO_ENABLED=0 GOOS=$os GOARCH=$arch "$GO" build -trimpath -buildvcs=false -ldflags "$LDFLAGS" -o "$dir/$exe" ./cmd/airwire
  cp README.md "$dir/"
  [ -f LICENSE ] && cp LICENSE "$dir/"
  touch -d "@$EPOCH" "$dir"/*
  local out
  out=$(cd "$DIST" && pwd)/airwire_${os}_${arch}
  if [ "$os" = windows ]; then
    (cd "$dir" && ls | LC_ALL=C sort | zip -q -X "$out.zip" -@)
  else
    (cd "$dir" && ls | LC_ALL=C sort | tar --owner=0 --group=0 --numeric-owner --mtime="@$EPOCH" -cf - -T - | gzip -n9 > "$out.tar.gz")
  fi
  echo "make release: $(basename "$out").$([ "$os" = windows ] && echo zip || echo tar.gz)"
}

for t in $TARGETS; do
  archive "${t%/*}" "${t#*/}"
done
shopt -s nullglob
(cd "$DIST" && sha256sum -- *.tar.gz *.zip > SHA256SUMS)
(cd "$DIST" && sha256sum --quiet -c SHA256SUMS)

# reports PLATFORM [RUNNER]: the binary in PLATFORM's archive, run (through
# RUNNER when given), must report VERSION.
reports() {
  local dir="$stage/check-$1" got
  mkdir -p "$dir"
  case $1 in
    windows_*) unzip -q "$DIST/airwire_$1.zip" -d "$dir" ;;
    *) tar -xzf "$DIST/airwire_$1.tar.gz" -C "$dir" ;;
  esac
  got=$(${2:+"$2"} "$dir"/airwire* --version)
  case $got in
    "airwire $VERSION ("*) echo "make release: airwire_$1 reports: $got" ;;
    *) echo "make release: airwire_$1 reports \"$got\", not version $VERSION" >&2; exit 1 ;;
  esac
}

# The archive this machine runs; and the Windows one under Wine once make
# test-windows has set Wine up (its prefix in .deps/wine).
reports "$("$GO" env GOHOSTOS)_$("$GO" env GOHOSTARCH)"
export WINEPREFIX=${WINEPREFIX:-$PWD/.deps/wine} WINEDEBUG=${WINEDEBUG:--all}
if [ -f "$DIST/airwire_windows_amd64.zip" ] && command -v wine >/dev/null &&
  [ -f "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" ]; then
  reports windows_amd64 wine
fi
