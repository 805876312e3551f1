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
    # work: thread 0 extra + common, thread 1 common: LB = mean / max
    lb=$(awk -v x="$extra" -v c="$common" 'BEGIN { printf "%.3f", 100 * (x + 2 * c) / 2 / (x + c) }')
    # (a loaded machine starts the worker late or takes a thread's CPU away:
    # 88.6 % fork/join once beside a full test run; a run or two more before
    # the verdict on the figures that time decides)
    for try in 1 2 3; do
        rm -rf $dir
        POMP_OUTPUT_DIR=$dir ./imbalance "$extra" "$common" > run.txt
        assert_contains run.txt "^done$" "the program ran"
        "$REPORT" --json $dir > r.json
        region=$(jq '.efficiency.parallel_regions[0]' r.json)
        (within5 "$(jq '.load_balance_pct' <<<"$region")" "$lb" "" &&
         awk -v g="$(jq '.fork_join_efficiency_pct' <<<"$region")" 'BEGIN { exit !(g >= 90 && g <= 100) }') \
            2> /dev/null && break
    done
    within5 "$(jq '.load_balance_pct' <<<"$region")" "$lb" "$split: the region's load balance"
    within5 "$(jq '.synchronisation_efficiency_pct' <<<"$region")" 100 "$split: the critical thread never waits"
    # fork/join: starting the thread takes a few ms of the 200 or more (more on a busy machine)
    fj=$(jq '.fork_join_efficiency_pct' <<<"$region")
    awk -v g="$fj" 'BEGIN { exit !(g >= 90 && g <= 100) }' || fail "$split: fork/join $fj %, expected 90 to 100 %"
    within5 "$(jq '.parallel_efficiency_pct' <<<"$region")" "$(awk -v l="$lb" -v f="$fj" 'BEGIN { print l * f / 100 }')" \
        "$split: the region's parallel efficiency (its load balance x fork/join)"
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

# At POMP_PARALLEL=EnterExit no thread's block, so no worker's share, is
# recorded: the region is not rated (it would be one thread's), and says so.
POMP_PARALLEL=EnterExit POMP_OUTPUT_DIR=ee ./imbalance 20 0 > run.txt
"$REPORT" --json ee > r.json
assert_eq "$(jq '.efficiency.parallel_regions | length' r.json)" 0 "EnterExit: no region rated"
assert_eq "$(jq '.efficiency.parallel_regions_without_shares' r.json)" 1 "EnterExit: the region left out"
"$REPORT" ee > text.txt
assert_contains text.txt "1 parallel region without the team's shares" "EnterExit: said in the text"
# nor the run: its workers' time in that region is missing, so they would
# look idle (the run read 'parallel efficiency 50 %' for a balanced program)
assert_eq "$(jq -c '.efficiency.run | [.rated, has("parallel_efficiency_pct")]' r.json)" '[false,false]' \
          "EnterExit: the run not rated"
assert_contains text.txt "^\(the run\) .* not rated: parallel regions without the team's shares" \
                "EnterExit: the run's line says it is not rated"

# The same level at compile time: the runtime gives the workers' shares, but
# the master's enter..exit holds its block with the fork and join (a nested
# region read 100 % fork/join efficiency for 27-50; a probe): not rated either.
cat > ctee.c <<'C'
#include <stdio.h>
#include <unistd.h>
int main(void)
{
    int n = 0;
#pragma pomp inst parallel EnterExit
#pragma omp parallel num_threads(2) reduction(+:n)
    {
        usleep(20000);
        n++;
    }
    printf("%d\n", n);
    return 0;
}
C
"$POMPCC" -fopenmp ctee.c -o ctee 2> build.err || { cat build.err; fail "ctee: build"; }
assert_eq "$(POMP_OUTPUT_DIR=ctee_out ./ctee 2> /dev/null)" 2 "compile-time EnterExit: the program"
"$REPORT" --json ctee_out > r.json
assert_eq "$(jq -c '[(.efficiency.parallel_regions | length), .efficiency.parallel_regions_without_shares]' r.json)" "[0,1]" \
          "compile-time EnterExit: the region not rated, said"
"$REPORT" ctee_out > text.txt
assert_contains text.txt "1 parallel region without the team's shares or the master's block .*inst parallel EnterExit at compile time" \
                "compile-time EnterExit: said in the text"

# The thread that forks a region spends the fork (its enter to its block's
# begin) and the join outside its share of the team: fork/join management,
# not work. A profile of a fork of 100 ms before 2 threads work 25 ms each
# (the master's enter..exit 125 ms, its block 25 ms, its closing barrier 10 us;
# a fork that long cannot be made on purpose: starting threads takes what it
# takes): load balance 100 %, fork/join 25 / 125 = 20 %, the call-path row as
# balanced, and for the run the master's 30 ms (130 less the fork) against
# the worker's 25.
mkdir fork
jq -n '
  def entry(t; v; b; incl; body): {thread: t, visits: v, begins: b, incl_ns: incl, excl_ns: incl,
                                    min_ns: incl, max_ns: incl, body_ns: body};
  def thread(i): {index: i, omp_thread_num: i, os_tid: (100 + i), nesting_errors: 0, dropped_paths: 0,
                  deep_events: 0, untimed_events: 0, max_nodes: 1048576, dropped_events: 0,
                  dropped_values: 0, open_at_end: 0};
  {format: "pomp-profile", version: 1, program: "fork", pid: 100,
   clock: {source: "tsc", ticks_per_ns: 1.0}, duration_ns: 130000000,
   regions: [{id: 2, type: "implicit_barrier", name: "parallel", file: "", first_line: 0,
              last_line: 0, init: "ompt", ctc: "38*type=implicit_barrier*name=parallel**"},
             {id: 1, type: "parallel", name: "", file: "fork.c", first_line: 5, last_line: 6,
              init: "handle", ctc: "41*type=parallel*file=fork.c*slines=5,5*elines=6,6**"}],
   threads: [thread(0), thread(1)],
   callpath: [{id: 1, parent: 0, region: 1,
               per_thread: [(entry(0; 1; 1; 125000000; 25000000) | .excl_ns = 124990000),
                            (entry(1; 0; 1; 25010000; 25000000) | .excl_ns = 25000000)]},
              {id: 2, parent: 1, region: 2,
               per_thread: [entry(0; 1; 0; 10000; 0), entry(1; 1; 0; 10000; 0)]}]}' > fork/profile.json
"$REPORT" --json fork > r.json
region=$(jq '.efficiency.parallel_regions[0]' r.json)
within5 "$(jq '.load_balance_pct' <<<"$region")" 100 "fork: the region's load balance"
within5 "$(jq '.synchronisation_efficiency_pct' <<<"$region")" 100 "fork: synchronisation"
within5 "$(jq '.fork_join_efficiency_pct' <<<"$region")" 20 "fork: fork/join"
within5 "$(jq '.parallel_efficiency_pct' <<<"$region")" 20 "fork: the parallel efficiency"
within5 "$(jq '.callpath[0].load_balance_pct' r.json)" 100 "fork: the call-path row's LB"
within5 "$(jq '.efficiency.run.load_balance_pct' r.json)" 91.667 "fork: the run's load balance"
within5 "$(jq '.efficiency.run.fork_join_efficiency_pct' r.json)" 23.077 "fork: the run's fork/join"
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

# Forks inside function regions: each phase's path holds its own team (two
# threads, the worker's 30 and 70 ms), not one phase both teams' shares
"$POMPCC" --pomp-functions='include:phase_*' -O2 -fopenmp "$NUMBERS/phases.c" -o phases 2>build.err ||
    { cat build.err; fail "build phases"; }
