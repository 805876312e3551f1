# A program sees the signal dispositions it would see without pomp
# (pomplib/core/pomp_signals.c). pomp's handlers of SIGINT, SIGTERM, SIGHUP and
# SIGABRT (written output on a kill, docs/output.md) are answered as the
# default action they stand for: a program whose SIGTERM handler chains to the
# previous one (what many libraries and runtimes do) got pomp's handler as the
# previous one, and calling it wrote the output and killed the program (143)
# in the middle of its clean shutdown (a probe). Each program runs plain, built
# with pompcc (libgomp with the bridge, and LLVM libomp), and under pomprun: its
# own output and exit status are the plain build's.
source "$(dirname "$0")/lib.sh"
POMPRUN="$BUILD/bin/pomprun"
# (pomprun loads libpomp into a plain build: not a sanitized one)
PR=pomprun; [ -n "$E2E_SANITIZE" ] && PR=

# chain: its SIGTERM handler calls the previous one unless that is SIG_DFL or
# SIG_IGN; "ready" once it is installed, then it works until the signal, and
# shuts down cleanly. With "restore": it sets the previous disposition back
# (what it was told: the default action) before "ready", and the kill ends it.
cat > chain.c <<'C'
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static struct sigaction previous;
static volatile sig_atomic_t stop;

static void on_term(int sig)
{
    stop = 1;
    if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN)
        previous.sa_handler(sig);
}

int main(int argc, char **argv)
{
    int restore = argc > 1 && strcmp(argv[1], "restore") == 0;
    struct sigaction sa = {0};
    sa.sa_handler = on_term;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, &previous);
    printf("previous handler: %s\n", previous.sa_handler == SIG_DFL   ? "default"
                                     : previous.sa_handler == SIG_IGN ? "ignore"
                                                                      : "a handler");
    if (restore)
        sigaction(SIGTERM, &previous, NULL);
    long spins = 0;
#pragma omp parallel num_threads(2) reduction(+ : spins)
    {
#pragma omp master
        {
            printf("ready\n");
            fflush(stdout);
        }
        while (!stop) {
            spins++;
            usleep(1000);
        }
    }
    printf("clean shutdown\n");
    return 0;
}
C
plain_cc chain.c -o chain_plain
"$POMPCC" -fopenmp chain.c -o chain_gomp
"$POMPCC" --pomp-runtime=omp -fopenmp chain.c -o chain_omp
L=$(line_of chain.c "omp parallel")

# kill_when_ready NAME COMMAND...: runs it, sends SIGTERM once it printed
# "ready", and waits for it: NAME.out (its output), NAME.status
kill_when_ready() {
    local name=$1 pid status=0 i
    shift
    POMP_OUTPUT_DIR=$name.dir "$@" > $name.out 2> $name.err &
    pid=$!
    for i in $(seq 600); do grep -q '^ready$' $name.out && break; kill -0 $pid 2> /dev/null || break; sleep 0.1; done
    grep -q '^ready$' $name.out || { kill -KILL $pid 2> /dev/null; cat $name.err >&2; fail "$name: never ready"; }
    kill -TERM $pid
    for i in $(seq 300); do kill -0 $pid 2> /dev/null || break; sleep 0.1; done
    kill -0 $pid 2> /dev/null && { kill -KILL $pid; fail "$name: did not end after SIGTERM"; }
    wait $pid || status=$?
    echo $status > $name.status
}

for mode in chain restore; do
    arg=; [ $mode = restore ] && arg=restore
    kill_when_ready ${mode}_plain ./chain_plain $arg
    kill_when_ready ${mode}_gomp ./chain_gomp $arg
    kill_when_ready ${mode}_omp ./chain_omp $arg
    [ -n "$PR" ] && kill_when_ready ${mode}_pomprun "$POMPRUN" ./chain_plain $arg
done
assert_eq "$(cat chain_plain.out | tr '\n' ' ')" "previous handler: default ready clean shutdown " "chain: plain output"
assert_eq "$(cat chain_plain.status)" 0 "chain: plain status"
assert_eq "$(cat restore_plain.out | tr '\n' ' ')" "previous handler: default ready " "restore: plain output"
assert_eq "$(cat restore_plain.status)" 143 "restore: plain status"
for mode in chain restore; do
    for run in gomp omp $PR; do
        assert_eq "$(cat ${mode}_$run.out)" "$(cat ${mode}_plain.out)" "$mode ($run): the program's output is the plain build's"
        assert_eq "$(cat ${mode}_$run.status)" "$(cat ${mode}_plain.status)" "$mode ($run): the exit status is the plain build's"
        # the profile: at the clean end; and where the program set the default
        # action back, pomp's handler stood again, and the kill wrote it
        [ -f ${mode}_$run.dir/profile.json ] || { cat ${mode}_$run.err >&2; fail "$mode ($run): no profile"; }
    done
    for run in gomp omp; do
        assert_eq "$(region_sum ${mode}_$run.dir parallel $L visits)" 1 "$mode ($run): the parallel region measured"
    done
