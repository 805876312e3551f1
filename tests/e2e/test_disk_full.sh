#!/usr/bin/env bash
# A trace conversion that fills the disk (a small tmpfs: the raw trace fits,
# the Chrome JSON made from it does not) costs the trace, never profile.json,
# and the messages say what was and was not written. Needs root for the mount
# (as CI and make test run); skipped without it.
source "$(dirname "$0")/lib.sh"
cat > loop.c <<'C'
#include <stdio.h>
int main(void)
{
    long s = 0;
#pragma omp parallel num_threads(2) reduction(+:s)
    for (int i = 0; i < 20000; i++) {
#pragma omp critical
        s += i;
    }
    printf("%ld\n", s);
    return 0;
}
C
"$POMPCC" -O1 -fopenmp loop.c -o loop 2>build.err || { cat build.err; fail "build"; }
mkdir small
mount -t tmpfs -o size=6m tmpfs small 2>/dev/null || { echo "skipped: cannot mount a small tmpfs (not root)"; exit 77; }
trap 'umount "$WORK/small" 2>/dev/null; check_every_profile' EXIT
# ~160,000 events: ~4 MB of raw records fit in 6 MB, their OTF2 and Chrome JSON do not
POMP_TRACE=both POMP_OUTPUT_DIR=small/out ./loop > run.txt 2> run.err || fail "the program failed: $(cat run.err)"
cp -r small/out out
assert_contains run.txt "^399980000$" "the program computes the same"
[ -s out/profile.json ] || { cat run.err >&2; fail "profile.json lost to the trace"; }
"$REPORT" --check out > /dev/null || fail "the profile is whole"
assert_contains run.err "error: cannot write .*/trace.json: No space left on device" "what failed is said"
assert_not_contains run.err "profile.json" "nothing said against the profile"
[ ! -e out/trace.json ] || fail "a partial trace.json left behind"
assert_contains run.err "error: OTF2: .*; the partial archive was removed" "the OTF2 failure is said"
[ ! -e out/traces.otf2 ] && [ ! -e out/traces ] || fail "a partial OTF2 archive left behind"
echo "disk full: the trace is lost and said, the profile kept"
