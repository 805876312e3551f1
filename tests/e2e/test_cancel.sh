# The implicit barriers of worksharing constructs in a parallel region with a
# cancel parallel in it, where GCC calls the _cancel forms of their ends
# (GOMP_sections_end_cancel, GOMP_loop_end_cancel: docs/gomp.md), cancelled
# or not: each barrier is measured, its wait is the barrier's, not the
# construct's work. A sleep-based known answer: thread 0 sleeps 100 ms before
# each construct (or before it cancels the region), so that the two others
# wait at the construct's barrier for it. Run by pomprun on the plain build
# (libgomp) and built with pompcc; the output is the plain build's.
# And a cancel counted once: on LLVM libomp, a cancel in the body of a
# pompcc-built taskloop (whose tasks the OMPT bridge measures) is POMP's
# cancel event, not also the runtime's "cancel activated".
source "$(dirname "$0")/lib.sh"
POMPRUN="$BUILD/bin/pomprun"
[ -n "$E2E_SANITIZE" ] && exit 0 # (a sanitized libpomp cannot be loaded into a plain program)
export OMP_WAIT_POLICY=passive

cat > cancelws.c <<'C'
#include <stdio.h>
#include <unistd.h>
#include <omp.h>

int main(int argc, char **argv)
{
    int cancel = argc > 1, secs = 0, iters = 0, after = 0;
    #pragma omp parallel num_threads(3)
    {
        if (omp_get_thread_num() == 0) {
            usleep(100000);
            if (cancel) {
                #pragma omp cancel parallel
            }
        }
        #pragma omp sections
        {
            #pragma omp section
            {
                #pragma omp atomic
                secs++;
            }
            #pragma omp section
            {
                #pragma omp atomic
                secs++;
            }
        }
        if (omp_get_thread_num() == 0)
            usleep(100000);
        #pragma omp for schedule(dynamic)
        for (int i = 0; i < 30; i++) {
            #pragma omp atomic
            iters++;
        }
        #pragma omp atomic
        after++;
    }
    printf("sections %d iterations %d after %d\n", secs, iters, after);
    return 0;
}
C
cc -g -O2 -fopenmp cancelws.c -o cancelws
objdump -d cancelws > cancelws.dis
for e in GOMP_sections_end_cancel GOMP_loop_end_cancel; do
    grep -qE "call.*<$e@plt>" cancelws.dis || fail "the plain build calls no $e"
done
"$POMPCC" -g -O2 -fopenmp cancelws.c -o cancelws_pomp

# barriers DIR FIELD: FIELD (visits, incl_ns) summed over the worksharing
# constructs' implicit barriers (not the parallel region's own)
barriers() {
    jq --arg f "$2" '
      ([.regions[] | select(.type == "implicit_barrier" and .name != "parallel") | .id]) as $ids
      | [.callpath[] | select(.region as $r | $ids | index($r)) | .per_thread[][$f]] | add // 0' \
      "$1/profile.json"
}

for cancellation in true false; do
    for arg in "" cancel; do
        OMP_CANCELLATION=$cancellation ./cancelws $arg > plain.txt
        cancelled=0
        [ "$cancellation" = true ] && [ -n "$arg" ] && cancelled=1
        if [ $cancelled = 1 ]; then
            assert_eq "$(cat plain.txt)" "sections 2 iterations 0 after 0" "the plain build, cancelled"
        else
            assert_eq "$(cat plain.txt)" "sections 2 iterations 30 after 3" "the plain build ($cancellation${arg:+, $arg})"
        fi
        for how in pomprun pompcc; do
            d=${how}_${cancellation}_${arg:-none}
            if [ $how = pomprun ]; then
                OMP_CANCELLATION=$cancellation POMP_OUTPUT_DIR=$d "$POMPRUN" ./cancelws $arg > $d.txt
            else
                OMP_CANCELLATION=$cancellation POMP_OUTPUT_DIR=$d ./cancelws_pomp $arg > $d.txt
            fi
            diff -u plain.txt $d.txt || fail "$d: the output differs from the plain build"
            # two threads waited about 100 ms at each barrier thread 0 came to
            # (the sections' only, when it cancelled): 2 x 100 ms, less what a
            # late start of theirs took
            ms=$(( $(barriers $d incl_ns) / 1000000 ))
            if [ $cancelled = 1 ]; then
                [ "$ms" -ge 120 ] || fail "$d: the sections' barrier waited ${ms} ms (2 threads x 100 ms)"
                [ -n "${E2E_RUNTIME:-}" ] || assert_eq "$(barriers $d visits)" 2 "$d: the sections' barrier on the 2 threads that reached it"
            else
                [ "$ms" -ge 240 ] || fail "$d: the barriers waited ${ms} ms (2 x 2 threads x 100 ms)"
                [ -n "${E2E_RUNTIME:-}" ] || assert_eq "$(barriers $d visits)" 6 "$d: the two barriers on 3 threads"
            fi
        done
    done
done
# ---- a cancel in a taskloop's body, built by pomp-clang: one cancel ----
cat > tlcancel.c <<'C'
#include <stdio.h>

int main(void)
{
    int ran = 0;
    #pragma omp parallel num_threads(2)
    #pragma omp single
    #pragma omp taskloop grainsize(1)
    for (int i = 0; i < 20; i++) {
        if (i == 0) {
            #pragma omp cancel taskgroup
        }
        #pragma omp atomic
        ran++;
    }
    printf("done\n");
    return 0;
}
C
"$BUILD/bin/pomp-clang" -fopenmp tlcancel.c -o tlcancel
OMP_CANCELLATION=true POMP_OUTPUT_DIR=tlc ./tlcancel > tlc.txt
assert_eq "$(cat tlc.txt)" done "tlcancel: its output"
# (POMP's cancel and the runtime's activated one: not the tasks it discarded)
cancels=$(jq '([.regions[] | select(.type == "cancel" and (.name == "" or .name == "activated")) | .id]) as $ids
              | [.callpath[] | select(.region as $r | $ids | index($r)) | .per_thread[].visits] | add // 0' \
          tlc/profile.json)
assert_eq "$cancels" 1 "tlcancel: the one cancel that ran, counted once"
exit 0