done

# disp: every way of asking and setting a disposition of the four signals pomp
# handles (and SIGUSR1, which it does not), printed in full: handler, flags
# (SA_RESTORER aside: the C library's own), mask, errno, the thread's mask
cat > disp.c <<'C'
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

extern void (*bsd_signal(int, void (*)(int)))(int); /* (POSIX until 2008: no declaration) */
static void h1(int sig) { (void)sig; }
static void h2(int sig, siginfo_t *info, void *uc) { (void)sig, (void)info, (void)uc; }
static const char *name(void (*f)(int))
{
    return f == SIG_DFL ? "DFL" : f == SIG_IGN ? "IGN" : f == SIG_ERR ? "ERR" : f == SIG_HOLD ? "HOLD"
         : f == h1 ? "h1" : f == (void (*)(int))h2 ? "h2" : "OTHER";
}
static void show(const char *what, const struct sigaction *sa)
{
    unsigned long mask = 0;
    for (int s = 1; s < 32; s++)
        if (sigismember(&sa->sa_mask, s))
            mask |= 1ul << s;
    printf("  %s: %s flags %#x mask %#lx\n", what, name(sa->sa_handler),
           (unsigned)sa->sa_flags & ~0x04000000u, mask);
}
static void query(int sig)
{
    struct sigaction now;
    int r = sigaction(sig, NULL, &now);
    printf("  query %d", r);
    show("now", &now);
}
static void blocked(int sig)
{
    sigset_t m;
    sigprocmask(SIG_SETMASK, NULL, &m);
    printf("  blocked %d\n", sigismember(&m, sig));
}
int main(void)
{
#pragma omp parallel num_threads(2)
    {
    }
    int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGABRT, SIGUSR1};
    for (int i = 0; i < 6; i++) {
        int sig = sigs[i];
        printf("signal %s\n", strsignal(sig));
        query(sig);
        struct sigaction sa = {0}, old;
        sa.sa_sigaction = h2;
        sa.sa_flags = SA_SIGINFO | SA_RESTART;
        sigemptyset(&sa.sa_mask);
        sigaddset(&sa.sa_mask, SIGUSR2);
        printf("  set h2 %d", sigaction(sig, &sa, &old));
        show("old", &old);
        query(sig);
        sa.sa_handler = SIG_DFL;
        sa.sa_flags = SA_RESETHAND;
        printf("  set DFL %d", sigaction(sig, &sa, &old));
        show("old", &old);
        query(sig);
        printf("  signal IGN old %s\n", name(signal(sig, SIG_IGN)));
        printf("  signal DFL old %s\n", name(signal(sig, SIG_DFL)));
        query(sig);
        printf("  bsd_signal h1 old %s\n", name(bsd_signal(sig, h1)));
        query(sig);
        printf("  sysv_signal DFL old %s\n", name(sysv_signal(sig, SIG_DFL)));
        query(sig);
        printf("  sysv_signal h1 old %s\n", name(sysv_signal(sig, h1)));
        query(sig);
        printf("  signal DFL old %s\n", name(signal(sig, SIG_DFL)));
        printf("  sigset HOLD old %s\n", name(sigset(sig, SIG_HOLD)));
        blocked(sig);
        printf("  sigset HOLD old %s\n", name(sigset(sig, SIG_HOLD)));
        printf("  sigset h1 old %s\n", name(sigset(sig, h1)));
        blocked(sig);
        query(sig);
        printf("  sigset DFL old %s\n", name(sigset(sig, SIG_DFL)));
        query(sig);
        printf("  sigaction NULL NULL %d\n", sigaction(sig, NULL, NULL));
        errno = 0;
        const char *r = name(signal(sig, SIG_ERR));
        printf("  signal ERR %s errno %d\n", r, errno);
    }
    struct sigaction sa = {0};
    sa.sa_handler = h1;
    errno = 0;
    int r = sigaction(SIGKILL, &sa, NULL);
    printf("SIGKILL %d errno %d\n", r, errno);
    errno = 0;
    r = sigaction(0, &sa, NULL);
    printf("signal 0 %d errno %d\n", r, errno);
    errno = 0;
    const char *n = name(signal(65, h1));
    printf("signal 65 %s errno %d\n", n, errno);
    return 0;
}
C
cc -D_GNU_SOURCE -fopenmp -Wno-deprecated-declarations disp.c -o disp_plain
"$POMPCC" -D_GNU_SOURCE -fopenmp -Wno-deprecated-declarations disp.c -o disp_gomp
./disp_plain > disp_plain.out
POMP_OUTPUT_DIR=disp_gomp.dir ./disp_gomp > disp_gomp.out
[ -n "$PR" ] && POMP_OUTPUT_DIR=disp_pomprun.dir "$POMPRUN" ./disp_plain > disp_pomprun.out
for run in gomp $PR; do
    diff disp_plain.out disp_$run.out > disp_$run.diff || { cat disp_$run.diff >&2; fail "dispositions ($run): not the plain build's"; }
    [ -f disp_$run.dir/profile.json ] || fail "dispositions ($run): no profile"
