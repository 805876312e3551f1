# The output survives every way a program ends: return from main, exit() from
# deep inside, SIGTERM, SIGINT and SIGHUP (then the signal's own exit status); a
# fork()ed child neither measures nor overwrites its parent's profile.
NUMBERS="$(cd "$(dirname "$0")" && pwd)/numbers"
source "$(dirname "$0")/lib.sh"
cat > life.c <<'C'
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void finish(const char *how)
{
    if (strcmp(how, "exit") == 0)
        exit(3);
    if (strcmp(how, "term") == 0)
        raise(SIGTERM);
    if (strcmp(how, "int") == 0)
        raise(SIGINT);
    if (strcmp(how, "hup") == 0)
        raise(SIGHUP);
    if (strcmp(how, "pipe") == 0) /* a reader that stopped reading: prog | head */
        for (;;)
            if (printf("more\n") < 0 || fflush(stdout) != 0)
                break;
    if (strcmp(how, "fork") == 0) {
        pid_t pid = fork();
        if (pid == 0) {
            int n = 0;
            #pragma omp parallel reduction(+:n)
            n++;
            printf("child %d\n", n > 0);
            fflush(stdout);
            exit(0);
        }
        int status;
        waitpid(pid, &status, 0);
        printf("parent after child %d\n", WEXITSTATUS(status));
    }
}

int main(int argc, char **argv)
{
    int sum = 0;
    for (int r = 0; r < 2; r++) {
        #pragma omp parallel reduction(+:sum) num_threads(2)
        sum += 1;
    }
    printf("sum %d\n", sum);
    fflush(stdout);
    finish(argc > 1 ? argv[1] : "return");
    return 0;
}
C
"$POMPCC" -fopenmp life.c -o life
# libgomp's child hangs in its first parallel region after a fork() from a
# process that had a team (plain gcc builds too): the fork case runs on libomp
"$POMPCC" --pomp-runtime=omp -fopenmp life.c -o life_omp
L=$(line_of life.c "reduction(+:sum)")

run() { # HOW EXPECTED_STATUS
    local program=./life
    [ "$1" = fork ] && program=./life_omp
    set +e
    POMP_OUTPUT_DIR=out_$1 $program "$1" > out_$1.txt 2> /dev/null
    local st=$?
    set -e
    assert_eq "$st" "$2" "exit status when ending by '$1'"
    [ -f out_$1/profile.json ] || fail "no profile after ending by '$1'"
    jq -e . out_$1/profile.json > /dev/null || fail "profile after '$1' is not valid JSON"
    assert_eq "$(region_sum out_$1 parallel $L visits)" 2 "visits after ending by '$1'"
}
run return 0
run exit 3
run term 143
run int 130
run hup 129
# (SIGPIPE: the program ended without a word or a profile; a probe)
set +e
POMP_OUTPUT_DIR=out_pipe ./life pipe 2> pipe.err | head -1 > /dev/null
st=${PIPESTATUS[0]}
set -e
assert_eq "$st" 141 "exit status when ending by SIGPIPE (a reader that stopped reading)"
assert_eq "$(region_sum out_pipe parallel $L visits)" 2 "visits after ending by SIGPIPE"
run fork 0
assert_contains out_fork.txt '^child 1$' "the child ran its parallel region"
assert_contains out_fork.txt '^parent after child 0$' "the parent continued"
# The child's own parallel region was measured by nobody (every region of the
# file is registered at start-up, but only the parent's has a call-path node).
assert_eq "$(jq '[.regions[] | select(.type == "parallel") | .id] as $p | [.callpath[] | select(.region as $r | $p | index($r))] | length' out_fork/profile.json)" 1 "only the parent's region was measured"
assert_eq "$(jq '[.threads[].nesting_errors] | add' out_fork/profile.json)" 0 "parent's profile consistent"

# quick_exit(): its handlers run, not atexit's; the output is written by
# pomp's (nothing was written, nothing said: a probe)
cat > qexit.c <<'C'
#include <stdlib.h>
int main(void)
{
    int n = 0;
    #pragma omp parallel num_threads(2) reduction(+:n)
    n++;
    quick_exit(n + 1);
}
C
"$POMPCC" -fopenmp qexit.c -o qexit
set +e
POMP_OUTPUT_DIR=qexit_out ./qexit 2> /dev/null
st=$?
set -e
assert_eq "$st" 3 "quick_exit: its status"
assert_eq "$(region_sum qexit_out parallel "$(line_of qexit.c "reduction(+:n)")" visits)" 1 "quick_exit: the output written"

# A fork() before the first construct (a launcher's child that does work of
# its own): the child does not measure either (before, it wrote its own
# output: a second directory, or over the parent's with POMP_OUTPUT_DIR)
cat > forkfirst.c <<'C'
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void)
{
    int n = 0, m = 0;
    pid_t pid = fork();
    if (pid == 0) {
        #pragma omp parallel num_threads(2) reduction(+:n)
        n++;
        printf("child %d\n", n);
        return 7;
    }
    int status;
    waitpid(pid, &status, 0);
    #pragma omp parallel num_threads(2) reduction(+:m)
    m++;
    printf("parent %d, child's status %d\n", m, WEXITSTATUS(status));
    return 0;
}
C
"$POMPCC" -fopenmp forkfirst.c -o forkfirst
mkdir ff && (cd ff && ../forkfirst > ../ff.txt 2> ../ff.err)
assert_contains ff.txt '^child 2$' "fork first: the child's region ran"
# said once by the child, at its first construct (a pre-fork server's workers
# ran unmeasured without a word: a probe)
assert_eq "$(grep -c "forked from the measured process" ff.err)" 1 "fork first: the child says it is not measured, once"
assert_contains ff.err "^pomp: note: process [0-9]*, forked from the measured process [0-9]*, runs OpenMP constructs or POMP regions: a forked child is not measured" \
                "fork first: the child's note"
