# The OMPT bridge on programs built by pompcc with GCC and with clang-19 (both
# on LLVM libomp): a parallel region's implicit-barrier wait, a critical's
# wait to enter and a lock's wait appear under the region they belong to, with
# their time; each chunk of a schedule(dynamic,1) loop is one begin of the loop.
# The runtime's wait regions for the critical and the lock come with
# POMP_OMPT=full; by default the instrumentation's own events hold those waits
# (checked at the end).
NUMBERS="$(cd "$(dirname "$0")" && pwd)/numbers"
source "$(dirname "$0")/lib.sh"
cat > waits.c <<'C'
#include <omp.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
    omp_lock_t lock;
    omp_init_lock(&lock);
    int sum = 0;
    #pragma omp parallel num_threads(4)
    {
        if (omp_get_thread_num() == 1)
            usleep(100000); /* the others wait for it in the closing barrier */
    }
    #pragma omp parallel num_threads(4)
    {
        #pragma omp critical(slow)
        {
            usleep(20000); /* each holds it 20 ms: the last one waits 60 ms */
            sum++;
        }
        #pragma omp barrier
        omp_set_lock(&lock); /* all at once, each holds it 20 ms */
        usleep(20000);
        omp_unset_lock(&lock);
        #pragma omp for schedule(dynamic, 1)
        for (int i = 0; i < 17; i++) {
            #pragma omp atomic
            sum += i;
        }
    }
    omp_destroy_lock(&lock);
    printf("sum = %d\n", sum);
    return 0;
}
C
L_bar=$(line_of waits.c "#pragma omp parallel")
L_par=$(awk '/#pragma omp parallel/ { n++; if (n == 2) { print NR; exit } }' waits.c)
L_crit=$(line_of waits.c "#pragma omp critical")
L_for=$(line_of waits.c "#pragma omp for")

# One line per thread of the node of type TYPE (name NAME, "" for any) whose
# parent is the region of type PTYPE at line PLINE: "thread incl_ns visits".
child_rows() { # DIR TYPE NAME PTYPE PLINE
    jq -r --arg t "$2" --arg n "$3" --arg pt "$4" --argjson pl "$5" '
      (.regions | map({(.id|tostring): .}) | add) as $r
      | (.callpath | map({(.id|tostring): .}) | add) as $c
      | .callpath[]
      | select($r[.region|tostring].type == $t and ($n == "" or $r[.region|tostring].name == $n))
      | select(.parent != 0)
      | select($r[$c[.parent|tostring].region|tostring] as $p | $p.type == $pt and $p.first_line == $pl)
      | .per_thread[] | "\(.thread) \(.incl_ns) \(.visits)"' "$1/profile.json"
}
count_at_least() { # FILE MIN_NS: rows with incl >= MIN_NS
    awk -v m="$2" '$2 >= m { n++ } END { print n + 0 }' "$1"
}

