/* The library's life cycle: initialization, the measurement state and
 * finalization (the POMP routines that control it: events/pomp_control_api.c). */
#include "pomp_control.h"

#include <pomplib.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctc.h"
#include "pomp_config.h"
#include "pomp_env_names.h"
#include "pomp_levels.h"
#include "pomp_region.h"
#include "pomp_run_build.h"
#include "pomp_sampling.h"
#include "pomp_signals.h"
#include "pomp_sources.h"
#include "pomp_stderr.h"
#include "pomp_thread.h"

int pomp_state;
/* pomplib.h: POMP_FAST_COUNTING while the state is POMP_STATE_ON, so that
 * inline counters (POMP_Fast_count) count only then, and POMP_FAST_FINAL_WAITS
 * with it where allowed (final_waits_allowed). Changed with the state, under
 * state_lock (not in a fork()ed child, which has one thread), and by
 * pomp_fast_final_waits_stop. */
int POMP_Fast_on;
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
/* Measurement paused by POMP_Off (#pragma pomp inst off, omp_control_tool's
 * pause) until POMP_On or the end: what ran then is in no figure, and its
 * time reads as the run's serial time, so the run says how often and how
 * long (pomp_run.paused_*; a probe's run rated 63 % load balance for 84 %,
 * the pause unsaid). Under state_lock. */
static struct {
    uint64_t since;  /* ticks, the open pause's start */
    uint64_t ticks;  /* the pauses ended so far, all together */
    uint32_t times;
} pauses;

/* The state changes from from to to (under state_lock): a pause begins or ends. */
static void note_pause(int from, int to)
{
    if (from == POMP_STATE_ON && to == POMP_STATE_OFF) {
        pauses.since = pomp_now();
        pauses.times++;
    } else if (from == POMP_STATE_OFF && to != POMP_STATE_OFF) {
        pauses.ticks += pomp_now() - pauses.since;
    }
}

void pomp_paused(uint64_t *ticks, uint32_t *times)
{
    pthread_mutex_lock(&state_lock);
    *ticks = pauses.ticks;
    *times = pauses.times;
    pthread_mutex_unlock(&state_lock);
}

/* Set for good once a taskwait in a final task may wait (a task construct
 * with detach, a target task) or the runtime's own taskwaits are measured
 * (a bridge: its taskwait would count again the one counted inline): then
 * POMP_FAST_FINAL_WAITS stays off. Atomic (no lock: a region's making calls
 * it under the registry's). */
static int final_waits_stopped;

/* Whether taskwaits in final tasks may be counted inline: as an atomic's
 * executions are (an event without duration), not for a trace, which places
 * each event, nor with POMP_THROTTLE=off, which asks for every call. */
static int final_waits_allowed(void)
{
    const struct pomp_config *cfg = pomp_config();
    return cfg->enabled && !cfg->trace && cfg->throttle_visits &&
           !__atomic_load_n(&final_waits_stopped, __ATOMIC_SEQ_CST);
}

/* Taskwaits of tasks that deferred no child (POMP_FAST_DONE_WAITS,
 * POMP_Fast_children_done): allowed once a bridge sees every task creation
 * (pomp_fast_done_waits_allow), stopped for good by what stops the final
 * tasks' (their tasks may defer: detach, target tasks; the runtime's
 * taskwaits measured) and by an untied task (pomp_fast_done_waits_stop),
 * which may resume on another thread, whose flag is not its own. */
static int done_waits_seen, done_waits_stopped;

static int done_waits_allowed(void)
{
    return final_waits_allowed() && __atomic_load_n(&done_waits_seen, __ATOMIC_SEQ_CST) &&
           !__atomic_load_n(&done_waits_stopped, __ATOMIC_SEQ_CST);
}

/* After a store that set bits of POMP_Fast_on: a stop, or the end of
 * measurement, meanwhile (after the check that allowed them) may have cleared
 * them before the store (sequentially consistent: one of the two sees the
 * other), and the bits that it stopped go again. */
