# A class template's regions that only the runtime reports (its loop's closing
# barrier, its taskgroup's wait), in a C++ build without -g, where they are
# named by function: every instantiation runs the one construct the
# instrumentation made, so each is one row placed in its construct, naming no
# instantiation. The summary named the barrier after Work<double>::run() while
# the row held Work<long>'s visits too, and the taskgroup's wait was a row per
# instantiation, two reading "Work<...>::run()" once shortened (a probe).
# On libgomp (pompc++'s default) and on libomp (--pomp-runtime=omp).
SRC="$(cd "$(dirname "$0")/programs" && pwd)"
source "$(dirname "$0")/lib.sh"
cp "$SRC"/cxx_template_regions.cpp "$SRC"/cxx_template_work.hpp .

for rt in gomp omp; do
    flags=()
    [ $rt = omp ] && flags=(--pomp-runtime=omp)
    "$BUILD/bin/pompc++" "${flags[@]}" -fopenmp -O2 cxx_template_regions.cpp -o tpl_$rt 2> tpl_$rt.err ||
        { cat tpl_$rt.err; fail "$rt: pompc++ cxx_template_regions.cpp"; }
    out=$(OMP_NUM_THREADS=2 POMP_SUMMARY=on POMP_OUTPUT_DIR=tpl_$rt.d ./tpl_$rt 2> tpl_$rt.summary) ||
        { cat tpl_$rt.summary; fail "$rt: the program ran"; }
    assert_eq "$out" "5000 6000" "$rt: the program's output"
    p=tpl_$rt.d/profile.json
    # 8 runs of the member on 2 threads: 16 visits of each construct
    for sel in '.type == "implicit_barrier" and .name == "implementation"' \
               '.type == "wait" and .name == "taskgroup"'; do
        assert_eq "$(jq "[.regions[] | select($sel)] | length" $p)" 1 "$rt: one region of ($sel)"
        assert_eq "$(jq "[.regions[] | select($sel) | .id] as \$ids
                         | [.callpath[] | select(.region as \$r | \$ids | index(\$r)) | .per_thread[].visits] | add" $p)" 16 \
            "$rt: the visits of ($sel)"
        assert_eq "$(jq -r "[.regions[] | select($sel) | .function // \"none\"] | join(\";\")" $p)" none \
            "$rt: ($sel) names no instantiation's function in profile.json"
    done
    "$REPORT" tpl_$rt.d > tpl_$rt.report || fail "$rt: pomp-report"
    assert_eq "$(grep -cE '^ *wait taskgroup +in taskgroup @ cxx_template_work.hpp:19-23 +16 +2 ' tpl_$rt.report)" 2 \
        "$rt: the taskgroup's wait, one row of 16 visits in each table, placed in its taskgroup"
    assert_eq "$(grep -c 'Work<' tpl_$rt.report || true)" 0 "$rt: the report names no instantiation"
    # the summary shows the 5 longest rows: on a loaded machine the barrier
    # may rank lower in one run (a CPU taken from a thread lengthens others)
    for again in 1 2 3; do
        grep -qE '^pomp: +[0-9.]+ +16 +2  implicit_barrier implementation in for @ cxx_template_work.hpp:16$' tpl_$rt.summary &&
            break
        [ $again = 3 ] && { cat tpl_$rt.summary; fail "$rt: the summary's barrier row, placed in its for"; }
        OMP_NUM_THREADS=2 POMP_SUMMARY=on POMP_OUTPUT_DIR=tpl_$rt.again ./tpl_$rt > /dev/null 2> tpl_$rt.summary
    done
    assert_eq "$(grep -c 'Work<' tpl_$rt.summary || true)" 0 "$rt: the summary names no instantiation"
done
echo "PASS: test_cxx_template_regions"