assert_contains ff.txt "^parent 2, child's status 7$" "fork first: the parent's region ran, the child's status kept"
assert_eq "$(ls -d ff/pomp-* | wc -l)" 1 "fork first: one output directory, the parent's"
# ... and so under pomprun, where the library starts with the runtime: on
# libgomp after the fork (the child's runtime found the library stopped), on
# libomp before it (the child's region found it stopped); both said nothing
# (a probe)
if [ -z "$E2E_SANITIZE" ]; then
    for c in gcc clang-19; do
        $c -fopenmp forkfirst.c -o forkfirst_$c
        mkdir ff_$c && (cd ff_$c && "$BUILD/bin/pomprun" ../forkfirst_$c > ../ff_$c.txt 2> ../ff_$c.err)
        assert_contains ff_$c.txt "^parent 2, child's status 7$" "fork first, pomprun ($c): the program"
        assert_eq "$(grep -c "forked from the measured process" ff_$c.err)" 1 "fork first, pomprun ($c): the child's note, once"
    done
fi
POMP_OUTPUT_DIR=ff_out ./forkfirst > /dev/null 2>&1
C_LINE=$(line_of forkfirst.c "reduction(+:n)")
P_LINE=$(line_of forkfirst.c "reduction(+:m)")
assert_eq "$(region_sum ff_out parallel $P_LINE visits)" 1 "fork first: the parent's region in the output"
assert_eq "$(region_sum ff_out parallel $C_LINE visits)" 0 "fork first: not the child's"
# the same under pomprun, where libpomp starts at the first construct (not
# under sanitizers: a sanitized libpomp cannot be loaded into a plain program)
if [ -z "$E2E_SANITIZE" ]; then
    gcc -fopenmp -g forkfirst.c -o forkfirst_plain
    mkdir ffr && (cd ffr && "$BUILD/bin/pomprun" ../forkfirst_plain > ../ffr.txt 2> /dev/null)
    assert_contains ffr.txt "^parent 2, child's status 7$" "fork first, pomprun: the parent's region ran"
    assert_eq "$(ls -d ffr/pomp-* | wc -l)" 1 "fork first, pomprun: one output directory, the parent's"
fi

# A daemon's fork: the parent exits at once, the child does the work. Its
# note names the parent it was forked from (it said "process 1": getppid()
# in the child, once the parent had gone, is init's; a probe with daemon())
cat > daemonize.c <<'C'
#include <stdio.h>
#include <unistd.h>
int main(void)
{
    pid_t parent = getpid();
    fprintf(stderr, "parent %d\n", (int)parent);
    if (fork() != 0)
        _exit(0);
    while (getppid() == parent) /* the parent is gone */
        usleep(1000);
    int n = 0;
    #pragma omp parallel num_threads(2) reduction(+:n)
    n++;
    FILE *f = fopen("daemonize.done", "w");
    fprintf(f, "child %d\n", n);
    fclose(f);
    return 0;
}
C
"$POMPCC" -fopenmp daemonize.c -o daemonize
./daemonize 2> daemonize.err
for i in $(seq 100); do [ -s daemonize.done ] && break; sleep 0.1; done
sleep 0.2
assert_contains daemonize.done '^child 2$' "daemon: the child's region ran"
parent=$(sed -n 's/^parent //p' daemonize.err)
assert_contains daemonize.err "^pomp: note: process [0-9]*, forked from the measured process $parent, runs OpenMP" \
                "daemon: the child's note names its parent"

# A program that ends inside a region (exit() from a thread of a team, a
# signal): the regions still open are timed to the end of measurement and
# said, not shown as 0 ms with their time lost
cat > inside.c <<'C'
#include <omp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include "work.h" /* tests/e2e/numbers: spin_ms */
int main(int argc, char **argv)
{
    #pragma omp parallel num_threads(2)
    {
        spin_ms(100);
        if (omp_get_thread_num() == 1) {
            if (strcmp(argv[1], "exit") == 0)
                exit(3);
            raise(SIGTERM);
        }
        spin_ms(2000);
    }
    return 0;
}
C
"$POMPCC" -fopenmp -I"$NUMBERS" inside.c -o inside
L_in=$(line_of inside.c "pragma omp parallel")
for how in exit term; do
    set +e
    POMP_SUMMARY=on POMP_OUTPUT_DIR=in_$how ./inside $how > /dev/null 2> in_$how.err
    set -e
    assert_contains in_$how.err "regions? (was|were) still open when measurement ended" "ending inside a region ($how): said"
    assert_eq "$(jq '[.threads[].open_at_end] | add >= 2' in_$how/profile.json)" true \
        "ending inside a region ($how): both threads' regions counted open"
    assert_eq "$(jq --argjson l $L_in '([.regions[] | select(.type == "parallel" and .first_line == $l) | .id]) as $p
        | [.callpath[] | select(.region as $r | $p | index($r)) | .per_thread[].incl_ns] | min >= 90e6' in_$how/profile.json)" \
        true "ending inside a region ($how): its 100 ms on each thread kept"
    "$REPORT" --check in_$how > in_$how.check || { cat in_$how.check; fail "ending inside a region ($how): --check"; }
