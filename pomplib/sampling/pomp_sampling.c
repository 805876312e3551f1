#include "pomp_sampling.h"

#define UNW_LOCAL_ONLY
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <libunwind.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "pomp_config.h"
#include "pomp_control.h"
#include "pomp_fd.h"
#include "pomp_thread.h"

/* Room for the frames of the handler itself and the kernel's signal
 * trampoline, above the interrupted code's frames in a trace. */
#define POMP_SAMPLE_HANDLER_FRAMES 16

/* One per sampled thread; the signal handler reaches it through a TLS pointer. */
struct pomp_sampler {
    struct pomp_sample_tree tree;
    timer_t timer;
    int has_timer;
    int busy;                   /* inside the handler: the tree is being changed */
    uint64_t taken;             /* timer expirations, including overruns */
    uint64_t signals;           /* handler runs */
    uint64_t lost;              /* the stack could not be unwound */
    /* The thread's period is the configured one times this (1, 2, 4...):
     * raised at run time when its samples take too long (deep stacks, the
     * unwinder's slow path), so that each sample stands for this many periods. */
    uint32_t period_multiple;
    uint32_t slow_samples;      /* consecutive samples too long for the period */
    uint64_t slow_min_ns;       /* the shortest of them */
    uint64_t longest_ns;        /* the longest sample that raised the period */
    uint32_t fork_depth;
    pid_t tid;                  /* the thread's id (loader_busy) */
    int blocked;                /* when its timer was deleted, the thread had SIGPROF blocked
                                   with an expiration pending: its samples since were lost */
    struct pomp_fork_record forks[POMP_SAMPLE_MAX_FORKS];
    /* handler scratch */
    void *trace[POMP_SAMPLE_MAX_FRAMES + POMP_SAMPLE_HANDLER_FRAMES];
    uintptr_t ips[POMP_SAMPLE_MAX_FRAMES];
    uintptr_t path[2 * POMP_SAMPLE_MAX_FRAMES + 1];
    struct pomp_sampler *next;
};

static __thread struct pomp_sampler *tls_sampler __attribute__((tls_model("initial-exec")));

/* Sampling's own state: settings fixed at initialization, the runtime's
 * inquiry functions, the list of samplers (for the output) and the switch the
 * handlers check. */
static struct {
    int on;
    int cpu_timer;
    uint64_t period_ns;
    uint32_t nodes_per_thread;
    struct pomp_sampling_runtime rt;
    /* Code that is not the program's: the OpenMP runtime's (the module of
     * its get_state: libomp, or the libgomp bridge, and on libgomp libgomp
     * itself behind it) and libpomp's own (the measurement: POMP routines,
     * the OMPT bridge's callbacks) */
    struct code_range_kind {
        uintptr_t lo, hi;
        int kind; /* enum code_kind */
    } code[12];
    int ncode;
    /* the dynamic loader's code, and the lock dl_iterate_phdr takes (loader_busy) */
    uintptr_t loader_lo, loader_span;
    uintptr_t tls_get_addr_lo, tls_get_addr_span; /* its __tls_get_addr itself (loader_busy) */
    const pthread_mutex_t *loader_lock;
    pthread_mutex_t lock; /* guards samplers */
    struct pomp_sampler *samplers;
    int active;           /* handlers record while set */
    /* libunwind's pipe (unwind_pipe_note), the one descriptor sampling keeps
     * open: its numbers and its identity; lost: the program closed it */
    int pipe_fd[2], pipe_known, pipe_lost;
    pid_t pipe_pid; /* the process whose pipe it is (not a vfork child's) */
    uint64_t pipe_dev, pipe_ino;
} sampling = {.lock = PTHREAD_MUTEX_INITIALIZER, .nodes_per_thread = 8192};

/* "1ms", "500us", "2000000ns", "0.5s"; a bare number is milliseconds. */
static int parse_period(const char *s, uint64_t *ns)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    /* plain decimals only: strtod would also take 0x10, 1e3, inf */
    if (errno || end == s || !(v > 0) || strspn(s, "0123456789.") != (size_t)(end - s))
        return 0;
    double unit = 1e6;
    if (strcasecmp(end, "ns") == 0)
        unit = 1;
    else if (strcasecmp(end, "us") == 0)
        unit = 1e3;
    else if (strcasecmp(end, "ms") == 0 || *end == '\0')
        unit = 1e6;
    else if (strcasecmp(end, "s") == 0)
        unit = 1e9;
    else
        return 0;
    double total = v * unit;
    if (total < 10e3 || total > 60e9) /* 10 us .. 60 s */
        return 0;
    *ns = (uint64_t)total;
    return 1;
}

/* What one sample costs on this machine: the signal's round trip through the
 * kernel and the unwinding of a stack, measured once at initialization on the
 * initial thread (a no-op handler that is only installed while SIGPROF has no
 * handler at all). */
static void count_signal(int sig) { (void)sig; }

static void add_known_code(void); /* the code that is not the program's (below) */

/* libunwind checks an address it is not sure of by writing a byte of it into
 * a pipe of its own and reading it back (its validate_mem), a pipe it opens
 * when it sets itself up and keeps (close-on-exec). Set up with 0, 1 or 2
 * closed (prog <&-), the pipe took them: the program's read(0) read a byte of
 * it instead of failing (a probe); so pomp_sampling_configure fills them
 * with /dev/null for that moment. A program that closes its descriptors
 * (closefrom) closes the pipe too, and a file of its own may take its
 * numbers, which libunwind would then read and write: the pipe's numbers are
 * noted here, from the lowest number free before libunwind set itself up, and
 * libpomp's close, dup2, dup3, close_range and closefrom stop sampling before
 * they close one of them (pomp_sampling_fds_closing, pomp_fdguard.c): no
 * check on the sample's path (two fstat calls took 1.4 us here, three times
 * a sample). */
static void unwind_pipe_note(int first_free)
{
    struct stat a, b;
    if (first_free < 3 || fstat(first_free, &a) != 0 || !S_ISFIFO(a.st_mode))
        return; /* (set up before, by the program: not pomp's to watch) */
    for (int fd = first_free + 1; fd < first_free + 16; fd++)
        if (fstat(fd, &b) == 0 && S_ISFIFO(b.st_mode) && b.st_dev == a.st_dev &&
            b.st_ino == a.st_ino) {
            sampling.pipe_fd[0] = first_free;
            sampling.pipe_fd[1] = fd;
            sampling.pipe_dev = (uint64_t)a.st_dev;
            sampling.pipe_ino = (uint64_t)a.st_ino;
            sampling.pipe_pid = getpid();
            sampling.pipe_known = 1;
            return;
        }
}

/* Whether libunwind's pipe is still libunwind's (pomp_sampling_fds_closing):
 * a load, no system call. */
static int unwind_pipe_ok(void) { return !__atomic_load_n(&sampling.pipe_lost, __ATOMIC_ACQUIRE); }

static const pthread_mutex_t *find_loader_lock(void); /* (loader_busy, below) */

static uint64_t sample_cost_ns(void)
{
    enum { ROUNDS = 200 };
    struct sigaction old, probe = {0};
    probe.sa_handler = count_signal;
    sigemptyset(&probe.sa_mask);
    int signals = sigaction(SIGPROF, NULL, &old) == 0 && old.sa_handler == SIG_DFL &&
                  sigaction(SIGPROF, &probe, NULL) == 0;
    void *frames[POMP_SAMPLE_MAX_FRAMES];
    uint64_t start = pomp_monotonic_ns();
    for (int i = 0; i < ROUNDS; i++) {
        if (signals)
            raise(SIGPROF);
        unw_backtrace(frames, POMP_SAMPLE_MAX_FRAMES);
    }
    uint64_t cost = (pomp_monotonic_ns() - start) / ROUNDS;
    if (signals)
        sigaction(SIGPROF, &old, NULL);
    return cost;
}

