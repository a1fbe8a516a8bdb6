# airwire — see README.md. Every target works on a fresh machine with Go and npm.
GO        ?= go
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS   := -X github.com/airwire/airwire/cmd/cli.Version=$(VERSION)
GINKGO    := $(GO) run github.com/onsi/ginkgo/v2/ginkgo

.PHONY: all build deps test test-suites test-user-steps cross test-portable test-windows release bench fuzz conform conform-play conform-reference reach contract rerecord clean

all: build

## build: compile bin/airwire
build:
	CGO_ENABLED=0 $(GO) build -ldflags '$(LDFLAGS)' -o bin/airwire ./cmd/airwire

## deps: install Node 22, the reference adapter (+ its Claude CLI), the pinned ACP schema and two
## third-party ACP clients (for airwire play's tests) into .deps/, and Debian's chromium for the HTML report's browser test (apt-get, as root; otherwise it says what to run)
deps:
	@bash .ci/deps.sh

## test: install deps, then every check below: the suites, the README's user steps, the cross-platform
## build, the portable twins and the Windows tests under Wine
test: test-suites test-user-steps cross test-portable test-windows

## test-user-steps: the README's first steps outside the checkout with a fresh HOME (.ci/user-steps):
## go install, airwire record in front of airwire agent, journal stats, validate, and one conform
## scenario with its three reports, all in a temporary directory
test-user-steps: deps
	@GO='$(GO)' bash .ci/user-steps

## test-suites: every suite (Ginkgo suites and plain go tests); a spec that fails is run once more
## (--flake-attempts=2: the reference adapter is a node process whose timing a loaded machine can push
## past the driver's settle), and Ginkgo names every spec that needed it; the specs that failed are
## repeated at the very end of the output, after both runs (.ci/ginkgo.sh). The scenarios suite, which runs the reference
## adapter against the goldens, runs after the others, when no other suite is being compiled beside it
SUITE_FLAGS := --randomize-all --fail-on-pending --keep-going --flake-attempts=2 --timeout=40m --poll-progress-after=120s --race --procs=2 --compilers=2
test-suites: deps build
	$(GO) vet ./...
	failures=$$(mktemp); \
	FAILURES=$$failures GINKGO='$(GINKGO)' bash .ci/ginkgo.sh -r $(SUITE_FLAGS) --skip-package=scenarios ./...; others=$$?; \
	FAILURES=$$failures GINKGO='$(GINKGO)' bash .ci/ginkgo.sh $(SUITE_FLAGS) ./scenarios; scenarios=$$?; \
	echo; cat $$failures; rm -f $$failures; \
	exit $$((others | scenarios))

## cross: build airwire, vet every package (tests included) and link every test binary for linux, darwin
## and windows × amd64 and arm64
cross:
	@GO='$(GO)' bash .ci/cross.sh

## test-portable: vet, then the adapter, proxy and conformance suites, with the portable code Linux
## otherwise replaces by its fast paths (build tag airwire_portable, what macOS runs); GOFLAGS carries
## the tag into the airwire binaries the suites build. The scenarios run against airwire agent built the
## same way (bin/airwire-portable), so the agent's own portable code serves every run; the mutation specs,
## which check the suite's own verdicts on the reference's runs, stay in test-suites
PORTABLE_GOFLAGS := $(strip $(shell $(GO) env GOFLAGS) -tags=airwire_portable)
PORTABLE_PKGS    := ./adapter/... ./proxy/... ./scenarios/... ./cmd/conform/... ./conform ./internal/procgroup/...
test-portable: deps
	GOFLAGS='$(PORTABLE_GOFLAGS)' $(GO) vet ./...
	CGO_ENABLED=0 GOFLAGS='$(PORTABLE_GOFLAGS)' $(GO) build -ldflags '$(LDFLAGS)' -o bin/airwire-portable ./cmd/airwire
	AIRWIRE_CONFORM_AGENT='"$(abspath bin/airwire-portable)" agent' GOFLAGS='$(PORTABLE_GOFLAGS)' GINKGO='$(GINKGO)' bash .ci/ginkgo.sh --label-filter='!mutation' --randomize-all --fail-on-pending --keep-going --flake-attempts=2 --timeout=40m --poll-progress-after=120s --procs=2 --compilers=2 $(PORTABLE_PKGS)

## test-windows: the Windows test binaries of the packages below, run under Wine (installed with apt-get
## when missing; under CI=true a missing Wine fails the target). The list holds packages with code that
## differs on Windows (paths, project directories, processes, the wire layer) whose tests keep
## no files in t.TempDir: Wine before 9 cannot remove them the way Go 1.26 does (.ci/test-windows.sh)
WINE_PKGS := ./internal/jsonrpc ./internal/pathstyle ./internal/lookup ./internal/projectdir ./internal/procgroup \
	./proxy/redact ./cmd/version ./cmd/agent ./adapter/agentinfo ./adapter/caps ./adapter/permission \
	./adapter/sessionconfig ./adapter/usage ./schemas/air ./internal/rawio ./adapter/jsstr ./adapter/compaction \
	./adapter/modelid