done

# exit() while other threads' teams still run (a server whose pthreads each
# fork teams in a loop; main ends the program): on libgomp the bridge
# stopped reporting before recording stopped, so their instrumented events
# went on without the runtime's barrier ends, closed later at their team's
# join, before those events (a probe: durations wrapped below 0 in one run
# in three: 8.8e12 ms, "unmatched end/exit events"). Ten runs.
cat > servers.c <<'C'
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
static void *server(void *arg)
{
    (void)arg;
    for (;;) {
        #pragma omp parallel num_threads(2)
        {
            #pragma omp single
            { volatile int x = 0; for (int i = 0; i < 100; i++) x += i; }
        }
    }
    return NULL;
}
int main(void)
{
    pthread_t t;
    for (int i = 0; i < 2; i++)
        pthread_create(&t, NULL, server, NULL);
    usleep(100000);
    exit(0);
}
C
"$POMPCC" -fopenmp -O2 servers.c -o servers -lpthread
# A single unmatched end in one run of ten is a known, rarer race left open
# (the session notes: one barrier end of a team still running at exit(),
# about one run in 30 on the CI's machine); the fixed bug gave one run in
# three, and its wrapped durations fail --check.
unmatched_runs=0
for run in 1 2 3 4 5 6 7 8 9 10; do
    POMP_SUMMARY=on POMP_OUTPUT_DIR=servers_$run ./servers 2> servers_$run.err || fail "exit() beside running teams: the program failed ($run)"
    if grep -q "unmatched" servers_$run.err; then
        unmatched_runs=$((unmatched_runs + 1))
        assert_contains servers_$run.err "warning: 1 unmatched end/exit events" "exit() beside running teams: at most one end without its begin ($run)"
        # (the one run allowed: the check of every profile at the test's end
        # took it for a failure, under make sanitize once)
        touch servers_$run/.nesting-errors-expected
    fi
    "$REPORT" --check servers_$run > servers_$run.check || { cat servers_$run.check; fail "exit() beside running teams: --check ($run)"; }
done
[ "$unmatched_runs" -le 1 ] || fail "exit() beside running teams: $unmatched_runs runs of 10 with an end without its begin"

# exit() or SIGTERM from a task deep in a recursion, the other threads running
# tasks in their team's closing barrier: on libgomp the bridge closed those
# workers' barriers at finalization as if their team had joined, at the
# barrier's start, under the task frames still open above it: they ended
# before they began (278 years in the summary, "unmatched end/exit events",
# --check broken; a probe). Their team never joined: they are still open at
# the end, timed to it, innermost first.
cat > fibend.c <<'C'
#include <signal.h>
#include <stdlib.h>
#include <string.h>
static const char *how;
static int executed, ended;
static long fib(int n)
{
    long x, y;
    if (n < 2)
        return n;
    if (__atomic_add_fetch(&executed, 1, __ATOMIC_RELAXED) > 20000 &&
        !__atomic_exchange_n(&ended, 1, __ATOMIC_ACQ_REL)) {
        if (strcmp(how, "exit") == 0)
            exit(0);
        raise(SIGTERM);
    }
    #pragma omp task shared(x) if(n > 12)
    x = fib(n - 1);
    #pragma omp task shared(y) if(n > 12)
    y = fib(n - 2);
    #pragma omp taskwait
    return x + y;
}
int main(int argc, char **argv)
{
    long r = 0;
    how = argc > 1 ? argv[1] : "exit";
    #pragma omp parallel num_threads(4)
    #pragma omp single
    r = fib(40);
    return r == 0;
}
C
"$POMPCC" -fopenmp -O2 fibend.c -o fibend
for how in exit term exit term; do
    set +e
    POMP_SUMMARY=on POMP_OUTPUT_DIR=fibend_$how ./fibend $how > /dev/null 2> fibend_$how.err
    set -e
    assert_not_contains fibend_$how.err "unmatched" "ending inside tasks ($how): no end without its begin"
    assert_contains fibend_$how.err "regions? (was|were) still open when measurement ended" "ending inside tasks ($how): said"
    "$REPORT" --check fibend_$how > fibend_$how.check || { cat fibend_$how.check; fail "ending inside tasks ($how): --check"; }
    rm -rf fibend_$how
done

# A program's own SIGTERM handler is left alone.
cat > own.c <<'C'
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
static void handler(int sig) { (void)sig; write(1, "own handler\n", 12); }
int main(void)
{
    signal(SIGTERM, handler);
    #pragma omp parallel num_threads(2)
    {
    }
    raise(SIGTERM);
    return 0;
}
C
"$POMPCC" -fopenmp own.c -o own
assert_eq "$(POMP_OUTPUT_DIR=own_out ./own)" "own handler" "the program's handler runs"
[ -f own_out/profile.json ] || fail "profile written at the normal end"