/* A period shorter than this many samples' cost would leave the program little
 * time of its own (a period shorter than one sample: none, and it hangs). */
enum { SAMPLE_COST_FACTOR = 20 };

/* AddressSanitizer records each block __tls_get_addr hands out, and that
 * record is not safe against a signal handler: a sample taken while the
 * interrupted code was inside the interceptor (the handler's unwinder calls it
 * too, for its own thread-local cache) can corrupt it, and LeakSanitizer's
 * tracer then crashes at exit ("Tracer caught signal 11", about one run in 40
 * at 20us). ASAN_OPTIONS=intercept_tls_get_addr=0 turns the record off. */
static int asan_option_set(const char *options, const char *setting)
{
    return options && strstr(options, setting) != NULL;
}

static void warn_asan_tls_records(void)
{
    if (!dlsym(RTLD_DEFAULT, "__asan_init"))
        return;
    const char *(*defaults)(void) =
        (const char *(*)(void))dlsym(RTLD_DEFAULT, "__asan_default_options");
    const char *off = "intercept_tls_get_addr=0";
    if (asan_option_set(getenv("ASAN_OPTIONS"), off) ||
        (defaults && asan_option_set(defaults(), off)))
        return;
    fprintf(stderr, "pomp: warning: sampling a program built with AddressSanitizer: its record of "
                    "thread-local blocks is not safe against the sampling signal and can crash "
                    "LeakSanitizer at exit; set ASAN_OPTIONS=intercept_tls_get_addr=0\n");
}

int pomp_sampling_configure(void)
{
    const char *v = getenv("POMP_SAMPLING"), *period_text = v;
    int on = 0;
    if (v && !*v) /* set but empty: as every other variable, said */
        pomp_config_bad_value("POMP_SAMPLING", v,
                              "off, or a period from 10us to 60s such as 1ms, 500us, 0.5s", "off");
    if (v && *v && !(pomp_parse_bool(v, &on) && !on)) {
        if (parse_period(v, &sampling.period_ns))
            sampling.on = 1;
        else
            pomp_config_bad_value("POMP_SAMPLING", v,
                                  "off, or a period from 10us to 60s such as 1ms, 500us, 0.5s",
                                  "off");
    }
    v = getenv("POMP_SAMPLING_TIMER");
    if (v && !*v)
        pomp_config_bad_value("POMP_SAMPLING_TIMER", v, "wall, cpu", "wall");
    if (v && *v) {
        if (strcasecmp(v, "cpu") == 0)
            sampling.cpu_timer = 1;
        else if (strcasecmp(v, "wall") != 0)
            pomp_config_bad_value("POMP_SAMPLING_TIMER", v, "wall, cpu", "wall");
    }
    if (v && *v && !sampling.on) /* (a probe: accepted without a word) */
        fprintf(stderr, "pomp: note: POMP_SAMPLING_TIMER chooses the sampling clock, and nothing "
                        "is sampled (POMP_SAMPLING): it has no effect\n");
    if (sampling.on) {
        /* local unwinding sets itself up lazily; do it here, not in a handler
         * (and its pipe with it, at 3 or above: unwind_pipe_note) */
        unsigned filled = pomp_fd_std_fill();
        int first_free = pomp_fd_lowest_free();
        unw_set_caching_policy(unw_local_addr_space, UNW_CACHE_PER_THREAD);
        void *warm[4];
        unw_backtrace(warm, 4);
        pomp_fd_std_release(filled);
        unwind_pipe_note(first_free);
        uint64_t cost = sample_cost_ns(), floor_ns = SAMPLE_COST_FACTOR * cost;
        if (sampling.period_ns < floor_ns) {
            uint64_t raised = (floor_ns + 999) / 1000 * 1000; /* whole microseconds */
            fprintf(stderr,
                    "pomp: warning: POMP_SAMPLING=%s is shorter than %d samples cost here (one: "
                    "%.1f us): sampling every %llu us instead\n",
                    period_text, SAMPLE_COST_FACTOR, cost / 1e3,
                    (unsigned long long)(raised / 1000));
            sampling.period_ns = raised;
        }
        add_known_code();
        warn_asan_tls_records();
        __atomic_store_n(&sampling.active, 1, __ATOMIC_RELEASE);
    }
    return sampling.on;
}

int pomp_sampling_is_on(void) { return sampling.on; }
uint64_t pomp_sampling_period_ns(void) { return sampling.period_ns; }
const char *pomp_sampling_timer_name(void) { return sampling.cpu_timer ? "cpu" : "wall"; }

/* The executable segments of the module that holds addr. */
struct code_range {
    uintptr_t addr, lo, hi;
};

static int find_code_range(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    struct code_range *r = data;
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
            continue;
        uintptr_t start = info->dlpi_addr + ph->p_vaddr;
        if (start < lo)
            lo = start;
        if (start + ph->p_memsz > hi)
            hi = start + ph->p_memsz;
    }
    if (r->addr >= lo && r->addr < hi) {
        r->lo = lo;
        r->hi = hi;
        return 1;
    }
    return 0;
}

/* CODE_SYSTEM: the C library, neither the program's nor the runtime's: what
 * the runtime or libpomp called (futex, memset), or what called them (exit
 * handlers, thread start) */
enum code_kind { CODE_PROGRAM, CODE_RUNTIME, CODE_POMP, CODE_SYSTEM };

/* Adds the code of the module holding addr, once. An entry is complete
 * before the count that publishes it (handlers on other threads read them). */
static void add_code_of(uintptr_t addr, enum code_kind kind)
{
    struct code_range r = {.addr = addr};
    int n = sampling.ncode;
    if (!addr || n == (int)(sizeof sampling.code / sizeof *sampling.code) ||
        !pomp_sampling_dl_iterate_phdr(find_code_range, &r))
        return;
    for (int i = 0; i < n; i++)
        if (sampling.code[i].lo == r.lo)
            return;
    sampling.code[n] = (struct code_range_kind){r.lo, r.hi, kind};
    __atomic_store_n(&sampling.ncode, n + 1, __ATOMIC_RELEASE);
}

/* libpomp's code, and the OpenMP runtime's library the program is linked
 * with (an entry point no bridge wraps), known before the runtime starts
 * the tool: the initial thread is sampled from its first event. */