POMP_OUTPUT_DIR=ph ./phases > run.txt
assert_contains run.txt "^done$" "phases: the program ran"
"$REPORT" --check ph > check.txt || { cat check.txt; fail "phases: --check"; }
for phase in "phase_a 30" "phase_b 70"; do
    set -- $phase
    under='([.regions[] | select(.name == "'$1'") | .id]) as $f
           | ([.callpath[] | select(.region as $r | $f | index($r)) | .id]) as $fn
           | ([.regions[] | select(.type == "parallel") | .id]) as $p
           | [.callpath[] | select((.parent as $q | $fn | index($q)) and (.region as $r | $p | index($r)))]'
    assert_eq "$(jq "$under | length" ph/profile.json)" 1 "phases: $1 has its parallel region"
    assert_eq "$(jq "$under | .[0].per_thread | length" ph/profile.json)" 2 "phases: $1's region holds both threads"
    assert_eq "$(jq "$under | [.[0].per_thread[].begins] | add" ph/profile.json)" 2 "phases: $1's region, one share per thread"
    # the worker's time, and the first fork's start of the thread (a few ms;
    # 25.7 under make sanitize beside other work): not 30 + 70 (phase_a's
    # bound stays below 100; both teams under phase_b leave phase_a's at 0)
    t=$(jq "$under | [.[0].per_thread[].incl_ns] | max / 1e6" ph/profile.json)
    awk -v t="$t" -v ms="$2" 'BEGIN { exit !(t >= 0.98 * ms && t <= ms + 45) }' ||
        fail "phases: $1's region took $t ms, expected $2 to $(( $2 + 45 ))"
done

# run_checked NAME DIR: builds numbers/NAME.c, runs it (it prints "done")
# with its profile in DIR, checks the profile and writes DIR.json (--json)
run_checked() {
    "$POMPCC" -O2 -fopenmp "$NUMBERS/$1.c" -o "$1" 2>build.err || { cat build.err; fail "build $1"; }
    POMP_OUTPUT_DIR=$2 "./$1" > run.txt
    assert_contains run.txt "^done$" "$1: the program ran"
    "$REPORT" --check "$2" > check.txt || { cat check.txt; fail "$1: --check"; }
    "$REPORT" --json "$2" > "$2.json"
}

# The run's places: threads that never ran at once share one. libgomp starts
# fresh threads for each execution of a nested team (8 threads here for 4
# places; LLVM libomp keeps 4): the run compared 8 threads, half of them idle
# most of the time, and read a balanced program's load balance as 49 % on
# libgomp (97 % on libomp; a probe). Each of the 4 places works 150 ms (the
# outer threads 6 ms more, while the fresh threads end).
run_checked nested_places np
assert_eq "$(jq '.efficiency.run.threads' np.json)" 4 "nested teams: the run's places, threads that ran at once"
lb=$(jq '.efficiency.run.load_balance_pct' np.json)
# (83-93 % on LLVM libomp on a busy machine, the old library and this one
# alike, 89.4 once in a CI run beside a sanitized test run: the bug read 49 %)
awk -v g="$lb" 'BEGIN { exit !(g >= 80) }' || fail "nested teams: the run's load balance $lb %, expected about 100 %"
if [ "${E2E_RUNTIME:-gomp}" != omp ]; then
    assert_eq "$(jq '[.threads[] | select(.device == null) | .os_threads // 1] | add' np/profile.json)" 8 \
              "nested teams on libgomp: fresh threads for each execution (what the places fold)"
fi
# Inner teams forked back to back, traced (a record for each fresh thread): a
# thread's life ends at its last event, not at its OS thread's end, which
# came later (waiting for a CPU, or for libgomp to let it go) and overlapped
# the next inner team's fresh thread: 5-6 places for 4, a third off the run's
# parallel efficiency (a probe)
"$POMPCC" -O2 -fopenmp -I"$NUMBERS" "$NUMBERS/nested_fresh.c" -o nested_fresh 2> build.err || { cat build.err; fail "build nested_fresh"; }
for k in 1 2; do
    POMP_TRACE=events POMP_OUTPUT_DIR=nf$k ./nested_fresh > /dev/null
    "$REPORT" --check nf$k > check.txt || { cat check.txt; fail "nested teams back to back ($k): --check"; }
    assert_eq "$("$REPORT" --json nf$k | jq '.efficiency.run.threads')" 4 "nested teams back to back, traced ($k): the run's places"
done
# Not traced, a record stands for OS threads one after another, and two such
# records alternate: their spans overlapped, and the run counted 6 places for
# 4 (a probe); each OS thread's life is apart now (os_thread_lives)
for k in 1 2; do
    POMP_OUTPUT_DIR=nfp$k ./nested_fresh > /dev/null
    "$REPORT" --check nfp$k > check.txt || { cat check.txt; fail "nested teams back to back, profiled ($k): --check"; }
    # (libgomp's fresh threads; LLVM libomp keeps its threads: nothing handed over)
    [ "${E2E_RUNTIME:-}" = omp ] ||
        assert_eq "$(jq '[.threads[] | select(.os_threads > 1)] | length > 0' nfp$k/profile.json)" true \
            "nested teams back to back, profiled ($k): records handed over"
    assert_eq "$("$REPORT" --json nfp$k | jq '.efficiency.run.threads')" 4 "nested teams back to back, profiled ($k): the run's places"
done

# Three levels (nested_roles.c): libgomp's fresh threads of the middle team
# fork inner teams, those of the inner teams do not; both are thread 1 of
# their teams. Not traced, one record held both roles by turns: the inner
# region read longer than the run (150-215 ms of ~170), its load balance
# 64-77 %, and the run lost the inner shares of such records (mean useful
# 64 ms for ~113); a probe. A record is now handed over within one role.
"$POMPCC" -O2 -fopenmp -I"$NUMBERS" "$NUMBERS/nested_roles.c" -o nested_roles 2> build.err || { cat build.err; fail "build nested_roles"; }
inner_of() { # DIR FIELD: the inner region's figure (the third parallel's)
    "$REPORT" --json "$1" | jq --arg l "$(grep -n '#pragma omp parallel' "$NUMBERS/nested_roles.c" | sed -n 3p | cut -d: -f1)" \
        "[.efficiency.parallel_regions[] | select(.location | test(\"nested_roles.c:\" + \$l + \"-\"))][0].$2"
}
for mode in profiled traced; do
    trace=none; [ $mode = traced ] && trace=events
    assert_eq "$(POMP_TRACE=$trace POMP_OUTPUT_DIR=nr_$mode ./nested_roles)" "leaves=20" "nested roles, $mode: the program"
    "$REPORT" --check nr_$mode > check.txt || { cat check.txt; fail "nested roles, $mode: --check"; }
    elapsed=$(inner_of nr_$mode elapsed_ns) duration=$(jq .duration_ns nr_$mode/profile.json)
    # (the sanitizers slow the fresh threads' starts: 173 ms read; the bug's
    # mark is a region longer than the run)
    awk -v e="$elapsed" -v d="$duration" -v s="${E2E_SANITIZE:-}" 'BEGIN { exit !(e >= 95e6 && (s != "" || e <= 150e6) && e < d) }' ||
        fail "nested roles, $mode: the inner region's elapsed time $((${elapsed%.*} / 1000000)) ms, expected ~100 ms (5 x 20), less than the run's $((${duration%.*} / 1000000)) ms"
    # (fresh threads start late on a loaded machine: 90-98 % read traced)
    awk -v l="$(inner_of nr_$mode load_balance_pct)" 'BEGIN { exit !(l >= 85) }' ||
        fail "nested roles, $mode: the inner region's load balance $(inner_of nr_$mode load_balance_pct) %, expected ~100"
    run=$("$REPORT" --json nr_$mode | jq -c .efficiency.run)
    assert_eq "$(jq .threads <<<"$run")" 4 "nested roles, $mode: the run's places"
    # the three places besides the initial thread's: ~100 ms useful each
    others=$(jq '(.useful_mean_ns * 4 - .useful_max_ns) / 3 / 1e6' <<<"$run")
    awk -v o="$others" 'BEGIN { exit !(o >= 90 && o <= 125) }' ||
        fail "nested roles, $mode: the other places' useful time $others ms each, expected ~100 (5 x 20)"
done

