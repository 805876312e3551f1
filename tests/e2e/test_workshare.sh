# Two files compiled with -c and linked separately: parallel, orphaned for,
# named critical, single, barrier, and a parallel for. Every region with the
# right visit counts, handles from the prelinker, the same counts without the
# prelinker (lazy handles), and the event order on each thread.
source "$(dirname "$0")/lib.sh"
cp "$EXAMPLES"/workshare/*.[ch] .
"$POMPCC" -fopenmp -O2 -c main.c -o main.o
"$POMPCC" -fopenmp -O2 -c work.c -o work.o
"$POMPCC" -fopenmp main.o work.o -o app
plain_cc main.c work.c -o app_plain

for n in 1 4; do
    OMP_NUM_THREADS=$n POMP_OUTPUT_DIR=out$n ./app > inst$n.txt
    OMP_NUM_THREADS=$n ./app_plain > plain$n.txt
    diff -u plain$n.txt inst$n.txt || fail "output with $n threads differs from the plain build"
done
assert_contains inst4.txt '^singles = 3$' "single ran once per parallel region"

L_par=$(line_of main.c "#pragma omp parallel")
L_pfor=$(line_of main.c "#pragma omp parallel for")
L_for=$(line_of work.c "#pragma omp for")
L_crit=$(line_of work.c "#pragma omp critical")
L_single=$(line_of work.c "#pragma omp single")
L_bar=$(line_of work.c "#pragma omp barrier")

check_counts() { # DIR
    local d=$1
    assert_eq "$(region_sum $d parallel $L_par visits)" 3 "$d: parallel visits (REPEAT=3)"
    assert_eq "$(region_threads $d parallel $L_par)" 4 "$d: parallel threads"
    assert_eq "$(region_sum $d parallel $L_par begins)" 12 "$d: parallel begins (3 x 4 threads)"
    assert_eq "$(region_sum $d for $L_for visits)" 12 "$d: orphaned for visits"
    assert_eq "$(region_sum $d critical $L_crit visits)" 12 "$d: critical visits"
    assert_eq "$(region_sum $d critical $L_crit begins)" 12 "$d: critical begins"
    assert_eq "$(region_sum $d single $L_single visits)" 12 "$d: single visits (every thread encounters it)"
    assert_eq "$(region_sum $d single $L_single begins)" 3 "$d: single begins (one thread executes it)"
    assert_eq "$(region_sum $d barrier $L_bar visits)" 12 "$d: barrier visits"
    assert_eq "$(region_sum $d parallel $L_pfor visits)" 1 "$d: parallel for: parallel visits"
    assert_eq "$(region_sum $d for $L_pfor visits)" 4 "$d: parallel for: loop visits"
    assert_eq "$(jq -r '.regions[] | select(.type == "critical") | .name' $d/profile.json)" accumulate "$d: critical name"
    assert_eq "$(jq '[.threads[].nesting_errors] | add' $d/profile.json)" 0 "$d: nesting errors"
    # The orphaned loop's node sits under the parallel region that called work().
    assert_eq "$(jq -r --argjson l $L_for '
        (.regions | map({(.id|tostring): .}) | add) as $r
        | (.callpath | map({(.id|tostring): .}) | add) as $n
        | .callpath[] | select($r[.region|tostring].type == "for" and $r[.region|tostring].first_line == $l)
        | $r[$n[.parent|tostring].region|tostring].type' $d/profile.json | sort -u)" parallel "$d: call path of the loop"
}
check_counts out4
assert_eq "$(region_init out4)" "handle" "regions initialized by POMP_Init_Handles"
nm app | grep ' T POMP_Init_Handles$' > /dev/null || fail "the program has no POMP_Init_Handles"
assert_eq "$(nm app | grep -c ' T POMP_Init_[0-9a-f]*$')" 2 "one POMP_Init_<id> per object"

# Linked without the prelinker: no POMP_Init_Handles, handles made lazily, same counts.
cc main.o work.o -L"$BUILD/lib" -Wl,-rpath,"$BUILD/lib" -lpomp -L$LIBOMP_DIR -Wl,-rpath,$LIBOMP_DIR -lomp $E2E_SANITIZE -o app_lazy
! nm app_lazy | grep POMP_Init_Handles > /dev/null || fail "app_lazy should not have POMP_Init_Handles"
OMP_NUM_THREADS=4 POMP_OUTPUT_DIR=lazy ./app_lazy > lazy.txt
diff -u plain4.txt lazy.txt || fail "output without the prelinker differs"
check_counts lazy
assert_eq "$(region_init lazy)" "lazy" "regions initialized lazily"

# Levels at run time: no loop events, parallel regions without begin/end.
OMP_NUM_THREADS=4 POMP_LOOP=none POMP_PARALLEL=enterexit POMP_OUTPUT_DIR=lv ./app > lv.txt
diff -u plain4.txt lv.txt || fail "output with levels changed"
assert_eq "$(region_sum lv for $L_for visits)" 0 "POMP_LOOP=none: no loop events"
assert_eq "$(region_sum lv parallel $L_par visits)" 3 "POMP_PARALLEL=EnterExit: enter/exit kept"
assert_eq "$(region_sum lv parallel $L_par begins)" 0 "POMP_PARALLEL=EnterExit: no begin/end"
assert_eq "$(region_threads lv parallel $L_par)" 1 "POMP_PARALLEL=EnterExit: only the encountering thread"
assert_eq "$(region_sum lv critical $L_crit visits)" 12 "other groups unchanged"

# Event order per thread (2 threads), from the event log: first the
# instrumentation's events alone, then where the runtime's (OMPT) fall, with
# every callback (POMP_OMPT=full: the runtime's wait to enter the critical
# region too, which the default leaves to POMP's Critical_enter..begin).
OMP_NUM_THREADS=2 POMP_OMPT=full POMP_TRACE=events POMP_OUTPUT_DIR=ev ./app > /dev/null
for t in 0 1; do
    awk -v t=$t '$1 == t && $3 !~ /^(Implicit_barrier_|Ompt_)/ { printf "%s ", $3 }' ev/events.log > seq$t.txt
    awk -v t=$t '$1 == t { printf "%s ", $3 }' ev/events.log > all$t.txt
done
for t in 0 1; do
    for pair in 'Critical_enter Ompt_wait_enter Ompt_wait_exit Critical_begin' \
                'Loop_enter Implicit_barrier_enter Implicit_barrier_exit Loop_exit' \
                '(Single_end|Single_enter) Implicit_barrier_enter Implicit_barrier_exit Single_exit' \
                'Barrier_enter Barrier_exit'; do
        grep -qE "$pair" all$t.txt || fail "thread $t: no '$pair' in $(cat all$t.txt)"
    done
done
grep -q 'Parallel_end Implicit_barrier_enter Implicit_barrier_exit Parallel_exit' all0.txt \
    || fail "the master's closing barrier between Parallel_end and Parallel_exit: $(cat all0.txt)"
grep -q 'Parallel_end Implicit_barrier_enter Implicit_barrier_exit Parallel_begin' all1.txt \
    || fail "a worker's closing barrier after its Parallel_end: $(cat all1.txt)"
! grep -q 'Barrier_enter Implicit_barrier_enter' all0.txt all1.txt \
    || fail "an instrumented explicit barrier was counted twice"
# Default: the same implicit barriers, no runtime wait for the instrumented critical.
OMP_NUM_THREADS=2 POMP_TRACE=events POMP_OUTPUT_DIR=evd ./app > /dev/null
awk '$1 == 0 { printf "%s ", $3 }' evd/events.log > dflt0.txt
grep -q 'Parallel_end Implicit_barrier_enter Implicit_barrier_exit Parallel_exit' dflt0.txt \
    || fail "default: the master's closing barrier: $(cat dflt0.txt)"
grep -qE 'Loop_enter Implicit_barrier_enter Implicit_barrier_exit Loop_exit' dflt0.txt \
    || fail "default: the loop's implicit barrier: $(cat dflt0.txt)"
! grep -q 'Ompt_wait' evd/events.log || fail "default: a runtime wait for an instrumented construct"

one_region='Parallel_begin Loop_enter Loop_exit Critical_enter Critical_begin Critical_end Critical_exit Single_enter (Single_begin Single_end )?Single_exit Barrier_enter Barrier_exit Parallel_end '
pfor='Parallel_begin Loop_enter Loop_exit Parallel_end '
grep -qE "^Parallel_enter ${one_region}Parallel_exit (Parallel_enter ${one_region}Parallel_exit ){2}Parallel_enter ${pfor}Parallel_exit \$" seq0.txt \
    || fail "master's event order: $(cat seq0.txt)"
grep -qE "^(${one_region}){3}${pfor}\$" seq1.txt || fail "worker's event order: $(cat seq1.txt)"
assert_eq "$(cat seq0.txt seq1.txt | grep -o Single_begin | wc -l)" 3 "single bodies over both threads"

# The same program compiled by clang-19 (both compilers' objects run on LLVM libomp).
# (Not under make sanitize: clang's sanitizer runtime cannot join gcc's in libpomp.)
[ -n "$E2E_SANITIZE" ] && exit 0
POMP_CC=clang-19 "$POMPCC" -fopenmp main.c work.c -o app_clang
OMP_NUM_THREADS=4 POMP_OUTPUT_DIR=clang ./app_clang > clang.txt
diff -u plain4.txt clang.txt || fail "clang-built output differs"
check_counts clang
