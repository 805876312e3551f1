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
# (the test's status through the umount: check_every_profile reads it from $?)
trap 'st=$?; umount "$WORK/small" 2>/dev/null; (exit $st); check_every_profile' EXIT
# ~160,000 events (every critical timed: throttled, it left 40,000, whose
# OTF2 fitted, and the test's failing asserts went unseen through its trap):
# ~4 MB of raw records fit in 6 MB, their OTF2 and Chrome JSON do not
POMP_THROTTLE=off POMP_TRACE=both POMP_OUTPUT_DIR=small/out ./loop > run.txt 2> run.err || fail "the program failed: $(cat run.err)"
cp -r small/out out
assert_contains run.txt "^399980000$" "the program computes the same"
[ -s out/profile.json ] || { cat run.err >&2; fail "profile.json lost to the trace"; }
"$REPORT" --check out > /dev/null || fail "the profile is whole"
assert_contains run.err "error: cannot write .*/trace.json: No space left on device" "what failed is said"
assert_not_contains run.err "profile.json" "nothing said against the profile"
[ ! -e out/trace.json ] || fail "a partial trace.json left behind"
assert_contains run.err "error: OTF2: No space left on device: .*; the partial archive was removed" "the OTF2 failure is said, by its cause"
assert_not_contains run.err "^\[OTF2\]" "libotf2's own error lines (15 for one full disk)"
[ ! -e out/traces.otf2 ] && [ ! -e out/traces ] || fail "a partial OTF2 archive left behind"

# The raw trace itself fills the disk (1 MB for ~4 MB of records, every
# critical timed): the room kept for the profile (trace-raw/profile.reserve,
# an eighth of the file system) holds it at exit. It was lost: the raw files'
# last writes left no room by the time the profile was written.
umount "$WORK/small"
mount -t tmpfs -o size=1m tmpfs small || fail "mount a 1 MB tmpfs"
POMP_THROTTLE=off POMP_TRACE=otf2 POMP_OUTPUT_DIR=small/out2 ./loop > run2.txt 2> run2.err || fail "the program failed: $(cat run2.err)"
cp -r small/out2 out2
assert_contains run2.txt "^399980000$" "the program computes the same (raw trace cut)"
[ -s out2/profile.json ] || { cat run2.err >&2; fail "profile.json lost to a raw trace that filled the disk"; }
"$REPORT" --check out2 > /dev/null || fail "the profile is whole (raw trace cut)"
assert_contains run2.err "trace events were lost" "the trace's losses are said"
[ ! -e out2/trace-raw/profile.reserve ] || fail "the room kept for the profile is left behind"
echo "disk full: the trace is lost and said, the profile kept"
echo "raw trace filling the disk: the profile kept in the room kept for it"
