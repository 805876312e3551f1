#!/usr/bin/env bash
# Builds the example collector and app.c (with pompcc), then runs the app with
# the collector preloaded. BUILD: pomp's build directory (default ../../build).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
BUILD=${BUILD:-$here/../../build}
out=${1:-$(mktemp -d /tmp/pomp-collector-XXXXXX)}
cc -shared -fPIC -O2 -Wall -Wextra -I"$BUILD/include" "$here/collector.c" -o "$out/libcollector.so"
"${POMPCC:-$BUILD/bin/pompcc}" -fopenmp -O1 -rdynamic "$here/app.c" -o "$out/app"
cd "$out"
POMP_SUMMARY=${POMP_SUMMARY:-off} LD_PRELOAD="$out/libcollector.so" ./app
