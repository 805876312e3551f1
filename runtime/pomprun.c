/* pomprun: runs a program that was not built with pompcc under libpomp's OMPT
 * tool, so that the runtime's events (parallel regions, barriers, waits,
 * worksharing, tasks) are measured without recompiling:
 *
 *   pomprun [--pomp-verbose] [--] PROGRAM [ARGS...]
 *
 *   pomprun [--pomp-verbose] [--pomp-runtime=omp] [--] PROGRAM [ARGS...]
 *
 * Each program runs on the runtime it was built for (docs/gomp.md). A Clang
 * program runs on LLVM libomp, which finds libpomp.so in OMP_TOOL_LIBRARIES.
 * A GCC program runs on libgomp, which has no OMPT: libpomp-gomp.so (the
 * libgomp bridge, gomp-bridge/) is preloaded before it, interposes libgomp's
 * entry points and starts libpomp's tool itself. --pomp-runtime=omp puts a
 * GCC program on LLVM libomp instead (preloaded: it defines the GOMP_* entry
 * points GCC emits), unless it calls one libomp lacks. Then pomprun execs the
 * program: its
 * pid, output and exit status are the program's; libpomp writes the profile
 * at its end, with regions named by function and file:line. */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf_symbols.h"
#include "process.h"
#include "runtime_select.h"
#include "util.h"

#ifndef POMP_LIBOMP_DIR
#define POMP_LIBOMP_DIR "/usr/lib/llvm-19/lib"
#endif
#define LIBOMP_PATH POMP_LIBOMP_DIR "/libomp.so.5"

static void usage(FILE *f)
{
    fputs("usage: pomprun [--pomp-verbose] [--pomp-runtime=omp|gomp] [--] PROGRAM [ARGS...]\n"
          "Runs PROGRAM (not built with pompcc) with libpomp attached, on the OpenMP runtime it\n"
          "was built for (a GCC program on libgomp through the libgomp bridge, a Clang program on\n"
          "LLVM libomp through OMPT), and writes the profile at its end (POMP_* variables apply as\n"
          "for pompcc-built programs). --pomp-runtime=omp runs a GCC program on LLVM libomp;\n"
          "--pomp-runtime=gomp keeps the runtime it was built for (the default).\n",
          f);
}

