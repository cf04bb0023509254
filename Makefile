# gofio — see README.md. CGO is always off: gofio is one static binary.
export CGO_ENABLED := 0

GO       ?= go
PREFIX   ?= /usr/local
BINDIR   := $(PREFIX)/bin
BIN      := bin/gofio
FIO_LINK ?= 0

.PHONY: all build run test stress bench pgo install fuzz fuzz-list clean

all: build

build:
	$(GO) build -trimpath -o $(BIN) ./cmd/gofio

# run builds gofio and runs the quick-start job in a scratch directory.
run: build
	@dir=$$(mktemp -d) && trap 'rm -rf "$$dir"' EXIT && \
	cp examples/quickstart.fio "$$dir"/ && cd "$$dir" && \
	$(CURDIR)/$(BIN) quickstart.fio

# test vets the code for each platform gofio runs on (README, Platforms),
# runs staticcheck (a tool dependency in go.mod; its settings are in
# staticcheck.conf), then runs every test, the differential comparisons
# with real fio included, and prints how long it took. TESTTIMEOUT
# bounds each test binary (Go's default of 10m is too short for
# conformance on a loaded 2-core machine; 30m fits CI's 90-minute
# budget). The unit packages run first, side by
# side; conformance, which runs fio and gofio on the same jobs and is the
# slowest, then runs alone so that nothing else starves it, four tests at
# a time (CONFPARALLEL; go test's default is one per CPU): its tests
# mostly wait on fio's and gofio's runs, not on the CPU.
TESTTIMEOUT  ?= 30m
TESTFLAGS    ?=
CONFPARALLEL ?= 4
test:
	@start=$$(date +%s); rc=0; \
	for arch in amd64 arm64; do GOOS=linux GOARCH=$$arch $(GO) vet ./... || rc=$$?; done; \
	$(GO) tool staticcheck ./... || rc=$$?; \
	if [ $$rc = 0 ]; then \
		$(GO) test -count=1 -timeout=$(TESTTIMEOUT) $(TESTFLAGS) $$($(GO) list ./... | grep -v '/conformance$$') || rc=$$?; \
		$(GO) test -count=1 -timeout=$(TESTTIMEOUT) -parallel=$(CONFPARALLEL) $(TESTFLAGS) ./conformance || rc=$$?; \
	fi; \
	t=$$(( $$(date +%s) - start )); \
	printf 'make test: %s in %dm%02ds\n' "$$( [ $$rc = 0 ] && echo ok || echo FAILED )" $$((t / 60)) $$((t % 60)); \
	exit $$rc

# stress runs the conformance suite, the timing-sensitive tests and the
# seed command lines under load (CPU hogs, a disk writer, memory
# pressure); see stress/main.go. STRESS_RUNS runs of each seed command;
# STRESSFLAGS passes more flags (e.g. -only=seeds).
STRESS_RUNS ?= 20
STRESSFLAGS ?=
stress: build
	$(GO) run ./stress -gofio $(BIN) -runs $(STRESS_RUNS) $(STRESSFLAGS)

# bench runs fio and gofio side by side on the same jobs (see bench/main.go).
bench: build
	$(GO) run ./bench -gofio $(BIN) $(BENCHFLAGS)

# pgo regenerates cmd/gofio/default.pgo, the CPU profile that go build
# optimizes gofio with (profile-guided optimization: it inlines more on
# the hot paths and calls the hot engines directly; docs/perf.md, "Built
# with a profile"): one profiled bench run of each job in PGOJOBS,
# merged. Run it on a quiet machine after a change to the I/O loop and
# commit the profile; the zram jobs need root.
PGOJOBS ?= null,psync-cached,libaio-qd32,io_uring-qd32,psync-64jobs,zram-uring-qd1,zram-uring-qd32,zram-uring-reg-qd32,zram-uring-sqpoll-qd32,zram-libaio-qd32,zram-psync-qd1,zram-uring-randwrite-qd32
pgo: build
	@dir=$$(mktemp -d) && trap 'rm -rf "$$dir"' EXIT && \
	$(GO) run ./bench -gofio $(BIN) -rounds 1 -only $(PGOJOBS) -profile "$$dir" && \
	$(GO) tool pprof -proto "$$dir"/*.prof > cmd/gofio/default.pgo.new && \
	mv cmd/gofio/default.pgo.new cmd/gofio/default.pgo

install: build
	install -d $(DESTDIR)$(BINDIR)
	install -m 0755 $(BIN) $(DESTDIR)$(BINDIR)/gofio
	@if [ "$(FIO_LINK)" = 1 ]; then ln -sf gofio $(DESTDIR)$(BINDIR)/fio; echo "installed fio -> gofio link"; fi

# fuzz runs every fuzz target of the repository for FUZZTIME each (go test
# -fuzz takes one target at a time). The targets are found by their
# `func FuzzXxx(` lines, so a new one is fuzzed without editing this file;
# `make fuzz-list` prints them.
FUZZTIME ?= 10m
FUZZ_FIND = grep -rHo --include='*_test.go' --exclude-dir=.git '^func Fuzz[A-Za-z0-9_]*(' . | \
	sed -e 's|^\./||' -e 's|/[^/]*_test\.go:func | |' -e 's|($$||' | sort
fuzz-list:
	@$(FUZZ_FIND)
fuzz:
	@set -e; list=$$($(FUZZ_FIND)); [ -n "$$list" ] || { echo "no fuzz targets found"; exit 1; }; \
	echo "$$list" | while read pkg name; do \
		echo "fuzz $$name ($$pkg) for $(FUZZTIME)"; \
		$(GO) test -run='^$$' -fuzz="^$$name\$$" -fuzztime=$(FUZZTIME) ./$$pkg; \
	done

clean:
	rm -rf bin