static void drop_bits_stopped_meanwhile(int set)
{
    int drop = 0;
    if (!(__atomic_load_n(&POMP_Fast_on, __ATOMIC_SEQ_CST) & POMP_FAST_COUNTING))
        drop = POMP_FAST_FINAL_WAITS | POMP_FAST_DONE_WAITS;
    if ((set & POMP_FAST_FINAL_WAITS) && !final_waits_allowed())
        drop |= POMP_FAST_FINAL_WAITS | POMP_FAST_DONE_WAITS;
    if ((set & POMP_FAST_DONE_WAITS) && !done_waits_allowed())
        drop |= POMP_FAST_DONE_WAITS;
    if (drop & set)
        __atomic_fetch_and(&POMP_Fast_on, ~drop, __ATOMIC_SEQ_CST);
}

static void set_state(int to)
{
    int on = to != POMP_STATE_ON ? 0
                                 : POMP_FAST_COUNTING |
                                       (final_waits_allowed() ? POMP_FAST_FINAL_WAITS : 0) |
                                       (done_waits_allowed() ? POMP_FAST_DONE_WAITS : 0);
    __atomic_store_n(&POMP_Fast_on, on, __ATOMIC_SEQ_CST);
    drop_bits_stopped_meanwhile(on);
    __atomic_store_n(&pomp_state, to, __ATOMIC_SEQ_CST);
}

void pomp_fast_final_waits_stop(void)
{
    if (__atomic_exchange_n(&final_waits_stopped, 1, __ATOMIC_SEQ_CST))
        return;
    __atomic_fetch_and(&POMP_Fast_on, ~(POMP_FAST_FINAL_WAITS | POMP_FAST_DONE_WAITS),
                       __ATOMIC_SEQ_CST);
}

void pomp_fast_done_waits_allow(void)
{
    if (__atomic_exchange_n(&done_waits_seen, 1, __ATOMIC_SEQ_CST))
        return;
    /* measuring already (a bridge starts at the runtime's first call) */
    if (__atomic_load_n(&POMP_Fast_on, __ATOMIC_SEQ_CST) & POMP_FAST_COUNTING && done_waits_allowed()) {
        __atomic_fetch_or(&POMP_Fast_on, POMP_FAST_DONE_WAITS, __ATOMIC_SEQ_CST);
        drop_bits_stopped_meanwhile(POMP_FAST_DONE_WAITS);
    }
}

void pomp_fast_done_waits_stop(void)
{
    if (__atomic_exchange_n(&done_waits_stopped, 1, __ATOMIC_SEQ_CST))
        return;
    __atomic_fetch_and(&POMP_Fast_on, ~POMP_FAST_DONE_WAITS, __ATOMIC_SEQ_CST);
}

/* Set for good once a bridge follows the runtime's lock waits: a lock set
 * site counted inline no longer makes its calls, so the bridge's wait of its
 * acquisition went under the enclosing region, timed, beside the site's own
 * node (a hot lock loop read 179,545 waits there and 20,455 under the call).
 * Read only where a throttled site's counter would be offered. */
static int lock_waits_followed;

void pomp_fast_lock_waits_followed(void)
{
    __atomic_store_n(&lock_waits_followed, 1, __ATOMIC_RELAXED);
}

int pomp_fast_lock_sets_allowed(void)
{
    return !__atomic_load_n(&lock_waits_followed, __ATOMIC_RELAXED);
}
__thread int pomp_tls_finalizing __attribute__((tls_model("initial-exec")));

/* Set once by init_core, read-only afterwards. */
static struct pomp_config config;
static struct pomp_clock clock_state;

/* The run starts when libpomp is loaded (with the program, or preloaded by
 * pomprun), not when it starts: under pomprun that is the program's first
 * OpenMP call, when the runtime starts its tool, and the serial time before
 * it is the run's too (its duration, the POP figures of the run). Written once,
 * before main. */
static struct pomp_clock load_clock;
static pthread_once_t core_once = PTHREAD_ONCE_INIT;
static pthread_once_t handles_once = PTHREAD_ONCE_INIT;
static pthread_once_t finalize_once = PTHREAD_ONCE_INIT;

/* Written by pomp-prelink (Appendix B); absent when the program was linked without it. */
extern void POMP_Init_Handles(void) __attribute__((weak));

