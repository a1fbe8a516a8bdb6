#!/usr/bin/env bash
# make cross: every package must build and vet for every platform airwire
# ships on, tests included, even though this machine runs only its own.
#   go build ./cmd/airwire            linux, darwin, windows × amd64, arm64
#   go vet ./...                      the same six (vet type-checks the
#                                     test files too)
#   go test -exec true ./...          the same six: every package's test
#                                     binary links; `true` stands in for
#                                     running them
# Every platform is tried, then the failures are listed; the exit status is
# 1 if any failed.
set -uo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
ALL="linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64"
VET=${CROSS_VET-$ALL}
LINK=${CROSS_LINK-$ALL}
failed=()

# step NAME CMD…: run CMD, remember NAME if it fails.
step() {
  local name=$1 start=$SECONDS
  shift
  if "$@"; then
    echo "make cross: $name ok ($((SECONDS - start))s)"
  else
    echo "make cross: $name FAILED" >&2
    failed+=("$name")
  fi
}

for t in $VET; do
  step "build $t" env GOOS="${t%/*}" GOARCH="${t#*/}" CGO_ENABLED=0 "$GO" build -o /dev/null ./cmd/airwire
  step "vet $t" env GOOS="${t%/*}" GOARCH="${t#*/}" CGO_ENABLED=0 "$GO" vet ./...
done
for t in $LINK; do
  step "test binaries $t" env GOOS="${t%/*}" GOARCH="${t#*/}" CGO_ENABLED=0 "$GO" test -vet=off -exec true ./...
done

if [ ${#failed[@]} -gt 0 ]; then
  printf 'make cross: failed: %s\n' "${failed[@]}" >&2
  exit 1
fi