check() { # DIR LABEL
    local d=$1 what=$2
    assert_eq "$(jq '[.threads[].nesting_errors] | add' $d/profile.json)" 0 "$what: nesting errors"
    # Barrier: thread 1 slept 100 ms (slack for a loaded machine); the three others waited for it, under the region.
    child_rows $d implicit_barrier parallel parallel $L_bar > bar.txt
    assert_eq "$(wc -l < bar.txt)" 4 "$what: every thread's closing barrier under the first parallel region"
    assert_eq "$(count_at_least bar.txt 40000000)" 3 "$what: three threads waited >= 40 ms at the barrier"
    # Critical: held 20 ms by each of 4 threads, so waits of about 0, 20, 40 and 60 ms.
    child_rows $d wait critical critical $L_crit > crit.txt
    assert_eq "$(wc -l < crit.txt)" 4 "$what: every thread's wait to enter, under the critical region"
    [ "$(count_at_least crit.txt 35000000)" -ge 2 ] || { cat crit.txt; fail "$what: two waits >= 35 ms for the critical region"; }
    # Lock: the same, under the omp_set_lock call (a region of its own: the
    # instrumented call site, Runtime group) in the parallel region.
    L_lock=$(line_of waits.c "omp_set_lock(&lock);")
    child_rows $d wait lock omp_set_lock $L_lock > lock.txt
    assert_eq "$(wc -l < lock.txt)" 4 "$what: every thread's lock wait, under its omp_set_lock call"
    assert_eq "$(jq --argjson l $L_lock --argjson p $L_par '
      (.regions | map({(.id|tostring): .}) | add) as $r | (.callpath | map({(.id|tostring): .}) | add) as $c
      | [.callpath[] | select($r[.region|tostring].type == "omp_set_lock" and $r[.region|tostring].first_line == $l)
         | $r[$c[.parent|tostring].region|tostring] | select(.type == "parallel" and .first_line == $p)] | length > 0' $d/profile.json)" \
        true "$what: the omp_set_lock call under the second parallel region"
    [ "$(count_at_least lock.txt 35000000)" -ge 2 ] || { cat lock.txt; fail "$what: two lock waits >= 35 ms"; }
    # Chunks: 17 iterations, chunk size 1.
    assert_eq "$(region_sum $d for $L_for begins)" 17 "$what: chunks of the dynamic loop"
    assert_eq "$(region_sum $d for $L_for visits)" 4 "$what: loop visits"
    # Counted once: one parallel region per construct, the instrumented one.
    assert_eq "$(jq '[.regions[] | select(.type == "parallel")] | length' $d/profile.json)" 2 "$what: parallel regions"
    assert_eq "$(jq '[.regions[] | select(.type == "critical")] | length' $d/profile.json)" 1 "$what: critical regions"
    # The lock's wait is named by the call's file:line (resolved after the run).
    L_lock=$(line_of waits.c "omp_set_lock(&lock);")
    assert_eq "$(jq -r '.regions[] | select(.type == "wait" and .name == "lock") | "\(.file | split("/") | last):\(.first_line)"' $d/profile.json)" "waits.c:$L_lock" "$what: lock wait location"
}

plain_cc waits.c -o plain && ./plain > plain.txt
"$POMPCC" -g -fopenmp -O2 waits.c -o waits_gcc
POMP_OMPT=full POMP_LOOP=Chunks POMP_OUTPUT_DIR=gcc ./waits_gcc > gcc.txt
diff -u plain.txt gcc.txt || fail "GCC build: output differs"
check gcc "GCC"

# Default (POMP_OMPT on): the implicit barriers and the chunks as before; the
# critical's and the lock's waits are the instrumentation's (the critical's
# time outside its block, the omp_set_lock call), not runtime wait regions.
POMP_LOOP=Chunks POMP_OUTPUT_DIR=dflt ./waits_gcc > dflt.txt
diff -u plain.txt dflt.txt || fail "default: output differs"
assert_eq "$(jq '[.threads[].nesting_errors] | add' dflt/profile.json)" 0 "default: nesting errors"
child_rows dflt implicit_barrier parallel parallel $L_bar > bar.txt
assert_eq "$(count_at_least bar.txt 40000000)" 3 "default: three threads waited >= 40 ms at the barrier"
assert_eq "$(region_sum dflt for $L_for begins)" 17 "default: chunks of the dynamic loop"
assert_eq "$(jq '[.regions[] | select(.type == "wait")] | length' dflt/profile.json)" 0 "default: no runtime wait regions"
jq -r --argjson l $L_crit '([.regions[] | select(.type == "critical" and .first_line == $l) | .id]) as $ids
  | .callpath[] | select(.region as $r | $ids | index($r)) | .per_thread[] | "\(.thread) \(.incl_ns - .body_ns)"' \
  dflt/profile.json > crit_outside.txt