/* The exit handler: a destructor of libpomp's, which the dynamic loader
 * runs after every exit handler (atexit, C++ static objects) of the program
 * and of every library, whenever they were registered, so that their regions
 * are measured. As an atexit handler registered at the first construct it
 * ran before a handler that main registered first; registered when libpomp
 * was loaded, before the C++ static objects of the libraries initialized
 * before it (every library under pomprun, which preloads libpomp: a shared
 * library's pool run in its static destructor went unmeasured and unsaid; a
 * probe) and of a program that loads libpomp later with dlopen. A library
 * that never started writes nothing. */
/* Set when the output is written from the program's exit (atexit), not from
 * a signal's handler or POMP_Finalize. */
static int finalizing_at_exit;
/* The thread that ran the exit handlers then (its tid, 0: none): a construct
 * it begins after that runs in an exit handler that comes after pomp's */
static pid_t exit_tid;

/* The C library's registration of exit handlers: dso NULL belongs to no
 * library, so that libpomp's unloading (its destructors, at exit) does not
 * run it at once as atexit's would be. */
extern int __cxa_atexit(void (*fn)(void *), void *arg, void *dso);

/* The last exit handler: where a runtime was to end the measurement and
 * did not. */
static void finalize_after_runtime(void *unused)
{
    (void)unused;
    if (__atomic_load_n(&pomp_state, __ATOMIC_ACQUIRE) != POMP_STATE_UNINITIALIZED)
        pomp_finalize();
}

__attribute__((destructor)) static void finalize_at_exit(void)
{
    if (__atomic_load_n(&pomp_state, __ATOMIC_ACQUIRE) != POMP_STATE_UNINITIALIZED) {
        __atomic_store_n(&exit_tid, gettid(), __ATOMIC_RELAXED);
        __atomic_store_n(&finalizing_at_exit, 1, __ATOMIC_RELEASE);
        /* LLVM libomp ends its tool later, when no library can run OpenMP any
         * more: the output is written then (an exit handler registered now
         * runs after every destructor, should it not) */
        if (pomp_sources_end_later() && __cxa_atexit(finalize_after_runtime, NULL, NULL) == 0)
            return;
        pomp_finalize();
    }
}

/* quick_exit() runs its own handlers, not atexit's: it wrote nothing and said
 * nothing (a probe). The program's streams stay unflushed, as quick_exit
 * leaves them. */
static void finalize_at_quick_exit(void)
{
    if (__atomic_load_n(&pomp_state, __ATOMIC_ACQUIRE) != POMP_STATE_UNINITIALIZED)
        pomp_finalize();
}

static void stop_in_forked_child(void);
static void say_abort(int sig);
/* Set once the output is written (read by say_abort, a signal handler). */
static volatile sig_atomic_t output_written;
/* This process's pid, kept from the load on: a forked child reads its
 * parent's here (getppid() in the child said 1 where the parent had gone
 * already: daemon(), whose parent exits at once) */
static pid_t own_pid;

pid_t pomp_own_pid(void) { return own_pid; }

/* The fork handler too: a child forked before the first construct (a
 * launcher, a program that forks first) measured itself and wrote its own
 * output, over the parent's with POMP_OUTPUT_DIR. */
__attribute__((constructor)) static void note_load(void)
{
    pomp_clock_init(&load_clock);
    pomp_config_note_load_dir();
    pomp_stderr_note_load();
    own_pid = getpid();
    at_quick_exit(finalize_at_quick_exit);
    pthread_atfork(NULL, NULL, stop_in_forked_child);
    /* the program pomprun ran (its pid, POMP_RUN_PID): the library starts now,
     * as POMP_Init does before main in a pompcc build, not at the runtime's
     * first call, which in GCC code may come after seconds of serial work that
     * sampling then missed (a probe: 1 s of serial input read, no sample of
     * it); a GCC program that made no OpenMP call said nothing at exit */
    const char *run_pid = getenv("POMP_RUN_PID");
    if (run_pid && atoi(run_pid) == (int)getpid())
        pomp_ensure_core_initialized();
}

/* Set by the first POMP_Finalize (or signal, or fork in the child); nobody
 * finalizes twice. */
static int finalize_claimed;

static void finalize_once_fn(void);

