# Nested parallel regions: the same inner region forked from two outer
# regions. Each worker's share of an inner team merges under the node where
# its own master forked that team (OMPT gives the fork point), so the inner
# region has one node under each outer region, each with both inner teams.
NUMBERS="$(cd "$(dirname "$0")" && pwd)/numbers"
source "$(dirname "$0")/lib.sh"
cat > nested.c <<'C'
#include <omp.h>
#include <stdio.h>
#include <unistd.h>

static int inner(void)
{
    int n = 0;
    #pragma omp parallel num_threads(2) reduction(+: n)
    {
        usleep(2000);
        n++;
    }
    return n;
}

int main(void)
{
    omp_set_max_active_levels(2);
    int a = 0, b = 0;
    #pragma omp parallel num_threads(2) reduction(+: a)
    a += inner();
    #pragma omp parallel num_threads(2) reduction(+: b)
    b += inner();
    printf("%d %d\n", a, b);
    return 0;
}
C
L_inner=$(line_of nested.c "reduction(+: n)")
L_a=$(line_of nested.c "reduction(+: a)")
L_b=$(line_of nested.c "reduction(+: b)")

# "<parent line> <visits> <begins> <threads>" for each node of the inner region.
# Two inner teams of 2 run under each outer region: 4 threads, or 3 when libomp
# gives the second team the pool thread the first one has just given back
# (a loaded machine), which is counted as 4: the begins still say 4 shares.
inner_nodes() {
    jq -r --argjson l $L_inner '
      (.regions | map({(.id|tostring): .}) | add) as $r
      | (.callpath | map({(.id|tostring): .}) | add) as $c
      | .callpath[] | select($r[.region|tostring].type == "parallel" and $r[.region|tostring].first_line == $l)
      | "\(if .parent == 0 then 0 else $r[$c[.parent|tostring].region|tostring].first_line end) \([.per_thread[].visits] | add) \([.per_thread[].begins] | add) \(.per_thread | length | if . == 3 then 4 else . end)"' \
      "$1/profile.json" | sort
}

check() { # DIR LABEL
    inner_nodes $1 > nodes.txt
    printf '%s 2 4 4\n%s 2 4 4\n' $L_a $L_b | sort > expected.txt
    diff -u expected.txt nodes.txt || fail "$2: the inner region under each fork point (parent visits begins threads)"
    assert_eq "$(jq '[.threads[].nesting_errors] | add' $1/profile.json)" 0 "$2: nesting errors"
}

"$POMPCC" -fopenmp nested.c -o nested_gcc
assert_eq "$(POMP_OUTPUT_DIR=gcc ./nested_gcc)" "4 4" "GCC build output"
check gcc "GCC build"

# A thread that is a worker at two nesting levels in turn: libomp's nested
# teams take their workers from its thread pool, so the two workers of the
# first middle team are those of the second middle team and of its deepest
# team. The deepest team's worker then has, under middle, its own short share
# of middle and, grafted under its master's fork, a long share of deepest
# (share_ns): --check must not take that share for time inside its middle one.
cat > reuse.c <<'C'
#include <omp.h>
#include <stdio.h>
#include <unistd.h>

static int deepest(void)
{
    int n = 0;
    #pragma omp parallel num_threads(2) reduction(+: n)
    {
        usleep(5000);
        n++;
    }
    return n;
}

static int middle(int threads, int deeper)
{
    int n = 0;
    #pragma omp parallel num_threads(threads) reduction(+: n)
    n += deeper && omp_get_thread_num() == 0 ? deepest() : 1;
    return n;
}

int main(void)
{
    omp_set_max_active_levels(3);
    int a = 0, b = 0;
    #pragma omp parallel num_threads(2) reduction(+: a, b)
    if (omp_get_thread_num() == 0) {
        a += middle(3, 0);
        b += middle(2, 1);
    }
    printf("%d %d\n", a, b);
    return 0;
}
C
L_outer=$(line_of reuse.c "reduction(+: a, b)")
L_middle=$(line_of reuse.c "num_threads(threads)")
L_deepest=$(line_of reuse.c "reduction(+: n)")
# "<path> <visits> <begins>" of the parallel regions' paths, summed over threads
parallel_paths() { path_counts "$1" | grep -v implicit_barrier; }
"$POMPCC" -fopenmp reuse.c -o reuse
assert_eq "$(POMP_OUTPUT_DIR=reuse_out ./reuse)" "3 3" "reuse output"
printf 'parallel:%s 1 2\nparallel:%s/parallel:%s 2 5\nparallel:%s/parallel:%s/parallel:%s 1 2\n' \
    $L_outer $L_outer $L_middle $L_outer $L_middle $L_deepest > expected.txt
parallel_paths reuse_out > paths.txt
diff -u expected.txt paths.txt || fail "reuse: visits and begins of each parallel path"
"$REPORT" --check reuse_out > /dev/null || fail "reuse: a worker at two levels breaks --check"
assert_eq "$(jq '[.threads[].nesting_errors] | add' reuse_out/profile.json)" 0 "reuse: nesting errors"
if [ "${E2E_RUNTIME:-}" = omp ]; then # the case this program is for
    assert_eq "$(jq '(.callpath | map({(.id | tostring): .}) | add) as $c
                     | [.callpath[] | . as $n | .per_thread[] | select(.share_ns) | .thread as $t
                        | select($n.parent != 0 and ([$c[$n.parent | tostring].per_thread[]
                                                      | select(.thread == $t)] | length > 0))]
                     | length > 0' reuse_out/profile.json)" true \
        "reuse on libomp: a thread's grafted share under a node it was in itself"
