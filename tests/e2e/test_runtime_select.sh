# Runtime selection at link time: pompcc links LLVM libomp, for GCC objects
# too, unless they call an entry point libomp lacks ('scope' with reductions,
# the 'error' directive): then libgomp, with a note, and a note at run time
# that OMPT is missing. --pomp-runtime=gomp forces libgomp.
source "$(dirname "$0")/lib.sh"
runtime_of() { ldd "$1" | grep -oE 'lib(g?omp)\.so[.0-9]*' | sort -u | tr '\n' ' '; }

cat > plain.c <<'C'
#include <stdio.h>
int main(void)
{
    int n = 0;
    #pragma omp parallel num_threads(2) reduction(+: n)
    n++;
    printf("%d\n", n);
    return 0;
}
C
"$POMPCC" -fopenmp plain.c -o plain 2> plain.err
assert_eq "$(runtime_of plain)" "libomp.so.5 " "a plain GCC program links LLVM libomp"
assert_not_contains plain.err 'libgomp' "no note for a program libomp serves"
assert_eq "$(POMP_OUTPUT_DIR=p ./plain 2> p.err)" 2 "output on libomp"
assert_not_contains p.err 'no OMPT' "no run-time note on libomp"

cat > scope.c <<'C'
#include <stdio.h>
int main(void)
{
    int s = 0;
    #pragma omp parallel num_threads(2)
    {
        #pragma omp scope reduction(task, +: s)
        {
            #pragma omp task in_reduction(+: s)
            s++;
        }
    }
    printf("%d\n", s);
    return 0;
}
C
"$POMPCC" -fopenmp scope.c -o scope 2> scope.err
assert_contains scope.err "^pompcc: note: linking GCC's libgomp instead of LLVM libomp: scope.c calls GOMP_scope_start \('scope' with reductions\)" "note names the source, the entry point and the feature"
assert_eq "$(runtime_of scope)" "libgomp.so.1 " "falls back to libgomp"
assert_eq "$(POMP_OUTPUT_DIR=s ./scope 2> s.err)" 2 "output on libgomp"
assert_eq "$(grep -c "this program ran on GCC's libgomp, which has no OMPT" s.err)" 1 "run-time note, once"
assert_eq "$(region_sum s parallel 5 visits)" 1 "POMP events still measured on libgomp"

cat > err.c <<'C'
#include <stdio.h>
int main(void)
{
    #pragma omp error at(execution) severity(warning) message("careful")
    puts("after");
    return 0;
}
C
"$POMPCC" -fopenmp -c err.c -o err.o 2> /dev/null
"$POMPCC" -fopenmp err.o -o err 2> err.err
assert_contains err.err "err.o calls GOMP_(error|warning) \(the 'error' directive\)" "the error directive, from an object"
assert_eq "$(runtime_of err)" "libgomp.so.1 " "the error directive falls back to libgomp"
assert_eq "$(POMP_SUMMARY=off ./err 2> /dev/null)" "after" "runs on libgomp"

# Forced: --pomp-runtime=gomp links libgomp without a note from pompcc.
"$POMPCC" --pomp-runtime=gomp -fopenmp plain.c -o plain_gomp 2> forced.err
assert_eq "$(runtime_of plain_gomp)" "libgomp.so.1 " "--pomp-runtime=gomp"
assert_not_contains forced.err 'note' "no note when the user chose libgomp"
POMP_OUTPUT_DIR=g ./plain_gomp > /dev/null 2> g.err
assert_contains g.err "no OMPT" "run-time note under a forced libgomp"
# Forced the other way: a warning, and libomp (the link then fails on the missing entry point).
set +e
"$POMPCC" --pomp-runtime=libomp -fopenmp scope.c -o scope_omp > /dev/null 2> forced2.err
set -e
assert_contains forced2.err "pompcc: warning: scope.c calls GOMP_scope_start .*; linking it as --pomp-runtime=libomp asks" "warning when forced to libomp"

# omp_pause_resource_all(omp_pause_hard): libomp 19 crashes in omp_get_thread_num()
# until the next parallel region; the inserted code must not be the one calling it.
cat > pause.c <<'C'
#include <omp.h>
#include <stdio.h>
int main(void)
{
    int n = 0;
    #pragma omp parallel num_threads(3) reduction(+: n)
    n++;
    if (omp_pause_resource_all(omp_pause_hard) != 0)
        puts("pause refused");
    int m = 0;
    #pragma omp parallel for num_threads(2) reduction(+: m)
    for (int i = 0; i < 10; i++)
        m += i;
    printf("%d %d\n", n, m);
    return 0;
}
C
plain_cc pause.c -o pause_plain
for rt in libomp gomp; do
    "$POMPCC" --pomp-runtime=$rt -fopenmp pause.c -o pause_$rt
    assert_eq "$(POMP_OUTPUT_DIR=pause_$rt.d ./pause_$rt)" "$(./pause_plain)" "omp_pause_resource_all on $rt"
done
# libgomp keeps measuring after the pause (libomp finalizes its OMPT tool there, and libpomp with it)
assert_eq "$(region_sum pause_gomp.d parallel 11 visits)" 1 "the region after the pause is measured"