static int forked_child; /* set in the child of fork(): it never writes */
/* ... of a measuring parent (this pid): said at the child's first event */
static pid_t forked_from_measured;
static int forked_child_said;
/* The thread writing the output (its tid, 0: none), and a signal that came to
 * it meanwhile: raised once the output is written (finalize_on_signal). */
static pid_t finalizing_tid;
static volatile sig_atomic_t signal_after_finalize;

POMP_Int32 pomp_finalize(void)
{
    if (__atomic_load_n(&forked_child, __ATOMIC_ACQUIRE))
        return POMP_ERR_FINALIZED;
    if (__atomic_exchange_n(&finalize_claimed, 1, __ATOMIC_ACQ_REL)) {
        pthread_once(&finalize_once, finalize_once_fn); /* returns once it is done */
        return POMP_ERR_FINALIZED;
    }
    pthread_once(&finalize_once, finalize_once_fn);
    return POMP_SUCCESS;
}

/* SIGINT, SIGTERM, SIGHUP, SIGPIPE: write the output, then die of the signal as the program
 * would have. Only installed where the program left the default action (and
 * again where it sets it back; the program is shown the default action, not
 * this handler: pomp_signals.c). Writing files is not async-signal-safe; a
 * signal that lands inside malloc could hang here, which is why a program's
 * own handlers are never replaced. */
static void finalize_on_signal(int sig)
{
    /* the signal came to the thread that writes the output (at exit): waiting
     * for the finalization it interrupted would wait forever (the program
     * hung until SIGKILL). The output is finished, then the signal raised; a
     * second signal (a write that hangs) ends the program at once. */
    if (__atomic_load_n(&finalizing_tid, __ATOMIC_ACQUIRE) == gettid() && !signal_after_finalize) {
        signal_after_finalize = sig;
        return;
    }
    if (!signal_after_finalize)
        pomp_finalize();
    pomp_signal_default(sig);
    raise(sig);
}

/* SIGABRT (abort(), a failed assert): nothing is written, since an abort
 * says the program's state is broken, but that is said, in one line written
 * with write() (async-signal-safe), before the program dies of it as it would
 * have (its core dump too). An empty output directory said nothing (probe). */
static void say_abort(int sig)
{
    static const char msg[] = "pomp: note: the program aborted (SIGABRT): its measurement is not "
                              "written (an abort says its state is broken)\n";
    /* (an abort after the output was written, in a library's destructor
     * after libpomp's: it said so all the same; a probe) */
    static const char after[] = "pomp: note: the program aborted (SIGABRT) after pomp had written "
                                "its output: what ran after that is not in it\n";
    ssize_t n = output_written ? write(STDERR_FILENO, after, sizeof after - 1)
                               : write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)n;
    pomp_signal_default(sig);
    raise(sig);
}

/* Where the program leaves (or later sets back) a signal's default action,
 * pomp's handler stands; the program is shown the default action
 * (pomp_signals.c). */
static void install_signal_handlers(void)
{
    if (config.enabled)
        pomp_signal_take(SIGABRT, say_abort);
    /* SIGHUP: a batch session or terminal that closed ends the run as a kill
     * does; SIGPIPE: a reader that stopped reading (`prog | head`) does too
     * (the run ended without a word or a profile; a probe) */
    static const int signals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
    for (size_t i = 0; i < sizeof signals / sizeof *signals; i++)
        pomp_signal_take(signals[i], finalize_on_signal);
}

/* A child of fork() inherits the parent's records; it does not measure and
 * writes nothing, so the parent's output stays the parent's. Registered at
 * load (note_load). */
static void stop_in_forked_child(void)
{
    int state = __atomic_load_n(&pomp_state, __ATOMIC_ACQUIRE), enabled = 1;
    /* not initialized yet is measured too, unless POMP_ENABLE says not: under
     * pomprun the library starts with the runtime, and a child forked before
     * the parent's first construct went unmeasured without a word (a probe) */
    const char *enable = getenv("POMP_ENABLE");
    if (enable && !pomp_parse_bool(enable, &enabled))
        enabled = 1; /* a bad value: the default, as the initialization will say */
    pid_t parent = own_pid;
    own_pid = getpid();
    if (state == POMP_STATE_ON || state == POMP_STATE_OFF ||
        (state == POMP_STATE_UNINITIALIZED && enabled))
        forked_from_measured = parent;
    __atomic_store_n(&forked_child, 1, __ATOMIC_RELEASE);
    set_state(POMP_STATE_STOPPED);
    pomp_signal_release(SIGABRT); /* (it measures nothing: its abort is not pomp's to say) */
}