fi

# Five nested levels of two threads, run several times: which pool thread
# serves which level varies from run to run (on libomp about every other run
# had a thread that was a worker at two levels: --check failed before share_ns).
cat > nest5.c <<'C'
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int cnt = 0;
    omp_set_max_active_levels(5);
    #pragma omp parallel num_threads(2)
    #pragma omp parallel num_threads(2)
    #pragma omp parallel num_threads(2)
    #pragma omp parallel num_threads(2)
    #pragma omp parallel num_threads(2)
    {
        #pragma omp atomic
        cnt++;
    }
    printf("cnt=%d\n", cnt);
    return 0;
}
C
L1=$(line_of nest5.c "#pragma omp parallel")
L_atomic=$(line_of nest5.c "#pragma omp atomic")
: > expected.txt
path=""
for k in 0 1 2 3 4; do
    path="$path${path:+/}parallel:$((L1 + k))"
    echo "$path $((1 << k)) $((2 << k))" >> expected.txt
done
echo "$path/atomic:$L_atomic 32 0" >> expected.txt
sort -o expected.txt expected.txt
"$POMPCC" -O2 -fopenmp nest5.c -o nest5
for run in 1 2 3 4 5 6; do
    assert_eq "$(POMP_OUTPUT_DIR=nest5_$run ./nest5)" "cnt=32" "nest5 run $run output"
    path_counts nest5_$run | grep -v implicit_barrier > paths.txt
    diff -u expected.txt paths.txt || fail "nest5 run $run: visits and begins of each path"
    "$REPORT" --check nest5_$run > /dev/null || fail "nest5 run $run: --check"
    assert_eq "$(jq '[.threads[].nesting_errors] | add' nest5_$run/profile.json)" 0 "nest5 run $run: nesting errors"
done

# A team forked inside an explicit task (a nested parallel region in a task)
# runs its own tasks in its barrier: their time is the team's, inside the task
# around it. The master's share lost the tasks it ran there as a switch away
# from the outer task (2.5 ms of a 12 ms region, its load balance 50 % for
# 99 %; a probe): its share holds the region's time, the outer task's the
# region's, and the region's load balance is the even one of its 16 tasks.
cat > taskteam.c <<'C'
#include <omp.h>
#include <stdio.h>
#include <time.h>
static void nap(double ms)
{
    struct timespec ts = {0, (long)(ms * 1e6)};
    nanosleep(&ts, 0);
}
static double inner_region(void)
{
    double t = omp_get_wtime();
#pragma omp parallel num_threads(2)
#pragma omp single
    for (int i = 0; i < 16; i++) {
#pragma omp task
        nap(2);
    }
    return (omp_get_wtime() - t) * 1e3;
}
int main(void)
{
    double region = 0, task = 0;
    omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2)
#pragma omp single
    {
#pragma omp task shared(region, task)
        {
            double t = omp_get_wtime();
            region = inner_region();
            task = (omp_get_wtime() - t) * 1e3;
        }
#pragma omp taskwait
    }
    printf("region %.0f task %.0f\n", region, task);
    return 0;
}
C
"$POMPCC" -fopenmp -O1 taskteam.c -o taskteam 2> taskteam.err || { cat taskteam.err; fail "build taskteam.c"; }
POMP_OUTPUT_DIR=tt ./taskteam > tt.txt 2> tt.err
read -r _ region _ task < tt.txt
"$REPORT" --check tt > tt.check || { cat tt.check; fail "a team in a task: --check"; }
# the master of the inner team: the thread that ran the outer task (line 27)
read -r master share outer lb <<< "$(jq -r '
    ([.regions[] | select(.type == "task" and .first_line == 27) | .id]) as $ot
    | ([.regions[] | select(.type == "parallel" and .first_line == 12) | .id]) as $ip
    | [.callpath[] | select(.task_root and (.region as $r | $ot | index($r)))][0] as $root
    | ($root.per_thread[0].thread) as $m
    | [.callpath[] | select(.parent == $root.id and (.region as $r | $ip | index($r)))
       | .per_thread[] | select(.thread == $m) | .incl_ns][0] as $share
    | "\($m) \($share / 1e6 | floor) \($root.per_thread[0].incl_ns / 1e6 | floor) x"' tt/profile.json)"
lb=$("$REPORT" --json tt | jq '[.efficiency.parallel_regions[] | select(.location | test(":12-")) | .load_balance_pct][0]')
echo "a team in a task: region $region ms, outer task $task ms; the master's (thread $master) share $share ms, the outer task's root $outer ms, load balance $lb %"
[ "$((share * 10))" -ge "$((region * 8))" ] ||
    fail "a team in a task: the master's share $share ms of the $region ms region (its tasks taken out)"
[ "$((outer * 10))" -ge "$((task * 9))" ] ||
    fail "a team in a task: the outer task's root $outer ms of its $task ms"
awk -v lb="$lb" 'BEGIN { exit !(lb >= 70) }' || fail "a team in a task: load balance $lb % (16 even tasks)"