# A run that reaches no OpenMP construct (a configure test built with
# CC=pompcc, a --help): no directory, one line (only with the summary on).
cat > quiet.c <<'C'
#include <stdio.h>
int main(int argc, char **argv)
{
    (void)argv;
    if (argc > 1) {
        #pragma omp parallel num_threads(2)
        {
        }
    }
    puts("done");
    return 0;
}
C
"$POMPCC" -fopenmp quiet.c -o quiet
mkdir quiet_run && (cd quiet_run && POMP_SUMMARY=on ../quiet > out.txt 2> err.txt)
assert_eq "$(cat quiet_run/out.txt)" "done" "quiet: program output"
assert_eq "$(ls quiet_run | tr '\n' ' ')" "err.txt out.txt " "quiet: no output directory"
assert_eq "$(cat quiet_run/err.txt)" "pomp: quiet: no OpenMP construct or POMP region ran: nothing written" "quiet: one line says so"
(cd quiet_run && ../quiet 2> err2.txt > /dev/null)
# a run whose constructs ran but whose settings record nothing: said as such
# (it said that no construct ran)
mkdir none_run && (cd none_run && POMP_SUMMARY=on POMP_OMPT=off POMP_PARALLEL=none ../quiet on > out.txt 2> err.txt)
assert_eq "$(cat none_run/err.txt)" \
          "pomp: quiet: nothing was recorded (POMP_OMPT=off; POMP_PARALLEL=none: the constructs that ran, if any, were not measured): nothing written" \
          "constructs ran, recorded by nothing: the settings named"
# ... a filter that takes out every region (a pattern with a typo), or a
# level at none, the same (both read as "no OpenMP construct or POMP region
# ran"; a probe)
cat > phases.c <<'C'
#include <stdio.h>
int main(void)
{
    long s = 0;
    for (int i = 0; i < 3; i++) {
#pragma pomp inst begin(phase)
        s += i;
#pragma pomp inst end(phase)
    }
    printf("%ld\n", s);
    return 0;
}
C
"$POMPCC" -fopenmp phases.c -o phases
(cd none_run && POMP_SUMMARY=on POMP_FILTER_INCLUDE=name:phse ../phases > out3.txt 2> err3.txt)
assert_eq "$(cat none_run/err3.txt)" \
          "pomp: warning: POMP_FILTER_INCLUDE: the rule 'name:phse' matched no region of this run (rules are separated by ',' and match a region's type, as profile.json names it, or its name; docs/environment.md)
pomp: phases: nothing was recorded (POMP_FILTER_INCLUDE/POMP_FILTER_EXCLUDE: 1 of the 1 regions filtered out: the constructs that ran, if any, were not measured): nothing written" \
          "user regions ran, every region filtered out by a misspelt rule: said, the rule too"
(cd none_run && POMP_SUMMARY=on POMP_USER=none ../phases > out4.txt 2> err4.txt)
assert_eq "$(cat none_run/err4.txt)" \
          "pomp: phases: nothing was recorded (POMP_USER=none: the constructs that ran, if any, were not measured): nothing written" \
          "user regions ran, at level none: said"
# ... at a level that records none of the events they make (a user region's
# are BeginEnd): said so, where it read "no OpenMP construct or POMP region
# ran" (a probe)
for level in EnterExit Event; do
    (cd none_run && POMP_SUMMARY=on POMP_USER=$level ../phases > out5.txt 2> err5.txt)
    assert_eq "$(cat none_run/err5.txt)" \
              "pomp: phases: nothing was recorded (POMP_USER=$level: the constructs that ran, if any, were not measured): nothing written" \
              "user regions ran, at level $level: said"
done
if [ "${E2E_RUNTIME:-}" != omp ] && [ -z "${E2E_SANITIZE:-}" ]; then # (a sanitized libpomp cannot go into a plain program)
    plain_cc quiet.c -o quiet_plain
    (cd none_run && POMP_SUMMARY=on POMP_OMPT=off "$BUILD/bin/pomprun" ../quiet_plain on > out2.txt 2> err2.txt)
    assert_contains none_run/err2.txt "pomp: quiet_plain: nothing was recorded \(POMP_OMPT=off: the constructs that ran, if any, were not measured\)" \
                    "pomprun with POMP_OMPT=off: the setting named, not 'no construct ran'"
fi
# a trailing slash in POMP_OUTPUT_DIR: named as given (it said "output in slash_out//")
POMP_SUMMARY=on POMP_OUTPUT_DIR=slash_out/ ./quiet on > /dev/null 2> slash.err
assert_contains slash.err "output in slash_out/$" "POMP_OUTPUT_DIR=dir/: one slash"
assert_eq "$(cat quiet_run/err2.txt)" "" "quiet: nothing at all without the summary"
POMP_OUTPUT_DIR=quiet_on ./quiet on > /dev/null
[ -f quiet_on/profile.json ] || fail "quiet: profile written once a construct ran"
POMP_TRACE=events POMP_OUTPUT_DIR=quiet_tr ./quiet > /dev/null
[ -d quiet_tr ] || fail "quiet: a trace asked for keeps its directory"