# A server (server_requests.c) whose main thread makes no OpenMP call: no
# record is the initial thread (the first request's was taken for it, useful
# for the whole run: 2-3 places, load balance 70-80 % for ~100 %; a probe)
"$POMPCC" -O2 -fopenmp -I"$NUMBERS" "$NUMBERS/server_requests.c" -o server_requests -lpthread 2> build.err || { cat build.err; fail "build server_requests"; }
for mode in profiled traced; do
    trace=none; [ $mode = traced ] && trace=events
    assert_eq "$(POMP_TRACE=$trace POMP_OUTPUT_DIR=sr_$mode ./server_requests)" "2 2 2 2 2" "server, $mode: the program"
    "$REPORT" --check sr_$mode > check.txt || { cat check.txt; fail "server, $mode: --check"; }
    run=$("$REPORT" --json sr_$mode | jq -c .efficiency.run)
    assert_eq "$(jq .threads <<<"$run")" 2 "server, $mode: the run's places"
    # (a master's share holds its fresh worker's start, a few ms under load:
    # 94-97 % traced, where the masters' lives take one place, the workers' the other)
    awk -v l="$(jq .load_balance_pct <<<"$run")" 'BEGIN { exit !(l >= 88) }' ||
        fail "server, $mode: the run's load balance $(jq .load_balance_pct <<<"$run") %, expected ~100 (two threads of 100 ms useful)"
    awk -v m="$(jq '.useful_max_ns / 1e6' <<<"$run")" 'BEGIN { exit !(m >= 95 && m <= 125) }' ||
        fail "server, $mode: the most useful place $(jq '.useful_max_ns / 1e6' <<<"$run") ms, expected ~100 (5 x 20)"
done

# An imbalanced inner team, traced (a record per fresh thread) and not: its
# load balance is 66.7 % (nested_imbalance.c)
inner_lb() { # DIR: the inner region's load balance
    "$REPORT" --json "$1" | jq --arg l "$(grep -n 'sleep_ms(omp_get' "$NUMBERS/nested_imbalance.c" | cut -d: -f1)" \
        '[.efficiency.parallel_regions[] | select(.location | test(":" + (($l | tonumber) - 1 | tostring) + "-"))][0].load_balance_pct'
}
for mode in traced profiled; do
    trace=none; [ $mode = traced ] && trace=events
    if [ -z "${E2E_SANITIZE:-}" ]; then
        # (the fresh threads' starts are the machine's: a loaded one delays
        # them and evens the shares, 60.3 % once beside a full test run and two
        # busy loops; a run or two more before the verdict)
        for try in 1 2 3; do
            rm -rf ni_$mode
            OMP_MAX_ACTIVE_LEVELS=2 POMP_TRACE=$trace run_checked nested_imbalance ni_$mode
            (within5 "$(inner_lb ni_$mode)" 66.7 "") 2> /dev/null && break
        done
        within5 "$(inner_lb ni_$mode)" 66.7 "nested imbalance, $mode: the inner region's load balance"
    else
        # the sanitizers' slowdown of the fresh threads moves it (60 % read): not the 94 % of the bug
        OMP_MAX_ACTIVE_LEVELS=2 POMP_TRACE=$trace run_checked nested_imbalance ni_$mode
        awk -v g="$(inner_lb ni_$mode)" 'BEGIN { exit !(g >= 50 && g <= 80) }' ||
            fail "nested imbalance, $mode, sanitized: the inner region's load balance $(inner_lb ni_$mode) %, 50 to 80 expected"
    fi
done

# Teams of one (num_threads(1); nested, inactive): their tasks are their
# work, run where libgomp runs them, in the closing barrier (team_of_one.c);
# every region reads about 100 % (0.1 %: the tasks' time taken for fork and
# join; a probe). (The run is not: its second thread has no part in the
# first region.)
run_checked team_of_one t1
assert_eq "$(jq '[.efficiency.parallel_regions[] | .location] | length' t1.json)" 4 \
          "teams of one: the four regions rated"
# the two teams of one (the outer team of two holds its second thread's start,
# a few ms of its 20 on a busy machine: 85 % read in a CI run)
one=$(grep -nx '#pragma omp parallel num_threads(1)' "$NUMBERS/team_of_one.c" | cut -d: -f1)
inner=$(grep -nx '#pragma omp parallel' "$NUMBERS/team_of_one.c" | cut -d: -f1)
pes=$(jq --arg a ":$one-" --arg b ":$inner-" \
    '.efficiency.parallel_regions[] | select(.location | contains($a) or contains($b)) | .parallel_efficiency_pct' t1.json)
assert_eq "$(echo "$pes" | wc -w)" 2 "teams of one: both rated"
for pe in $pes; do
    awk -v g="$pe" 'BEGIN { exit !(g >= 85) }' ||
        { jq -c '.efficiency' t1.json; fail "teams of one: a parallel efficiency of $pe %, about 100 % expected"; }
done

# A worker whose OS thread ended leaves its record to the next new worker of
# its thread number: libgomp's fresh threads of 40 nested executions made 82
# records (each cleared, kept to the end: the memory grew with every
# execution); now 2 for the outer team and about 2 for the inner workers,
# which stand for 80 OS threads. Their figures are whole: every share of the
# inner region counted. A trace keeps a location per OS thread: no takeover.
cat > takeover.c <<'C'
#include <stdio.h>
#include <unistd.h>
#include <omp.h>
#include "work.h"
int main(int argc, char **argv)
{
    long sum = 0;
    omp_set_max_active_levels(2);
    for (int r = 0; r < 40; r++) {
#pragma omp parallel num_threads(2) reduction(+ : sum)
        {
#pragma omp parallel num_threads(2) reduction(+ : sum)
            sum += omp_get_thread_num() + 1;
            if (argc > 1) /* "spin": both outer threads spin 5 ms */
                spin_ms(5);
        }
        usleep(5000); /* the inner teams' fresh threads end meanwhile */
    }
    printf("%ld\n", sum);
    return 0;
}
C
"$POMPCC" -O2 -fopenmp -I"$NUMBERS" takeover.c -o takeover
inner_shares='([.regions[] | select(.type == "parallel") | .id] | max) as $inner
              | [.callpath[] | select(.region == $inner) | .per_thread[].begins] | add'
# the inner workers' lives are the machine's to decide: a loaded one may keep
# them past 1 ms (then read, not counted unread); a run or two more until most
# are not read
for try in 1 2 3; do
    rm -rf to
    POMP_SUMMARY=on POMP_OUTPUT_DIR=to ./takeover > to.txt 2> to.err
    [ "$(jq '[.threads[] | .cpu_wait_unread // 0] | add' to/profile.json)" -ge 10 ] && break
done
assert_eq "$(cat to.txt)" 240 "takeover: the program's result"
assert_eq "$(jq "$inner_shares" to/profile.json)" 160 "takeover: every share of the inner region"
records=$(jq '[.threads[] | select(.device == null)] | length' to/profile.json)
os=$(jq '[.threads[] | select(.device == null) | .os_threads // 1] | add' to/profile.json)
if [ "${E2E_RUNTIME:-gomp}" != omp ]; then
    assert_eq "$os" 82 "takeover: the OS threads the records stand for"
    assert_contains to.err "^pomp: takeover: [0-9.]+ s, $records threads \(standing for 82 OS threads\), " \
                    "takeover: the summary says what the records stand for"
    "$REPORT" to > to_report.txt
    assert_contains to_report.txt "^program takeover \(pid [0-9]+\): [0-9.]+ s, $records threads \(standing for 82 OS threads\), " \
                    "takeover: pomp-report's header too"
    [ "$records" -le 8 ] || fail "takeover: $records records for 82 OS threads, expected about 4"
    # the inner workers end within a millisecond: their waits for a CPU are
    # not read (an open, read and close of a /proc file each), said apart
    unread=$(jq '[.threads[] | .cpu_wait_unread // 0] | add' to/profile.json)
    [ "$unread" -ge 10 ] && [ "$unread" -le 80 ] ||
        fail "takeover: $unread OS threads' waits for a CPU not read, expected most of the 80 inner ones"
    assert_eq "$("$REPORT" --json to | jq .efficiency.run.cpu_wait_unread)" "$unread" \
              "takeover: pomp-report counts the OS threads not read"
    assert_eq "$(jq '[.threads[] | select(.os_threads) | has("cpu_wait_life_ns")] | all' to/profile.json)" \
              true "takeover: the lives a record's waits were read over"
    # the outer threads spinning on one CPU wait for it half their time: the
    # exit summary says so, and counts the OS threads not read as the profile
    if [ -r /proc/self/task/$$/schedstat ]; then
        POMP_SUMMARY=on POMP_OUTPUT_DIR=to_one taskset -c "$(taskset -pc $$ | sed 's/.*: //; s/[-,].*//')" \
            ./takeover spin > to_one.txt 2> to_one.err
        assert_eq "$(cat to_one.txt)" 240 "takeover, one CPU: the program's result"
        unread=$(jq '[.threads[] | .cpu_wait_unread // 0] | add' to_one/profile.json)
        assert_contains to_one.err "^pomp: note: threads waited [0-9.]+ ms for a CPU, " \
                        "takeover, one CPU: the exit summary says the threads waited for a CPU"
        # on a loaded CPU the inner workers may all live past 1 ms (the clean
        # CI's did once): then none is unread, and the summary says none
        said=$(sed -n 's/^pomp: note: threads waited .* for a CPU, .*; \([0-9]*\) OS threads\{0,1\} that ended within 1 ms of .* not read$/\1/p' to_one.err)
        assert_eq "${said:-0}" "$unread" "takeover, one CPU: the exit summary counts the OS threads not read"
    fi
    POMP_TRACE=events POMP_OUTPUT_DIR=to_trace ./takeover > /dev/null
    assert_eq "$(jq '[.threads[] | select(.device == null)] | length' to_trace/profile.json)" 82 \
              "takeover: none while tracing"
    assert_eq "$(jq "$inner_shares" to_trace/profile.json)" 160 "takeover: every share, traced"
