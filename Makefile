# gofio — see README.md. CGO is always off: gofio is one static binary.
export CGO_ENABLED := 0

GO       ?= go
PREFIX   ?= /usr/local
BINDIR   := $(PREFIX)/bin
BIN      := bin/gofio
FIO_LINK ?= 0

.PHONY: all build run test bench install fuzz clean

all: build

build:
	$(GO) build -trimpath -o $(BIN) ./cmd/gofio

# run builds gofio and runs the quick-start job in a scratch directory.
run: build
	@dir=$$(mktemp -d) && trap 'rm -rf "$$dir"' EXIT && \
	cp examples/quickstart.fio "$$dir"/ && cd "$$dir" && \
	$(CURDIR)/$(BIN) quickstart.fio

# test runs every test, the differential comparisons with real fio included.
test:
	$(GO) vet ./...
	$(GO) test -count=1 ./...

# bench runs fio and gofio side by side on the same jobs (see bench/main.go).
bench: build
	$(GO) run ./bench -gofio $(BIN) $(BENCHFLAGS)

install: build
	install -d $(DESTDIR)$(BINDIR)
	install -m 0755 $(BIN) $(DESTDIR)$(BINDIR)/gofio
	@if [ "$(FIO_LINK)" = 1 ]; then ln -sf gofio $(DESTDIR)$(BINDIR)/fio; echo "installed fio -> gofio link"; fi

# fuzz runs every fuzz target for FUZZTIME each (go test -fuzz takes one
# target at a time): the job-file parser and the value parsers.
FUZZTIME ?= 10m
FUZZ_TARGETS := parser:FuzzParseJobFile jobspec:FuzzParseSize jobspec:FuzzParseTime jobspec:FuzzReadValue
fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; name=$${t#*:}; \
		echo "fuzz $$name ($$pkg) for $(FUZZTIME)"; \
		$(GO) test -run='^$$' -fuzz="^$$name\$$" -fuzztime=$(FUZZTIME) ./$$pkg; \
	done

clean:
	rm -rf bin