# A recursion of tasks that fork teams (a task forks a team whose tasks fork
# teams), inner teams active or serialized: a region's runs inside a run of
# itself count once (overlap_ns; a task's run inside a run of its construct,
# nested_ns), so no region's time on a thread exceeds the run (the team fork
# fix above counted them two and three times: --check failed on every run;
# a probe)
cat > taskrec.c <<'C'
#include <omp.h>
#include <stdio.h>
#include <time.h>
static int leaves;
static void rec(int d)
{
    if (d == 0) {
        struct timespec ts = {0, 3000000};
        nanosleep(&ts, 0);
#pragma omp atomic
        leaves++;
        return;
    }
#pragma omp parallel num_threads(2)
#pragma omp single
    {
        for (int i = 0; i < 2; i++) {
#pragma omp task
            rec(d - 1);
        }
#pragma omp taskwait
    }
}
int main(void)
{
    rec(3);
    printf("leaves %d\n", leaves);
    return 0;
}
C
"$POMPCC" -fopenmp -O1 taskrec.c -o taskrec 2> taskrec.err || { cat taskrec.err; fail "build taskrec.c"; }
for levels in 8 1; do
    OMP_MAX_ACTIVE_LEVELS=$levels POMP_OUTPUT_DIR=tr$levels ./taskrec > tr$levels.txt 2> tr$levels.err
    assert_contains tr$levels.txt "^leaves 8$" "tasks forking teams (levels $levels): the program's result"
    "$REPORT" --check tr$levels > tr$levels.check || { cat tr$levels.check; fail "tasks forking teams (levels $levels): --check"; }
    assert_eq "$(jq '([.regions[] | select(.type == "task") | .id]) as $t
        | [.callpath[] | select(.task_root and (.region as $r | $t | index($r))) | .per_thread[].begins] | add' tr$levels/profile.json)" 14 \
        "tasks forking teams (levels $levels): every task's run counted (2 + 4 + 8)"
done
echo "tasks forking teams: counted once, --check holds"

# The same through two task constructs by turns (fa's tasks fork fb's team,
# whose tasks fork fa's), tasks run in a taskwait and, without it, in the
# single's barrier: the wait of the implicit task that the outermost tasks
# started in holds the inner ones (it was counted twice: a taskwait 59.6 ms
# on a thread of a 55.1 ms run; a probe)
for wait in taskwait barrier; do
    sed "s/WAIT_HERE/$([ $wait = taskwait ] && echo '#pragma omp taskwait')/" > alt_$wait.c <<'C'
#include <omp.h>
#include <stdio.h>
#include <time.h>
static int ran_a, ran_b;
static void nap(void)
{
    struct timespec ts = {0, 5000000};
    nanosleep(&ts, 0);
}
static void fb(int d);
static void fa(int d)
{
#pragma omp parallel num_threads(2)
#pragma omp single
    {
        for (int i = 0; i < 2; i++) {
#pragma omp task
            {
#pragma omp atomic
                ran_a++;
                nap();
                if (d > 0)
                    fb(d - 1);
            }
        }
WAIT_HERE
    }
}
static void fb(int d)
{
#pragma omp parallel num_threads(1)
#pragma omp single nowait
#pragma omp taskgroup
    for (int i = 0; i < 2; i++) {
#pragma omp task
        {
#pragma omp atomic
            ran_b++;
            nap();
            if (d > 0)
                fa(d - 1);
        }
    }
}
int main(void)
{
    fa(2);
    printf("a %d b %d\n", ran_a, ran_b);
    return 0;
}
C
    "$POMPCC" -fopenmp -O1 alt_$wait.c -o alt_$wait 2> alt.err || { cat alt.err; fail "build alt_$wait.c"; }
    OMP_MAX_ACTIVE_LEVELS=2 POMP_OUTPUT_DIR=alt_$wait.out ./alt_$wait > alt_$wait.txt 2> /dev/null
    assert_contains alt_$wait.txt "^a 10 b 4$" "two constructs by turns ($wait): the program's result"
    "$REPORT" --check alt_$wait.out > alt.check || { cat alt.check; fail "two constructs by turns ($wait): --check"; }
done
echo "tasks forking teams, two constructs by turns: counted once"

[ -n "$E2E_SANITIZE" ] && exit 0 # clang's sanitizer runtime cannot join gcc's in libpomp
POMP_CC=clang-19 "$POMPCC" -fopenmp nested.c -o nested_clang
assert_eq "$(POMP_OUTPUT_DIR=clang ./nested_clang)" "4 4" "clang build output"
check clang "clang build"
# Not instrumented: the same tree from the runtime's events alone.
clang-19 -g -fopenmp nested.c -o nested_plain
POMP_OUTPUT_DIR=run "$BUILD/bin/pomprun" ./nested_plain > /dev/null
check run "pomprun"