# Exit handlers the program registers before its first construct (atexit at
# the top of main) run before pomp's, and their regions are measured: pomp
# registered its handlers at the first construct on libgomp, which then ran
# first and wrote the profile before the program's handler ran its region.
cat > late.c <<'C'
#include <stdio.h>
#include <stdlib.h>
static void handler(void)
{
    int n = 0;
    #pragma omp parallel num_threads(2) reduction(+:n)
    {
        #pragma omp critical
        n++;
    }
    printf("handler %d\n", n);
}
int main(void)
{
    atexit(handler);
    int m = 0;
    #pragma omp parallel num_threads(2) reduction(+:m)
    m++;
    printf("main %d\n", m);
    return 0;
}
C
L_handler=$(grep -n 'parallel num_threads(2) reduction(+:n)' late.c | cut -d: -f1)
L_critical=$(grep -n 'omp critical' late.c | cut -d: -f1)
"$POMPCC" -fopenmp late.c -o late_gomp
"$POMPCC" --pomp-runtime=omp -fopenmp late.c -o late_omp
# (a sanitized libpomp is preloaded into a program built with the sanitizer too)
gcc -fopenmp -g $E2E_SANITIZE late.c -o late_plain
for run in gomp omp pomprun; do
    case $run in
    pomprun) ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" POMP_OUTPUT_DIR=late_$run.dir \
                 "$BUILD/bin/pomprun" ./late_plain > late_$run.out ;;
    *) POMP_OUTPUT_DIR=late_$run.dir ./late_$run > late_$run.out ;;
    esac
    assert_eq "$(cat late_$run.out | tr '\n' ' ')" "main 2 handler 2 " "late handler ($run): program output"
    "$REPORT" --check late_$run.dir > /dev/null || fail "late handler ($run): --check"
    assert_eq "$(region_sum late_$run.dir parallel $L_handler begins)" 2 "late handler ($run): its region measured"
done
for run in gomp omp; do
    assert_eq "$(region_sum late_$run.dir critical $L_critical begins)" 2 "late handler ($run): its critical measured"
done

# A signal while the output is written at exit (here: the profile's file is a
# FIFO nobody reads, so its open blocks): the program ends, of the signal,
# once the writing gives up or is done. It hung: the handler waited for the
# finalization it had interrupted on the same thread, until SIGKILL. The
# program's own output, still in its stdout buffer (a file: fully buffered)
# when it called exit, is written first (it was lost: a probe's result line).
cat > sigexit.c <<'C'
#include <stdio.h>
int main(void)
{
    int n = 0;
#pragma omp parallel num_threads(2) reduction(+ : n)
    n++;
    printf("done %d\n", n);
    fprintf(stderr, "exiting\n");
    return 0;
}
C
"$POMPCC" -fopenmp sigexit.c -o sigexit
mkdir sigexit_out # (the temporary file is named by the pid, which exec keeps)
sh -c 'mkfifo sigexit_out/profile.json.tmp.$$ && POMP_OUTPUT_DIR=sigexit_out exec ./sigexit' > sigexit.txt 2> sigexit.err &
pid=$!
for i in $(seq 100); do grep -q exiting sigexit.err && break; sleep 0.1; done
sleep 0.5 # in the profile's open, at exit
kill -TERM $pid
ended=no
for i in $(seq 100); do kill -0 $pid 2> /dev/null || { ended=yes; break; }; sleep 0.1; done
if [ $ended = no ]; then
    kill -KILL $pid
    fail "SIGTERM while the output is written: the program did not end"
fi
status=0
wait $pid || status=$?
assert_eq "$status" 143 "SIGTERM while the output is written: the program dies of it"
assert_eq "$(cat sigexit.txt)" "done 2" "SIGTERM while the output is written: the program's buffered output is kept"
grep -q 'came while pomp wrote its output at the program.s exit' sigexit.err ||
    fail "SIGTERM while the output is written: not said ($(cat sigexit.err))"

# abort() (a failed assert): nothing written, and said (an empty run said
# nothing); the program dies of SIGABRT as it would have
cat > aborts.c <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
    int n = 0;
#pragma omp parallel num_threads(2) reduction(+ : n)
    n++;
    printf("n %d\n", n);
    fflush(stdout);
    abort();
}
C
"$POMPCC" -fopenmp aborts.c -o aborts
status=0
POMP_OUTPUT_DIR=aborts_out ./aborts > aborts.txt 2> aborts.err || status=$?
assert_eq "$status" 134 "abort(): the program dies of SIGABRT"
assert_eq "$(cat aborts.txt)" "n 2" "abort(): the program's output"
assert_contains aborts.err "pomp: note: the program aborted \\(SIGABRT\\): its measurement is not written" "abort(): said"
# An abort after pomp wrote its output (from an exit handler that comes after
# pomp's): the output is there, and the note says so (it said "not written")
cat > abortlate.c <<'C'
#include <stdio.h>
#include <stdlib.h>
extern int __cxa_atexit(void (*fn)(void *), void *arg, void *dso);
static void die(void *unused)
{
    (void)unused;
    abort();
}
__attribute__((destructor)) static void register_die(void)
{
    __cxa_atexit(die, NULL, NULL); /* after every destructor */
}
int main(void)
{
    int n = 0;
    #pragma omp parallel num_threads(2) reduction(+:n)
    n++;
    printf("n %d\n", n);
    fflush(stdout); /* (the abort comes before the C library flushes it) */
    return 0;
}
C
"$POMPCC" -fopenmp abortlate.c -o abortlate
status=0
POMP_OUTPUT_DIR=abortlate_out ./abortlate > abortlate.txt 2> abortlate.err || status=$?
assert_eq "$status $(cat abortlate.txt)" "134 n 2" "abort() after the output: the program"
assert_contains abortlate.err "pomp: note: the program aborted \\(SIGABRT\\) after pomp had written its output: what ran after that is not in it" \
    "abort() after the output: said so"
