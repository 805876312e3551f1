#!/usr/bin/env bash
# make check-layers passes on the tree, and fails, naming the edge, on a copy
# of the tree with one include that points up or sideways between the layers.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
source "$(dirname "$0")/lib.sh"
CHECK="$ROOT/tests/check_layers.py"

python3 "$CHECK" "$ROOT" >ok.txt 2>&1 || { cat ok.txt >&2; fail "the tree breaks its layers"; }
assert_contains ok.txt "every include edge points down" "the tree passes"

# copy of the layered folders, then one bad include at a time
fresh_copy() {
    rm -rf tree && mkdir tree
    (cd "$ROOT" && cp -r --parents ctc pomplib instrumenter *-bridge "$WORK/tree")
}
expect_edge() { # FILE INCLUDE MESSAGE WHAT
    fresh_copy
    printf '#include "%s"\n' "$2" >>"tree/$1"
    if python3 "$CHECK" tree >bad.txt 2>&1; then
        cat bad.txt >&2
        fail "$4: the checker passed"
    fi
    assert_contains bad.txt "$1:[0-9]+: .* includes $2 .*$3" "$4"
}
expect_edge pomplib/output/pomp_summary.c pomp_thread.h "points up" "a writer including the core"
expect_edge pomplib/core/pomp_control.c bridge_record.h "points up" "the core including a bridge"
expect_edge pomplib/common/pomp_json.c pomp_run.h "points up" "common including a writer"
expect_edge ompt-bridge/bridge_tool.c pomp_summary.h "points up" "a bridge calling a writer"
expect_edge ompt-bridge/bridge_task.c pomp_thread.h "through pomp_record.h only" "a bridge past the recording interface"
expect_edge pomplib/events/pomp_events.c bridge_thread.h "another" "the POMP routines including a bridge"
expect_edge pomplib/report/report_data.c pomp_run.h "links no writer" "pomp-report including a writer"
expect_edge pomplib/report/report_text.c pomp_region.h "points up" "pomp-report including the core"
expect_edge instrumenter/api_calls.c rewrite.h "rewriter.h only" "an instrumenter module past rewriter.h"
expect_edge instrumenter/instrument.c inst_levels.h "table" "instrument.c calling a module by name"
# a second bridge beside ompt-bridge/ is a source of its own
fresh_copy
mkdir -p tree/x-bridge && printf '#include "bridge_thread.h"\n' >tree/x-bridge/x.c
python3 "$CHECK" tree >bad.txt 2>&1 && fail "a bridge including another bridge passed"
assert_contains bad.txt "x-bridge/x.c:1: .*another" "a bridge including another bridge"
echo "check-layers: passes on the tree, fails on 11 kinds of bad edge"