/* A file that can be run (a directory is X_OK too: not a program). */
static int is_program(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* What kind of file PROGRAM is, read from its first bytes. */
enum program_file {
    FILE_DYNAMIC,    /* an ELF program with a program interpreter (the dynamic loader) */
    FILE_STATIC,     /* -static, -static-pie: no interpreter, nothing it would preload */
    FILE_LIBRARY,    /* a shared library without an interpreter: no program to run */
    FILE_SCRIPT,     /* "#!", or text the shell runs (a script without "#!", as execvp does) */
    FILE_UNRUNNABLE, /* anything else: the kernel and the shell refuse it */
};

static enum program_file program_file(const char *path)
{
    switch (elf_program_kind(path)) {
    case ELF_PROGRAM_DYNAMIC:
        return FILE_DYNAMIC;
    case ELF_PROGRAM_STATIC:
        return FILE_STATIC;
    case ELF_PROGRAM_LIBRARY:
        return FILE_LIBRARY; /* (said to be statically linked, then it crashed; a probe) */
    default:
        break; /* no ELF file */
    }
    FILE *f = fopen(path, "rb");
    if (!f)
        return FILE_DYNAMIC; /* (the exec says why) */
    unsigned char head[256];
    size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    if (n >= 2 && head[0] == '#' && head[1] == '!')
        return FILE_SCRIPT;
    /* the shell runs text, and refuses a binary file (a NUL in its first line) */
    const unsigned char *nl = memchr(head, '\n', n);
    return memchr(head, '\0', nl ? (size_t)(nl - head) : n) ? FILE_UNRUNNABLE : FILE_SCRIPT;
}

/* PROGRAM as execvp would find it. */
static char *find_program(const char *name)
{
    if (strchr(name, '/'))
        return is_program(name) ? xstrdup(name) : NULL;
    const char *path = getenv("PATH");
    char *copy = xstrdup(path && *path ? path : "/usr/local/bin:/usr/bin:/bin"), *save = NULL;
    char *found = NULL;
    for (char *dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
        char *candidate = xasprintf("%s/%s", *dir ? dir : ".", name);
        if (is_program(candidate))
            found = candidate;
        else
            free(candidate);
    }
    free(copy);
    return found;
}

/* libpomp.so next to this pomprun: <prefix>/bin/pomprun, <prefix>/lib/libpomp.so. */
static char *find_lib(const char *name)
{
    char exe[PATH_MAX], lib[PATH_MAX + 32];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return NULL;
    exe[n] = '\0';
    snprintf(lib, sizeof lib, "%s/../lib/%s", dirname(exe), name);
    char *real = realpath(lib, NULL);
    return real;
}

/* value before the entries of *list (a ':' list, NULL for none). */
static void prepend_entry(char **list, const char *value)
{
    char *v = *list ? xasprintf("%s:%s", value, *list) : xstrdup(value);
    free(*list);
    *list = v;
}

/* The same for the list in variable var. */
static void prepend(const char *var, const char *value)
{
    const char *old = getenv(var);
    char *list = old && *old ? xstrdup(old) : NULL;
    prepend_entry(&list, value);
    setenv(var, list, 1);
    free(list);
}

/* What ldd says of the shared libraries the program loads, read once (each
 * question below asked it again: a process and the loader's whole search
 * before the run, up to three times); NULL if it says nothing. */
static char *ldd_of(const char *program)
{
    char *argv[] = {"ldd", (char *)program, NULL};
    char *out = NULL;
    if (run_capture(argv, &out, NULL) != 0 || !out) {
        free(out);
        return NULL;
    }
    return out;
}

/* --pomp-verbose: what the program runs with, each variable once, as set
 * (LD_PRELOAD gets two entries for a GCC program on libomp). */
static void say_environment(void)
{
    static const char *const set[] = {"LD_PRELOAD", "OMP_TOOL_LIBRARIES", "OMP_TOOL",
                                      "POMP_RUN_PID"};
    for (size_t k = 0; k < sizeof set / sizeof set[0]; k++) {
        const char *v = getenv(set[k]);
        if (v)
            fprintf(stderr, "pomprun: %s=%s\n", set[k], v);
    }
}

/* RUNS_API_ONLY: only omp_* calls, which either runtime serves: the
 * runtime the program loads decides (a GCC host whose OpenMP is in a plugin,
 * which calls omp_set_num_threads, was taken for a libomp program and went
 * unmeasured). */
enum program_runtime { RUNS_LIBOMP, RUNS_GOMP, RUNS_GOMP_ONLY, RUNS_API_ONLY, RUNS_UNKNOWN };

/* What the program calls that pomp does not measure, said before it runs. */
struct unmeasured_calls {
    int openacc;       /* GOACC_* */
    int fortran_locks; /* omp_set_lock_, omp_set_nest_lock_: the Fortran names */
};

/* What the program's dynamic imports say about its OpenMP runtime. They are
 * read from its .dynsym (GNU nm, the fallback, loads libLLVM through its
 * LLVMgold plugin: 0.15 s and 100 MB before each run). */
static enum program_runtime runtime_of(const char *program, char **missing,
                                       struct unmeasured_calls *calls)
{
    struct strbuf imports = {0};
    *missing = NULL;
    *calls = (struct unmeasured_calls){0};
    if (elf_nm(program, ELF_NM_DYNAMIC_UNDEFINED, &imports) != 0) {
        free(imports.s);
        imports.s = NULL;
        char *argv[] = {"nm", "-D", "-P", "-u", (char *)program, NULL};
        if (run_capture(argv, &imports.s, NULL) != 0) {
            free(imports.s);
            return RUNS_UNKNOWN;
        }
    }
    const char *out = imports.s ? imports.s : "";
    enum program_runtime rt = RUNS_UNKNOWN;
    calls->openacc = strstr(out, "GOACC_") != NULL;
    calls->fortran_locks = strstr(out, "omp_set_lock_") || strstr(out, "omp_set_nest_lock_");
    if (pomp_runtime_calls_kmpc(out))
        rt = RUNS_LIBOMP;
    else if (strstr(out, "GOMP_"))
        rt = (*missing = pomp_runtime_missing_symbol(out)) ? RUNS_GOMP_ONLY : RUNS_GOMP;
    else if (strstr(out, "\nomp_") || strncmp(out, "omp_", 4) == 0)
        rt = RUNS_API_ONLY;
    free(imports.s);
    return rt;
}

/* Whether the program defines libgomp's entry points itself: libgomp linked
 * in statically ("-Wl,-Bstatic -lgomp"), which pomprun cannot measure (it read
 * "a script?"; a probe). */
static int defines_libgomp(const char *program)
{
    struct strbuf syms = {0};
    /* (LLVM libomp defines GOMP_parallel too, for GCC code: linked in
     * statically it still starts the tool pomprun names) */
    int found = elf_nm(program, ELF_NM_DEFINED_EXTERNAL, &syms) == 0 && syms.s &&
                (strncmp(syms.s, "GOMP_parallel ", 14) == 0 ||
                 strstr(syms.s, "\nGOMP_parallel ")) &&
                !strstr(syms.s, "__kmpc_fork_call ");
    free(syms.s);
    return found;
}

/* The same for the shared libraries the program loads (libs: ldd_of), when
 * the program itself imports nothing of OpenMP: its OpenMP may live in a
 * library of its own (a GCC program was once left unmeasured so). The
 * runtimes themselves and libpomp's are passed over; the first library that
 * calls one decides. */
static enum program_runtime runtime_of_libraries(const char *libs, char **missing)
{
    enum program_runtime rt = RUNS_UNKNOWN;
    *missing = NULL;
    if (!libs)
        return RUNS_UNKNOWN;
    char *out = xstrdup(libs); /* (strtok_r writes in it) */
    char *save = NULL;
    int gomp = 0, libomp = 0;
    for (char *line = strtok_r(out, "\n", &save); line && (rt == RUNS_UNKNOWN || rt == RUNS_API_ONLY);
         line = strtok_r(NULL, "\n", &save)) {
        /* "name => /path (addr)", or "/path (addr)" for a library named by its path */
        char *arrow = strstr(line, "=> ");
        char *path = arrow ? arrow + 3 : line + strspn(line, " \t");
        char *end = strchr(path, ' ');
        if (end)
            *end = '\0';
        if (strstr(path, "libgomp.so"))
            gomp = 1;
        if (strstr(path, "libomp.so") || strstr(path, "libiomp5.so"))
            libomp = 1;
        if (!strchr(path, '/') || strstr(path, "libgomp.so") || strstr(path, "libomp.so") ||
            strstr(path, "libpomp") || strstr(path, "ld-linux"))
            continue;
        struct unmeasured_calls calls;
        rt = runtime_of(path, missing, &calls);
    }
    free(out);
    /* a runtime loaded by something pomprun cannot read, or called through
     * its API alone: the one loaded decides */
    if ((rt == RUNS_UNKNOWN || rt == RUNS_API_ONLY) && gomp != libomp)
        rt = gomp ? RUNS_GOMP : RUNS_LIBOMP;
    return rt;
}

/* The libgomp.so.1 the program loads (ldd), where it is LLVM libomp under
 * libgomp's name (conda's llvm-openmp links libgomp.so.1 to libomp.so): its
 * path, else NULL. Its own OMPT measures the program; with the bridge
 * preloaded before it, every region was named by the bridge's code address
 * (parallel @ gomp-bridge/gomp_team.c:207: libomp's return address; a probe). */
/* Where the program's loader finds the library whose name begins with
 * soname ("libgomp.so.1", "libasan.so."), as ldd says (libs: ldd_of); NULL:
 * not loaded. */
static char *loaded_path(const char *libs, const char *soname)
{
    if (!libs)
        return NULL;
    char *out = xstrdup(libs), *found = NULL, *save = NULL; /* (strtok_r writes in it) */
    for (char *line = strtok_r(out, "\n", &save); line && !found;
         line = strtok_r(NULL, "\n", &save)) {
        line += strspn(line, " \t");
        char *arrow = strstr(line, " => ");
        if (!arrow || strncmp(line, soname, strlen(soname)) != 0)
            continue;
        char *path = arrow + 4, *end = strchr(path, ' ');
        if (end)
            *end = '\0';
        if (path[0] == '/')
            found = xstrdup(path);
    }
    free(out);
    return found;
}

static char *libgomp_is_libomp(const char *libs)
{
    char *path = loaded_path(libs, "libgomp.so.1 "), *text = NULL;
    size_t size = 0;
    int omp = path && read_file(path, &text, &size) == 0 && memmem(text, size, "__kmpc_fork_call", 16);
    free(text);
    if (!omp) {
        free(path);
        return NULL;
    }
    return path;
}

/* Whether a preloaded library (an LD_PRELOAD entry) is an OpenMP runtime. */
static int is_runtime_entry(const char *entry, size_t len)
{
    const char *base = entry;
    for (size_t k = 0; k < len; k++)
        if (entry[k] == '/')
            base = entry + k + 1;
    size_t n = len - (size_t)(base - entry);
    return (n >= 9 && strncmp(base, "libgomp.s", 9) == 0) || (n >= 8 && strncmp(base, "libomp.s", 8) == 0) ||
           (n >= 9 && strncmp(base, "libiomp5.", 9) == 0);
}

/* LD_PRELOAD with pomp's own libraries (ours, in their order): after the
 * user's, so that a tool of the user's that wraps libgomp's entry points
 * forwards to the bridge, which forwards to libgomp (first, the bridge's
 * versioned lookup of the next definition passed over the tool's unversioned
 * one, which then saw none of the program's calls; a probe), but before an
 * OpenMP runtime the user preloads, which the bridge must stand before; and
 * the sanitizer runtime the program needs (ASan's) before everything: it
 * aborts where it is not the first library of the process (a probe). */
static void set_preload(const char *ours, const char *sanitizer)
{
    const char *user = getenv("LD_PRELOAD");
    struct strbuf v = {0};
    if (sanitizer)
        sb_printf(&v, "%s", sanitizer);
    int placed = 0;
    for (const char *e = user ? user : ""; *e;) {
        size_t len = strcspn(e, ": ");
        if (len && !(sanitizer && strlen(sanitizer) == len && strncmp(e, sanitizer, len) == 0)) {
            if (!placed && ours && is_runtime_entry(e, len)) {
                sb_printf(&v, "%s%s", v.len ? ":" : "", ours);
                placed = 1;
            }
            sb_printf(&v, "%s%.*s", v.len ? ":" : "", (int)len, e);
        }
        e += len;
        e += strspn(e, ": ");
    }
    if (!placed && ours)
        sb_printf(&v, "%s%s", v.len ? ":" : "", ours);
    if (v.s)
        setenv("LD_PRELOAD", v.s, 1);
    free(v.s);
}

int main(int argc, char **argv)
{
    int verbose = 0, on_libomp = 0, i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        }
        if (strcmp(argv[i], "--pomp-verbose") == 0) {
            verbose = 1;
        } else if (strncmp(argv[i], "--pomp-runtime=", 15) == 0) {
            if (strcmp(argv[i] + 15, "omp") != 0 && strcmp(argv[i] + 15, "libomp") != 0 &&
                strcmp(argv[i] + 15, "gomp") != 0 && strcmp(argv[i] + 15, "libgomp") != 0) {
                fprintf(stderr, "pomprun: error: unknown runtime in '%s' (allowed: omp, gomp)\n",
                        argv[i]);
                return 2;
            }
            on_libomp = strstr(argv[i] + 15, "gomp") == NULL;
        } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "pomprun: error: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    if (i >= argc) {
        usage(stderr);
        return 2;
    }
    char *program = find_program(argv[i]);
    struct stat st;
    if (!program && strchr(argv[i], '/') && stat(argv[i], &st) == 0) { /* there, but not to run */
        fprintf(stderr, "pomprun: error: %s: %s\n", argv[i],
                S_ISDIR(st.st_mode) ? "is a directory" : "not an executable program");
        return 126; /* as the shell says it */
    }
    if (!program) {
        fprintf(stderr, "pomprun: error: %s: no such program\n", argv[i]);
        return 127;
    }
    enum program_file kind = program_file(program);
    if (kind == FILE_LIBRARY || kind == FILE_UNRUNNABLE) { /* said before any other word */
        fprintf(stderr, "pomprun: error: %s: %s\n", argv[i],
                kind == FILE_LIBRARY ? "a shared library, not a program: run the program that "
                                       "loads it under pomprun"
                                     : "cannot be run: not a program or a script (Exec format error)");
        free(program);
        return 126; /* as the shell says it */
    }
    int is_static = kind == FILE_STATIC;
    if (is_static)
        fprintf(stderr, "pomprun: warning: %s is statically linked: pomprun attaches libpomp "
                        "through the dynamic loader, which it does not use, so it runs "
                        "unmeasured (build it with pompcc, or link it dynamically)\n",
                argv[i]);
    char *libpomp = find_lib("libpomp.so"), *bridge = find_lib("libpomp-gomp.so");
    if (!libpomp || !bridge) {
        fputs("pomprun: error: cannot find libpomp.so and libpomp-gomp.so next to pomprun "
              "(../lib)\n", stderr);
        free(program), free(libpomp), free(bridge);
        return 2;
    }
    char *libs = is_static ? NULL : ldd_of(program);
    char *missing, *why = NULL;
    struct unmeasured_calls calls;
    enum program_runtime rt = runtime_of(program, &missing, &calls);
    /* (a run said nothing of 40 ms of OpenACC kernels, nor of a Fortran
     * program's 50 ms lock wait, which read as work; a probe) */
    if (calls.openacc)
        fprintf(stderr, "pomprun: note: %s calls OpenACC (GOACC_*): its OpenACC constructs are not "
                        "measured (pomp measures OpenMP), and run on libgomp as without it\n",
                argv[i]);
    if (calls.fortran_locks)
        fprintf(stderr, "pomprun: note: %s calls Fortran's lock routines (omp_set_lock_, ...): "
                        "their waits are not measured and read as work (pomp measures C and C++)\n",
                argv[i]);
    if (rt == RUNS_UNKNOWN || rt == RUNS_API_ONLY) {
        enum program_runtime own = rt;
        free(missing);
        rt = runtime_of_libraries(libs, &missing);
        if (rt == RUNS_UNKNOWN || rt == RUNS_API_ONLY) /* only the API: libomp serves it */
            rt = own == RUNS_API_ONLY || rt == RUNS_API_ONLY ? RUNS_LIBOMP : RUNS_UNKNOWN;
    }
    if (rt == RUNS_GOMP_ONLY) {
        why = xasprintf("calls %s (%s), %s", missing, pomp_runtime_feature(missing),
                        pomp_runtime_lack(missing)); /* (detach: provided, and crashes) */
    } else if (rt == RUNS_GOMP && on_libomp) {
        char *copy = pomp_runtime_input_task_copy_function(program);
        if (copy) {
            why = xasprintf("has a task whose data GCC copies with a function (%s), which LLVM "
                            "libomp's libgomp layer breaks when it runs such a task at once", copy);
            rt = RUNS_GOMP_ONLY;
        }
        free(copy);
    }
    if (rt == RUNS_GOMP && !on_libomp) {
        char *omp = libgomp_is_libomp(libs);
        if (omp) {
            fprintf(stderr, "pomprun: note: the libgomp.so.1 that %s loads, %s, is LLVM libomp: "
                            "measured through its OMPT, without the libgomp bridge\n",
                    argv[i], omp);
            rt = RUNS_LIBOMP;
        }
        free(omp);
    }
    int bridge_preloaded = 0; /* a libgomp program's: libpomp, its dependency, after libgomp */
    char *ours = NULL;        /* pomp's LD_PRELOAD entries, in order (set_preload) */
    switch (rt) {
    case RUNS_GOMP:
        if (on_libomp) {
            prepend_entry(&ours, LIBOMP_PATH); /* LLVM libomp under GCC's calls */
            break;
        }
        /* fall through */
    case RUNS_GOMP_ONLY:
        if (on_libomp)
            fprintf(stderr, "pomprun: warning: %s %s: it runs on GCC's libgomp\n", argv[i], why);
        prepend_entry(&ours, bridge); /* the libgomp bridge before libgomp */
        bridge_preloaded = 1;
        break;
    case RUNS_UNKNOWN:
        /* a script that runs the program, a launcher, a program that dlopens
         * its OpenMP code: the bridge goes with the preload too, dormant in a
         * process without libgomp, measuring one that has it */
        if (!is_static && defines_libgomp(program))
            fprintf(stderr,
                    "pomprun: warning: %s has libgomp linked in statically (it defines "
                    "GOMP_parallel): no bridge can stand before it, and its OpenMP runs "
                    "unmeasured; link libgomp dynamically, or build with pompcc\n",
                    argv[i]);
        else if (!is_static)
            fprintf(stderr,
                    "pomprun: warning: neither %s nor a library it loads calls an OpenMP "
                    "runtime that pomprun can see (a script?); measuring what the processes it "
                    "runs report: libgomp through pomp's bridge, LLVM libomp through OMPT\n",
                    argv[i]);
        /* after libpomp, which goes first below: loaded as the bridge's
         * dependency, after libomp, libpomp read a Clang child's lock records
         * after libomp had freed them, and named no critical (a probe) */
        prepend_entry(&ours, bridge);
        break;
    case RUNS_API_ONLY: /* (decided above) */
    case RUNS_LIBOMP:
        /* no bridge: where GCC code runs on this libomp (a libgomp.so.1 that
         * is libomp, a GCC plugin of a Clang program), the bridge's wrappers,
         * dormant, still stood between it and libomp, whose regions then
         * sat at the wrapper's code (gomp_team.c), not the pragma's line. A
         * GCC program this one starts runs unmeasured (docs/instrumentation.md) */
        break;
    }
    free(missing);
    free(why);
    free(bridge);
    /* libomp loads its tool at its first OpenMP call, which in GCC code may come
     * after seconds of serial work: preloaded, libpomp is there at the start,
     * where the run begins */
    if (!bridge_preloaded)
        prepend_entry(&ours, libpomp);
    char *sanitizer = loaded_path(libs, "libasan.so.");
    free(libs);
    set_preload(ours, sanitizer);
    free(ours);
    free(sanitizer);
    prepend("OMP_TOOL_LIBRARIES", libpomp);
    setenv("OMP_TOOL", "enabled", 1);
    /* the program keeps this pid: its libpomp starts at load, not at its first
     * OpenMP call (the serial code before it is sampled; a run without one
     * says so), where the processes it runs keep theirs as before. Only a
     * program that calls a runtime itself: a script's interpreter or a
     * launcher would measure nothing, say so at exit, and with a fixed
     * POMP_OUTPUT_DIR write its empty output over the program's (review) */
    if (rt != RUNS_UNKNOWN) {
        char pid[24];
        snprintf(pid, sizeof pid, "%d", (int)getpid());
        setenv("POMP_RUN_PID", pid, 1);
    }
    if (verbose)
        say_environment();
    execv(program, argv + i);
    if (errno == ENOEXEC) { /* a script without "#!": the shell runs it, as execvp and the shells do */
        int n = argc - i;
        char **sh = xmalloc((size_t)(n + 2) * sizeof *sh);
        sh[0] = "/bin/sh";
        sh[1] = program;
        memcpy(sh + 2, argv + i + 1, (size_t)n * sizeof *sh); /* (with argv's NULL) */
        execv(sh[0], sh);
        free(sh);
    }
    fprintf(stderr, "pomprun: error: cannot run %s: %s\n", program, strerror(errno));
    return 126;
}