"$REPORT" --check abortlate_out > /dev/null || fail "abort() after the output: the profile is whole"

# Two runs into one output directory at once (make -j check with one
# POMP_OUTPUT_DIR): one whole profile (both wrote profile.json.tmp, their
# bytes interleaved: invalid JSON in half of the pairs)
for i in 1 2 3 4 5; do
    POMP_OUTPUT_DIR=shared_out POMP_SUMMARY=off ./sigexit > /dev/null 2>&1 &
    POMP_OUTPUT_DIR=shared_out POMP_SUMMARY=off ./sigexit > /dev/null 2>&1 &
    wait
    jq -e '.format == "pomp-profile"' shared_out/profile.json > /dev/null ||
        fail "two runs into one directory: profile.json is not one run's whole profile"
done
ls shared_out | grep tmp > /dev/null && fail "two runs into one directory: a temporary file left"
true

# The same with %p in POMP_OUTPUT_DIR: a directory per process, each whole;
# %% is a percent sign, another % stays as it is, said
POMP_OUTPUT_DIR='per_%p' POMP_SUMMARY=off ./sigexit > /dev/null 2>&1 &
first=$!
POMP_OUTPUT_DIR='per_%p' POMP_SUMMARY=off ./sigexit > /dev/null 2>&1 &
second=$!
wait
for pid in $first $second; do
    jq -e '.format == "pomp-profile"' "per_$pid/profile.json" > /dev/null ||
        fail "POMP_OUTPUT_DIR=per_%p: no whole profile in per_$pid ($(ls -d per_* | tr '\n' ' '))"
done
POMP_OUTPUT_DIR='pct_%%_%q' ./sigexit > /dev/null 2> pct.err
[ -s 'pct_%_%q/profile.json' ] || fail "POMP_OUTPUT_DIR=pct_%%_%q: no profile in 'pct_%_%q' ($(ls -d pct* | tr '\n' ' '))"
assert_contains pct.err "POMP_OUTPUT_DIR='pct_%%_%q': '%q' is no placeholder \\(%p: the process id" "an unknown placeholder is said"
POMP_OUTPUT_DIR=again_out ./sigexit > /dev/null 2>&1
POMP_OUTPUT_DIR=again_out ./sigexit > /dev/null 2> again.err
assert_contains again.err "holds another run's output: .*\\(POMP_OUTPUT_DIR=again_out-%p gives each process a directory of its own\\)" "the way to keep both runs is said"

# A plugin built with pompcc, loaded by a program without OpenMP, called and
# dlclose'd: the program ends as the plain build does, and its profile is
# written (the libgomp bridge went away with the plugin while libpomp still
# had its shutdown to call at exit: a crash, the program's output lost)
cat > plug.c <<'C'
int plug_run(int n)
{
    int s = 0;
#pragma omp parallel num_threads(2) reduction(+ : s)
    {
#pragma omp for schedule(static)
        for (int i = 0; i < n; i++)
            s += i;
    }
    return s;
}
C
cat > plughost.c <<'C'
#include <dlfcn.h>
#include <stdio.h>
int main(void)
{
    void *h = dlopen("./libplug.so", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "%s\n", dlerror());
        return 2;
    }
    int (*run)(int) = (int (*)(int))dlsym(h, "plug_run");
    printf("s=%d\n", run(10));
    dlclose(h);
    return 0;
}
C
if [ -z "${E2E_SANITIZE:-}" ]; then # (a sanitized libpomp cannot go into a plain program)
    cc plughost.c -o plughost -ldl # no OpenMP: the plugin brings the runtime, and takes it away
    "$POMPCC" -fopenmp -fPIC -shared plug.c -o libplug.so 2> plug.err || { cat plug.err; fail "dlclose'd plugin: build"; }
    status=0
    POMP_OUTPUT_DIR=plug_out POMP_SUMMARY=off ./plughost > plug.txt 2> plug.err || status=$?
    assert_eq "$status $(cat plug.txt)" "0 s=45" "dlclose'd plugin: the program ends as it should"
    "$REPORT" --check plug_out > plug.check || { cat plug.check; fail "dlclose'd plugin: the profile"; }
    assert_eq "$(jq '[.regions[] | select(.type == "parallel" and .init != "ompt")] | length' plug_out/profile.json)" 1 \
              "dlclose'd plugin: its parallel region measured"
fi