else
    assert_eq "$records" 4 "takeover: LLVM libomp keeps its threads"
fi

# A server's per-request pthreads, each the master of a team of its own, hand
# their records on as workers do (2,000 requests made 2,002 records, 44 MB
# against the plain program's 2 MB, and a profile with a column for each).
cat > requests.c <<'C'
#include <pthread.h>
#include <stdio.h>
#include <omp.h>
static void *request(void *arg)
{
    long *out = arg;
#pragma omp parallel num_threads(2) reduction(+ : out[0])
    out[0] += omp_get_thread_num() + 1;
    return NULL;
}
int main(void)
{
    long total = 0;
    for (int r = 0; r < 100; r += 2) { /* two requests at a time */
        pthread_t a, b;
        long x = 0, y = 0;
        pthread_create(&a, NULL, request, &x);
        pthread_create(&b, NULL, request, &y);
        pthread_join(a, NULL);
        pthread_join(b, NULL);
        total += x + y;
    }
    printf("%ld\n", total);
    return 0;
}
C
"$POMPCC" -O2 -fopenmp requests.c -o requests -lpthread
POMP_OUTPUT_DIR=rq ./requests > rq.txt
assert_eq "$(cat rq.txt)" 300 "per-request threads: the program's result"
"$REPORT" --check rq > rq.check || { cat rq.check; fail "per-request threads: --check"; }
assert_eq "$(jq "$inner_shares" rq/profile.json)" 200 "per-request threads: every share of the requests' region"
rq_records=$(jq '[.threads[] | select(.device == null)] | length' rq/profile.json)
[ "$rq_records" -le 8 ] || fail "per-request threads: $rq_records records for 100 requests, expected about 4"
rq_os=$(jq '[.threads[] | select(.device == null and .omp_thread_num == 0) | .os_threads // 1] | add' rq/profile.json)
assert_eq "$rq_os" 100 "per-request threads: the request threads the records stand for"

# A fresh thread of a nested team costs no system call and no new memory:
# the OMPT bridge's state of an ended thread (14 KB) is handed on as pomp's
# record is (kept and new, 1,000 more fresh threads grew the program by
# 28 MB, each page faulted in), and the thread's id and its time run before
# its first event are known without asking the kernel (a gettid and a
# clock_gettime each: with more threads than CPUs every system call of the
# fresh thread let the team's spinning threads take its CPU; a nested kernel
# ran x2.5-3 of plain, now x1.3-1.6). Counted, not timed: the resident size
# and the system calls.
cat > fresh.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <omp.h>
int main(int argc, char **argv)
{
    int executions = atoi(argv[1]);
    long sum = 0;
    omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2) reduction(+ : sum)
    for (int r = 0; r < executions; r++) {
#pragma omp parallel num_threads(2) reduction(+ : sum)
        sum += omp_get_thread_num() + 1;
    }
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    printf("%ld %ld\n", sum, u.ru_maxrss);
    return 0;
}
C
"$POMPCC" -O2 -fopenmp fresh.c -o fresh
read -r sum_few rss_few < <(POMP_OUTPUT_DIR=fr1 ./fresh 100)
read -r sum_many rss_many < <(POMP_OUTPUT_DIR=fr2 ./fresh 1100)
assert_eq "$sum_few $sum_many" "600 6600" "fresh threads: the program's results"
if [ "${E2E_RUNTIME:-gomp}" != omp ] && [ -z "${E2E_SANITIZE:-}" ]; then
    [ $((rss_many - rss_few)) -lt 4096 ] ||
        fail "fresh threads: 1,000 more grew the program from $rss_few to $rss_many KB (each kept state of its own)"
    if strace -f -qq -o /dev/null true 2> /dev/null; then
        strace -f -qq -c -e trace=gettid,clock_gettime -o fresh.strace ./fresh 200 > /dev/null
        calls=$(awk '$NF == "gettid" || $NF == "clock_gettime" { n += $4 } END { print n + 0 }' fresh.strace)
        [ "$calls" -le 20 ] ||
            { cat fresh.strace; fail "fresh threads: $calls gettid and clock_gettime calls for 400 fresh threads"; }
        # without the runtime's thread-begin (POMP_OMPT=off) a fresh thread's
        # first event found its thread number without asking the kernel who it
        # is: 400 threads made 400 gettid and 400 getpid calls, and on 2 CPUs a
        # nested program ran 5 to 20 times slower than with the tool at work
        POMP_OMPT=off strace -f -qq -c -e trace=gettid,getpid -o fresh-off.strace ./fresh 200 > /dev/null
        calls=$(awk '$NF == "gettid" || $NF == "getpid" { n += $4 } END { print n + 0 }' fresh-off.strace)
        [ "$calls" -le 20 ] ||
            { cat fresh-off.strace; fail "fresh threads, POMP_OMPT=off: $calls gettid and getpid calls for 400 fresh threads"; }
    else
        echo "note: strace cannot trace here: the fresh threads' system calls are not counted"
    fi
fi
assert_eq "$(jq '[.threads[] | select(.device == null) | .start_ns <= .end_ns and .end_ns <= $d]
                 | all' --argjson d "$(jq .duration_ns np/profile.json)" np/profile.json)" true \
          "nested teams: each thread's life within the run"

# Tasks in two regions: a task's lock wait counts for the region it ran in
run_checked task_regions tr
metric_of() { # METRIC LINE: of the parallel region at LINE (its pragma's line in task_regions.c)
    jq --argjson l "$2" '([.regions[] | select(.type == "parallel" and .first_line == $l) | .id]) as $ids
        | [.efficiency.parallel_regions[] | select(.region as $r | $ids | index($r))][0].'"$1" tr.json
}
lines=$(grep -n '#pragma omp parallel' "$NUMBERS/task_regions.c" | cut -d: -f1 | tr '\n' ' ')
set -- $lines
# Each thread works 50 ms in its task (a wall-clock busy wait), and one of the
# first region's tasks also waits 50 ms for the lock: the useful time of every
# thread is about 50 ms in both regions (a third of the lock wait given to the
# second region made one of its threads 33 ms there, and 67 ms in the first).
# Useful times, not the factors: a loaded machine stretches forks and joins.
ms_of() { awk -v v="$1" 'BEGIN { printf "%.1f", v / 1e6 }'; }
in_range() { # VALUE LO HI WHAT
    awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }' ||
        fail "task_regions: $4: $1 ms, expected $2 to $3"
}
in_range "$(ms_of "$(metric_of useful_max_ns $2)")" 48 60 "the locking region's largest useful time"
in_range "$(ms_of "$(metric_of useful_mean_ns $2)")" 48 60 "the locking region's mean useful time"
in_range "$(ms_of "$(metric_of useful_mean_ns $3)")" 48 60 "the other region's mean useful time"
assert_eq "$(jq '[.efficiency.parallel_regions[] | select(.shared_task_waits)] | length' tr.json)" 0 \
    "task_regions: each task construct in one region, no estimate"
