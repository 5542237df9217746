# `make bench` runs the benchmarks (Benchmarks/README.md); pass options with BENCH_ARGS, e.g.
#   make bench BENCH_ARGS="--quick"
#   make bench-profile            # callgrind: instructions per request, Gannet against a bare curl loop
BENCH_ARGS ?=

.PHONY: bench bench-profile
bench:
	Benchmarks/run.sh $(BENCH_ARGS)

bench-profile:
	Benchmarks/run.sh --callgrind $(BENCH_ARGS)