# A host that registers an exit handler before it dlopens a pompcc plugin,
# and calls the plugin from it, and from a destructor of its own: pomp's exit
# handler, a destructor of libpomp's, runs after every exit handler and after
# the destructors of the program and of what it loaded before libpomp, and
# both calls are measured (before 2026-12-04 pomp's handler, registered when
# libpomp came with the plugin, ran first, and the handler's call was only
# said). An exit handler registered that late (by a destructor, as no
# object's) runs after pomp's: its call is not measured, and that is said
# (the profile held 2 of the 3 calls, unsaid: a probe).
cat > latehost.c <<'C'
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static int (*late_run)(int);
static const char *mode = "";
static void at_end(void)
{
    printf("late s=%d\n", late_run(10));
}
static void at_last(void *unused)
{
    (void)unused;
    printf("last s=%d\n", late_run(10));
}
/* the C library's own registration, as no library's (atexit's, from a
 * library or a PIE, runs when that object ends) */
extern int __cxa_atexit(void (*fn)(void *), void *arg, void *dso);
__attribute__((destructor)) static void at_unload(void)
{
    if (strcmp(mode, "destructor") == 0)
        printf("unload s=%d\n", late_run(10));
    if (strcmp(mode, "after") == 0)
        __cxa_atexit(at_last, NULL, NULL); /* after every destructor */
}
int main(int argc, char **argv)
{
    if (argc > 1)
        mode = argv[1];
    atexit(at_end);
    void *h = dlopen("./libplug.so", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "%s\n", dlerror());
        return 2;
    }
    late_run = (int (*)(int))dlsym(h, "plug_run");
    printf("s=%d\n", late_run(10) + late_run(0));
    return 0;
}
C
if [ -z "${E2E_SANITIZE:-}" ]; then
    cc latehost.c -o latehost -ldl
    plugline=$(line_of plug.c "omp parallel")
    for mode in handler destructor; do
        status=0
        POMP_OUTPUT_DIR=late_$mode POMP_SUMMARY=off ./latehost $mode > late.txt 2> late.err || status=$?
        want="0 s=45 late s=45 " && [ $mode = handler ] || want="${want}unload s=45 "
        assert_eq "$status $(tr '\n' ' ' < late.txt)" "$want" "late $mode: the program ends as it should"
        "$REPORT" --check late_$mode > late.check || { cat late.check; fail "late $mode: the profile"; }
        want=3 && [ $mode = handler ] || want=4
        assert_eq "$(region_sum late_$mode parallel "$plugline" visits)" $want "late $mode: every call measured"
        assert_eq "$(cat late.err)" "" "late $mode: nothing said"
    done
    status=0
    POMP_OUTPUT_DIR=late_after POMP_SUMMARY=off ./latehost after > late.txt 2> late.err || status=$?
    assert_eq "$status $(tr '\n' ' ' < late.txt)" "0 s=45 late s=45 last s=45 " "an exit handler after pomp's: the program ends as it should"
    "$REPORT" --check late_after > late.check || { cat late.check; fail "an exit handler after pomp's: the profile"; }
    assert_eq "$(region_sum late_after parallel "$plugline" visits)" 3 "an exit handler after pomp's: the calls before it measured"
    assert_contains late.err "^pomp: note: OpenMP constructs or POMP regions ran in the program's exit handlers after pomp had written its output \\(the first: parallel @ plug.c:$plugline\\): they are not measured" \
                    "an exit handler after pomp's: its unmeasured call is said"
fi

# A pompcc plugin closed and loaded again, its atomic and critical sites
# counted inline (an atomic from its first execution): the counters lived in
# the plugin's thread-local storage, which dlclose frees, while libpomp kept
# them registered and read and wrote them at the end: a crash at exit with a
# plugin of large TLS (its block unmapped), counts of 1.4e14 or half of them
# with a small one (a probe). Code for a shared object has no inline
# counters: its sites make their calls.
cat > bigplug.c <<'C'
static __thread char scratch[1 << 20]; /* a TLS block malloc maps, and dlclose unmaps */
static long atomics, criticals;
long plug_work(int n, long *counts)
{
    long s = 0;
    #pragma omp parallel num_threads(2) reduction(+ : s)
    {
        scratch[0] = 1;
        for (int i = 0; i < n; i++) {
            #pragma omp atomic
            atomics++;
            #pragma omp critical
            criticals++;
            s += i % 7;
        }
    }
    counts[0] = atomics;
    counts[1] = criticals;
    return s;
}
C
cat > reloadhost.c <<'C'
#include <dlfcn.h>
#include <stdio.h>
int main(void)
{
    long total[2] = {0, 0}, s = 0;
    for (int round = 0; round < 3; round++) {
        void *h = dlopen("./libbigplug.so", RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            fprintf(stderr, "%s\n", dlerror());
            return 2;
        }
        long (*work)(int, long *) = (long (*)(int, long *))dlsym(h, "plug_work");
        long counts[2];
        for (int k = 0; k < 4; k++)
            s += work(5000, counts);
        total[0] += counts[0];
        total[1] += counts[1];
        dlclose(h);
    }
    printf("s=%ld atomics=%ld criticals=%ld\n", s, total[0], total[1]);
    return 0;
}
C
"$POMPCC" -fopenmp -fPIC -shared bigplug.c -o libbigplug.so 2> bigplug.err || { cat bigplug.err; fail "reloaded plugin: build"; }
"$POMPCC" -fopenmp reloadhost.c -o reloadhost -ldl
status=0
POMP_OUTPUT_DIR=reload_out POMP_SUMMARY=off ./reloadhost > reload.txt 2> reload.err || status=$?
assert_eq "$status $(cat reload.txt)" "0 s=359880 atomics=120000 criticals=120000" "reloaded plugin: the program ends as it should"
"$REPORT" --check reload_out > reload.check || { cat reload.check; fail "reloaded plugin: the profile"; }
for kind in atomic critical; do
    assert_eq "$(jq --arg k $kind '[.regions[] | select(.type == $k) | .id] as $ids
                 | [.callpath[] | select(.region as $r | $ids | index($r)) | .per_thread[].visits] | add' reload_out/profile.json)" \
              120000 "reloaded plugin: every $kind counted"
