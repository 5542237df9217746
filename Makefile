# `make bench` runs the benchmarks (Benchmarks/README.md); pass options with BENCH_ARGS, e.g.
#   make bench BENCH_ARGS="--quick"
#   make bench-profile            # callgrind: instructions per request, Gannet against a bare curl loop
#   make format                   # rewrite every Swift file as .swift-format says
#   make check-format             # swift format lint --strict over every Swift file (CI runs it)
#   make check-docs               # every swift snippet of README.md and docs/ type-checks (docs/README.md)
#   make check-docs DOCS="docs/new-page.md"    # only these pages
#   make check-linkage            # products link only what Package.swift promises
#   make check-example            # Examples/PinnedClient builds and runs
#   make check-conformance        # docs/conformance.md: every AFNetworking test has a row, every referenced test exists
#   make docc                     # every library product's DocC documentation builds without a warning
#   make sanitize                 # ThreadSanitizer and AddressSanitizer test passes (docs/reliability.md)
#   make fuzz                     # every libFuzzer target for FUZZ_SECONDS (600) each, FUZZ_JOBS (1) at a time
#   make fuzz-smoke               # every fuzz target for 20 s, two at a time
#   make fuzz FUZZ_TARGETS="media-type xml-tree" FUZZ_SECONDS=60
BENCH_ARGS ?=
DOCS ?=
FUZZ_SECONDS ?= 600
FUZZ_JOBS ?= 1
FUZZ_TARGETS ?=

.PHONY: bench bench-profile check-docs check-linkage check-example check-conformance docc format check-format sanitize fuzz fuzz-smoke
bench:
	Benchmarks/run.sh $(BENCH_ARGS)

bench-profile:
	Benchmarks/run.sh --callgrind $(BENCH_ARGS)

check-docs:
	bash scripts/check-docs.sh $(DOCS)

check-linkage:
	bash scripts/check-linkage.sh

check-example:
	bash scripts/check-example.sh

check-conformance:
	bash scripts/check-conformance.sh

docc:
	bash scripts/check-docc.sh

format:
	git ls-files -z '*.swift' | xargs -0 swift format format -i --parallel --configuration .swift-format

check-format:
	bash scripts/check-format.sh

sanitize:
	bash scripts/sanitize.sh

fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_JOBS=$(FUZZ_JOBS) bash scripts/fuzz.sh $(FUZZ_TARGETS)

fuzz-smoke:
	FUZZ_SECONDS=20 FUZZ_JOBS=2 bash scripts/fuzz.sh $(FUZZ_TARGETS)

# The soak (docs/reliability-testing.md): 10,000 tasks, 200 in flight, against slow, failing
# and TLS endpoints, a third cancelled; threads, descriptors, temporary files and memory must be
# back at their baseline. CI runs it with 1,000 tasks (scripts/test.sh).
SOAK_TASKS ?= 10000
.PHONY: soak
soak:
	swift build --build-tests -Xswiftc -warnings-as-errors
	GANNET_SOAK_TASKS=$(SOAK_TASKS) swift test --skip-build --filter SoakTests

# gannet_<version>_amd64.deb under .build/deb/: the release gannet with the Swift runtime linked
# statically, depending only on Debian's libcurl4, libssl3 and libxml2; installs the manual and
# completions (scripts/build-deb.sh). scripts/check-deb.sh installs, uses and removes it.
.PHONY: deb
deb:
	bash scripts/build-deb.sh