done
grep -q '^  query 0  now: DFL flags 0 mask 0$' disp_plain.out || fail "dispositions: the plain program's queries"

# sigset(SIGPROF, SIG_HOLD) blocks the signal on the thread (as sigprocmask
# does) and sets no handler: sampling goes on, unsaid (it stopped, with the
# warning that the program sets its own SIGPROF handler; a review)
cat > hold.c <<'C'
#include <signal.h>
#include <stdio.h>
int main(void)
{
    double s = 0;
    sigset(SIGPROF, SIG_HOLD);
    sigrelse(SIGPROF);
#pragma omp parallel for reduction(+ : s) num_threads(2)
    for (int i = 0; i < 20000000; i++)
        s += i * 0.5;
    printf("%s\n", s > 0 ? "ok" : "bad");
    return 0;
}
C
"$POMPCC" -D_GNU_SOURCE -fopenmp -Wno-deprecated-declarations hold.c -o hold 2> /dev/null || fail "SIG_HOLD: build"
assert_eq "$(POMP_SAMPLING=1ms POMP_OUTPUT_DIR=hold.dir ./hold 2> hold.err)" ok "SIG_HOLD: the program"
assert_not_contains hold.err "SIGPROF" "SIG_HOLD: sampling goes on, unsaid"

# Under sampling, a query of SIGPROF shows the default pomp found there, not
# pomp's sampling handler (a program chaining to the previous handler called
# pomp's on its own profiling timer); and sigset(SIGTERM, SIG_ERR) answers as
# the C library's, which sets it (pomp's answered EINVAL). Both a probe's.
cat > shown.c <<'C'
#include <errno.h>
#include <signal.h>
#include <stdio.h>
int main(void)
{
    double s = 0;
#pragma omp parallel for reduction(+ : s) num_threads(2)
    for (int i = 0; i < 2000000; i++)
        s += i * 0.5;
    struct sigaction now;
    sigaction(SIGPROF, NULL, &now);
    printf("SIGPROF query: %s\n", now.sa_handler == SIG_DFL ? "default" : "a handler");
    void (*was)(int) = signal(SIGPROF, SIG_IGN);
    printf("SIGPROF set: was %s\n", was == SIG_DFL ? "default" : "a handler");
    errno = 0;
    void (*r)(int) = sigset(SIGTERM, SIG_ERR);
    printf("sigset SIG_ERR: %s errno %d\n", r == SIG_ERR ? "SIG_ERR" : r == SIG_DFL ? "SIG_DFL" : "other", errno);
    printf("%s\n", s > 0 ? "ok" : "bad");
    return 0;
}
C
cc -D_GNU_SOURCE -fopenmp -Wno-deprecated-declarations shown.c -o shown_plain
"$POMPCC" -D_GNU_SOURCE -fopenmp -Wno-deprecated-declarations shown.c -o shown 2> /dev/null || fail "shown: build"
./shown_plain > shown_plain.out
POMP_SAMPLING=1ms POMP_OUTPUT_DIR=shown.dir ./shown > shown.out 2> shown.err
diff shown_plain.out shown.out > shown.diff || { cat shown.diff >&2; fail "SIGPROF and sigset(SIG_ERR) under sampling: not the plain build's"; }
assert_contains shown_plain.out "^SIGPROF query: default$" "shown: the plain program's query"
if [ -n "$PR" ]; then
    POMP_SAMPLING=1ms POMP_OUTPUT_DIR=shown_pr.dir "$POMPRUN" ./shown_plain > shown_pr.out 2> /dev/null
    diff shown_plain.out shown_pr.out > shown_pr.diff || { cat shown_pr.diff >&2; fail "SIGPROF and sigset(SIG_ERR) under pomprun: not the plain build's"; }
fi

