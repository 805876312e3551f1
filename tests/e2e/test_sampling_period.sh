#!/usr/bin/env bash
# A sampling period shorter than a sample costs (10us, 20us: inside the
# documented range) is raised, with a warning, instead of hanging the program.
NUMBERS="$(cd "$(dirname "$0")" && pwd)/numbers"
source "$(dirname "$0")/lib.sh"
"$POMPCC" -O2 -fopenmp "$NUMBERS/msort.c" -o msort 2>build.err || { cat build.err; fail "build"; }
for period in 10us 20us; do
    timeout 120 env OMP_NUM_THREADS=2 POMP_SAMPLING=$period POMP_OUTPUT_DIR=s$period ./msort 300000 \
        > run.txt 2> run.err || fail "POMP_SAMPLING=$period: the program did not finish ($?)"
    assert_contains run.txt "^sorted 300000 numbers, 0 out of order$" "$period: the program computes the same"
    assert_contains run.err "warning: POMP_SAMPLING=$period is shorter than 20 samples cost here \(one: [0-9.]+ us\): sampling every [0-9]+ us instead" \
                    "$period: the raise is said"
    raised=$(sed -nE 's/.*sampling every ([0-9]+) us instead.*/\1/p' run.err)
    assert_eq "$(jq '.sampling.period_ns' s$period/profile.json)" "$((raised * 1000))" "$period: the profile has the period used"
    [ "$(jq '.sampling.samples' s$period/profile.json)" -gt 0 ] || fail "$period: no samples"
done
echo "sampling period: 10us and 20us raised and said, no hang"