static void init_core(void)
{
    pomp_config_read(&config);
    if (config.enabled) { /* (off: nothing read, nothing printed) */
        pomp_levels_read_environment();
        pomp_env_names_check(environ);
    } else {
        pomp_levels_set_none();
    }
    int sampled = 0;
    if (config.enabled) {
        sampled = pomp_sampling_configure();
        pomp_threads_prepare_quiesce();
    }
    if (load_clock.start_ticks)
        clock_state = load_clock;
    else /* (a libpomp started from another library's constructor, before its own) */
        pomp_clock_init(&clock_state);
    install_signal_handlers();
    set_state(config.enabled ? POMP_STATE_ON : POMP_STATE_DISABLED);
    /* the thread that starts the library (main's, at POMP_Init in main) is
     * sampled from here: the serial code before its first OpenMP construct,
     * when the runtime starts the tool, is the program's time too */
    if (sampled)
        pomp_sampling_thread_begin();
}

static void init_handles(void)
{
    if (POMP_Init_Handles)
        POMP_Init_Handles();
}

void pomp_ensure_core_initialized(void) { pthread_once(&core_once, init_core); }

void pomp_ensure_initialized(void)
{
    pthread_once(&core_once, init_core);
    pthread_once(&handles_once, init_handles);
}

const struct pomp_config *pomp_config(void) { return &config; }
const struct pomp_clock *pomp_clock(void) { return &clock_state; }

/* While pomp writes its output, a write that cannot be made fails with an
 * error pomp reports, instead of killing the program: SIGPIPE (its summary
 * to a standard error whose reader had gone killed a program that exits 0
 * with 141) and SIGXFSZ (a file-size limit killed it with 153 while
 * profile.json was written, its own buffered output lost; probes). The
 * program's dispositions come back after. */
struct output_signals {
    struct sigaction pipe, xfsz;
};

static void output_signals_ignore(struct output_signals *saved)
{
    struct sigaction ignore = {0};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGPIPE, &ignore, &saved->pipe);
    sigaction(SIGXFSZ, &ignore, &saved->xfsz);
}

static void output_signals_restore(const struct output_signals *saved)
{
    sigaction(SIGPIPE, &saved->pipe, NULL);
    sigaction(SIGXFSZ, &saved->xfsz, NULL);
}

static void finalize_once_fn(void)
{
    pomp_ensure_core_initialized();
    if (!config.enabled)
        return;
    __atomic_store_n(&finalizing_tid, gettid(), __ATOMIC_RELEASE);
    pomp_sources_flush();
    pthread_mutex_lock(&state_lock);
    note_pause(__atomic_load_n(&pomp_state, __ATOMIC_RELAXED), POMP_STATE_STOPPED); /* (off to the end) */
    set_state(POMP_STATE_STOPPED); /* inline counters stop here too, not at the fold */
    pthread_mutex_unlock(&state_lock);
    pomp_threads_quiesce(); /* threads still running (exit() from one of them) write no more */
    struct pomp_stderr_swap err; /* pomp's messages to the standard error of the start (after
                                    the quiesce: a thread still running writes to its own) */
    pomp_stderr_swap_in(&err);
    struct output_signals signals;
    output_signals_ignore(&signals);
    pomp_threads_fold_fast(); /* before the hooks close frames: no counter is touched after */
    pomp_sampling_stop();
    pomp_threads_note_cpu_waits(); /* the waits of the run's duration, which ends here */
    pomp_clock_calibrate(&clock_state);
    pomp_tls_finalizing = 1; /* the hooks close what the runtime left open: they write */
    pomp_sources_finalize(); /* after the measured duration: names regions by code address */
    pomp_regions_place_files();
    pomp_regions_note_unmatched_filters();
    pomp_tls_finalizing = 0;
    pomp_threads_close_open(clock_state.end_ticks); /* exit() or a signal inside regions */
    struct pomp_run run;
    if (pomp_run_build(&run, &config, &clock_state) == 0) {
        pomp_output_write(&run);
        output_written = 1;
    }
    pomp_run_free(&run);
    int at_exit = __atomic_load_n(&finalizing_at_exit, __ATOMIC_ACQUIRE);
    if (signal_after_finalize && at_exit)
        fprintf(stderr, "pomp: note: signal %d (%s) came while pomp wrote its output at the "
                        "program's exit: the output is complete; the program ends by the signal "
                        "now, its own buffered output written first\n",
                (int)signal_after_finalize, strsignal(signal_after_finalize));
    output_signals_restore(&signals);
    pomp_stderr_restore(&err);
    __atomic_store_n(&finalizing_tid, 0, __ATOMIC_RELEASE);
    int sig = signal_after_finalize;
    if (sig) { /* a signal while the output was written: the program dies of it now */
        /* the program had called exit(), which flushes its streams after the
         * handlers: a signal raised before that lost what it had printed (a
         * probe's result line, with stdout to a file) */
        if (at_exit)
            fflush(NULL);
        pomp_signal_default(sig);
        raise(sig);
    }
}