[ "$(count_at_least crit_outside.txt 35000000)" -ge 2 ] || { cat crit_outside.txt; fail "default: two critical waits (time outside the block) >= 35 ms"; }
L_lock=$(line_of waits.c "omp_set_lock(&lock);")
jq -r --argjson l $L_lock '([.regions[] | select(.type == "omp_set_lock" and .first_line == $l) | .id]) as $ids
  | .callpath[] | select(.region as $r | $ids | index($r)) | .per_thread[] | "\(.thread) \(.incl_ns)"' \
  dflt/profile.json > lock_calls.txt
[ "$(count_at_least lock_calls.txt 35000000)" -ge 2 ] || { cat lock_calls.txt; fail "default: two omp_set_lock calls >= 35 ms"; }
"$REPORT" dflt > dflt_report.txt
assert_contains dflt_report.txt "^Waits per parallel region" "default: the report's wait table"

# Teams of one (num_threads(1), if(0)) have no closing barrier on either
# runtime (libomp reports none; the libgomp bridge reported one): a team of two has.
cat > one.c <<'C'
#include <stdio.h>
int main(void)
{
    int n = 0;
    for (int s = 0; s < 10; s++) {
        #pragma omp parallel num_threads(1)
        {
            #pragma omp atomic
            n++;
        }
        #pragma omp parallel if (0)
        {
            #pragma omp atomic
            n++;
        }
        #pragma omp parallel num_threads(2)
        {
            #pragma omp atomic
            n++;
        }
    }
    printf("%d\n", n);
    return 0;
}
C
"$POMPCC" -fopenmp -O2 one.c -o one 2> one.err || { cat one.err; fail "build one.c"; }
assert_eq "$(POMP_OUTPUT_DIR=one_out ./one)" 40 "teams of one: output"
assert_eq "$(jq -c '[.regions[] | select(.type == "parallel") | .id] as $par
  | [.callpath[] | select(.region as $r | $par | index($r)) | .id] as $nodes
  | ([.regions[] | select(.type == "implicit_barrier" and .name == "parallel") | .id]) as $bar
  | [.callpath[] | select((.region as $r | $bar | index($r)) and (.parent as $p | $nodes | index($p)))
     | .per_thread[].visits] | add' one_out/profile.json)" 20 \
  "teams of one: closing barriers only in the team of two (10 regions x 2 threads)"

# Tasks and a taskwait in code not built with pompcc (a library), called from
# a pompcc-built single: the link says that the library has OpenMP not built
# with pompcc, and the bridges then follow what the runtime reports of it, so
# its tasks are measured as work and its taskwait as a wait, by default (before,
# neither was, and the tasks' time run in the barrier read as the barrier's
# wait: parallel efficiency 47 % for 88 %). A shared library found through -L
# is read too. (docs/ompt.md)
cat > lib_tasks.c <<'C'
#include "work.h"
double lib_sum(void)
{
    double part[4] = {0};
    for (int i = 0; i < 4; i++) {
#pragma omp task shared(part) firstprivate(i)
        part[i] = work(2);
    }
#pragma omp taskwait
    return part[0] + part[1] + part[2] + part[3];
}
C
cat > use_lib.c <<'C'
#include <stdio.h>
double lib_sum(void);
int main(void)
{
    double s = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp single
        s = lib_sum();
#pragma omp barrier
    }
    printf("%d\n", s > 0);
    return 0;
}
C
plain_cc -O2 -I"$NUMBERS" -c lib_tasks.c -o lib_tasks.o $E2E_SANITIZE
"$POMPCC" -O2 -fopenmp use_lib.c lib_tasks.o -o use_lib 2> use_lib.err || { cat use_lib.err; fail "build use_lib"; }
assert_contains use_lib.err "^pomp-prelink: note: lib_tasks.o has OpenMP constructs not built with pompcc" "library tasks: the link says so"
assert_eq "$(POMP_OUTPUT_DIR=lib_on ./use_lib)" 1 "library tasks: the program's output"
"$REPORT" --check lib_on > /dev/null || fail "library tasks: --check"
assert_eq "$(regions_where lib_on '.type == "taskwait" and .init == "ompt"')" 1 "library tasks, default: the library's taskwait measured"
assert_eq "$(jq '[.callpath[] | select(.task_root) | .per_thread[].begins] | add' lib_on/profile.json)" 4 \
          "library tasks, default: its 4 tasks measured"