"$REPORT" tr > text.txt
assert_not_contains text.txt "its tasks' waits estimated" "task_regions: no estimate said"

# One task construct in two regions: its waits are shared between them by
# task time, and the report says which rows are estimated so
run_checked task_shared ts
# the runtime reports which team ran each task: the construct has a task root
# per region, and its lock wait counts for the first region only
assert_eq "$(jq '[.callpath[] | select(.task_root and .binding)] | length' ts/profile.json)" 2 \
    "task_shared: a task root for each region's team"
assert_eq "$(jq '[.efficiency.parallel_regions[] | select(.shared_task_waits)] | length' ts.json)" 0 \
    "task_shared: no region's figures estimated"
lines=$(grep -n '#pragma omp parallel' "$NUMBERS/task_shared.c" | cut -d: -f1 | tr '\n' ' ')
set -- $lines
shared_lb() { # LINE: the load balance of the parallel region at LINE
    jq --argjson l "$1" '([.regions[] | select(.type == "parallel" and .first_line == $l) | .id]) as $ids
        | [.efficiency.parallel_regions[] | select(.region as $r | $ids | index($r))][0].load_balance' ts.json
}
# the second region's two threads each run a 30 ms task and wait for nothing
lb=$(shared_lb "$2")
awk -v v="$lb" 'BEGIN { exit !(v >= 0.95) }' || fail "task_shared: second region's load balance $lb, expected about 1"
"$REPORT" ts > ts.txt
assert_eq "$(grep -cE '^parallel ~ ' ts.txt)" 0 "task_shared: no row marked"
jq -r '.callpath[] | select(.task_root) | .location' ts.json > ts.roots
assert_contains ts.roots "task_shared.c:[0-9-]+, run in parallel @ .*task_shared.c:$1-" \
    "task_shared: the first region's task root says its team's region"
assert_contains ts.roots "task_shared.c:[0-9-]+, run in parallel @ .*task_shared.c:$2-" \
    "task_shared: the second region's task root says its team's region"
# without the runtime's reports (POMP_OMPT=off) the team is not known: the
# wait is shared by task time, and the rows say so
POMP_OMPT=off POMP_OUTPUT_DIR=ts.off ./task_shared > run.txt
"$REPORT" --check ts.off > check.txt || { cat check.txt; fail "task_shared, POMP_OMPT=off: --check"; }
"$REPORT" --json ts.off > ts.off.json
assert_eq "$(jq '[.efficiency.parallel_regions[] | select(.shared_task_waits)] | length' ts.off.json)" 2 \
    "task_shared, POMP_OMPT=off: both regions' figures estimated"
"$REPORT" ts.off > ts.txt
assert_eq "$(grep -cE '^parallel ~ ' ts.txt)" 2 "task_shared, POMP_OMPT=off: both rows marked"
assert_contains ts.txt "^  ~ its tasks' waits estimated: a task construct that ran in several parallel regions" \
    "task_shared: the mark explained"
# A lock wait beside a taskgroup, whose end the runtime reports as a "wait"
# region: the instrumented lock call still holds its wait (about 40 ms)
run_checked lock_with_taskgroup lt
lock_ms=$(jq '[.waits.rows[] | select(.task_root | not) | .ns.lock] | add / 1e6' lt.json)
awk -v v="$lock_ms" 'BEGIN { exit !(v >= 30 && v <= 50) }' ||
    fail "lock beside a taskgroup: the lock wait is $lock_ms ms, about 40 expected"
lb=$(jq '.efficiency.parallel_regions[0].load_balance_pct' lt.json)
awk -v v="$lb" 'BEGIN { exit !(v <= 85) }' ||
    fail "lock beside a taskgroup: load balance $lb %, the 40 ms wait makes it about 50 %"