static int construct_after_exit_said;

void pomp_note_construct_after_exit(const char *ctc)
{
    if (!__atomic_load_n(&finalizing_at_exit, __ATOMIC_ACQUIRE) ||
        __atomic_load_n(&forked_child, __ATOMIC_ACQUIRE) ||
        __atomic_load_n(&construct_after_exit_said, __ATOMIC_RELAXED) ||
        __atomic_load_n(&finalizing_tid, __ATOMIC_ACQUIRE) != 0 || /* (the output is being written) */
        gettid() != __atomic_load_n(&exit_tid, __ATOMIC_RELAXED) ||
        __atomic_exchange_n(&construct_after_exit_said, 1, __ATOMIC_ACQ_REL))
        return;
    char what[240] = "";
    struct ctc c;
    size_t at;
    if (ctc && ctc_parse(ctc, &c, &at) == CTC_OK) {
        if (c.type && c.file && c.start_line_first > 0)
            snprintf(what, sizeof what, " (the first: %s @ %s:%d)", c.type, c.file,
                     c.start_line_first);
        else if (c.type && c.file)
            snprintf(what, sizeof what, " (the first: %s @ %s)", c.type, c.file);
        ctc_free(&c);
    }
    char msg[800];
    int n = snprintf(msg, sizeof msg,
                     "pomp: note: OpenMP constructs or POMP regions ran in the program's exit "
                     "handlers after pomp had written its output%s: they are not measured (an exit "
                     "handler registered after libpomp's destructor ran, or a destructor that "
                     "runs after it: docs/output.md)\n",
                     what);
    if (n > 0 && write(2, msg, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1) < 0)
        return;
}

void pomp_note_event_after_stop(void)
{
    if (!__atomic_load_n(&forked_child, __ATOMIC_ACQUIRE) || !forked_from_measured ||
        __atomic_exchange_n(&forked_child_said, 1, __ATOMIC_ACQ_REL))
        return;
    /* (write: the child of a fork from a threaded parent) */
    char line[300];
    int n = snprintf(line, sizeof line,
                     "pomp: note: process %d, forked from the measured process %d, runs OpenMP "
                     "constructs or POMP regions: a forked child is not measured (docs/output.md)\n",
                     (int)getpid(), (int)forked_from_measured);
    if (n > 0 && write(2, line, (size_t)n) < 0)
        return;
}

POMP_Int32 pomp_switch_to(enum pomp_state to)
{
    pomp_ensure_initialized();
    pthread_mutex_lock(&state_lock); /* POMP_On/Off: not on the event path */
    int from = __atomic_load_n(&pomp_state, __ATOMIC_ACQUIRE);
    if (from != POMP_STATE_DISABLED && from != POMP_STATE_STOPPED) {
        note_pause(from, to);
        set_state(to);
    }
    pthread_mutex_unlock(&state_lock);
    return from == POMP_STATE_STOPPED ? POMP_ERR_FINALIZED : POMP_SUCCESS;
}