assert_eq "$(regions_where lib_on '.type == "barrier"')" 1 "library tasks, default: the program's barrier measured"
POMP_OMPT=full POMP_OUTPUT_DIR=lib_full ./use_lib > /dev/null
assert_eq "$(regions_where lib_full '.type == "taskwait" and .init == "ompt"')" 1 \
          "library tasks, POMP_OMPT=full: the library's taskwait measured"
assert_eq "$(jq '[.callpath[] | select(.task_root) | .per_thread[].begins] | add' lib_full/profile.json)" 4 \
          "library tasks, POMP_OMPT=full: its 4 tasks measured"
if [ -z "$E2E_SANITIZE" ]; then
    mkdir -p libdir
    plain_cc -O2 -fPIC -shared -I"$NUMBERS" lib_tasks.c -o libdir/libtasks.so
    "$POMPCC" -O2 -fopenmp use_lib.c -Llibdir -ltasks -Wl,-rpath,"$PWD/libdir" -o use_so 2> use_so.err ||
        { cat use_so.err; fail "build use_so"; }
    assert_contains use_so.err "^pomp-prelink: note: libdir/libtasks.so has OpenMP constructs not built with pompcc" "library tasks, shared: the link says so"
    assert_eq "$(POMP_OUTPUT_DIR=so_on ./use_so)" 1 "library tasks, shared: the program's output"
    assert_eq "$(jq '[.callpath[] | select(.task_root) | .per_thread[].begins] | add' so_on/profile.json)" 4 \
              "library tasks, shared, default: its 4 tasks measured"
fi
# The same library in an archive with a member pompcc built (a library whose
# objects were built apart, or partly rebuilt after CC changed): the link
# looks at each member, names the plain one and follows it (before, the
# archive was read as one file, whose construct counts from the pompcc
# member hid the other: no note, and its tasks and taskwait went unmeasured)
cat > lib_own.c <<'C'
double lib_own(int n)
{
    double s = 0;
#pragma omp parallel for reduction(+ : s) num_threads(2)
    for (int i = 0; i < n; i++)
        s += i;
    return s;
}
C
"$POMPCC" -O2 -fopenmp -c lib_own.c -o lib_own.o || fail "build lib_own.o"
rm -f libmixed.a libmixed_thin.a
ar rcs libmixed.a lib_own.o lib_tasks.o
ar rcsT libmixed_thin.a lib_own.o lib_tasks.o
for lib in libmixed.a libmixed_thin.a; do
    "$POMPCC" -O2 -fopenmp use_lib.c $lib -o use_mixed 2> use_mixed.err || { cat use_mixed.err; fail "build use_mixed ($lib)"; }
    assert_contains use_mixed.err "^pomp-prelink: note: $lib\(lib_tasks.o\) has OpenMP constructs not built with pompcc" \
                    "library tasks, $lib with a pompcc member: the link names the plain member"
    assert_not_contains use_mixed.err "lib_own.o.*not built with pompcc" "library tasks, $lib: the pompcc member is not named"
    assert_eq "$(POMP_OUTPUT_DIR=mixed_on ./use_mixed)" 1 "library tasks, $lib: the program's output"
    "$REPORT" --check mixed_on > /dev/null || fail "library tasks, $lib: --check"
    assert_eq "$(regions_where mixed_on '.type == "taskwait" and .init == "ompt"')" 1 "library tasks, $lib: the library's taskwait measured"
    assert_eq "$(jq '[.callpath[] | select(.task_root) | .per_thread[].begins] | add' mixed_on/profile.json)" 4 \
              "library tasks, $lib: its 4 tasks measured"
    rm -rf mixed_on