# A lock wait in a task of a nested region counts for the outer region too
# (its one thread waited about 35 of 45 ms): synchronisation well under 50 %
# (it was about 100 %)
OMP_MAX_ACTIVE_LEVELS=2 run_checked nested_task_wait ntw
outer=$(grep -n '#pragma omp parallel num_threads(1)' "$NUMBERS/nested_task_wait.c" | cut -d: -f1)
sync=$(jq --argjson l "$outer" '([.regions[] | select(.type == "parallel" and .first_line == $l) | .id]) as $ids
    | [.efficiency.parallel_regions[] | select(.region as $r | $ids | index($r))][0].synchronisation_efficiency_pct' ntw.json)
awk -v v="$sync" 'BEGIN { exit !(v <= 50) }' ||
    fail "nested task wait: the outer region's synchronisation is $sync %, about 15 % expected"
# Recursive tasks whose two constructs create each other's tasks, and a
# region without tasks beside them: every task's region is known, no row is
# an estimate
run_checked task_recursion trec
assert_contains run.txt "^987 400$" "task_recursion: the program's result"
assert_eq "$(jq '[.efficiency.parallel_regions[] | select(.shared_task_waits)] | length' trec.json)" 0 \
    "task_recursion: no region's figures estimated"
# A reduction's combine after the block (GCC's code, before the closing
# barrier) is the block's work: the barrier waits about 25 ms in all, not the
# two combines' 100 ms
run_checked reduction_combine rc
assert_contains run.txt "^acc 2$" "reduction_combine: the program's result"
bw=$(jq '[.regions[] | select(.type == "implicit_barrier") | .id] as $b
         | [.callpath[] | select(.region as $r | $b | index($r)) | .per_thread[].incl_ns] | add / 1e6' rc/profile.json)
awk -v w="$bw" 'BEGIN { exit !(w >= 10 && w <= 45) }' ||
    fail "reduction_combine: the closing barrier waited $bw ms in all, about 25 expected (the combines are work)"
# Private copies made before the block (a reduction's initializer of 50 ms, on
# each thread in the outlined function) are the block's work on the master as
# on the worker: the same work on both, load balance about 100 % (75 %: the
# master's counted as fork)
run_checked private_setup ps
assert_contains run.txt "^acc 2$" "private_setup: the program's result"
lb=$(jq '.efficiency.parallel_regions[0].load_balance_pct' ps.json)
awk -v l="$lb" 'BEGIN { exit !(l >= 88) }' ||
    fail "private_setup: load balance $lb %, about 100 expected (the master's private copy is its block's work)"
# A doacross loop's waits (ordered depend(sink)) are ordered waits, about
# 60 ms in all (they read as the loop's work: 0 ms of wait). GCC's doacross
# code is libgomp's (libomp 19 runs it wrongly at times: test_gomp_entries)
if [ "${E2E_RUNTIME:-gomp}" = gomp ]; then
    run_checked doacross_wait dw
    assert_contains run.txt "^order 0 1 2 3$" "doacross_wait: the iterations in order"
    ordered=$(jq '[.waits.rows[] | .ns.ordered] | add / 1e6' dw.json)
    # about 60 ms, or what the program measured around its waits (a thread
    # that starts late makes the other wait longer: 95.8 ms once in the clean CI)
    waited=$(sed -n 's/^waited \([0-9.]*\) ms$/\1/p' run.txt)
    awk -v w="$ordered" -v p="$waited" 'BEGIN { exit !(p >= 45 && w >= 0.8 * p && w <= 1.2 * p + 5) }' ||
        fail "doacross_wait: $ordered ms of ordered wait, the program measured $waited (about 60 expected)"
fi
# A long double atomic that waits 30 ms for libgomp's atomic lock, which
# thread 0 holds merging a user-defined reduction (GCC merges those under
# it): a wait in the critical column (it read as the region's work: 0 ms).
# Clang merges such a reduction under no atomic lock: libgomp only.
if [ "${E2E_RUNTIME:-gomp}" = gomp ]; then
    run_checked atomic_lock_wait alw
    assert_contains run.txt "^threads 2 total 2.5 1.5$" "atomic_lock_wait: the program's results"
    critical=$(jq '[.waits.rows[] | .ns.critical] | add / 1e6' alw.json)
    awk -v w="$critical" 'BEGIN { exit !(w >= 20 && w <= 45) }' ||
        fail "atomic_lock_wait: $critical ms of atomic lock wait, about 30 expected"
    # at POMP_SYNC=Event it is counted as the other atomics are (it vanished)
    POMP_SYNC=Event POMP_OUTPUT_DIR=alw_ev ./atomic_lock_wait > /dev/null
    assert_eq "$(jq '[.regions[] | select(.type == "atomic") | .id] as $a | [.callpath[] | select(.region as $r | $a | index($r)) | .per_thread[].visits] | add' alw_ev/profile.json)" 2 \
              "atomic_lock_wait: both atomics counted at POMP_SYNC=Event"
fi
# Levels that record what the figures need: no wait at all (POMP_SYNC=none:
# a thread waiting 200 of 200 ms read 100 % synchronisation), or task
# creations without executions (POMP_TASK=EnterExit: the tasks run in a wait
# read as the wait): not rated, and said why
POMP_SYNC=none POMP_OUTPUT_DIR=nosync ./imbalance 200 0 > /dev/null
"$REPORT" nosync > nosync.txt
assert_contains nosync.txt "^\(the run\) .* not rated: POMP_SYNC=none records no wait" "POMP_SYNC=none: not rated, said why"
assert_eq "$(POMP_SYNC=none "$REPORT" --json nosync | jq '.efficiency.run.rated, (.efficiency.parallel_regions | length)' | tr '\n' ' ')" \
          "false 0 " "POMP_SYNC=none: --json rates nothing"
"$POMPCC" -O2 -fopenmp "$NUMBERS/taskwait_split.c" -o taskwait_split 2> build.err || { cat build.err; fail "build taskwait_split"; }
POMP_TASK=EnterExit POMP_OUTPUT_DIR=notask ./taskwait_split 10 50 > /dev/null
"$REPORT" notask > notask.txt
assert_contains notask.txt "not rated: POMP_TASK=EnterExit records no task's execution" "POMP_TASK=EnterExit: not rated, said why"
# ... and so do settings that record less still, or take out the regions the
# figures need (a probe's rated runs: POMP_PARALLEL=none load balance 25 % for
# 67; POMP_TASK=none the tasks as 113 ms of barrier wait; filters that took out
# the barriers 83 % for 56, the closing barrier 50 % with no wait at all)
POMP_TASK=none POMP_OUTPUT_DIR=notask0 ./taskwait_split 10 50 > /dev/null
"$REPORT" notask0 > notask0.txt
assert_contains notask0.txt "not rated: POMP_TASK=none records no task" "POMP_TASK=none: not rated, said why"
POMP_PARALLEL=none POMP_OUTPUT_DIR=nopar ./imbalance 200 0 > /dev/null
"$REPORT" nopar > nopar.txt
assert_contains nopar.txt "^\(the run\) .* not rated: POMP_PARALLEL=none records no parallel region" "POMP_PARALLEL=none: not rated, said why"
for filter in POMP_FILTER_EXCLUDE=type:implicit_barrier POMP_FILTER_INCLUDE=type:parallel; do
    env "$filter" POMP_OUTPUT_DIR=filtered ./imbalance 200 0 > /dev/null 2>&1
    "$REPORT" filtered > filtered.txt
    assert_contains filtered.txt "^\(the run\) .* not rated: POMP_FILTER_\* took out implicit_barrier regions" "$filter: not rated, said why"
    rm -rf filtered
done
POMP_FILTER_EXCLUDE=type:single POMP_OUTPUT_DIR=filtered ./imbalance 200 0 > /dev/null 2>&1
"$REPORT" filtered > filtered.txt
assert_not_contains filtered.txt "not rated" "a filter that takes out no region the figures need: rated"
# a filtered construct the figures need that never ran (tiny's critical, in
# its atomic mode): the profile says it did not run, and the run is rated (it
# was refused: the profile could not tell); where it ran, refused
"$POMPCC" -O2 -fopenmp "$NUMBERS/tiny.c" -o tiny 2> build.err || { cat build.err; fail "build tiny"; }
for mode in atomic critical; do
    POMP_FILTER_EXCLUDE=type:critical POMP_THROTTLE=off POMP_OUTPUT_DIR=filtered-$mode ./tiny $mode 2000 > /dev/null 2>&1
    "$REPORT" filtered-$mode > filtered.txt
    ran=$(jq '[.regions[] | select(.type == "critical")][0].ran' filtered-$mode/profile.json)
    if [ $mode = atomic ]; then
        assert_eq "$ran" false "a filtered critical that never ran: said so"
        assert_not_contains filtered.txt "not rated" "a filtered critical that never ran: rated"
    else
        assert_eq "$ran" null "a filtered critical that ran: no ran: false"
        assert_contains filtered.txt "not rated: POMP_FILTER_\* took out critical regions" "a filtered critical that ran: not rated"
    fi
done
# critical regions without their blocks (POMP_SYNC=EnterExit): their waits are
# not known (their whole time read as wait: synchronisation ~20 % for ~75 %):
# marked and said, the waits left out
"$POMPCC" -O2 -fopenmp "$NUMBERS/tiny.c" -o tiny 2> build.err || { cat build.err; fail "build tiny"; }
POMP_SYNC=EnterExit POMP_THROTTLE=off POMP_OUTPUT_DIR=nocrit ./tiny critical 2000 > /dev/null
"$REPORT" nocrit > nocrit.txt
assert_contains nocrit.txt "^\(the run\) ! " "POMP_SYNC=EnterExit: the run marked"
assert_contains nocrit.txt "! waits not measured: 4000 executions of critical or ordered regions whose blocks were not recorded" \
                "POMP_SYNC=EnterExit: said how many"
assert_eq "$("$REPORT" --json nocrit | jq '.efficiency.run.blockless_wait_executions')" 4000 "POMP_SYNC=EnterExit: --json"
assert_eq "$("$REPORT" --json nocrit | jq '[.waits.rows[].ns.critical] | add')" 0 "POMP_SYNC=EnterExit: no critical's whole time as wait"
# lock calls not timed (POMP_RUNTIME=none or Event): lock waits read as work
# (a probe's 20 ms of lock wait: load balance 58.8 % for 55.9, unmarked)
POMP_RUNTIME=none POMP_OUTPUT_DIR=nolock ./task_regions > /dev/null
"$REPORT" nolock > nolock.txt
assert_contains nolock.txt "^\(the run\) ! " "POMP_RUNTIME=none: the run marked"
assert_contains nolock.txt "! waits not measured: POMP_RUNTIME=none records no lock call's time" "POMP_RUNTIME=none: said"
assert_eq "$("$REPORT" --json nolock | jq -r '.efficiency.run.lock_waits_unrecorded_by')" none "POMP_RUNTIME=none: --json"
# ... but not where the profile lists no lock call (a pompcc build lists every
# construct's region, run or not), nor is POMP_TASK=none refused without a
# task construct (imbalance.c has neither)
POMP_RUNTIME=none POMP_OUTPUT_DIR=nolock0 ./imbalance 200 0 > /dev/null
"$REPORT" nolock0 > nolock0.txt
assert_not_contains nolock0.txt "^\(the run\) !|lock call" "POMP_RUNTIME=none without a lock call: unmarked"
POMP_TASK=none POMP_OUTPUT_DIR=notask1 ./imbalance 200 0 > /dev/null
"$REPORT" notask1 > notask1.txt
assert_not_contains notask1.txt "not rated" "POMP_TASK=none without a task construct: rated"
# the runtime's reports off (POMP_OMPT=off): no implicit barrier is recorded,
# its waits read as fork/join time (synchronisation 100 %, waits 0 ms, unmarked
# before); load balance is still measured from the instrumented shares
POMP_OMPT=off POMP_OUTPUT_DIR=noompt ./imbalance 200 0 > /dev/null
"$REPORT" noompt > noompt.txt
assert_contains noompt.txt "^\(the run\) ! " "POMP_OMPT=off: the run marked"
assert_contains noompt.txt "! waits not measured: POMP_OMPT=off turns the runtime's reports off, so no implicit barrier" \
                "POMP_OMPT=off: said"
"$REPORT" --json noompt > noompt.json
assert_eq "$(jq -r '.efficiency.run.implicit_barrier_waits_unrecorded_by' noompt.json)" POMP_OMPT=off "POMP_OMPT=off: --json"
within5 "$(jq '.efficiency.run.load_balance_pct' noompt.json)" 50 "POMP_OMPT=off: the load balance still measured"
assert_eq "$("$REPORT" --json out-200-0 | jq '.efficiency.run | has("implicit_barrier_waits_unrecorded_by")')" false \
          "the runtime's reports on: no such mark"
# ... and tasks run in a parallel region's closing barrier (not recorded) lie
# in no thread's share: a region of tasks a single nowait made read 0 %
# parallel efficiency for about 94 (a probe). Not rated, said why.
cat > endtasks.c <<'C'
#include <omp.h>
#include <stdio.h>
static void spin(double s)
{
    double t = omp_get_wtime();
    while (omp_get_wtime() - t < s)
        ;
}
int main(void)
{
    int n = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp single nowait
        for (int i = 0; i < 6; i++) {
#pragma omp task shared(n)
            {
                spin(0.01);
#pragma omp atomic
                n++;
            }
        }
    }
    printf("%d\n", n);
    return 0;
}
C
"$POMPCC" -O2 -fopenmp endtasks.c -o endtasks 2>build.err || { cat build.err; fail "endtasks: build"; }
assert_eq "$(POMP_OMPT=off POMP_OUTPUT_DIR=noompt_tasks ./endtasks)" 6 "endtasks: the program"
"$REPORT" noompt_tasks > noompt_tasks.txt
assert_contains noompt_tasks.txt "^\(the run\) .* not rated: POMP_OMPT=off records no implicit barrier: tasks run in one" \
                "POMP_OMPT=off with tasks: not rated, said why"
# ... and a run not rated (here: paused) still says which waits went
# unmeasured, in every output: its regions are marked by it (--json and the
# HTML lost the mark and the note, the text kept them; a probe)
cat > paused.c <<'C'
#include <omp.h>
#include "work.h" /* tests/e2e/numbers: spin_ms */
int main(void)
{
#pragma pomp inst init
#pragma pomp inst off
    spin_ms(10);
#pragma pomp inst on
#pragma omp parallel num_threads(2)
    spin_ms(omp_get_thread_num() == 0 ? 20 : 10);
    return 0;
}
C
"$POMPCC" -O2 -fopenmp -I"$NUMBERS" paused.c -o paused 2>build.err || { cat build.err; fail "paused: build"; }
POMP_OMPT=off POMP_OUTPUT_DIR=noompt_paused ./paused
"$REPORT" noompt_paused > noompt_paused.txt
assert_contains noompt_paused.txt "^\(the run\) .* not rated: measurement was paused" "POMP_OMPT=off, paused: not rated"
assert_contains noompt_paused.txt "^parallel ! " "POMP_OMPT=off, paused: the region marked"
"$REPORT" --json noompt_paused > noompt_paused.json
assert_eq "$(jq -r '[.efficiency.run.rated, .efficiency.run.implicit_barrier_waits_unrecorded_by] | join(" ")' noompt_paused.json)" \
    "false POMP_OMPT=off" "POMP_OMPT=off, paused: --json says the waits unmeasured"
assert_eq "$(jq '.efficiency.run.worksharing_barriers_unrecorded' noompt.json)" 0 \
    "POMP_OMPT=off: no worksharing construct ends in a barrier of its own"
# ... but a loop's imbalance that its own barrier evens out falls inside the
# shares (the loop's barrier unrecorded): load balance read 99 % for 67 %
# while the note said it was measured. Now marked and said; a combined
# parallel for (its loop ends at the region's barrier) is not counted.
cat > loopimb.c <<'C'
#include <omp.h>
#include <stdio.h>
static void spin(double s)
{
    double t = omp_get_wtime();
    while (omp_get_wtime() - t < s)
        ;
}
int main(void)
{
#pragma omp parallel num_threads(2)
    {
#pragma omp for schedule(static)
        for (int i = 0; i < 8; i++)
            spin(i < 4 ? 0.02 : 0.007);
    }
#pragma omp parallel for num_threads(2) schedule(static)
    for (int i = 0; i < 8; i++)
        spin(0.001);
    printf("done\n");
    return 0;
}
C
"$POMPCC" -fopenmp -O2 loopimb.c -o loopimb 2> /dev/null || fail "build loopimb.c"
POMP_OMPT=off POMP_OUTPUT_DIR=loopimb.d ./loopimb > /dev/null
"$REPORT" loopimb.d > loopimb.txt
"$REPORT" --json loopimb.d > loopimb.json
assert_eq "$(jq '.efficiency.run.worksharing_barriers_unrecorded' loopimb.json)" 1 \
    "POMP_OMPT=off: the loop's own barrier counted, the combined loop's not"
assert_contains loopimb.txt "the end of 1 worksharing construct without nowait as work inside the shares, so load balance" \
    "POMP_OMPT=off: a loop's barrier unrecorded: said to overstate the load balance"
assert_contains loopimb.txt "^parallel ! " "POMP_OMPT=off: the regions marked"
# at the default levels: rated, nothing marked
POMP_THROTTLE=off POMP_OUTPUT_DIR=crit ./tiny critical 2000 > /dev/null
"$REPORT" crit > crit.txt
assert_not_contains crit.txt "not rated|^\(the run\) !" "the default levels: rated, unmarked"
echo "POP metrics: three known splits within 5 %, a known fork, a task's taskwait counts for its region, forks inside function regions, tasks in two regions, one task construct in two regions (a task root per team; estimated and said so without the runtime's reports), mutually recursive task constructs bound to their region"

# Unset calls are no lock waits: each thread takes its own lock 200,000
# times (no contention). "set_lock" matched omp_unset_lock too: every
# throttled unset counted as an unmeasured wait (779,520 of 400,000 set
# calls), and a filtered unset refused the rating.
cat > unset.c <<'C'
#include <omp.h>
#include <stdio.h>
int main(void)
{
    omp_lock_t l[2];
    long c[2] = {0, 0};
    omp_init_lock(&l[0]);
    omp_init_lock(&l[1]);
#pragma omp parallel num_threads(2)
    {
        int t = omp_get_thread_num();
        for (int i = 0; i < 200000; i++) {
            omp_set_lock(&l[t]);
            c[t]++;
            omp_unset_lock(&l[t]);
        }
    }
    printf("%ld %ld\n", c[0], c[1]);
    return 0;
}
C
"$POMPCC" -O2 -fopenmp unset.c -o unset 2> /dev/null || fail "build unset.c"
POMP_OUTPUT_DIR=unset.d ./unset > unset.out 2> /dev/null
assert_eq "$(cat unset.out)" "200000 200000" "unset: the program"
untimed=$("$REPORT" --json unset.d | jq '.efficiency.run.untimed_wait_executions')
[ "$untimed" -gt 0 ] && [ "$untimed" -le 400000 ] ||
    fail "unset: $untimed untimed lock waits counted of 400000 set calls"
POMP_FILTER_EXCLUDE=type:omp_unset_lock POMP_OUTPUT_DIR=unset_f.d ./unset > /dev/null 2>&1
assert_eq "$("$REPORT" --json unset_f.d | jq '.efficiency.run.rated // true')" true \
    "unset: a filtered unset leaves the run rated"

# Waits for a CPU (the kernel's run delay of each thread, profile.json's
# threads[].cpu_wait_ns): two threads spinning 300 ms each, bound to one CPU,
# each ran about half its time and waited the other half, which the figures
# count as work; the report says so (64 threads on 2 CPUs read as the
# program's own imbalance, nothing said why). The same program's threads
# asleep wait for no CPU.
first_cpu=$(taskset -pc $$ | sed 's/.*: //; s/[-,].*//')
POMP_SUMMARY=on POMP_OUTPUT_DIR=one_cpu taskset -c "$first_cpu" ./imbalance 0 300 > run.txt 2> one_cpu.err
assert_contains run.txt "^done$" "one CPU: the program ran"
if [ -r /proc/self/task/$$/schedstat ]; then
    jq -e '[.threads[] | (.cpu_wait_ns / (.end_ns - .start_ns))] | length == 2 and all(. > 0.3 and . < 0.7)' \
        one_cpu/profile.json > /dev/null ||
        fail "one CPU: each thread waited about half its life for it: $(jq -c '[.threads[] | [.start_ns, .end_ns, .cpu_wait_ns]]' one_cpu/profile.json)"
    "$REPORT" --json one_cpu > r.json
    pct=$(jq '.efficiency.run.cpu_wait_pct' r.json)
    awk -v g="$pct" 'BEGIN { exit !(g > 30 && g < 70) }' || fail "one CPU: the run's wait for a CPU $pct %, expected about 50 %"
    "$REPORT" one_cpu > text.txt
    assert_contains text.txt "^  threads waited [0-9.]* ms for a CPU, [0-9]* % of their" "one CPU: the text says it"
    # and the exit summary, with the report's figure
    said=$(sed -n 's/^pomp: note: threads waited \([0-9.]*\) ms for a CPU, \([0-9]*\) % of their \([0-9.]*\) ms in the run .*/\1 \2 \3/p' one_cpu.err)
    [ -n "$said" ] || { cat one_cpu.err; fail "one CPU: the exit summary says it"; }
    assert_eq "$said" "$(sed -n 's/^  threads waited \([0-9.]*\) ms for a CPU, \([0-9]*\) % of their \([0-9.]*\) ms in the run .*/\1 \2 \3/p' text.txt)" \
              "one CPU: the exit summary's figures are pomp-report's"
    "$REPORT" --check one_cpu > /dev/null || fail "one CPU: --check"
    cat > asleep.c <<'C'
#include <stdio.h>
#include "work.h"
int main(void)
{
#pragma omp parallel num_threads(2)
    sleep_ms(200);
    printf("done\n");
    return 0;
}
C
    "$POMPCC" -O2 -fopenmp -I"$NUMBERS" asleep.c -o asleep 2> /dev/null || fail "build asleep.c"
    POMP_SUMMARY=on POMP_OUTPUT_DIR=asleep.d taskset -c "$first_cpu" ./asleep > /dev/null 2> asleep.err
    assert_not_contains asleep.err "for a CPU" "asleep: the exit summary says nothing"
    pct=$("$REPORT" --json asleep.d | jq '.efficiency.run.cpu_wait_pct')
    awk -v g="$pct" 'BEGIN { exit !(g < 10) }' || fail "asleep: the run's wait for a CPU $pct %, expected near 0"
    "$REPORT" asleep.d > text.txt
    assert_not_contains text.txt "for a CPU" "asleep: nothing said"
else
    echo "note: this kernel tells no thread's wait for a CPU (no /proc/self/task/TID/schedstat): not checked"
fi

# A thread still waiting to enter a critical when measurement ends (exit() on
# the thread inside it): its execution has no block, and its time is a wait.
# It was said to be POMP_SYNC=EnterExit's doing (never set) and read as work,
# 0 ms of critical waits (a probe that killed such a run with SIGTERM).
cat > cut_wait.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <omp.h>
int main(void)
{
    int inside = 0, arrived = 0;
#pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == 0) {
#pragma omp critical
            {
                __atomic_store_n(&inside, 1, __ATOMIC_RELEASE);
                while (!__atomic_load_n(&arrived, __ATOMIC_ACQUIRE))
                    ;
                usleep(200000); /* the other thread waits to enter meanwhile */
                printf("done\n");
                fflush(stdout);
                exit(0);
            }
        } else {
            while (!__atomic_load_n(&inside, __ATOMIC_ACQUIRE)) /* not before the other */
                ;
            __atomic_store_n(&arrived, 1, __ATOMIC_RELEASE);
#pragma omp critical
            arrived = 2;
        }
    }
    return 1;
}
C
"$POMPCC" -O2 -fopenmp cut_wait.c -o cut_wait 2> /dev/null || fail "build cut_wait.c"
POMP_SUMMARY=off POMP_OUTPUT_DIR=cut_wait.d ./cut_wait > cut_wait.txt
assert_eq "$(cat cut_wait.txt)" done "cut wait: the program"
"$REPORT" cut_wait.d > cut_wait.report
assert_not_contains cut_wait.report "EnterExit" "cut wait: no level blamed that was not set"
crit_wait=$("$REPORT" --json cut_wait.d | jq '[.waits.rows[].ns.critical] | add')
awk -v w="$crit_wait" 'BEGIN { exit !(w >= 150e6) }' ||
    fail "cut wait: the waiting thread's 200 ms are a critical wait, got $crit_wait ns"

