# pomp-report: a barrier the runtime reported without a file, placed in the
# construct it ends, keeps that place in the flat table when its location
# ("fn()+0x..., in single @ file:lines") is too long for the column: its own
# function went alone ("fn()+0x1a2b"), and in the flat table, whose row above
# is another region, two singles' barriers of one function read as two
# offsets, not which construct each ended (a probe's LULESH-style mini-app,
# 2026-12-03). The call-path table, where the row above is the place, keeps
# the function.
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/lib.sh"
cat > places.c <<'C'
#include <stdio.h>
static int a, b;
void orphaned_phase_with_a_rather_long_name(void);
void orphaned_phase_with_a_rather_long_name(void)
{
#pragma omp single
    a++;
#pragma omp single
    b++;
}
int main(void)
{
#pragma omp parallel num_threads(2)
    orphaned_phase_with_a_rather_long_name();
    orphaned_phase_with_a_rather_long_name();
    printf("a=%d b=%d\n", a, b);
    return 0;
}
C
"$POMPCC" -fopenmp -O2 places.c -o places
POMP_OUTPUT_DIR=pl ./places > pl.out
assert_eq "$(cat pl.out)" "a=2 b=2" "program output"
L1=$(grep -n "#pragma omp single" places.c | sed -n 1p | cut -d: -f1)
L2=$(grep -n "#pragma omp single" places.c | sed -n 2p | cut -d: -f1)
"$REPORT" pl > text.txt
sed -n '/^Regions by self time/,/^$/p' text.txt > flat.txt
for L in "$L1" "$L2"; do
    assert_contains flat.txt "^implicit_barrier [a-z]+ +(orphaned_phase[^ ]*, )?in single @ places.c:$L-$((L + 1)) " \
        "the flat table places the barrier of the single at line $L"
done
assert_not_contains flat.txt "^implicit_barrier [a-z]+ +orphaned_phase[^ ]* +[0-9]" \
    "a flat row of a barrier named by its function alone"
"$REPORT" --check pl > /dev/null || fail "pomp-report --check"
echo "PASS test_report_places"