static void add_known_code(void)
{
    add_code_of((uintptr_t)&pomp_sampling_set_runtime, CODE_POMP);
    add_code_of((uintptr_t)dlsym(RTLD_DEFAULT, "omp_get_num_procs"), CODE_RUNTIME);
    /* the libgomp bridge, in front of libgomp (its first GOMP_ entry point; on
     * libomp, libomp's own, known above): its tool's start runs sampled, before
     * pomp_sampling_set_runtime names it (22 runs in 30 of a short program had
     * start_tool > on_libgomp > _dl_lookup_symbol_x as the program's frames) */
    add_code_of((uintptr_t)dlsym(RTLD_DEFAULT, "GOMP_parallel"), CODE_RUNTIME);
    /* LLVM's offloading runtime (its plugins built in): a target region's
     * data movement and launch read as blank frames of libomptarget above
     * memmove (a probe) */
    add_code_of((uintptr_t)dlsym(RTLD_DEFAULT, "__tgt_target_kernel"), CODE_RUNTIME);
    add_code_of((uintptr_t)dlsym(RTLD_DEFAULT, "gnu_get_libc_version"), CODE_SYSTEM);
    /* the kernel's vDSO, which the C library's clock_gettime calls (its
     * whole image is one executable segment, the header at its start): taken
     * for the program's, a sample in omp_get_wtime's clock_gettime had its
     * runtime frame taken for the task's invoker, the task's own code cut
     * off: main > clock_gettime > [vdso] (a probe) */
    add_code_of((uintptr_t)getauxval(AT_SYSINFO_EHDR), CODE_SYSTEM);
    /* libunwind, which libpomp calls at each fork while sampling: as libc, so
     * that a sample inside that walk is the measurement's (it read as the
     * program's: main > region > unw_backtrace > 0x6de9, 44 samples of 2,742
     * at 100 us over 20,000 regions; a probe) */
    add_code_of((uintptr_t)&unw_backtrace, CODE_SYSTEM);
    /* a sanitizer's runtime (make sanitize) stands between libpomp's frames as libc does */
    add_code_of((uintptr_t)dlsym(RTLD_DEFAULT, "__asan_init"), CODE_SYSTEM);
    add_code_of((uintptr_t)dlsym(RTLD_DEFAULT, "__tsan_init"), CODE_SYSTEM);
    /* the dynamic loader's code (an entry point of ld.so's) and its lock (loader_busy) */
    struct code_range ld = {.addr = (uintptr_t)dlsym(RTLD_DEFAULT, "__tls_get_addr")};
    if (ld.addr && pomp_sampling_dl_iterate_phdr(find_code_range, &ld)) {
        sampling.loader_lo = ld.lo;
        sampling.loader_span = ld.hi - ld.lo;
        add_code_of(ld.addr, CODE_SYSTEM); /* (a thread-local lookup's frame, as libc's) */
    }
    Dl_info info;
    const ElfW(Sym) *sym = NULL;
    if (ld.addr && dladdr1((void *)ld.addr, &info, (void **)&sym, RTLD_DL_SYMENT) && sym &&
        info.dli_saddr && sym->st_size) {
        sampling.tls_get_addr_lo = (uintptr_t)info.dli_saddr;
        sampling.tls_get_addr_span = sym->st_size;
    }
    sampling.loader_lock = find_loader_lock();
}

void pomp_sampling_set_runtime(const struct pomp_sampling_runtime *rt)
{
    sampling.rt = *rt;
    /* the module answering for the runtime: libomp, or the libgomp bridge in
     * front of libgomp */
    add_code_of((uintptr_t)rt->get_state, CODE_RUNTIME);
}

static enum code_kind code_kind(uintptr_t ip)
{
    int n = __atomic_load_n(&sampling.ncode, __ATOMIC_ACQUIRE);
    for (int i = 0; i < n; i++)
        if (ip >= sampling.code[i].lo && ip < sampling.code[i].hi)
            return (enum code_kind)sampling.code[i].kind;
    return CODE_PROGRAM;
}

/* The pseudo-frame of a sample in the runtime's code or libpomp's, at ip. */
static uintptr_t runtime_leaf(uintptr_t ip)
{
    return code_kind(ip) == CODE_POMP ? POMP_SAMPLE_MEASUREMENT : POMP_SAMPLE_RUNTIME_CODE;
}

/* The runtime's code or libpomp's. */
static int in_runtime(uintptr_t ip)
{
    enum code_kind k = code_kind(ip);
    return k == CODE_RUNTIME || k == CODE_POMP;
}

/* From frame `from` outward: the first frame that is the program's, past the
 * runtime's, libpomp's and the C library's (what they called, and what
 * called them). */
static size_t first_program_frame(const uintptr_t *ips, size_t from, size_t n)
{
    while (from < n && code_kind(ips[from]) != CODE_PROGRAM)
        from++;
    return from;
}

static enum pomp_sample_state state_class(int state)
{
    switch (state) {
    case ompt_state_work_serial: return POMP_SAMPLE_SERIAL;
    case ompt_state_work_parallel: return POMP_SAMPLE_WORK;
    case ompt_state_work_reduction: return POMP_SAMPLE_REDUCTION;
    case ompt_state_wait_barrier_implicit_parallel:
    case ompt_state_wait_barrier_implicit_workshare:
    case ompt_state_wait_barrier_implicit:
    case ompt_state_wait_barrier_implementation:
    case ompt_state_wait_barrier_teams: return POMP_SAMPLE_IMPLICIT_BARRIER;
    case ompt_state_wait_barrier:
    case ompt_state_wait_barrier_explicit: return POMP_SAMPLE_EXPLICIT_BARRIER;
    case ompt_state_wait_taskwait: return POMP_SAMPLE_TASKWAIT;
    case ompt_state_wait_taskgroup: return POMP_SAMPLE_TASKGROUP;
    case ompt_state_wait_mutex:
    case ompt_state_wait_lock: return POMP_SAMPLE_LOCK;
    case ompt_state_wait_critical: return POMP_SAMPLE_CRITICAL;
    case ompt_state_wait_atomic: return POMP_SAMPLE_ATOMIC;
    case ompt_state_wait_ordered: return POMP_SAMPLE_ORDERED;
    case ompt_state_wait_target:
    case ompt_state_wait_target_map:
    case ompt_state_wait_target_update: return POMP_SAMPLE_TARGET;
    case ompt_state_idle: return POMP_SAMPLE_IDLE;
    case ompt_state_overhead: return POMP_SAMPLE_OVERHEAD;
    default: return POMP_SAMPLE_WORK; /* undefined: a thread the runtime does not know */
    }
}

/* The calling thread's stack, innermost first, from the frame whose code
 * address is `from` outwards (the interrupted instruction of a signal, or a
 * call site), into ips; 0 when `from` is not on it; from 0: all of the
 * caller's. libunwind's fast trace keeps each code address's frame layout in
 * a per-thread cache, so a warm trace reads a few words per frame, ~0.5 us a
 * sample; unw_step costs ~0.4 us a frame here (the shared DWARF cache's lock
 * blocks all signals around each lookup: two system calls a frame). */
/* Walking a stack may need libunwind's slow path, which calls dl_iterate_phdr
 * and so takes the dynamic loader's lock on its list of objects: a signal
 * that came while the thread held that lock or was taking it (dlopen's
 * _dl_add_to_namespace_list, dlclose's unmapping), hung the program for good
 * (a probe: 1 run in 6 of a loop of dlopen/dlclose at 1 ms; every signal
 * blocked in the handler, only SIGKILL ended it). So no walk while the lock
 * is this thread's, or being taken by a thread not yet its owner; nor where
 * the interrupted instruction is the loader's (but for __tls_get_addr's fast
 * path: in_loader_code), nor inside pomp's own
 * dl_iterate_phdr calls. Such a sample keeps its state and region; its stack
 * reads <dynamic loader busy>. The lock is glibc's private record's: found at
 * sampling's start as the one recursive mutex a dl_iterate_phdr callback
 * holds (find_loader_lock); where it is not found, no walk while glibc tells
 * debuggers that the list is changing (_r_debug), a narrower guard. (A first
 * version looked for loader return addresses in the stack above the
 * interrupted one: old ones left there by the program's start-up made it
 * lose every stack of a function with a half-used buffer, a review found.) */

/* this thread's pomp dl_iterate_phdr calls now (its own handler reads it) */
static __thread unsigned loader_walks __attribute__((tls_model("initial-exec")));

int pomp_sampling_dl_iterate_phdr(int (*callback)(struct dl_phdr_info *, size_t, void *),
                                  void *data)
{
    loader_walks++;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    int rc = dl_iterate_phdr(callback, data);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    loader_walks--;
    return rc;
}