# An inner team forked in turn by two outer threads, 5 times each: on LLVM
# libomp one pooled worker is in all 10 inner teams, the masters in 5 each;
# inner thread 0 works 40 ms, thread 1 20 ms (load balance 75 %). A worker late
# into each team (a loaded machine's wake-up, made certain here: its barrier
# waits cut by 60 % in the profile, as lateness does) has less time than the
# masters' 5 shares scaled to 10, which were cut to its time: 95-98 % (a probe).
cat > alternate.c <<'C'
#include <omp.h>
#include <stdio.h>
#include "work.h" /* tests/e2e/numbers: sleep_ms */
int main(void)
{
    omp_set_max_active_levels(2);
    int teams = 0;
#pragma omp parallel num_threads(2) reduction(+ : teams)
    for (int k = 0; k < 10; k++) {
        if (omp_get_thread_num() == k % 2) {
#pragma omp parallel num_threads(2)
            sleep_ms(omp_get_thread_num() == 0 ? 40 : 20); /* (a time another job does not stretch) */
            teams++;
        }
#pragma omp barrier
    }
    printf("%d\n", teams);
    return 0;
}
C
"$POMPCC" --pomp-runtime=omp -O2 -fopenmp -I"$NUMBERS" alternate.c -o alternate 2> /dev/null || fail "build alternate.c"
OMP_WAIT_POLICY=passive POMP_SUMMARY=off POMP_OUTPUT_DIR=alternate.d ./alternate > alternate.txt
assert_eq "$(cat alternate.txt)" 10 "alternating inner teams: the program"
python3 - alternate.d/profile.json <<'PY' > alternate.shape
import json, sys
path = sys.argv[1]
p = json.load(open(path))
types = {r["id"]: r["type"] for r in p["regions"]}
nodes = p["callpath"]
by_id = {n["id"]: n for n in nodes}
inner = [n for n in nodes if types.get(n["region"]) == "parallel" and n["parent"] in by_id
         and types.get(by_id[n["parent"]]["region"]) == "parallel"]