# Host teams on LLVM libomp (GCC code through its libgomp layer, and Clang
# code): libomp runs each team as a parallel region of its own, forked inside
# the runtime. That is the team, not a region: the teams region holds both
# teams' inner parallel regions, and the next parallel region's closing
# barrier (which libomp reports as a teams barrier after GCC's teams) is its
# closing barrier, on both threads. Before: a 'parallel' without a place
# around each team, the teams region nested in itself, and a teams barrier in
# the next parallel region.
cat > hteams.c <<'C'
#include <omp.h>
#include <stdio.h>
int main(void)
{
    int cnt = 0, after = 0;
#pragma omp teams num_teams(2) thread_limit(1)
    {
#pragma omp parallel num_threads(1)
        {
#pragma omp atomic
            cnt++;
        }
    }
#pragma omp parallel num_threads(2)
    {
#pragma omp atomic
        after++;
    }
    printf("cnt=%d after=%d\n", cnt, after);
    return 0;
}
C
TL=$(line_of hteams.c "omp teams")
IL=$(line_of hteams.c "num_threads(1)")
AL=$(line_of hteams.c "num_threads(2)")
for how in gcc clang; do
    if [ $how = clang ]; then
        command -v clang-19 > /dev/null || continue
        "$BUILD/bin/pomp-clang" -fopenmp -O2 hteams.c -o hteams_$how
    else
        "$POMPCC" --pomp-runtime=omp -fopenmp -O2 hteams.c -o hteams_$how 2> /dev/null
    fi
    POMP_OUTPUT_DIR=ht_$how ./hteams_$how > ht_$how.txt
    assert_contains ht_$how.txt "^cnt=2 after=2$" "host teams ($how): the program's result"
    "$REPORT" --check ht_$how > /dev/null || fail "host teams ($how): --check"
    assert_eq "$(jq '[.regions[] | select(.type == "parallel" and .file == "") ] | length' ht_$how/profile.json)" 0 \
        "host teams ($how): no parallel region without a place (a team is none)"
    assert_eq "$(region_sum ht_$how teams "$TL" begins)" 2 "host teams ($how): both teams begin the teams region"
    assert_eq "$(jq --argjson t "$TL" --argjson i "$IL" '
        ([.regions[] | select(.type == "teams" and .first_line == $t) | .id]) as $tid
        | ([.callpath[] | select(.region as $r | $tid | index($r)) | .id]) as $tn
        | ([.regions[] | select(.type == "parallel" and .first_line == $i) | .id]) as $pid
        | [.callpath[] | select((.region as $r | $pid | index($r)) and (.parent as $p | $tn | index($p))) | .per_thread[].visits] | add' ht_$how/profile.json)" 2 \
        "host teams ($how): both inner parallel regions under the teams region"
    assert_eq "$(jq --argjson a "$AL" '
        ([.regions[] | select(.type == "parallel" and .first_line == $a) | .id]) as $pid
        | ([.callpath[] | select(.region as $r | $pid | index($r)) | .id]) as $pn
        | ([.regions[] | select(.type == "implicit_barrier") | {key: (.id | tostring), value: .name}] | from_entries) as $names
        | [.callpath[] | select(.parent as $p | $pn | index($p)) | select($names[.region | tostring] != null)
           | "\($names[.region | tostring]) \([.per_thread[].visits] | add)"] | sort | join(",")' ht_$how/profile.json)" '"parallel 2"' \
        "host teams ($how): the next parallel region's closing barrier, on both threads"
done

