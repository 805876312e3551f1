#!/usr/bin/env bash
# A compiler cache in front of pompcc (ccache, CMAKE_C_COMPILER_LAUNCHER=ccache,
# sccache) knows the compiler by its file alone: ccache by its mtime and size
# (by its content with compiler_check=content), sccache by its content. What
# pompcc puts into an object is made by pomp-instrument and pomplib.h, so
# pompcc's file must change whenever they do; before, a pomp rebuilt after a
# change to the instrumenter alone kept its pompcc, and ccache served the
# objects the earlier pomp-instrument had made (a probe: a pomp-instrument that
# fails every compile, and ccache still answered with the old instrumented
# object).
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
source "$(dirname "$0")/lib.sh"
BIN=$(dirname "$POMPCC")
INC=$(dirname "$BIN")/include

# pompcc carries the digest of the pomp-instrument and pomplib.h it runs with
digest=$(cat "$BIN/pomp-instrument" "$INC/pomplib.h" | sha256sum | cut -d' ' -f1)
strings "$BIN/pompcc" > strings.txt
assert_contains strings.txt "^pomp-instrument and pomplib.h: $digest\$" \
    "pompcc's file holds the digest of pomp-instrument and pomplib.h"

# and make relinks it when either changes (a dry run: nothing is built)
if [ -f "$ROOT/Makefile" ] && [ "$(cd "$ROOT" && make -n BUILD="$BUILD" "$BIN/pompcc" 2>&1)" = "make: '$BIN/pompcc' is up to date." ]; then
    for dep in "$BIN/pomp-instrument" "$INC/pomplib.h"; do
        (cd "$ROOT" && make -n BUILD="$BUILD" -W "$dep" "$BIN/pompcc") > dry.txt 2>&1
        assert_contains dry.txt "-o $BIN/pompcc " "make relinks pompcc when $(basename "$dep") changes"
    done
else
    echo "the build is not up to date (or not make's): make's rule for pompcc is not checked"
fi
echo "PASS test_compiler_cache"