## WINE_CONFORM: the scenarios (globs) that airwire.exe replays under Wine: those whose runs hold
## paths in every form (shown, relative, in patches, in streamed tool input, in --mcp-config, in
## --settings), a CLI restarted by session/load (slow process starts), a scripted CLI that waits for
## the agent's answer to a step, Claude Code settings read from the user's and the project's files,
## sessions resumed from stored transcripts, the agent's own compaction on a timer, model switches
## the CLI makes by itself, and the login read in a session's folder and environment; a run that fails
## is run once more, alone, and named
WINE_CONFORM := edit-* bash-background background-mcp-call commands-changed file-change-report-* exit-plan-clear-context session-hooks \
	model-refusal-fallback model-command* auth-status-api-key-helper settings-* session-resume-model* session-resume-auto-fallback compaction-idle
test-windows:
	@GO='$(GO)' WINE_PKGS='$(WINE_PKGS)' WINE_CONFORM='$(WINE_CONFORM)' bash .ci/test-windows.sh

## release: dist/airwire_<os>_<arch>.tar.gz (.zip for windows) for linux, darwin and windows × amd64 and
## arm64, with SHA256SUMS; the archive for this machine must report VERSION (airwire --version)
release:
	@GO='$(GO)' VERSION='$(VERSION)' bash .ci/release.sh

## conform: the main job: the conformance suite against the default adapter, airwire agent
conform: deps build
	bin/airwire conform

## conform-play: the conformance suite with airwire play as the agent, each run playing its own
## scenario's recording, compared on the editor lane (docs/clients.md)
conform-play: deps build
	. .deps/paths.env && bin/airwire conform --editor-lane --scenarios scenarios --goldens goldens \
	  --agent "$(CURDIR)/bin/airwire play --scenario {scenario} --profile {profile} --root {root} --scenarios $(CURDIR)/scenarios --goldens $(CURDIR)/goldens --acp-schema $$AIRWIRE_ACP_SCHEMA_DIR"

## conform-reference: the conformance suite against the reference adapter (make deps)
conform-reference: deps build
	bin/airwire conform --reference

## reach: the suite against the reference adapter under NODE_V8_COVERAGE, then which functions and blocks of its
## dist/ no scenario executes, per module and contract area (docs/reach.md); JSON in reports/out/reach.json
REACH_COVERAGE := reports/out/reach-coverage
reach: deps build
	rm -rf $(REACH_COVERAGE) && mkdir -p $(REACH_COVERAGE)
	NODE_V8_COVERAGE=$(abspath $(REACH_COVERAGE)) bin/airwire conform --reference --jobs 2 || \
		echo "make reach: some runs failed; the figures below still count every run that executed" >&2
	bin/airwire reach $(REACH_COVERAGE) --json reports/out/reach.json

## contract: check the contract section names the scenarios cite (conform/scenario) against the contract document,
## CONTRACT (default ../shared/contract/air-extensions.md); the document is not part of this repository
CONTRACT ?= ../shared/contract/air-extensions.md
contract:
	AIRWIRE_CONTRACT='$(abspath $(CONTRACT))' $(GO) test -tags contract -count=1 -run TestSectionsMatchContract ./conform/scenario/

## rerecord: re-record every golden and cassette (model scenarios through the reference and the real
## Claude CLI against airwire's mock model API, scripted ones with the fake CLI), then show what changed
rerecord: deps build
	bin/airwire conform --live --update
	@git --no-pager diff --stat -- goldens || true

## bench: the proxy, scanner, journal and validator benchmarks, airwire agent against the reference adapter
## (plain and AIR clients; as an ACP v2 client, the reference alone; the session/list one lists 10,000 generated transcripts, made once, cached under
## $$TMPDIR/airwire-agentbench-sessions-*), airwire conform with and without its reports, and the journal view
## of a 50,000-message journal (its writing, and its load in headless Chromium) (docs/bench.md),
## each reported as a ratio against a baseline measured in the same run
bench: deps
	$(GO) test -run '^$$' -bench 'Record(Latency|Throughput)' -benchtime=1x ./proxy/
	$(GO) test -run '^$$' -bench 'Scan|Recorder$$' -benchmem -benchtime=200ms ./internal/jsonrpc/ ./proxy/
	$(GO) test -run '^$$' -bench 'Journal' -benchtime=3x ./schemas/validate/
	$(GO) test -run '^$$' -bench 'TextChunks|ToolCallTurn' -benchmem -benchtime=20x ./adapter/
	$(GO) test -run '^$$' -bench 'Agent(Initialize|SessionRSS|TurnCPU)$$' -benchtime=3x ./conform/agentbench/
	$(GO) test -run '^$$' -bench 'Agent(Initialize|SessionRSS|TurnCPU)V2' -benchtime=3x ./conform/agentbench/
	$(GO) test -run '^$$' -bench 'AgentSessionList' -benchtime=3x -timeout=30m ./conform/agentbench/
	$(GO) test -run '^$$' -bench 'ConformReports' -benchtime=3x ./cmd/conform/
	$(GO) test -run '^$$' -bench 'ReportWrite' -benchtime=3x ./reports/
	$(GO) test -run '^$$' -bench 'JournalView' -benchtime=3x ./reports/journalview/

## fuzz: run the framer fuzz target, then random journals through every journal reader, FUZZTIME each (default 30s)
FUZZTIME ?= 30s
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzScan -fuzztime $(FUZZTIME) ./internal/jsonrpc/
	$(GO) test -run '^$$' -fuzz FuzzJournalReaders -fuzztime $(FUZZTIME) ./cmd/journal/

clean:
	rm -rf bin dist reports/out