struct lock_search {
    const unsigned char *lo;
    size_t size;
    pid_t tid;
    const pthread_mutex_t *found;
    int matches;
};

static int holds(const pthread_mutex_t *m, pid_t tid)
{
    return m->__data.__lock != 0 && m->__data.__owner == tid && m->__data.__count >= 1 &&
           (m->__data.__kind & 3) == PTHREAD_MUTEX_RECURSIVE_NP;
}

static int search_held_lock(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)info;
    (void)size;
    struct lock_search *ls = data;
    /* (each aligned place a mutex could be, read as bytes: the record's other
     * fields are not mutexes) */
    for (size_t off = 0; off + sizeof(pthread_mutex_t) <= ls->size;
         off += _Alignof(pthread_mutex_t)) {
        pthread_mutex_t m;
        memcpy(&m, ls->lo + off, sizeof m);
        if (holds(&m, ls->tid)) {
            ls->found = (const pthread_mutex_t *)(const void *)(ls->lo + off);
            ls->matches++;
        }
    }
    return 1; /* (once) */
}

static const pthread_mutex_t *find_loader_lock(void)
{
    const void *rtld = dlsym(RTLD_DEFAULT, "_rtld_global");
    Dl_info info;
    const ElfW(Sym) *sym = NULL;
    if (!rtld || !dladdr1(rtld, &info, (void **)&sym, RTLD_DL_SYMENT) || !sym ||
        (uintptr_t)rtld % _Alignof(pthread_mutex_t) != 0)
        return NULL;
    struct lock_search ls = {.lo = rtld, .size = sym->st_size, .tid = gettid()};
    dl_iterate_phdr(search_held_lock, &ls);
    /* one lock held in there, and free once the walk is done */
    pthread_mutex_t after;
    if (ls.matches != 1)
        return NULL;
    memcpy(&after, ls.found, sizeof after);
    return !holds(&after, ls.tid) ? ls.found : NULL;
}

static int in_loader(uintptr_t a) { return a - sampling.loader_lo < sampling.loader_span; }

static uintptr_t interrupted_pc(const ucontext_t *uc);

/* Whether the interrupted instruction is the loader's, other than the fast
 * path of a thread-local lookup: __tls_get_addr's own code reads the thread's
 * DTV and takes no lock, its slow paths (a DTV to update, a block to
 * allocate) are other functions. LLVM libomp's thread-local data is looked up
 * there all the time: a task program read 22-32 % of its samples as
 * <dynamic loader busy> (a probe). */
static int in_loader_code(uintptr_t pc)
{
    return in_loader(pc) && pc - sampling.tls_get_addr_lo >= sampling.tls_get_addr_span;
}

static int loader_busy(const struct pomp_sampler *s, const ucontext_t *uc)
{
    if (loader_walks || in_loader_code(interrupted_pc(uc)))
        return 1;
    const pthread_mutex_t *m = sampling.loader_lock;
    if (!m)
        return __atomic_load_n(&_r_debug.r_state, __ATOMIC_RELAXED) != RT_CONSISTENT;
    int owner = __atomic_load_n(&m->__data.__owner, __ATOMIC_RELAXED);
    return owner == s->tid || (owner == 0 && __atomic_load_n(&m->__data.__lock, __ATOMIC_RELAXED));
}

static size_t stack_from(uintptr_t from, void **trace, size_t trace_max, uintptr_t *ips,
                         size_t max)
{
    if (!unwind_pipe_ok())
        return 0;
    int n = unw_backtrace(trace, (int)trace_max);
    int k = 0;
    while (from && k < n && (uintptr_t)trace[k] != from)
        k++;
    size_t len = 0;
    for (; k < n && len < max; k++)
        ips[len++] = (uintptr_t)trace[k];
    return len;
}

static size_t first_in_runtime(const uintptr_t *ips, size_t from, size_t n)
{
    while (from < n && !in_runtime(ips[from]))
        from++;
    return from;
}

/* Frames [lo, hi) of a stack (innermost first) belong to the task's user code
 * (seed 000 §4.5): not the runtime's frames the task called into, nor those
 * that invoked it. The task's frame tells which exist: an enter frame when it
 * called into the runtime (a wait always does), an exit frame when the
 * runtime invoked it (inside a parallel region, or an explicit task). The
 * fast trace gives code addresses, not stack pointers, so the runtime's
 * frames are told by the runtime's code: called into, they are the innermost
 * run of them and what they called (a wait's sched_yield); invoking, the
 * first of them outward of the task's code. */
static void user_frames(int called_runtime, int invoked, const uintptr_t *ips, size_t n,
                        size_t *lo, size_t *hi)
{
    *lo = 0;
    *hi = n;
    if (called_runtime) {
        size_t r = first_in_runtime(ips, 0, n);
        /* unless the runtime called the program's code back, innermost (a
         * target region's kernel run on the host: its samples ended at the
         * function that ran the target construct; a probe): that is the
         * program's too, the runtime's frames around it left out */
        if (r < n && first_program_frame(ips, 0, r) == r)
            *lo = first_program_frame(ips, r, n);
    }
    if (!invoked)
        return;
    /* the task's code may itself have called the runtime (omp_get_thread_num) */
    size_t invoker = first_in_runtime(ips, first_program_frame(ips, *lo, n), n);
    /* no invoker on a whole stack: the task's code is not on it (the runtime
     * between the task's begin and its code) */
    *hi = invoker < n || n == POMP_SAMPLE_MAX_FRAMES ? invoker : *lo;
}

static int has_enter_frame(const ompt_frame_t *fr) { return fr && fr->enter_frame.ptr; }
static int has_exit_frame(const ompt_frame_t *fr) { return fr && fr->exit_frame.ptr; }

/* The calling thread's current task: its frame (NULL if the runtime cannot
 * tell) and, in *parallel_data, its parallel region. Async-signal-safe. */
static const ompt_frame_t *current_task(ompt_data_t **parallel_data)
{
    int flags, thread_num;
    ompt_data_t *task_data = NULL;
    ompt_frame_t *frame = NULL;
    if (!sampling.rt.get_task_info ||
        sampling.rt.get_task_info(0, &flags, &task_data, &frame, parallel_data, &thread_num) != 2)
        return NULL;
    return frame;
}

/* The fork record of the parallel region a task belongs to. */
static const struct pomp_fork_record *fork_of(const ompt_data_t *parallel_data)
{
    return parallel_data && sampling.rt.fork_of ? sampling.rt.fork_of(parallel_data) : NULL;
}

/* Appends the user frames [lo, hi) of an innermost-first stack, outermost
 * first; return addresses step back into their call instruction, except the
 * interrupted instruction itself. The runtime's and libpomp's frames among
 * them are left out: what called the program's code there (libgomp runs host
 * teams one after another in the encountering task, which no exit frame
 * cuts: main > GOMP_teams_reg > GOMP_teams_reg > league_member > main._omp_fn.0;
 * a probe). */
static size_t append_frames(uintptr_t *path, size_t len, size_t max, const uintptr_t *ips,
                            size_t lo, size_t hi, int exact_leaf)
{
    for (size_t i = hi; i > lo && len < max; i--) {
        size_t k = i - 1;
        if (!in_runtime(ips[k]))
            path[len++] = ips[k] - (k == 0 && exact_leaf ? 0 : 1);
    }
    return len;
}

/* A stack of a thread whose task the runtime does not tell (POMP_OMPT=off,
 * or before the runtime started): its runtime frames are told by their code
 * alone. The innermost run of them (and what they called) is the runtime's
 * work; further out they are what invoked the program's code (a parallel
 * region's outlined body, under GOMP_parallel or a worker's start), left out
 * of the path, as the C library's there: the program's frames stay. Taken
 * for the runtime's work, a loop in a parallel region's body read
 * "main > <OpenMP runtime>", its code cut off (a probe). */
