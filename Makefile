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
BENCH_ARGS ?=
DOCS ?=

.PHONY: bench bench-profile check-docs check-linkage check-example check-conformance docc format check-format
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
