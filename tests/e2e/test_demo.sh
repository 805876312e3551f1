# The example of seed 002, Appendix A: same output as the plain build, and its
# parallel region at demo.c:7 with 1 visit and 4 threads, through pre-initialized handles.
source "$(dirname "$0")/lib.sh"
cp "$EXAMPLES/demo.c" .
"$POMPCC" -fopenmp demo.c -o demo
plain_cc demo.c -o demo_plain

OMP_NUM_THREADS=4 POMP_OUTPUT_DIR=out ./demo | sort > inst.txt
OMP_NUM_THREADS=4 ./demo_plain | sort > plain.txt
diff -u plain.txt inst.txt || fail "instrumented output differs from the plain build"
assert_eq "$(wc -l < inst.txt)" 4 "lines of output"

assert_eq "$(region_sum out parallel 7 visits)" 1 "visits of the parallel region"
assert_eq "$(region_sum out parallel 7 begins)" 4 "team members that began it"
assert_eq "$(region_threads out parallel 7)" 4 "threads of the parallel region"
assert_eq "$(jq -r '.regions[] | select(.type == "parallel") | .file + ":" + (.first_line|tostring) + "-" + (.last_line|tostring)' out/profile.json)" "demo.c:7-12" "location"
# the call of omp_get_thread_num is a region of its own (Runtime group)
assert_eq "$(jq -r '[.regions[].type | select(. == "omp_get_thread_num" or . == "parallel")] | sort | join(",")' out/profile.json)" "omp_get_thread_num,parallel" "regions"
assert_eq "$(region_init out)" "handle" "handles pre-initialized by POMP_Init_Handles"

"$REPORT" out > report.txt
assert_contains report.txt '^parallel +demo\.c:7-12 +1 +4 ' "pomp-report table row"

# The summary on stderr names the region and the output directory.
OMP_NUM_THREADS=2 POMP_SUMMARY=on POMP_OUTPUT_DIR=out2 ./demo > /dev/null 2> summary.txt
assert_contains summary.txt 'parallel @ demo\.c:7' "summary"
assert_contains summary.txt 'output in out2/' "summary names the directory"

# Default output directory name
OMP_NUM_THREADS=1 ./demo > /dev/null
ls -d pomp-demo-*-* > /dev/null || fail "default output directory pomp-demo-<stamp>-<pid> missing"
