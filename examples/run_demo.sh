#!/usr/bin/env bash
# make demo: the example of seed 002, Appendix A, built with pompcc and run on 4 threads.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
BUILD=${BUILD:-$here/../build}
out=$BUILD/demo
rm -rf "$out" && mkdir -p "$out"
cd "$out"
cp "$here/demo.c" .
echo "\$ pompcc -fopenmp demo.c -o demo"
"$BUILD/bin/pompcc" -fopenmp demo.c -o demo
echo "\$ OMP_NUM_THREADS=4 ./demo"
OMP_NUM_THREADS=4 POMP_OUTPUT_DIR="$out/pomp-demo" ./demo
echo
echo "\$ pomp-report pomp-demo"
"$BUILD/bin/pomp-report" "$out/pomp-demo"