shape = sorted((t["visits"], t["begins"]) for t in inner[0]["per_thread"]) if len(inner) == 1 else []
print(shape)
if shape == [(0, 10), (5, 5), (5, 5)]:  # the pooled worker: later into each team
    worker = next(t["thread"] for t in inner[0]["per_thread"] if t["visits"] == 0)
    barrier = next(n for n in nodes if n["parent"] == inner[0]["id"]
                   and types.get(n["region"]) == "implicit_barrier")
    wait = next(t for t in barrier["per_thread"] if t["thread"] == worker)
    cut = int(0.6 * wait["incl_ns"])
    share = next(t for t in inner[0]["per_thread"] if t["thread"] == worker)
    for t in (wait, share):
        for k in ("incl_ns", "share_ns", "body_ns"):
            if t.get(k, 0) >= cut:  # (a wait has no body)
                t[k] -= cut
        t["min_ns"] = min(t["min_ns"], t["incl_ns"] // t["begins" if t["begins"] else "visits"])
        t["max_ns"] = min(t["max_ns"], t["incl_ns"])
    wait["excl_ns"] -= cut
    json.dump(p, open(path, "w"))
PY
if [ "$(cat alternate.shape)" = "[(0, 10), (5, 5), (5, 5)]" ]; then
    "$REPORT" --json alternate.d > alternate.json
    inner=$(jq '[.efficiency.parallel_regions[] | select(.threads == 3)][0]' alternate.json)
    within5 "$(jq '.load_balance_pct' <<<"$inner")" 75 "alternating inner teams, a late pooled worker: the inner region's load balance"
else
    echo "note: alternating inner teams: not one pooled worker in every team ($(cat alternate.shape)); not rated here"
fi