static void record_untold(struct pomp_sampler *s, size_t n, enum pomp_sample_state st,
                          uint32_t weight)
{
    size_t inner = 0, len = 0, max = sizeof s->path / sizeof *s->path - 1;
    while (inner < n && code_kind(s->ips[inner]) == CODE_SYSTEM)
        inner++;
    uintptr_t leaf = 0;
    size_t lo = 0;
    if (inner < n && in_runtime(s->ips[inner])) {
        leaf = runtime_leaf(s->ips[inner]);
        lo = first_program_frame(s->ips, inner, n);
    }
    /* the C library's frames the program's innermost frame called stay (a
     * clock_gettime); outward of it only the program's */
    size_t program = first_program_frame(s->ips, lo, n);
    for (size_t i = n; i > lo && len < max; i--) {
        size_t k = i - 1;
        if (k < program || code_kind(s->ips[k]) == CODE_PROGRAM)
            s->path[len++] = s->ips[k] - (k == 0 ? 0 : 1);
    }
    if (leaf)
        s->path[len++] = leaf;
    pomp_sample_tree_add(&s->tree, s->path, len, st, weight);
}

static void count_in_region(enum pomp_sample_state st, uint32_t weight)
{
    struct pomp_thread *t = pomp_tls_thread;
    if (!t)
        return;
    uint32_t depth = t->profile.depth;
    const struct pomp_frame *frames = __atomic_load_n(&t->profile.frames, __ATOMIC_RELAXED);
    if (depth == 0 || depth > t->profile.frames_cap)
        return;
    struct pomp_node *node = frames[depth - 1].node;
    if (!node)
        return;
    if (st >= POMP_SAMPLE_FIRST_WAIT)
        node->samples_wait += weight;
    else
        node->samples_work += weight;
}

