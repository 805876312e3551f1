# The profile's numbers against known work: thread 1 spins a known time inside
# a named critical region; the profile shows that time within 5 %, on the thread
# whose omp_get_thread_num() is 1, and nowhere else.
source "$(dirname "$0")/lib.sh"
cat > known.c <<'C'
#include <omp.h>
#include <stdio.h>
#include <time.h>

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(void)
{
    double spun = 0;
    #pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == 1) {
            #pragma omp critical(slow)
            {
                double t0 = now_ns();
                while (now_ns() - t0 < 200e6)
                    ;
                spun = now_ns() - t0;
            }
        }
    }
    printf("%.0f\n", spun);
    return 0;
}
C
"$POMPCC" -fopenmp -O2 known.c -o known
spun=$(POMP_OUTPUT_DIR=k ./known)
L=$(line_of known.c "#pragma omp critical")
jq -r --argjson l $L '
  ([.regions[] | select(.type == "critical" and .first_line == $l) | .id]) as $ids
  | (.threads | map({(.index|tostring): .omp_thread_num}) | add) as $num
  | .callpath[] | select(.region as $r | $ids | index($r)) | .per_thread[]
  | "\($num[.thread|tostring]) \(.incl_ns) \(.visits)"' k/profile.json > crit.txt
assert_eq "$(wc -l < crit.txt)" 1 "the critical region was recorded on one thread"
read -r num incl visits < crit.txt
assert_eq "$num" 1 "the thread that spun (omp_get_thread_num() == 1)"
assert_eq "$visits" 1 "visits"
awk -v m="$incl" -v s="$spun" 'BEGIN { d = (m - s) / s; if (d < 0) d = -d; exit !(d <= 0.05) }' \
    || fail "critical time $incl ns is not within 5 % of the $spun ns spun"
# The master waited for it at the join: the parallel region on thread 0 lasts at least as long.
L2=$(line_of known.c "#pragma omp parallel")
master_incl=$(jq -r --argjson l $L2 '
  ([.regions[] | select(.type == "parallel" and .first_line == $l) | .id]) as $ids
  | (.threads | map({(.index|tostring): .omp_thread_num}) | add) as $num
  | .callpath[] | select(.region as $r | $ids | index($r)) | .per_thread[]
  | select($num[.thread|tostring] == 0) | .incl_ns' k/profile.json)
awk -v m="$master_incl" -v s="$spun" 'BEGIN { exit !(m >= 0.95 * s) }' \
    || fail "the parallel region on thread 0 ($master_incl ns) is shorter than the spin ($spun ns)"
