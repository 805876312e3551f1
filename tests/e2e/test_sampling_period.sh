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
    # Samples that take longer than the start measured (the sort's deep
    # stacks; under make sanitize each frame costs two system calls) raise a
    # thread's period again at run time: said, and each of its samples then
    # counts for the periods it stands for, so the sampled time still adds up
    # to the threads' time (the worker starts sampling at its first region).
    raised_threads=$(jq '.sampling.raised_threads' s$period/profile.json)
    max_period=$(jq '.sampling.max_period_ns' s$period/profile.json)
    if [ "$raised_threads" -gt 0 ]; then
        assert_contains run.err "warning: samples took up to [0-9.]+ us on $raised_threads threads?, too long for POMP_SAMPLING's period: their period was raised at run time, to up to $((max_period / 1000)) us" \
                        "$period: the raise at run time is said"
        multiple=$((max_period / (raised * 1000)))
        assert_eq "$((max_period % (raised * 1000)))$(( (multiple & (multiple - 1)) == 0 && multiple > 1 ))" 01 \
                  "$period: a raised period is the period times a power of two"
    else
        assert_eq "$max_period" "$((raised * 1000))" "$period: no thread raised, the longest period is the period"
        assert_not_contains run.err "raised at run time" "$period: no raise said"
    fi
    jq -e '.sampling.samples * .sampling.period_ns / (2 * .duration_ns) | . > 0.4 and . < 1.15' \
        s$period/profile.json > /dev/null ||
        fail "$period: samples x period is not the threads' time: $(jq -c '[.sampling.samples, .sampling.period_ns, .duration_ns]' s$period/profile.json)"
done
echo "sampling period: 10us and 20us raised and said, no hang"