done
# And in a shared library that pompcc links from an object it built and one cc
# built (the probe's libkern.so: a plain single with 40 tasks and a taskwait in
# its own parallel region): the library is one file, whose counts from the
# pompcc object hid the plain one from the program's link, and the bridges did
# not follow it (its single, tasks and taskwait were in no profile, though the
# library's link said that the runtime's events measure them). The library's
# link now marks its counts ("plain lib_single.o"), and the program's link
# follows it. Loaded by dlopen, it is a plain plugin's case: the run names it.
if [ -z "$E2E_SANITIZE" ]; then
    cat > lib_single.c <<'C'
int lib_single(void)
{
    int part[40] = {0};
#pragma omp parallel num_threads(2)
    {
#pragma omp single
        {
            for (int i = 0; i < 40; i++) {
#pragma omp task shared(part) firstprivate(i)
                part[i] = i;
            }
#pragma omp taskwait
        }
    }
    int s = 0;
    for (int i = 0; i < 40; i++)
        s += part[i];
    return s;
}
C
    cat > use_mixed_so.c <<'C'
#include <stdio.h>
double lib_own(int n);
int lib_single(void);
int main(void)
{
    printf("%g %d\n", lib_own(10), lib_single());
    return 0;
}
C
    # the sum over the call paths of regions of type TYPE of their per-thread FIELD
    type_sum() { # DIR TYPE FIELD
        jq --arg t "$2" --arg f "$3" '([.regions[] | select(.type == $t) | .id]) as $ids
          | [.callpath[] | select(.region as $r | $ids | index($r)) | .per_thread[][$f] // 0] | add // 0' "$1/profile.json"
    }
    mkdir -p mixeddir
    "$POMPCC" -O2 -fPIC -fopenmp -c lib_own.c -o lib_own_pic.o || fail "build lib_own_pic.o"
    plain_cc -O2 -fPIC -c lib_single.c -o lib_single.o
    "$POMPCC" -O2 -fopenmp -shared lib_own_pic.o lib_single.o -o mixeddir/libmixed.so 2> mixed_so.err ||
        { cat mixed_so.err; fail "build libmixed.so"; }
    assert_contains mixed_so.err "^pomp-prelink: note: lib_single.o has OpenMP constructs not built with pompcc" \
                    "library tasks, libmixed.so: its link names the plain object"
    assert_not_contains mixed_so.err "lib_own.*not built with pompcc" "library tasks, libmixed.so: the pompcc object is not named"
    "$POMPCC" -O2 -fopenmp use_mixed_so.c -Lmixeddir -lmixed -Wl,-rpath,"$PWD/mixeddir" -o use_mixed_so 2> use_mixed_so.err ||
        { cat use_mixed_so.err; fail "build use_mixed_so"; }
    assert_eq "$(POMP_OUTPUT_DIR=mixed_so_on ./use_mixed_so 2> mixed_so_run.err)" "45 780" "library tasks, libmixed.so: the program's output"
    "$REPORT" --check mixed_so_on > /dev/null || fail "library tasks, libmixed.so: --check"
    assert_eq "$(type_sum mixed_so_on single visits)" 2 "library tasks, libmixed.so: the plain single measured (2 threads)"
    assert_eq "$(type_sum mixed_so_on task_create visits)" 40 "library tasks, libmixed.so: its 40 tasks' creations measured"
    assert_eq "$(jq '[.callpath[] | select(.task_root) | .per_thread[].begins] | add' mixed_so_on/profile.json)" 40 \
              "library tasks, libmixed.so: its 40 tasks measured"
    assert_eq "$(type_sum mixed_so_on taskwait visits)" 1 "library tasks, libmixed.so: its taskwait measured"
    assert_eq "$(regions_where mixed_so_on '.type == "for" and .init != "ompt"')" 1 "library tasks, libmixed.so: the pompcc loop measured"
    assert_not_contains mixed_so_run.err "did not instrument ran" "library tasks, libmixed.so: nothing left unmeasured"
    # loaded by dlopen: no link sees the mark; the run says what went unmeasured
    cat > dl_mixed.c <<'C'
#include <dlfcn.h>
#include <stdio.h>
int main(void)
{
    void *h = dlopen("mixeddir/libmixed.so", RTLD_NOW);
    int (*f)(void) = h ? (int (*)(void))dlsym(h, "lib_single") : NULL;
    printf("%d\n", f ? f() : -1);
    return 0;
}
C
    "$POMPCC" -O2 -fopenmp dl_mixed.c -o dl_mixed -ldl 2> dl_mixed.err || { cat dl_mixed.err; fail "build dl_mixed"; }
    assert_eq "$(POMP_OUTPUT_DIR=dl_mixed_on ./dl_mixed 2> dl_mixed_run.err)" 780 "library tasks, libmixed.so by dlopen: the output"
    assert_contains dl_mixed_run.err "^pomp: note: a parallel region that pompcc did not instrument ran \(in libmixed.so\).*POMP_OMPT=full measures them" \
                    "library tasks, libmixed.so by dlopen: the run names it"
    POMP_OMPT=full POMP_OUTPUT_DIR=dl_mixed_full ./dl_mixed > /dev/null 2> /dev/null
    assert_eq "$(type_sum dl_mixed_full task_create visits)" 40 "library tasks, libmixed.so by dlopen, POMP_OMPT=full: its tasks measured"
    rm -rf mixed_so_on dl_mixed_on dl_mixed_full
fi

# a program all built with pompcc says nothing of the kind
assert_not_contains use_lib.err "use_lib.c.*not built with pompcc" "library tasks: the pompcc-built file is not named"

[ -n "$E2E_SANITIZE" ] && exit 0 # clang's sanitizer runtime cannot join gcc's in libpomp
POMP_CC=clang-19 "$POMPCC" -g -fopenmp -O2 waits.c -o waits_clang
POMP_OMPT=full POMP_LOOP=Chunks POMP_OUTPUT_DIR=clang ./waits_clang > clang.txt
diff -u plain.txt clang.txt || fail "clang build: output differs"
check clang "clang"

# Levels: Sync and Runtime at none, no barrier, critical or lock waits at all.
POMP_SYNC=none POMP_RUNTIME=none POMP_OUTPUT_DIR=none ./waits_clang > /dev/null
assert_eq "$(jq '[.regions[] | select(.type == "implicit_barrier" or .type == "wait")] | length' none/profile.json)" 0 "POMP_SYNC=none POMP_RUNTIME=none: no waits"
# POMP_OMPT=off: no tool, only what the instrumentation reports.
POMP_OMPT=off POMP_OUTPUT_DIR=noompt ./waits_clang > /dev/null
assert_eq "$(jq '[.regions[] | select(.init == "ompt")] | length' noompt/profile.json)" 0 "POMP_OMPT=off: no region from the runtime"
POMP_OMPT=maybe POMP_OUTPUT_DIR=bad ./waits_clang > /dev/null 2> bad.txt
assert_contains bad.txt "POMP_OMPT='maybe' is not valid \(allowed: on, off, full" "bad POMP_OMPT value reported"

# A parallel reduction of 8 threads on libomp: its tree reduction has a
# barrier of its own between the block's end and the closing barrier; the
# closing barrier starts after it (they overlapped: a worker's two barriers
# took more time than its share, own time wrapped below 0, --check failed)
cat > reduction8.c <<'C'
#include <stdio.h>
int main(void)
{
    long acc = 0;
#pragma omp parallel num_threads(8) reduction(+ : acc)
    acc += 1;
    printf("%ld\n", acc);
    return 0;
}
C
for cc in gcc clang; do
    if [ $cc = clang ]; then build_cmd="$BUILD/bin/pomp-clang"; else build_cmd="$POMPCC --pomp-runtime=omp"; fi
    $build_cmd -fopenmp -O2 reduction8.c -o red_$cc 2> red.err || { cat red.err; fail "reduction8 ($cc)"; }
    for run in 1 2 3; do
        POMP_OUTPUT_DIR=red_$cc.$run ./red_$cc > red.txt
        assert_contains red.txt "^8$" "reduction8 ($cc): the sum"
        "$REPORT" --check red_$cc.$run > red.check 2>&1 || { cat red.check; fail "reduction8 ($cc), run $run: --check"; }
    done
done

# single copyprivate: the threads that do not run the block wait for it (on
# libgomp inside GOMP_single_copy_start, where the wait was lost: 0.4 ms of
# 90); the waits hold what the program measured itself (less 15 ms), and
# little more (the executor's waits for a late thread, which the program does
# not measure: up to 40 ms on a busy machine)
"$POMPCC" -O2 -fopenmp "$NUMBERS/single_copy.c" -o single_copy
POMP_OUTPUT_DIR=single_copy.d ./single_copy > sc.txt 2> sc.err
assert_eq "$(cat sc.txt)" done "single copyprivate: the program"
truth=$(head -1 sc.err)
got=$("$REPORT" --json single_copy.d | jq '[.waits.rows[].total_ns] | add / 1e6')
awk -v t="$truth" -v g="$got" 'BEGIN { d = g - t; exit !(t > 60 && d < 40 && -d < 15) }' ||
    fail "single copyprivate: $got ms of waits, the program waited $truth ms"

# A master beside a construct left to the runtime (a loop whose pragma a
# function-like macro makes): libomp reports the masked block too, before the
# instrumentation's begin, which takes its frame over. The trace kept the
# runtime's begin open to the team's end, every later construct drawn inside
# it, and the summary counted its region as one seen only through the runtime
# (a probe). Every begin and enter of each thread's log now has its end and
# exit, and the count holds only regions with call paths.
cat > masked_rt.c <<'C'
#include <stdio.h>
#define DYN_FOR(i, n) _Pragma("omp for schedule(dynamic, 4)") for (int i = 0; i < (n); ++i)
int main(void)
{
    int a = 0, b = 0, d = 0;
#pragma omp parallel num_threads(2)
    {
        DYN_FOR(i, 8) {
#pragma omp atomic
            d++;
        }
#pragma omp master
        a++;
#pragma omp critical
        b++;
    }
    printf("%d %d %d\n", a, b, d);
    return 0;
}
C
for cc in gcc clang; do
    if [ $cc = clang ]; then build_cmd="$BUILD/bin/pomp-clang"; else build_cmd="$POMPCC --pomp-runtime=omp"; fi
    $build_cmd -fopenmp -O2 masked_rt.c -o masked_$cc 2> masked.err || { cat masked.err; fail "masked_rt ($cc)"; }
    assert_eq "$(POMP_SUMMARY=on POMP_TRACE=events POMP_OUTPUT_DIR=masked_$cc.d ./masked_$cc 2> masked.sum)" "1 2 8" \
              "master beside a runtime's loop ($cc): the program"
    open=$(awk '!/^#/ { k = $1 " " $4 }
                $3 ~ /_(begin|enter)$/ { n[k]++ } $3 ~ /_(end|exit)$/ { n[k]-- }
                END { for (k in n) if (n[k]) printf "%s(%d) ", k, n[k] }' masked_$cc.d/events.log)
    assert_eq "$open" "" "master beside a runtime's loop ($cc): every begin ends (thread region(open))"
    runtime=$(jq '[.callpath[].region] as $used
                  | [.regions[] | select(.init == "ompt" and .same_as == null and (.id as $i | $used | index($i)))]
                  | length' masked_$cc.d/profile.json)
    assert_contains masked.sum "\\($runtime seen only through the runtime\\)" \
                    "master beside a runtime's loop ($cc): the summary counts the runtime's regions with call paths"
    "$REPORT" --check masked_$cc.d > masked.check 2>&1 || { cat masked.check; fail "masked_rt ($cc): --check"; }
done
