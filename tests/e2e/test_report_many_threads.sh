#!/usr/bin/env bash
# pomp-report reads a profile of tens of thousands of threads in seconds: a
# traced server (each OS thread a record of its own: a trace location is one
# OS thread) with 20,000 requests of 2 threads wrote 40,000; the run's POP
# figures searched each node's parent's entries for each of a node's entries,
# quadratic in the threads, and pomp-report (--check too) ran for more than
# 5 minutes on it. Here a real traced run's threads are repeated to 20,000.
source "$(dirname "$0")/lib.sh"
cat > req.c <<'C'
#include <pthread.h>
#include <stdio.h>
static long shares;
static void *request(void *arg)
{
    (void)arg;
#pragma omp parallel num_threads(2)
    {
#pragma omp atomic
        shares++;
    }
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
mkdir many
python3 - rq/profile.json many/profile.json <<'PY'
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
nthreads=$(jq '.threads | length' many/profile.json)
[ "$nthreads" -ge 19000 ] || fail "the profile holds $nthreads threads, expected about 20,000"
timeout 20 "$REPORT" many > many.txt || fail "pomp-report on $nthreads threads did not finish in 20 s"
assert_contains many.txt "^parallel +req.c" "the report's call paths"
# (--check: at the end, on every profile the test wrote)
exit 0
