#!/usr/bin/env bash
# The POP metrics and the load balance of a program with a known split match
# the split within 5 % (docs/output.md, "Efficiency"): thread 0 works EXTRA ms
# more than thread 1 before the region's barrier, after COMMON ms each.
NUMBERS="$(cd "$(dirname "$0")" && pwd)/numbers"
source "$(dirname "$0")/lib.sh"
"$POMPCC" -O2 -fopenmp "$NUMBERS/imbalance.c" -o imbalance 2>build.err || { cat build.err; fail "build"; }

within5() { # GOT EXPECTED WHAT (percentages)
    awk -v g="$1" -v e="$2" 'BEGIN { d = g - e; if (d < 0) d = -d; exit !(d <= 0.05 * e) }' ||
        fail "$3: $1 %, expected $2 % (within 5 %)"
}
for split in "200 0" "200 50" "100 100"; do
    set -- $split
    extra=$1 common=$2
    dir=out-$extra-$common
    POMP_OUTPUT_DIR=$dir ./imbalance "$extra" "$common" > run.txt
    assert_contains run.txt "^done$" "the program ran"
    "$REPORT" --json $dir > r.json
    # work: thread 0 extra + common, thread 1 common: LB = mean / max
    lb=$(awk -v x="$extra" -v c="$common" 'BEGIN { printf "%.3f", 100 * (x + 2 * c) / 2 / (x + c) }')
    region=$(jq '.efficiency.parallel_regions[0]' r.json)
    within5 "$(jq '.load_balance_pct' <<<"$region")" "$lb" "$split: the region's load balance"
    within5 "$(jq '.parallel_efficiency_pct' <<<"$region")" "$lb" "$split: the region's parallel efficiency"
    within5 "$(jq '.synchronisation_efficiency_pct' <<<"$region")" 100 "$split: the critical thread never waits"
    within5 "$(jq '.fork_join_efficiency_pct' <<<"$region")" 100 "$split: fork/join"
    # the product of the factors is the parallel efficiency, exactly
    jq -e '.load_balance_pct * .synchronisation_efficiency_pct * .fork_join_efficiency_pct / 1e4
           - .parallel_efficiency_pct | fabs < 1e-6' <<<"$region" > /dev/null || fail "$split: PE = LB x SyE x FJE"
    # the run is the region, less a short serial start and end
    within5 "$(jq '.efficiency.run.load_balance_pct' r.json)" "$lb" "$split: the run's load balance"
    # the call-path row of the parallel region shows the same load balance
    within5 "$(jq '([.regions[] | select(.type == "parallel") | .id]) as $p
                   | [.callpath[] | select(.region as $r | $p | index($r))][0].load_balance_pct' r.json)" \
            "$lb" "$split: the call-path row's LB"
    "$REPORT" $dir > text.txt
    assert_contains text.txt "^Efficiency \(POP metrics" "the text report opens with the metrics"
    assert_contains text.txt "^\(the run\) " "the run's line"
done
# A task's waits count for the region that ran it: a task waits in a taskwait
# for its child, so the region's efficiency is that of the run (at most 60 %
# for 10 ms of parent and 50 ms of child; its task roots are trees of their own,
# which the region's figures once left out: 99 %).
"$POMPCC" -O2 -fopenmp "$NUMBERS/taskwait_split.c" -o taskwait_split 2>build.err ||
    { cat build.err; fail "build taskwait_split"; }
POMP_OUTPUT_DIR=tw ./taskwait_split 10 50 > run.txt
assert_contains run.txt "^done 11$" "the tasks ran"
"$REPORT" --check tw > check.txt || { cat check.txt; fail "--check on the taskwait profile"; }
"$REPORT" --json tw > r.json
pe_run=$(jq '.efficiency.run.parallel_efficiency_pct' r.json)
pe_region=$(jq '.efficiency.parallel_regions[0].parallel_efficiency_pct' r.json)
within5 "$pe_region" "$pe_run" "a task's taskwait: the region's parallel efficiency against the run's"
awk -v pe="$pe_region" 'BEGIN { exit !(pe <= 63) }' ||
    fail "a task's taskwait: the region's parallel efficiency $pe_region %, at most 60 % expected"
echo "POP metrics: three known splits within 5 %; a task's taskwait counts for its region"
