#!/usr/bin/env bash
# pomp-report reads a profile of tens of thousands of threads in seconds: a
# traced server (each OS thread a record of its own: a trace location is one
# OS thread) with 20,000 requests of 2 threads wrote 40,000; the run's POP
# figures searched each node's parent's entries for each of a node's entries,
# quadratic in the threads, and pomp-report (--check too) ran for more than
# 5 minutes on it. Here a real traced run's threads are repeated to 20,000.
source "$(dirname "$0")/lib.sh"
# (-DCRITICAL: 2,000 criticals a thread, below)
cat > req.c <<'C'
#include <pthread.h>
#include <stdio.h>
static long shares;
static void *request(void *arg)
{
    (void)arg;
#pragma omp parallel num_threads(2)
#ifdef CRITICAL
    for (int i = 0; i < 2000; i++) {
#pragma omp critical
        shares++;
    }
#else
    {
#pragma omp atomic
        shares++;
    }
#endif
    return NULL;
}
int main(void)
{
    for (int r = 0; r < 100; r++) {
        pthread_t a;
        pthread_create(&a, NULL, request, NULL);
        pthread_join(a, NULL);
    }
    printf("%ld\n", shares);
    return 0;
}
C
"$POMPCC" -O2 -fopenmp req.c -o req -lpthread 2>build.err || { cat build.err; fail "build"; }
OMP_WAIT_POLICY=passive POMP_TRACE=events POMP_OUTPUT_DIR=rq timeout 60 ./req > rq.txt || fail "the program failed"
assert_eq "$(cat rq.txt)" 200 "the program's result"
# Each thread's entries repeated to about 20,000 threads: SRC-DIR DST-DIR
repeat_threads() {
    mkdir "$2"
    python3 - "$1"/profile.json "$2"/profile.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
n = len(d["threads"])
copies = max(1, 20000 // n)
threads = []
for c in range(copies):
    for t in d["threads"]:
        threads.append(dict(t, index=t["index"] + c * n))
d["threads"] = threads
for node in d["callpath"]:
    node["per_thread"] = [dict(e, thread=e["thread"] + c * n) for c in range(copies)
                          for e in node["per_thread"]]
json.dump(d, open(sys.argv[2], "w"))
PY
    nthreads=$(jq '.threads | length' "$2"/profile.json)
    [ "$nthreads" -ge 19000 ] || fail "$2: the profile holds $nthreads threads, expected about 20,000"
}
repeat_threads rq many
timeout 20 "$REPORT" many > many.txt || fail "pomp-report on $nthreads threads did not finish in 20 s"
assert_contains many.txt "^parallel +req.c" "the report's call paths"

# A throttled critical in each request (POMP_THROTTLE): where its untimed
# executions' time went was found by a scan of the enclosing path's entries
# for each thread, and each parallel region's untimed waits by a scan of the
# nodes before each: pomp-report ran past 120 s on 20,000 threads (now 4 s).
"$POMPCC" -O2 -fopenmp -DCRITICAL req.c -o req_critical -lpthread 2>build.err || { cat build.err; fail "build"; }
OMP_WAIT_POLICY=passive POMP_THROTTLE=1000,1ms POMP_TRACE=events POMP_OUTPUT_DIR=rc \
    timeout 60 ./req_critical > rc.txt || fail "the throttled program failed"
assert_eq "$(cat rc.txt)" 400000 "throttled: the program's result"
[ "$(jq '[.callpath[].per_thread[].untimed // 0] | add' rc/profile.json)" -gt 100000 ] ||
    fail "throttled: the critical's executions were not throttled"
repeat_threads rc many_throttled
timeout 40 "$REPORT" many_throttled > many_throttled.txt ||
    fail "pomp-report on $nthreads threads with throttled executions did not finish in 40 s"
assert_contains many_throttled.txt "waits not measured: [0-9]+ executions of throttled regions" \
                "throttled: the untimed waits said"
# (--check: at the end, on every profile the test wrote)
exit 0