/* The instruction the signal interrupted. */
static uintptr_t interrupted_pc(const ucontext_t *uc)
{
#if defined(__x86_64__)
    return (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    return (uintptr_t)uc->uc_mcontext.pc;
#else
#error "POMP_SAMPLING: the interrupted instruction's address is not known for this architecture"
#endif
}

/* Whether the thread's innermost open region is of this type: its leaf (a wait
 * or a construct's enter without a frame) or, waiting to enter its block, its
 * top frame (under pomprun the bridge's frame of the critical, with the wait
 * a leaf of type "wait" on it). Read from the thread's own handler: its
 * profile is consistent between events, and a sample inside one reads the
 * state before or after. */
/* The thread's open frames (*depth of them), or NULL where there are
 * fewer than two or they are being moved; read from its own handler. */
static const struct pomp_frame *open_frames(const struct pomp_thread *t, uint32_t *depth)
{
    const struct pomp_profile *p = &t->profile;
    *depth = p->depth;
    const struct pomp_frame *frames = __atomic_load_n(&p->frames, __ATOMIC_RELAXED);
    return *depth < 2 || *depth > p->frames_cap ? NULL : frames;
}

static int waiting_in(const struct pomp_thread *t, const char *type)
{
    const struct pomp_profile *p = &t->profile;
    uint32_t depth;
    const struct pomp_frame *frames = open_frames(t, &depth);
    if (!frames)
        return 0;
    if (p->leaf.region && p->leaf.depth == depth &&
        strcmp(pomp_region_type(p->leaf.region), type) == 0)
        return 1;
    const struct pomp_frame *f = &frames[depth - 1];
    /* (the runtime's wait as a frame of its own: the construct is beneath) */
    if (f->region && depth > 2 && strcmp(pomp_region_type(f->region), "wait") == 0)
        f = &frames[depth - 2];
    return f->region && f->entered && !f->in_body && strcmp(pomp_region_type(f->region), type) == 0;
}

/* Whether the thread's innermost open region is the runtime's wait at the
 * end of a taskgroup (the OMPT bridge's "wait taskgroup", a frame or leaf). */
static int in_taskgroup_wait(const struct pomp_thread *t)
{
    const struct pomp_profile *p = &t->profile;
    uint32_t depth;
    const struct pomp_frame *frames = open_frames(t, &depth);
    if (!frames)
        return 0;
    const struct POMP_Region_s *r =
        p->leaf.region && p->leaf.depth == depth ? p->leaf.region : frames[depth - 1].region;
    return r && strcmp(pomp_region_type(r), "wait") == 0 && r->ctc.name &&
           strcmp(r->ctc.name, "taskgroup") == 0;
}

/* LLVM libomp 19 says a thread waiting to enter a critical waits for a lock,
 * and one spinning in a taskwait or at a taskgroup's end (no task of its own
 * to run) works: a probe found no critical sample at all, and the waits'
 * samples as work in the task's creator (<OpenMP runtime>: 180 of 183 for a
 * taskgroup's 180 ms wait). The profile knows which construct the thread is
 * in. */
static enum pomp_sample_state refine_state(enum pomp_sample_state st, const struct pomp_thread *t)
{
    if (t && st == POMP_SAMPLE_LOCK && waiting_in(t, "critical"))
        return POMP_SAMPLE_CRITICAL;
    if (t && st == POMP_SAMPLE_WORK && waiting_in(t, "taskwait"))
        return POMP_SAMPLE_TASKWAIT;
    if (t && st == POMP_SAMPLE_WORK && in_taskgroup_wait(t))
        return POMP_SAMPLE_TASKGROUP;
    return st;
}

/* When the sample the signal stands for was due, in pomp_now's ticks: its
 * timer's last expiry (a wall timer's; now for a CPU-time one). A vCPU that
 * takes tens of microseconds to handle the timer interrupt runs the handler
 * that much later, while the other threads go on: a worker that had just
 * reached its closing barrier was then read after its master's join, and
 * its barrier wait as waiting for work (8 samples of 256 ms of barrier wait
 * on this VM; a probe). timer_gettime is async-signal-safe. */
static uint64_t due_ticks(const struct pomp_sampler *s)
{
    const struct pomp_clock *clock = pomp_clock(); /* its start pair gives the tick rate */
    uint64_t ticks = pomp_now(), ns = pomp_monotonic_ns();
    uint64_t period = sampling.period_ns * s->period_multiple;
    struct itimerspec cur;
    if (sampling.cpu_timer || !s->has_timer || ticks <= clock->start_ticks ||
        ns <= clock->start_ns || timer_gettime(s->timer, &cur) != 0)
        return ticks;
    uint64_t left = (uint64_t)cur.it_value.tv_sec * 1000000000u + (uint64_t)cur.it_value.tv_nsec;
    if (left == 0 || left > period)
        return ticks;
    double per_ns = (double)(ticks - clock->start_ticks) / (double)(ns - clock->start_ns);
    uint64_t late = (uint64_t)((double)(period - left) * per_ns);
    return late < ticks ? ticks - late : ticks;
}

/* weight: the timer's expirations this signal stands for (more than one when
 * the thread could not take the signal in time). */
static void take_sample(struct pomp_sampler *s, ucontext_t *uc, uint32_t weight)
{
    const struct pomp_sampling_runtime *rt = &sampling.rt;
    ompt_wait_id_t wait_id;
    /* before the runtime starts the tool (GCC code starts libgomp at its first
     * OpenMP call), or without it (POMP_OMPT=off): in a recorded region, work;
     * else serial code (it read as work: a second of input before the first
     * parallel region, 99.7 % work) */
    struct pomp_thread *t = pomp_tls_thread;
    enum pomp_sample_state st = rt->get_state               ? state_class(rt->get_state(&wait_id))
                                : t && t->profile.depth > 1 ? POMP_SAMPLE_WORK
                                                            : POMP_SAMPLE_SERIAL;
    st = refine_state(st, t);
    if (st >= POMP_SAMPLE_FIRST_WAIT && rt->after_join && rt->after_join(due_ticks(s)))
        st = POMP_SAMPLE_IDLE;
    /* the task, and its team, read once the state was: a closing barrier
     * without a team is the master's join that came in between (libgomp's
     * bridge ends the team at it): waiting for work (it read as a bare
     * <OMP-implicit_barrier>, in no call path: 1 run in 25) */
    ompt_data_t *parallel_data = NULL;
    const ompt_frame_t *frame = current_task(&parallel_data);
    if (st == POMP_SAMPLE_IMPLICIT_BARRIER && rt->get_task_info && !parallel_data)
        st = POMP_SAMPLE_IDLE;
    s->taken += weight;
    s->signals++;
    /* a thread waiting for work is in no region: a worker's last frame (its
     * closing barrier, which the bridge closes at the master's time) can
     * still be open after the last join, and took the idle tail's samples */
    if (st != POMP_SAMPLE_IDLE)
        count_in_region(st, weight);
    size_t len = 0, max = sizeof s->path / sizeof *s->path;
    if (st == POMP_SAMPLE_IDLE) { /* waiting for work: no user code involved */
        s->path[len++] = POMP_SAMPLE_PSEUDO_BASE + st;
        pomp_sample_tree_add(&s->tree, s->path, len, st, weight);
        return;
    }
    if (loader_busy(s, uc)) {
        s->path[len++] = POMP_SAMPLE_LOADER_BUSY;
        pomp_sample_tree_add(&s->tree, s->path, len, st, weight);
        return;
    }
    size_t n = stack_from(interrupted_pc(uc), s->trace, sizeof s->trace / sizeof *s->trace,
                          s->ips, POMP_SAMPLE_MAX_FRAMES);
    if (n == 0) {
        s->lost++;
        return;
    }
    if (!frame && !(st >= POMP_SAMPLE_FIRST_WAIT)) {
        record_untold(s, n, st, weight);
        return;
    }
    /* a wait's leaf frames in the runtime (a lock routine, the barrier code,
     * and what they called, such as sched_yield) become the wait's
     * pseudo-function */
    int waiting = st >= POMP_SAMPLE_FIRST_WAIT;
    const struct pomp_fork_record *fork = fork_of(parallel_data);
    /* a task of a recorded region running the program's code (innermost but
     * for the C library's) with a blank frame: the runtime invoked it. LLVM
     * libomp 19 leaves the frame of a serialized region in a league's team,
     * and of the team's own task, without an exit frame: its samples kept
     * the runtime's invoking frames, and those of a worker's team read
     * __clone3 > start_thread > main.omp_outlined (a probe) */
    int in_task = has_exit_frame(frame) ||
                  (fork && !waiting && !has_enter_frame(frame) &&
                   first_program_frame(s->ips, 0, n) < first_in_runtime(s->ips, 0, n));
    size_t lo, hi;
    user_frames(has_enter_frame(frame) || waiting, in_task, s->ips, n, &lo, &hi);
    if (fork && (in_task || waiting)) {
        for (uint32_t i = 0; i < fork->n && len < max; i++)
            s->path[len++] = fork->frames[i];
        /* the task's code returned, and its master waits in the closing
         * barrier inside the call that forked the team (libgomp's
         * GOMP_parallel): the frames taken for the task's code are the
         * encountering task's, which the fork record ends with, its call site
         * innermost (it read main > main._omp_fn.0 > main._omp_fn.0 >
         * <OMP-implicit_barrier> in a quarter of a nested program's samples;
         * a probe) */
        if (fork->n && lo < hi && s->ips[lo] - 1 == fork->frames[fork->n - 1])
            lo = hi;
        /* waiting in the region's runtime after the task's code (the
         * implicit barrier at its end): the region is the whole story */
        if (!in_task)
            lo = hi;
    }
    /* working, but in the runtime's code or libpomp's (called by the task's
     * code, or what they called: a lock's release, a task's creation, a
     * POMP routine), not in the program's: those frames are theirs. The
     * runtime's frames outward of the program's innermost are what invoked
     * it, where no exit frame cut them (a region in a host teams league on
     * libomp, whose league member's task has none): left out, not the
     * program's work (a loop there read main.omp_outlined > <OpenMP runtime>,
     * its code cut off; a probe). */
    uintptr_t leaf = waiting ? POMP_SAMPLE_PSEUDO_BASE + st : 0;
    size_t r = waiting ? hi : first_in_runtime(s->ips, lo, hi);
    size_t called = waiting || lo == 0 ? lo : first_in_runtime(s->ips, 0, lo);
    if (r < hi && r < first_program_frame(s->ips, lo, hi)) {
        leaf = runtime_leaf(s->ips[r]);
        lo = first_program_frame(s->ips, r, hi);
    } else if (called < lo && called < first_program_frame(s->ips, 0, lo)) {
        /* the runtime's code the task called into, which its enter frame
         * cut off (a target region's data movement, a fork): its leaf still
         * (the samples read as the calling frame's own work) */
        leaf = runtime_leaf(s->ips[called]);
    }
    len = append_frames(s->path, len, max - 1, s->ips, lo, hi, 1);
    if (leaf)
        s->path[len++] = leaf;
    pomp_sample_tree_add(&s->tree, s->path, len, st, weight);
}

static void set_thread_period(const struct pomp_sampler *s)
{
    uint64_t ns = sampling.period_ns * s->period_multiple;
    struct itimerspec its;
    its.it_interval.tv_sec = (time_t)(ns / 1000000000u);
    its.it_interval.tv_nsec = (long)(ns % 1000000000u);
    its.it_value = its.it_interval;
    timer_settime(s->timer, 0, &its, NULL);
}

/* Samples longer than a quarter of the thread's period several times in a
 * row (not one preempted sample): the period doubles until it is
 * SAMPLE_COST_FACTOR times the shortest of them. The start's measurement
 * unwinds a shallow stack; a deep recursion, or code the fast unwinder cannot
 * walk (a PLT stub, where libunwind takes its slow path with two sigprocmask
 * calls a frame), can cost a hundred times that, and a period shorter than a
 * sample starves the thread. A quarter, not the start's twentieth: a thread's
 * first samples fill libunwind's caches and take up to ~80 us, which must not
 * double a 1 ms period for the whole run. timer_settime is async-signal-safe. */
enum { SLOW_SAMPLES_TO_RAISE = 4, SLOW_SAMPLE_SHARE = 4, MAX_PERIOD_MULTIPLE = 1u << 16 };

static void adapt_period(struct pomp_sampler *s, uint64_t cost_ns)
{
    uint64_t period = sampling.period_ns * s->period_multiple;
    if (cost_ns * SLOW_SAMPLE_SHARE <= period || s->period_multiple >= MAX_PERIOD_MULTIPLE) {
        s->slow_samples = 0;
        return;
    }
    if (s->slow_samples++ == 0 || cost_ns < s->slow_min_ns)
        s->slow_min_ns = cost_ns;
    if (s->slow_samples < SLOW_SAMPLES_TO_RAISE)
        return;
    while (sampling.period_ns * s->period_multiple < s->slow_min_ns * SAMPLE_COST_FACTOR &&
           s->period_multiple < MAX_PERIOD_MULTIPLE)
        s->period_multiple *= 2;
    if (s->slow_min_ns > s->longest_ns)
        s->longest_ns = s->slow_min_ns;
    s->slow_samples = 0;
    if (s->has_timer)
        set_thread_period(s);
}

static void on_sample_signal(int sig, siginfo_t *info, void *uc)
{
    (void)sig;
    struct pomp_sampler *s = tls_sampler;
    if (!s || __atomic_exchange_n(&s->busy, 1, __ATOMIC_ACQUIRE))
        return;
    int saved_errno = errno;
    if (__atomic_load_n(&sampling.active, __ATOMIC_ACQUIRE)) {
        uint64_t start = pomp_monotonic_ns();
        uint32_t expirations = 1 + (uint32_t)(info->si_overrun > 0 ? info->si_overrun : 0);
        take_sample(s, uc, expirations * s->period_multiple);
        adapt_period(s, pomp_monotonic_ns() - start);
    }
    __atomic_store_n(&s->busy, 0, __ATOMIC_RELEASE);
    errno = saved_errno;
}

/* SIGPROF's handler, installed once; a program that handles SIGPROF itself
 * keeps its handler and runs unsampled. */
static int handler_installed;
static pthread_once_t handler_once = PTHREAD_ONCE_INIT;
/* SIGPROF's disposition where pomp's handler stands: what the program is
 * shown (pomp_sampling_sigprof_shown) */
static struct sigaction sigprof_found;

static void install_handler_once(void)
{
    struct sigaction old;
    if (sigaction(SIGPROF, NULL, &old) == 0 && old.sa_handler == SIG_DFL) {
        sigprof_found = old;
        struct sigaction sa = {0};
        sa.sa_sigaction = on_sample_signal;
        sa.sa_flags = SA_SIGINFO | SA_RESTART;
        /* the program's asynchronous signals wait for the sample's end: a
         * handler of its own that left by siglongjmp (a timeout's SIGALRM)
         * abandoned the sample half made, and its thread, still busy, was
         * never sampled again, unsaid (a probe). Not the synchronous ones,
         * which the kernel would deliver by killing the process. */
        sigfillset(&sa.sa_mask);
        static const int synchronous[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS};
        for (size_t k = 0; k < sizeof synchronous / sizeof *synchronous; k++)
            sigdelset(&sa.sa_mask, synchronous[k]);
        __atomic_store_n(&handler_installed, sigaction(SIGPROF, &sa, NULL) == 0, __ATOMIC_RELEASE);
    }
    if (!handler_installed)
        fprintf(stderr, "pomp: warning: SIGPROF is in use by the program; POMP_SAMPLING is off\n");
}

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

void pomp_sampling_thread_begin(void)
{
    if (!sampling.on || tls_sampler || !__atomic_load_n(&sampling.active, __ATOMIC_ACQUIRE))
        return;
    pthread_once(&handler_once, install_handler_once);
    if (!handler_installed)
        return;
    struct pomp_sampler *s = calloc(1, sizeof *s);
    if (s)
        s->period_multiple = 1;
    if (!s || pomp_sample_tree_init(&s->tree, sampling.nodes_per_thread) != 0) {
        free(s);
        fprintf(stderr, "pomp: warning: out of memory; thread %d is not sampled\n", (int)gettid());
        return;
    }
    struct sigevent sev = {0};
    sev.sigev_notify = SIGEV_THREAD_ID;
    sev.sigev_signo = SIGPROF;
    sev.sigev_notify_thread_id = gettid();
    clockid_t clock = sampling.cpu_timer ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC;
    s->has_timer = timer_create(clock, &sev, &s->timer) == 0;
    pthread_mutex_lock(&sampling.lock);
    s->next = sampling.samplers;
    sampling.samplers = s;
    pthread_mutex_unlock(&sampling.lock);
    /* the fast trace's per-thread cache is made on its first use: not in a handler */
    if (unwind_pipe_ok())
        unw_backtrace(s->trace, 4);
    s->tid = gettid();
    tls_sampler = s;
    if (!s->has_timer) {
        fprintf(stderr, "pomp: warning: cannot create a sampling timer: %s\n", strerror(errno));
        return;
    }
    set_thread_period(s);
}

/* Whether the calling thread holds SIGPROF blocked with a signal pending:
 * a sample of its timer (or several: a pending timer signal stands for every
 * expiration since) that it never took. */
static int own_sigprof_held(void)
{
    sigset_t mask, pending;
    return pthread_sigmask(SIG_BLOCK, NULL, &mask) == 0 && sigismember(&mask, SIGPROF) == 1 &&
           sigpending(&pending) == 0 && sigismember(&pending, SIGPROF) == 1;
}

/* The same for another thread of the process, from its status in /proc
 * (SigPnd: the signals pending for the thread itself, as a timer's with
 * SIGEV_THREAD_ID is; SigBlk: its mask). 0 where it cannot be read. */
static int sigprof_held(pid_t tid)
{
    if (tid == gettid())
        return own_sigprof_held();
    char path[64], buf[4096];
    snprintf(path, sizeof path, "/proc/self/task/%d/status", (int)tid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    size_t n = 0;
    ssize_t got;
    while (n < sizeof buf - 1 && (got = read(fd, buf + n, sizeof buf - 1 - n)) != 0) {
        if (got < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        n += (size_t)got;
    }
    close(fd);
    buf[n] = '\0';
    const uint64_t bit = 1ull << (SIGPROF - 1);
    const char *pnd = strstr(buf, "\nSigPnd:"), *blk = strstr(buf, "\nSigBlk:");
    return pnd && blk && (strtoull(pnd + 8, NULL, 16) & bit) && (strtoull(blk + 8, NULL, 16) & bit);
}

/* The thread's tree stays in the list for the output. */
void pomp_sampling_thread_end(void)
{
    struct pomp_sampler *s = tls_sampler;
    if (!s)
        return;
    tls_sampler = NULL;
    pthread_mutex_lock(&sampling.lock);
    if (s->has_timer) {
        if (__atomic_load_n(&sampling.active, __ATOMIC_ACQUIRE) && own_sigprof_held())
            s->blocked = 1;
        timer_delete(s->timer);
        s->has_timer = 0;
    }
    pthread_mutex_unlock(&sampling.lock);
}

struct pomp_fork_record *pomp_sampling_fork_begin(const void *codeptr_ra)
{
    struct pomp_sampler *s = tls_sampler;
    if (!s || s->fork_depth == POMP_SAMPLE_MAX_FORKS ||
        !__atomic_load_n(&sampling.active, __ATOMIC_ACQUIRE))
        return NULL;
    struct pomp_fork_record *rec = &s->forks[s->fork_depth++];
    void *trace[POMP_SAMPLE_MAX_FRAMES + POMP_SAMPLE_HANDLER_FRAMES];
    uintptr_t ips[POMP_SAMPLE_MAX_FRAMES];
    /* The frames above the call site are the runtime's and ours; without
     * the call site, the runtime's frames tell where the task's code starts. */
    size_t n = codeptr_ra ? stack_from((uintptr_t)codeptr_ra, trace, sizeof trace / sizeof *trace,
                                       ips, POMP_SAMPLE_MAX_FRAMES)
                          : 0;
    int at_call_site = n > 0;
    if (!at_call_site)
        n = stack_from(0, trace, sizeof trace / sizeof *trace, ips, POMP_SAMPLE_MAX_FRAMES);
    /* The encountering task: its own exit frame cuts the runtime below it, and
     * its region's fork record is the base of this one (nested parallelism). */
    ompt_data_t *parallel_data = NULL;
    const ompt_frame_t *frame = current_task(&parallel_data);
    /* (a league's team, whose task libomp gives no exit frame, and one of
     * libgomp's, run by the encountering thread: the league's record is the
     * base, and the runtime invoked the team's code) */
    const struct pomp_fork_record *outer = fork_of(parallel_data);
    int nested = has_exit_frame(frame) || outer;
    size_t lo, hi;
    user_frames(!at_call_site, nested, ips, n, &lo, &hi);
    size_t len = 0;
    if (outer)
        for (; len < outer->n; len++)
            rec->frames[len] = outer->frames[len];
    rec->n = (uint32_t)append_frames(rec->frames, len, POMP_SAMPLE_MAX_FRAMES, ips, lo, hi, 0);
    return rec;
}

void pomp_sampling_fork_end(struct pomp_fork_record *record)
{
    struct pomp_sampler *s = tls_sampler;
    if (s && record && s->fork_depth > 0 && record == &s->forks[s->fork_depth - 1])
        s->fork_depth--;
}

/* Every thread's timer deleted, and no new one: no SIGPROF of pomp's comes
 * after it returns but the handlers that started before, which it waits for. */
static void stop_timers(void)
{
    __atomic_store_n(&sampling.active, 0, __ATOMIC_RELEASE);
    pthread_mutex_lock(&sampling.lock);
    for (struct pomp_sampler *s = sampling.samplers; s; s = s->next) {
        if (s->has_timer) {
            timer_delete(s->timer);
            s->has_timer = 0;
        }
        /* a handler that started before the switch finishes its sample */
        for (int spins = 0; __atomic_load_n(&s->busy, __ATOMIC_ACQUIRE) && spins < 100000; spins++)
            sched_yield();
    }
    pthread_mutex_unlock(&sampling.lock);
}

int pomp_sampling_sigprof_shown(struct sigaction *a)
{
    if (!a || !(a->sa_flags & SA_SIGINFO) || a->sa_sigaction != on_sample_signal)
        return 0;
    *a = sigprof_found;
    return 1;
}

void (*pomp_sampling_sigprof_handler_shown(void (*h)(int)))(int)
{
    struct sigaction pomps; /* (the handler as signal() returns it: the union's other member) */
    pomps.sa_sigaction = on_sample_signal;
    return h == pomps.sa_handler ? sigprof_found.sa_handler : h;
}

void pomp_sampling_yield_sigprof(void)
{
    if (!sampling.on || !__atomic_load_n(&handler_installed, __ATOMIC_ACQUIRE) ||
        !__atomic_load_n(&sampling.active, __ATOMIC_ACQUIRE))
        return;
    stop_timers();
    static int said;
    if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
        fprintf(stderr, "pomp: warning: the program sets its own SIGPROF handler: POMP_SAMPLING "
                        "stops here (the samples taken so far are kept), so that its handler gets "
                        "no signal of pomp's\n");
}

void pomp_sampling_fds_closing(unsigned lo, unsigned hi)
{
    if (!sampling.pipe_known || __atomic_load_n(&sampling.pipe_lost, __ATOMIC_ACQUIRE))
        return;
    int hit = 0;
    for (int i = 0; i < 2; i++)
        hit |= (unsigned)sampling.pipe_fd[i] >= lo && (unsigned)sampling.pipe_fd[i] <= hi;
    /* a forked child (its close before an exec) has no timer of its own to
     * stop, and a lock another thread of the parent held at the fork would
     * never be released: it is left alone; so is a vfork child, which shares
     * the parent's memory (it stopped the parent's sampling and deleted no
     * timer: the parent's went on signalling; a review) */
    if (!hit || __atomic_load_n(&pomp_state, __ATOMIC_ACQUIRE) == POMP_STATE_STOPPED ||
        getpid() != sampling.pipe_pid ||
        __atomic_exchange_n(&sampling.pipe_lost, 1, __ATOMIC_ACQ_REL))
        return;
    /* no handler walks a stack after this (those that started finish first) */
    stop_timers();
}

void pomp_sampling_stop(void)
{
    if (!sampling.on)
        return;
    /* Threads that hold SIGPROF blocked (a pthread_sigmask of the program's:
     * a signal-handling thread's pattern blocks every signal in main before
     * it creates the others) take no sample, and nothing else tells: their
     * timers' signals stay pending. Looked at while the timers still run. */
    uint32_t blocked = 0, sampled = 0;
    if (__atomic_load_n(&sampling.active, __ATOMIC_ACQUIRE)) {
        pthread_mutex_lock(&sampling.lock);
        for (struct pomp_sampler *s = sampling.samplers; s; s = s->next)
            if (s->has_timer && sigprof_held(s->tid))
                s->blocked = 1;
        pthread_mutex_unlock(&sampling.lock);
    }
    pthread_mutex_lock(&sampling.lock);
    for (const struct pomp_sampler *s = sampling.samplers; s; s = s->next) {
        sampled++;
        blocked += s->blocked != 0;
    }
    pthread_mutex_unlock(&sampling.lock);
    stop_timers();
    if (blocked)
        fprintf(stderr,
                "pomp: warning: %u of the %u sampled threads had SIGPROF blocked when sampling "
                "ended (the program's pthread_sigmask or sigprocmask: a mask that blocks every "
                "signal, set before the threads were made, is inherited by them), with samples "
                "pending: POMP_SAMPLING took none of them while it stayed blocked, and the "
                "sampling figures count only the samples taken "
                "(profile.json sampling.blocked_threads)\n",
                blocked, sampled);
    if (__atomic_load_n(&sampling.pipe_lost, __ATOMIC_RELAXED))
        fprintf(stderr,
                "pomp: warning: the program closed the pipe libunwind keeps for pomp's sampling "
                "(descriptors %d and %d: a closefrom, a loop of close, a dup2 onto one): "
                "POMP_SAMPLING stopped there (the samples taken before are kept), so that "
                "libunwind reads and writes none of the program's files\n",
                sampling.pipe_fd[0], sampling.pipe_fd[1]);
    struct pomp_sampling_raised raised;
    pomp_sampling_raised(&raised);
    if (raised.threads)
        fprintf(stderr,
                "pomp: warning: samples took up to %.1f us on %u thread%s, too long for "
                "POMP_SAMPLING's period: their period was raised at run time, to up to %llu us "
                "(each of their samples counts for the periods it stands for)\n",
                raised.longest_ns / 1e3, raised.threads, raised.threads == 1 ? "" : "s",
                (unsigned long long)(raised.max_period_ns / 1000));
}

void pomp_sampling_raised(struct pomp_sampling_raised *out)
{
    *out = (struct pomp_sampling_raised){0};
    pthread_mutex_lock(&sampling.lock);
    for (const struct pomp_sampler *s = sampling.samplers; s; s = s->next) {
        out->blocked_threads += s->blocked != 0;
        if (s->period_multiple <= 1)
            continue;
        out->threads++;
        uint64_t period = sampling.period_ns * s->period_multiple;
        if (period > out->max_period_ns)
            out->max_period_ns = period;
        if (s->longest_ns > out->longest_ns)
            out->longest_ns = s->longest_ns;
    }
    pthread_mutex_unlock(&sampling.lock);
}

int pomp_sampling_merge(struct pomp_sample_tree *out, uint64_t *taken, uint64_t *lost)
{
    *taken = *lost = 0;
    if (pomp_sample_tree_init(out, 1024) != 0)
        return -1;
    int rc = 0;
    pthread_mutex_lock(&sampling.lock);
    for (const struct pomp_sampler *s = sampling.samplers; s; s = s->next) {
        if (pomp_sample_tree_merge(out, &s->tree) != 0)
            rc = -1;
        *taken += s->taken;
        *lost += s->lost;
    }
    pthread_mutex_unlock(&sampling.lock);
    return rc;
}