# A combined `teams loop` (kept whole: Teams_enter/exit on the encountering
# thread, no Teams_begin in the teams) is a league as `teams` is: its teams'
# work on other threads is theirs in the teams loop region. Before, the bridge
# knew only the type "teams" for a league's POMP region: on LLVM libomp the
# second team's thread put its share (its teams barrier; with GCC code its
# parallel region too) at the top of the profile, placed nowhere, and the
# teams loop row read 1 thread for a league of 2. And each team's block is
# begun, the first one's too, which no POMP call begins (1 begin for 2 teams
# on libomp, none on libgomp; a probe).
cat > hteamsloop.c <<'C'
#include <stdio.h>
#define N 400000
static double a[N];
int main(void)
{
    double s = 0;
    for (int i = 0; i < N; i++)
        a[i] = i * 0.5;
#pragma omp teams loop num_teams(2) thread_limit(1) reduction(+ : s)
    for (int i = 0; i < N; i++)
        s += a[i];
    printf("s=%.1f\n", s);
    return 0;
}
C
LL=$(line_of hteamsloop.c "omp teams loop")
for how in gcc gomp clang; do
    if [ $how = clang ]; then
        command -v clang-19 > /dev/null || continue
        "$BUILD/bin/pomp-clang" -fopenmp -O2 hteamsloop.c -o hteamsloop_$how
    elif [ $how = gomp ]; then # (on libgomp also where E2E_RUNTIME=omp asks libomp of the rest)
        "$POMPCC" --pomp-runtime=gomp -fopenmp -O2 hteamsloop.c -o hteamsloop_$how
    else
        "$POMPCC" --pomp-runtime=omp -fopenmp -O2 hteamsloop.c -o hteamsloop_$how 2> /dev/null
    fi
    POMP_OUTPUT_DIR=htl_$how OMP_NUM_THREADS=2 ./hteamsloop_$how > htl_$how.txt
    assert_contains htl_$how.txt "^s=39999900000.0$" "host teams loop ($how): the program's result"
    "$REPORT" --check htl_$how > /dev/null || fail "host teams loop ($how): --check"
    assert_eq "$(jq '([.regions[] | select(.type == "implicit_barrier" and .name == "teams") | .id]) as $b
        | [.callpath[] | select(.parent == 0 and (.region as $r | $b | index($r)))] | length' htl_$how/profile.json)" 0 \
        "host teams loop ($how): no teams barrier at the top of the profile (every team's is in the teams loop)"
    assert_eq "$(jq --argjson l "$LL" '([.regions[] | select(.type == "teams loop" and .first_line == $l) | .id]) as $t
        | [.callpath[] | select(.region as $r | $t | index($r)) | .per_thread[].thread] | unique | length' htl_$how/profile.json)" \
        "$([ $how = gomp ] && echo 1 || echo 2)" \
        "host teams loop ($how): both teams' threads in the teams loop region (libgomp runs a league's teams on one)"
    assert_eq "$(region_sum htl_$how "teams loop" "$LL" visits) $(region_sum htl_$how "teams loop" "$LL" begins)" "1 2" \
        "host teams loop ($how): one execution, each of its 2 teams begun"
done

# unseen_teams_measured NAME HOW RESULT WHAT: NAME.c built by pompcc (HOW:
# gcc) or pomp-clang (clang) and run on two threads prints RESULT (a regex);
# nothing is said unmeasured and the run is rated. Its profile: NAME_HOW.out.
unseen_teams_measured() {
    local out=$1_$2
    if [ "$2" = clang ]; then
        "$BUILD/bin/pomp-clang" -fopenmp -O2 "$1.c" -o "$out"
    else
        "$POMPCC" -fopenmp -O2 "$1.c" -o "$out"
    fi
    POMP_OUTPUT_DIR=$out.out OMP_NUM_THREADS=2 "./$out" > "$out.txt" 2> "$out.err"
    assert_contains "$out.txt" "$3" "$4 ($2): the program's result"
    assert_not_contains "$out.err" "not measured|did not instrument" "$4 ($2): nothing said unmeasured"
    assert_eq "$(jq '.unmeasured // [] | length' "$out.out/profile.json")" 0 "$4 ($2): no part of the run unmeasured"
    "$REPORT" --json "$out.out" > "$out.json"
    assert_eq "$(jq '.efficiency.run.rated' "$out.json")" null "$4 ($2): the run is rated"
}

# A host `teams distribute parallel for` (split: teams + the composite
# distribute parallel for, which has no POMP call inside) and a whole `teams
# loop` fork parallel regions only the runtime's events measure. The link
# has the bridges follow them, as for a construct left whole: before, the
# bridges took them for code pompcc did not build ("not measured: 4 parallel
# regions that pompcc did not instrument ran"), their loops went unmeasured
# and the whole run was not rated, though every construct was instrumented.
cat > tdpf.c <<'C'
#include <stdio.h>
#define N 200000
static double a[N];
int main(void)
{
    double s = 0, t = 0;
#pragma omp teams distribute parallel for num_teams(2) thread_limit(2)
    for (int i = 0; i < N; i++)
        a[i] = i * 0.5;
#pragma omp teams distribute parallel for num_teams(2) thread_limit(2) reduction(+ : s)
    for (int i = 0; i < N; i++)
        s += a[i];
#pragma omp teams loop num_teams(2) reduction(+ : t)
    for (int i = 0; i < N; i++)
        t += a[i];
    printf("s=%.1f t=%.1f\n", s, t);
    return 0;
}
C
for how in gcc $(command -v clang-19 > /dev/null && echo clang); do
    unseen_teams_measured tdpf $how "^s=9999950000.0 t=9999950000.0$" "teams distribute parallel for"
done

# A loop construct bound to teams (bind(teams), or closely nested in a teams
# construct without a bind clause) is, on GCC, a distribute parallel for: a
# parallel region per team with no POMP call in it. Alone in its program, it
# ran unmeasured with "not measured: 2 parallel regions that pompcc did not
# instrument ran" and the run unrated (a probe): the object did not count it
# among the constructs the runtime's events measure.
cat > tloop.c <<'C'
#include <stdio.h>
#define N 200000
static double a[N], b[N];
int main(void)
{
    for (int i = 0; i < N; i++)
        a[i] = i * 0.5;
#pragma omp teams num_teams(2)
    {
#pragma omp loop bind(teams)
        for (int i = 0; i < N; i++)
            b[i] = a[i] * 2;
    }
#pragma omp teams num_teams(2)
    {
#pragma omp loop
        for (int i = 0; i < N; i++)
            b[i] += a[i];
    }
    double u = 0;
    for (int i = 0; i < N; i++)
        u += b[i];
    printf("u=%.1f\n", u);
    return 0;
}
C
"$POMPCC" -fopenmp -O2 tloop.c -o tloop
POMP_OUTPUT_DIR=tloop.out OMP_NUM_THREADS=2 ./tloop > tloop.txt 2> tloop.err
assert_contains tloop.txt "^u=29999850000.0$" "loop bound to teams: the program's result"
assert_not_contains tloop.err "not measured|did not instrument" "loop bound to teams: nothing said unmeasured"
assert_eq "$(jq '.unmeasured // [] | length' tloop.out/profile.json)" 0 "loop bound to teams: no part of the run unmeasured"
assert_eq "$(jq '[.regions[] | select(.type == "parallel") | .id] as $p
    | [.callpath[] | select(.region as $r | $p | index($r)) | .per_thread[].visits] | add' tloop.out/profile.json)" 4 \
    "loop bound to teams: its two teams' parallel regions, twice, measured"
"$REPORT" --json tloop.out > tloop.json
assert_eq "$(jq '.efficiency.run.rated' tloop.json)" null "loop bound to teams: the run is rated"

# Target constructs that no device takes (none here; GCC built without
# offloading): the runtime runs their bodies on the host, where the parallel
# regions in them fork host teams that only the runtime's events measure (a
# target body is device code, without POMP calls). A combined `target
# parallel for`, `target teams distribute parallel for`, and a target region
# with a parallel loop and one with a teams region's `distribute parallel
# for` in its block: the link has the bridges follow them, as for a host
# composite. Before, the run said "not measured: 4 parallel regions that
# pompcc did not instrument ran" for a file counted wholly instrumented, and
# was not rated (a probe).
cat > hostfb.c <<'C'
#include <stdio.h>
int main(void)
{
    double s1 = 0, s2 = 0, s3 = 0, s4 = 0;
#pragma omp target parallel for reduction(+ : s1) map(tofrom : s1)
    for (int i = 0; i < 100; i++)
        s1 += i;
#pragma omp target teams distribute parallel for reduction(+ : s2) map(tofrom : s2)
    for (int i = 0; i < 100; i++)
        s2 += i;
#pragma omp target map(tofrom : s3)
    {
#pragma omp parallel for reduction(+ : s3)
        for (int i = 0; i < 100; i++)
            s3 += i;
    }
#pragma omp target teams map(tofrom : s4)
    {
#pragma omp distribute parallel for reduction(+ : s4)
        for (int i = 0; i < 100; i++)
            s4 += i;
    }
    printf("%.0f %.0f %.0f %.0f\n", s1, s2, s3, s4);
    return 0;
}
C
for how in gcc $([ -z "$E2E_SANITIZE" ] && command -v clang-19 > /dev/null && echo clang); do
    unseen_teams_measured hostfb $how "^4950 4950 4950 4950$" "target on the host"
    assert_eq "$(jq '[.regions[] | select(.type == "parallel") | .id] as $p
        | [.callpath[] | select(.region as $r | $p | index($r)) | .per_thread[].begins] | add' hostfb_$how.out/profile.json)" 8 \
        "target on the host ($how): four parallel regions of two threads each measured"
done

# The same with an inner parallel region that libomp runs serialized (GCC
# code, two threads asked for inside a team): libomp's libgomp layer hands its
# implicit task and its end the team's parallel_data, not its own. The bridge
# took that end for the team's: the inner regions stayed open to the end
# ("2 regions were still open"), with the teams barrier inside them, and
# teams + distribute parallel for gave unmatched events.
cat > hteams2.c <<'C'
#include <stdio.h>
int main(void)
{
    int n = 0, m = 0;
#pragma omp teams num_teams(2) reduction(+ : n)
    {
#pragma omp parallel num_threads(2) reduction(+ : n)
        n++;
    }
#pragma omp teams num_teams(2) reduction(+ : m)
#pragma omp distribute parallel for reduction(+ : m)
    for (int i = 0; i < 64; i++)
        m++;
    printf("m=%d %s\n", m, n >= 2 ? "n ok" : "n wrong");
    return 0;
}
C
"$POMPCC" --pomp-runtime=omp -fopenmp -O2 hteams2.c -o hteams2 2> /dev/null
plain_cc -fopenmp -O2 -g hteams2.c -o hteams2_plain
for how in pompcc pomprun; do
    if [ $how = pompcc ]; then run=(./hteams2); else run=("$BUILD/bin/pomprun" --pomp-runtime=omp ./hteams2_plain); fi
    POMP_OUTPUT_DIR=ht2_$how "${run[@]}" > ht2_$how.txt 2> ht2_$how.err
    assert_contains ht2_$how.txt "^m=64 n ok$" "host teams, serialized inner region ($how): the program's result"
    assert_not_contains ht2_$how.err "still open|unmatched" "host teams, serialized inner region ($how): every region closed, every end matched"
    "$REPORT" --check ht2_$how > /dev/null || fail "host teams, serialized inner region ($how): --check"
done

# A thread's first share of a team is not charged with the tool's setup of
# the thread (its record, its buffers: 0.2-0.7 ms). Nested teams on libgomp
# start a fresh thread for each inner team, whose first share is its only
# one: its time in the profile is the time the trace shows for it (before,
# the median fresh thread's share was ~350 us longer, a third of the inner
# region's time in a probe's program).
cat > fresh.c <<'C'
#include <stdio.h>
#include "work.h"
int main(void)
{
    long members = 0;
    for (int it = 0; it < 20; it++) {
        #pragma omp parallel num_threads(2)
        {
            #pragma omp parallel num_threads(2)
            {
                spin_ms(0.2);
                #pragma omp atomic
                members++;
            }
        }
    }
    printf("members %ld\n", members);
    return 0;
}
C
[ "${E2E_RUNTIME:-}" = omp ] && exit 0 # libomp keeps its threads in a pool: none is fresh
[ -n "${E2E_SANITIZE:-}" ] && exit 0    # a sanitizer's own costs are in any time
"$POMPCC" -O2 -fopenmp -I"$NUMBERS" fresh.c -o fresh
OMP_MAX_ACTIVE_LEVELS=2 POMP_TRACE=chrome POMP_OUTPUT_DIR=fresh.dir ./fresh > fresh.txt
assert_contains fresh.txt '^members 80$' "fresh threads: the program's count"
# per thread that is only in inner teams: its share (profile) less its span in the trace, in us
gaps=$(jq -s -c '
  (.[0].regions | map(select(.type == "parallel")) | sort_by(.first_line)) as $par
  | ([.[0].callpath[] | select(.region == $par[0].id) | .per_thread[].thread]) as $outer
  | ([.[0].callpath[] | select(.region == $par[1].id) | .per_thread[]
      | select(.thread as $t | $outer | index($t) | not) | {key: (.thread | tostring), value: (.incl_ns / 1000)}]
     | from_entries) as $share
  | [.[1].traceEvents[] | select((.ph == "B" or .ph == "E") and $share[.tid | tostring] != null)]
  | group_by(.tid) | map($share[.[0].tid | tostring] - ((map(.ts) | max) - (map(.ts) | min))) | sort
  | [length, (.[length / 2 | floor] | floor)]' fresh.dir/profile.json fresh.dir/trace.json)
n=${gaps#[}; n=${n%%,*}; median=${gaps##*,}; median=${median%]}
[ "$n" -ge 10 ] || fail "fresh threads: only $n threads ran inner shares alone ($gaps)"
[ "$median" -lt 50 ] || fail "fresh threads: a share is ${median} us longer in the profile than in the trace (median of $n)"
echo "fresh threads: $n, median share in the profile less its trace span ${median} us"
# Every member of every inner team spins alike: the inner region's load
# balance is high although each of its 40 fresh threads was in one team of
# 20, each thread compared by its work per share (before: ~3 %, the mean of
# 40 one-share threads against two masters of 20 shares each); no factor
# above 100 %. Four threads spin on the 2 cores: a fresh thread preempted
# in its 0.2 ms spin works 4 ms, really, and one such share is the maximum
# (21 % in a clean-clone run, the old code as often as this): the best of
# three runs is the figure (the bug gave ~3 % in every run).
lbs=
for attempt in 1 2 3; do
    if [ $attempt -gt 1 ]; then
        rm -rf fresh.dir
        OMP_MAX_ACTIVE_LEVELS=2 POMP_OUTPUT_DIR=fresh.dir ./fresh > /dev/null
    fi
    inner=$(jq '[.regions[] | select(.type == "parallel")] | max_by(.first_line) | .id' fresh.dir/profile.json)
    "$REPORT" --json fresh.dir > fresh.json
    lb=$(jq --argjson r $inner '[.efficiency.parallel_regions[] | select(.region == $r) | .load_balance_pct] | first' fresh.json)
    lbs="$lbs $lb"
    awk -v lb="$lb" 'BEGIN { exit !(lb >= 50) }' && break
done
awk -v lb="$lb" 'BEGIN { exit !(lb >= 50) }' || fail "fresh threads: the inner region's load balance is$lbs % in three runs"
assert_eq "$(jq '[.efficiency.parallel_regions[], .efficiency.run | .parallel_efficiency_pct, .load_balance_pct,
                   .synchronisation_efficiency_pct, .fork_join_efficiency_pct | select(. > 100.01)] | length' fresh.json)" 0 \
    "fresh threads: no efficiency above 100 %"

# A league whose teams do unequal work (LLVM libomp runs the two teams on two
# threads): team 0 spins 150 ms, team 1 50 ms, then both wait at the teams
# barrier. libomp reports a league worker's end of that barrier only when the
# worker is next put to work, or at its shutdown, after pomp wrote its
# output: the worker's 100 ms wait was missing from the profile without a
# word (and with a trace open at the end, outside the teams region). It now
# ends at the master's, under the teams region, as a parallel region's
# closing barrier does. A league of one team, forked with a parallel_data
# of its own, read as a 'parallel' region inside the teams region. (Clang's
# reduction waits in a barrier of its own under the teams region, before
# the teams barrier: the waits of both are summed.)
cat > lteams.c <<'C'
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
static void spin(double s)
{
    double t = omp_get_wtime();
    while (omp_get_wtime() - t < s)
        ;
}
static double done[2]; /* when each team's work ended */
static double now(void) { return omp_get_wtime(); } /* (GCC: no direct call in teams) */
int main(int argc, char **argv)
{
    int nteams = atoi(argv[1]), sum = 0;
#pragma omp teams num_teams(nteams) reduction(+ : sum)
    {
        int t = omp_get_team_num();
        spin(t == 0 ? 0.15 : 0.05);
        if (t < 2)
            done[t] = now();
        sum += t + 1;
    }
    printf("teams=%d sum=%d\n", nteams, sum);
    if (nteams == 2) /* the worker's wait as the program sees it */
        fprintf(stderr, "waited %.0f\n", (done[0] - done[1]) * 1e3);
    return 0;
}
C
LT=$(line_of lteams.c "omp teams")
for how in gcc clang; do
    if [ $how = clang ]; then
        command -v clang-19 > /dev/null || continue
        "$BUILD/bin/pomp-clang" -fopenmp -O2 lteams.c -o lteams_$how
    else
        "$POMPCC" --pomp-runtime=omp -fopenmp -O2 lteams.c -o lteams_$how 2> lteams.err ||
            { cat lteams.err; fail "league: build"; }
    fi
    for trace in none events; do
        d=lt_${how}_$trace
        POMP_TRACE=$trace POMP_OUTPUT_DIR=$d ./lteams_$how 2 > $d.txt 2> $d.err
        assert_contains $d.txt "^teams=2 sum=3$" "league ($how, trace $trace): the program's result"
        "$REPORT" --check $d > /dev/null || fail "league ($how, trace $trace): --check"
        assert_eq "$(jq '[.threads[].open_at_end] | add' $d/profile.json)" 0 \
            "league ($how, trace $trace): nothing open at the end"
        # every barrier wait is under the teams region; the worker's (the
        # thread that is not the teams region's first) is the 100 ms
        waits=$(jq -r --argjson t "$LT" '
            ([.regions[] | select(.type == "teams" and .first_line == $t) | .id]) as $tid
            | ([.callpath[] | select(.region as $r | $tid | index($r)) | .id]) as $tn
            | ([.regions[] | select(.type == "implicit_barrier") | .id]) as $bid
            | [.callpath[] | select(.region as $r | $bid | index($r))] as $bars
            | "\([$bars[] | select(.parent as $p | $tn | index($p) | not)] | length) \([$bars[] | .per_thread[] | .visits] | add) \([$bars[] | .per_thread[] | select(.thread == 1) | .incl_ns] | add // 0 | . / 1e6 | floor)"' $d/profile.json)
        set -- $waits
        assert_eq "$1" 0 "league ($how, trace $trace): a teams barrier outside the teams region"
        [ "$2" -ge 2 ] || fail "league ($how, trace $trace): $2 barrier visits (both teams wait)"
        # about 100 ms: against what the program measured (a loaded machine
        # starts a team late: 212 ms once, the program's own figure too)
        own=$(sed -n 's/^waited //p' $d.err)
        [ "$3" -ge $((own - 20)) ] && [ "$3" -le $((own + 20)) ] ||
            fail "league ($how, trace $trace): the worker's barrier wait is $3 ms (the program's $own ms)"
        lb=$("$REPORT" --json $d | jq '.efficiency.run.load_balance_pct')
        awk -v lb="$lb" 'BEGIN { exit !(lb >= 55 && lb <= 78) }' ||
            fail "league ($how, trace $trace): load balance $lb % (150 ms and 50 ms of work: 67 %)"
        echo "league ($how, trace $trace): worker's wait $3 ms (the program's $own), load balance $lb %"
    done
    POMP_OUTPUT_DIR=lt1_$how ./lteams_$how 1 > lt1_$how.txt
    assert_contains lt1_$how.txt "^teams=1 sum=1$" "league of one ($how): the program's result"
    assert_eq "$(jq '[.regions[] | select(.type == "parallel")] | length' lt1_$how/profile.json)" 0 \
        "league of one ($how): no parallel region (the one team is none)"
    "$REPORT" --check lt1_$how > /dev/null || fail "league of one ($how): --check"
done


# Recursion twelve teams deep on one thread (teams of one: the same thread
# forks each level): the bridge records eight nested teams per thread, and the
# four deeper forks are said, in the run's summary and its profile (pomprun
# lost them without a word; a probe)
[ -n "$E2E_SANITIZE" ] && exit 0 # (pomprun: a plain build)
cat > deep.c <<'C'
#include <stdio.h>
static int calls;
static void down(int d)
{
    calls++;
    if (d == 0)
        return;
#pragma omp parallel num_threads(1)
    down(d - 1);
}
int main(void)
{
    down(12);
    printf("%d\n", calls);
    return 0;
}
C
cc -fopenmp -O2 deep.c -o deep_plain || fail "cc deep.c"
POMP_OUTPUT_DIR=deep.d "$BUILD/bin/pomprun" ./deep_plain > deep.out 2> deep.err
assert_eq "$(cat deep.out)" 13 "twelve levels: the program's output"
assert_contains deep.err "^pomp: warning: 4 parallel regions were forked on a thread already 8 teams deep: the OMPT bridge did not record them" \
    "forks past the bridge's nesting: said at the end"
assert_contains <(jq -r '.unmeasured[]' deep.d/profile.json) "^4 parallel regions were forked on a thread already 8 teams deep" \
    "forks past the bridge's nesting: in the profile's unmeasured"

# Twelve levels with teams of two at the first two: the workers of the outer
# teams are members of more teams than they forked. The bridge stops at eight
# memberships on every thread, forks included: each fork past them is said
# (per repetition: 4 on the initial thread and on its level-1 worker, 3 on
# each level-2 worker), and every recorded parallel path has its masters'
# begins; a level-2 worker's eight teams are levels 2 to 9, so the deepest
# path is nine levels deep. Capped by its forks alone, a worker recorded a
# fork's enter without its master's share one or two levels deeper than its
# memberships: a level-10 path with visits and no begins, the single at three
# depths, 55 forks said (a probe)
cat > deep2.c <<'C'
#include <stdio.h>
static int singles;
static void rec(int lvl)
{
#pragma omp parallel num_threads(lvl <= 2 ? 2 : 1)
    if (lvl < 12)
        rec(lvl + 1);
    else {
#pragma omp single
        {
#pragma omp atomic
            singles++;
        }
    }
}
int main(void)
{
    for (int r = 0; r < 5; r++)
        rec(1);
    printf("%d\n", singles);
    return 0;
}
C
cc -fopenmp -O1 deep2.c -o deep2_plain || fail "cc deep2.c"
OMP_MAX_ACTIVE_LEVELS=12 POMP_OUTPUT_DIR=deep2.d "$BUILD/bin/pomprun" ./deep2_plain > deep2.out 2> deep2.err
assert_eq "$(cat deep2.out)" 20 "twelve levels, two threads: the program's output"
assert_contains deep2.err "^pomp: warning: 70 parallel regions were forked on a thread already 8 teams deep" \
    "workers' forks past eight memberships: said"
"$REPORT" --check deep2.d > /dev/null || fail "twelve levels, two threads: --check"
assert_eq "$(jq -r '[.callpath[] as $c | .regions[] | select(.id == $c.region and .type == "parallel") | $c.id] | length' deep2.d/profile.json)" 9 \
    "twelve levels, two threads: parallel paths nine deep at most (a level-2 worker's eight teams)"
assert_eq "$(jq -r '[.callpath[] | select((.per_thread | map(.visits) | add) > 0 and (.per_thread | map(.begins) | add) == 0) | .id] as $z | [.regions[] | select(.type == "parallel") | .id] as $p | [.callpath[] | select(.id as $i | $z | index($i)) | select(.region as $r | $p | index($r))] | length' deep2.d/profile.json)" 0 \
    "twelve levels, two threads: no parallel path visited without a begin"
