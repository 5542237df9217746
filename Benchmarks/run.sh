#!/usr/bin/env bash
# One command for the whole benchmark: builds the clients in release, starts nginx on loopback,
# runs every workload for every client and prints the table (see Benchmarks/README.md).
#   Benchmarks/run.sh [--quick] [--rounds N] [--only WORKLOAD,...] [--callgrind] [--help]
set -euo pipefail
exec python3 "$(dirname "${BASH_SOURCE[0]}")/bench.py" "$@"