done

# A program that closes its standard error and opens its result file, which
# takes fd 2: pomp's messages at exit go to the standard error the program
# started with, not into that file (the summary was written into it). Where
# that was a pipe (no copy is kept of one), they are not written at all.
cat > fd2.c <<'C'
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
int main(void)
{
    double s = 0;
    #pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < 1000; i++)
        s += i;
    close(2);
    int fd = open("fd2_result.txt", O_CREAT | O_TRUNC | O_WRONLY, 0644);
    char buf[64];
    int n = snprintf(buf, sizeof buf, "fd=%d result=%.1f\n", fd, s);
    return write(fd, buf, (size_t)n) == n ? 0 : 1;
}
C
"$POMPCC" -O2 -fopenmp fd2.c -o fd2 2> build.err || { cat build.err; fail "build fd2"; }
POMP_SUMMARY=on POMP_OUTPUT_DIR=fd2_out ./fd2 2> fd2.err || fail "fd 2 reopened: exit status"
assert_eq "$(cat fd2_result.txt)" "fd=2 result=499500.0" "fd 2 reopened: the program's file holds its result only"
assert_contains fd2.err "^pomp: fd2: .*output in fd2_out/" "fd 2 reopened: the summary on the standard error of the start"
rm -f fd2_result.txt
POMP_SUMMARY=on POMP_OUTPUT_DIR=fd2_pipe_out ./fd2 2>&1 | cat > fd2_pipe.txt
assert_eq "$(cat fd2_result.txt)" "fd=2 result=499500.0" "fd 2 reopened, stderr a pipe: the program's file holds its result only"
assert_not_contains fd2_pipe.txt "pomp:" "fd 2 reopened, stderr a pipe: the messages not written"
[ -f fd2_pipe_out/profile.json ] || fail "fd 2 reopened, stderr a pipe: no profile"
# ... and a program started with fd 2 closed (prog 2>&-), whose first file
# takes it: nothing of pomp's in that file
rm -f fd2_result.txt
POMP_SUMMARY=on POMP_OUTPUT_DIR=fd2_closed_out ./fd2 2>&- || fail "fd 2 closed at start: exit status"
assert_eq "$(cat fd2_result.txt)" "fd=2 result=499500.0" "fd 2 closed at start: the program's file holds its result only"
[ -f fd2_closed_out/profile.json ] || fail "fd 2 closed at start: no profile"
echo "fd 2 reopened: pomp's messages stay out of the program's file"

# A plugin opened with dlmopen into a namespace of its own brings a second
# libpomp into the process: both wrote the same default directory (its name
# holds the process id), and the last one's files replaced the other's. Now
# the second takes a name beside it: two directories, each with its own regions.
if [ -z "${E2E_SANITIZE:-}" ]; then # (AddressSanitizer does not follow dlmopen's namespaces)
    mkdir -p dlm && cd dlm
    cat > plugin.c <<'C'
int plugin_work(void)
{
    int s = 0;
#pragma omp parallel num_threads(2) reduction(+ : s)
    s += 1;
    return s;
}
C
    cat > dlm.c <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
int main(void)
{
    int s = 0;
#pragma omp parallel num_threads(2) reduction(+ : s)
    s += 10;
    void *h = dlmopen(LM_ID_NEWLM, "./plugin.so", RTLD_NOW);
    if (!h) {
        printf("dlmopen: %s\n", dlerror());
        return 1;
    }
    int (*work)(void) = (int (*)(void))dlsym(h, "plugin_work");
    printf("%d %d\n", s, work());
    return 0;
}
C
    "$POMPCC" -O2 -fopenmp -shared -fPIC plugin.c -o plugin.so 2> build.err || { cat build.err; fail "build plugin.so"; }
    "$POMPCC" -O2 -fopenmp dlm.c -o dlm -ldl 2> build.err || { cat build.err; fail "build dlm"; }
    ./dlm > dlm.txt 2> dlm.err || { cat dlm.txt dlm.err; fail "dlmopen: the program failed"; }
    assert_eq "$(cat dlm.txt)" "20 2" "dlmopen: the program's result"
    dirs=$(ls -d pomp-dlm-* | wc -l)
    assert_eq "$dirs" 2 "dlmopen: a directory for each libpomp"
    files=$(for d in pomp-dlm-*; do jq -r '[.regions[] | select(.type == "parallel") | .file] | join(",")' "$d/profile.json"; done | sort | tr '\n' ' ')
    assert_eq "$files" "dlm.c plugin.c " "dlmopen: each profile with its own library's region"
    cd ..
    echo "dlmopen: two libpomp copies write two directories"
fi