# A program's SIGALRM handler that leaves by siglongjmp (a timeout around
# serial code), while its thread is sampled: the signal waits for the end of a
# sample pomp takes. It interrupted the sample, the jump left it half made,
# and the thread, still marked busy, was never sampled again: the serial
# phase read 0.03-1.5 s of 2.2 s, "0 lost", unsaid (a probe). Now the main
# thread's serial samples cover the program's own clock of it.
cat > alarm_jump.c <<'C'
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <pthread.h>
static sigjmp_buf env;
static volatile sig_atomic_t armed;
static volatile double sink, serial_s, serial_t0;
static void on_alarm(int s)
{
    (void)s;
    if (armed) {
        armed = 0;
        siglongjmp(env, 1);
    }
}
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}
static void compute_until_alarm(void)
{
    for (double x = 0;; x += 1e-9)
        sink = x;
}
int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, NULL);
    int n = 0;
    sigset_t al; /* the workers block SIGALRM: the main thread takes it */
    sigemptyset(&al);
    sigaddset(&al, SIGALRM);
    pthread_sigmask(SIG_BLOCK, &al, NULL);
#pragma omp parallel num_threads(2) reduction(+ : n)
    n++;
    pthread_sigmask(SIG_UNBLOCK, &al, NULL);
    for (int k = 0; k < 300; k++) {
        if (sigsetjmp(env, 1) == 0) {
            serial_t0 = now();
            armed = 1;
            struct itimerval it = {{0, 0}, {0, 1000}};
            setitimer(ITIMER_REAL, &it, NULL);
            compute_until_alarm();
        }
        serial_s += now() - serial_t0;
#pragma omp parallel num_threads(2) reduction(+ : n)
        n++;
    }
    printf("n=%d serial_ms=%.0f\n", n, serial_s * 1e3);
    return 0;
}
C
"$POMPCC" -O2 -fopenmp alarm_jump.c -o alarm_jump 2> alarm_jump.err || { cat alarm_jump.err; fail "alarm_jump: build"; }
POMP_SAMPLING=100us POMP_OUTPUT_DIR=alarm_jump.d ./alarm_jump > alarm_jump.out 2> /dev/null || fail "alarm_jump: the program failed"
assert_contains alarm_jump.out "^n=602 " "alarm_jump: the program's count"
own_ms=$(sed -n 's/.*serial_ms=\([0-9]*\)/\1/p' alarm_jump.out)
sampled_ms=$(jq '.sampling as $s | [$s.paths[] | .states.serial // 0] | add * $s.period_ns / 1e6 | floor' alarm_jump.d/profile.json)
[ "$sampled_ms" -ge $((own_ms * 7 / 10)) ] ||
    fail "alarm_jump: the main thread's serial samples cover $sampled_ms ms of its own $own_ms ms (a sampler stuck busy)"
echo "signals: the program's dispositions and handlers are its own; its signals wait for the end of a sample"

# A POMP region in a signal handler, the signal every 50 us while the main
# thread records its own regions: an event that comes inside another event of
# its thread is counted, not recorded (recorded, it changed the record the
# interrupted event was changing: an abort in malloc, or 244 unmatched events;
# a probe). The program runs as the plain build; the loss is said.
cat > handler_region.c <<'C'
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
static volatile long got;
static void on_alarm(int s)
{
    (void)s;
#pragma pomp inst begin(in_handler)
    got++;
#pragma pomp inst end(in_handler)
}
int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sa.sa_flags = SA_RESTART;
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = {{0, 50}, {0, 50}};
    setitimer(ITIMER_REAL, &it, NULL);
    volatile long n = 0;
    for (long i = 0; i < 1000000; i++) {
#pragma pomp inst begin(in_loop)
        n++;
#pragma pomp inst end(in_loop)
    }
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &off, NULL);
    printf("n=%ld signals=%d\n", (long)n, got > 0);
    return 0;
}
C
"$POMPCC" -O2 handler_region.c -o handler_region 2> handler_region.err || { cat handler_region.err; fail "handler_region: build"; }
for k in 1 2 3; do
    POMP_THROTTLE=off POMP_OUTPUT_DIR=handler_region$k.d ./handler_region > handler_region.out 2> handler_region$k.err ||
        { cat handler_region$k.err; fail "handler_region ($k): the program failed"; }
    assert_eq "$(cat handler_region.out)" "n=1000000 signals=1" "handler_region ($k): the program's output"
    "$REPORT" --check handler_region$k.d > /dev/null || fail "handler_region ($k): --check"
    assert_eq "$(jq '[.threads[].nesting_errors] | add' handler_region$k.d/profile.json)" 0 "handler_region ($k): no unmatched event"
    interrupted=$(jq '[.threads[].interrupted_events] | add' handler_region$k.d/profile.json)
    [ "$interrupted" -eq 0 ] || assert_contains handler_region$k.err \
        "warning: $interrupted events of signal handlers \(POMP regions in a handler\) came while their thread was inside another event" \
        "handler_region ($k): the events not recorded, said"
done
echo "signals: a handler's regions inside another event counted, not recorded"
