/* pompcc: a drop-in for cc. Instruments each C source with pomp-instrument,
 * compiles it with the real compiler ($POMP_CC, default cc), and at link time
 * runs pomp-prelink and adds libpomp and the OpenMP runtime (BRIEF §2).
 * A file that cannot be instrumented is compiled as it is, with a warning.
 * Called as pompc++ (a link to the same program), it stands in for c++
 * ($POMP_CXX, default c++) and treats .c files as C++, as c++ does; called as
 * pomp-gcc, pomp-g++, pomp-clang or pomp-clang++, it uses that compiler. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/stat.h>

#include "compiler_path.h"
#include "function_filter.h"
#include "lib_search.h"
#include "long_options.h"
#include "response_files.h"
#include "process.h"
#include "runtime.h"
#include "runtime_select.h"
#include "source_scan.h"
#include "util.h"

#define POMP_VERSION_MACRO "-D_POMP=202611"

/* Link flags libpomp itself needs: the sanitizer runtimes when libpomp was
 * built by `make sanitize` (empty otherwise). */
#ifndef POMP_EXTRA_LINK_FLAGS
#define POMP_EXTRA_LINK_FLAGS ""
#endif

static void add_words(struct argv_list *a, const char *words)
{
    char *copy = xstrdup(words), *save = NULL;
    for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
        argv_add(a, w);
    free(copy);
}

enum mode { MODE_LINK, MODE_COMPILE, MODE_ASSEMBLY, MODE_PREPROCESS };

/* The language of an input: what pompcc instruments. */
enum lang { LANG_NONE, LANG_C, LANG_CXX };

struct input {
    const char *path;
    int is_source;
    enum lang lang;
    int forced;     /* the language came from -x, which the compile repeats */
    char *object;   /* what the link uses for a source */
    size_t flag_pos;/* options before it: the link keeps inputs and -l, -L, ... in order */
};

struct pompcc {
    const char *cc;
    char *cc_replaced;       /* cc where use_compiler_not_self replaced it (freed at the end) */
    char *bindir, *libdir, *incdir;
    enum pomp_runtime runtime;
    int runtime_given;           /* --pomp-runtime= on the command line */
    int keep, verbose, openmp, explicit_language, shared;
    int relocatable;            /* -r: a partial link, whose output is an object again */
    int lgomp;                  /* libgomp at the link without -fopenmp: -lgomp (GNU make's rule:
                                   LDLIBS=-lgomp), or GCC's automatic parallelization */
    int dry_run;                /* -###: the compiler prints its commands and runs none */
    int offload;                /* a Clang offloading flag was given (-fopenmp-targets=...) */
    int cxx_driver;              /* called as pompc++ */
    int functions;               /* --pomp-functions given */
    struct strbuf function_rules;/* their rules, joined by ',' (empty: every function) */
    enum lang forced_lang;       /* from -x c / -x c++, until -x none */
    enum mode mode;
    const char *output;
    struct argv_list flags;      /* every option but the ones below */
    struct argv_list pp_flags;   /* flags as the preprocessor takes them: the words of -Wp,A,B
                                    and -Xpreprocessor A given on their own (preprocessor_view),
                                    for what pompcc and its parser read (-I, -D, -include) */
    struct argv_list dep_flags;  /* -MD -MMD -MF x -MT x -MQ x -MP */
    struct argv_list instrument_options; /* --pomp-X given to pomp-instrument as --X */
    struct argv_list linker_words; /* what the linker's response files (-Wl,@FILE) hold */
    const char *static_flag;     /* -static or -static-pie, which no pomp program can be */
    int linker_static;           /* -Wl,-Bstatic in force for the next -l (-Wl,-Bdynamic ends it) */
    const char *static_gomp;     /* how libgomp was asked for as an archive (-lgomp under
                                    -Wl,-Bstatic, -l:libgomp.a, a libgomp.a path), or NULL */
    int has_dep_target, has_dep_file;
    int dep_from_preprocessor;   /* -Wp,-MD,file: the preprocessor's default target */
    int from_stdin;              /* an input is '-' */
    int value_missing;           /* the last argument is an option that takes a value */
    struct input *inputs;
    size_t ninputs;
    char *tmpdir;
    struct argv_list identity;   /* the compiler's identity macros for pomp-instrument's parser
                                    (compiler_identity), asked once */
    int identity_asked;
    int identity_rc;             /* the compiler's exit status on that question: -1 not run */
    int identity_errno;          /* why it could not run (identity_rc -1) */
    const char *cc_from;         /* where pc->cc came from, for messages */
};

/* The -I and -iquote directories: where the program's own headers are. */
static void include_dirs(const struct pompcc *pc, struct argv_list *dirs)
{
    for (size_t i = 0; i < pc->pp_flags.n; i++) {
        const char *f = pc->pp_flags.v[i];
        if ((strcmp(f, "-I") == 0 || strcmp(f, "-iquote") == 0) && i + 1 < pc->pp_flags.n)
            argv_add(dirs, pc->pp_flags.v[++i]);
        else if (strncmp(f, "-I", 2) == 0 && f[2])
            argv_add(dirs, f + 2);
        else if (strncmp(f, "-iquote", 7) == 0 && f[7])
            argv_add(dirs, f + 7);
    }
    /* and the compiler's from the environment: a header found through CPATH
     * was never looked at, and its constructs left uninstrumented where the
     * file itself had no pragma */
    const char *vars[] = {"CPATH", pc->cxx_driver ? "CPLUS_INCLUDE_PATH" : "C_INCLUDE_PATH"};
    for (size_t v = 0; v < sizeof vars / sizeof *vars; v++) {
        const char *list = getenv(vars[v]);
        if (list && *list)
            argv_add_split(dirs, list, ':', "."); /* an empty one: the cwd */
    }
}

/* Whether a -D option defines a macro with a _Pragma in its body (a build
 * system's -D'OMP(x)=_Pragma(#x)'): a file may then make OpenMP directives
 * with no pragma, no omp_ and no main of its own (OMP(parallel for)), which
 * the quick look (source_file_may_need_instrumentation) cannot see. */
static int defines_pragma_macro(const struct pompcc *pc)
{
    for (size_t i = 0; i < pc->pp_flags.n; i++) {
        const char *f = pc->pp_flags.v[i];
        const char *def = strcmp(f, "-D") == 0 && i + 1 < pc->pp_flags.n ? pc->pp_flags.v[i + 1]
                          : strncmp(f, "-D", 2) == 0                   ? f + 2
                                                                       : NULL;
        if (def && strstr(def, "Pragma"))
            return 1;
    }
    return 0;
}

/* A header given with -include is read before the source, from no #include
 * directive that pomp-instrument could point at an instrumented copy: its
 * constructs are left to the runtime. So are those of the project headers it
 * includes: CMake's precompiled headers are such a file (cmake_pch.h, which
 * includes the headers named in target_precompile_headers), and their
 * constructs were left without a word. Said, never silent. */
struct forced_include {
    const char *file;
};

static void warn_not_instrumented(const char *path, void *arg)
{
    const struct forced_include *f = arg;
    if (strcmp(path, f->file) == 0)
        fprintf(stderr, "%s: warning: %s (given with -include) is not instrumented", tool_name(),
                path);
    else
        fprintf(stderr,
                "%s: warning: %s (reached through -include %s, a precompiled "
                "header's or a forced include's) is not instrumented",
                tool_name(), path, f->file);
    fprintf(stderr, ": its OpenMP constructs are left to the runtime's events; #include it in "
                    "the source, not through -include, to measure them with pomp's\n");
}

static void warn_forced_includes(const struct pompcc *pc)
{
    struct argv_list dirs = {0};
    include_dirs(pc, &dirs);
    for (size_t i = 0; i < pc->pp_flags.n; i++) {
        const char *a = pc->pp_flags.v[i];
        struct forced_include f = {NULL};
        if (strcmp(a, "-include") == 0 && i + 1 < pc->pp_flags.n)
            f.file = pc->pp_flags.v[++i];
        else if (strncmp(a, "-include", 8) == 0 && a[8] && strcmp(a, "-include-pch") != 0)
            f.file = a + 8;
        if (!f.file)
            continue;
        /* where the compiler finds it: the working directory, then the
         * "..." search chain (-iquote, -I): -Iinc -include lib/k.hpp got no
         * word (a probe); not found, the compiler says so */
        char *found = NULL;
        for (size_t d = 0; f.file[0] != '/' && access(f.file, R_OK) != 0 && !found && d < dirs.n;
             d++) {
            found = xasprintf("%s/%s", dirs.v[d], f.file);
            if (access(found, R_OK) != 0) {
                free(found);
                found = NULL;
            }
        }
        if (found)
            f.file = found;
        source_files_with_openmp(f.file, (const char *const *)dirs.v, dirs.n, 1,
                                 warn_not_instrumented, &f);
        free(found);
    }
    argv_free(&dirs);
}

/* Options whose value is the next argument. */
static int takes_separate_value(const char *a)
{
    /* GCC's (--sysroot DIR, -D X: a value taken for an input or a flag of its
     * own was lost, and the option took the next word, pompcc's -D_POMP, as
     * its value); the long spellings gcc translates are short ones by now
     * (long_options.c) */
    static const char *const opts[] = {
        "-o", "-I", "-D", "-U", "-include", "-imacros", "-isystem", "-iquote", "-idirafter",
        "-isysroot", "-iprefix", "-iwithprefix", "-iwithprefixbefore", "-imultilib", "-x", "-MF",
        "-MT", "-MQ", "-L", "-l", "-A", "-B", "-Xlinker", "-Xassembler", "-Xpreprocessor", "-u",
        "-T", "-z", "-e", "--param", "-aux-info", "-target", "-wrapper", "-dumpbase", "-dumpdir",
        "-dumpbase-ext", "--sysroot", NULL};
    for (const char *const *o = opts; *o; o++)
        if (strcmp(a, *o) == 0)
            return 1;
    return 0;
}

/* Options that only the linker needs; kept out of compile commands (clang
 * warns of each one a compile does not use: -static-libgcc broke a -Werror
 * build that compiles and links in one command; a probe). */
static int is_link_only(const char *a)
{
    static const char *const exact[] = {"-Xlinker", "-static", "-shared", "-rdynamic", "-pie",
                                        "-no-pie", "-s", "-T", "-u", "-z", "-e", "-shared-libgcc",
                                        "-nostartfiles", "-nodefaultlibs", "-nostdlib", "-nolibc",
                                        "--for-linker", NULL};
    static const char *const prefixes[] = {"-l", "-L", "-Wl,", "-static-lib", "-fuse-ld=",
                                           "-rtlib=", "--rtlib=", "-unwindlib=", "--unwindlib=",
                                           "--ld-path=", "--for-linker=", NULL};
    for (const char *const *e = exact; *e; e++)
        if (strcmp(a, *e) == 0)
            return 1;
    for (const char *const *p = prefixes; *p; p++)
        if (strncmp(a, *p, strlen(*p)) == 0)
            return 1;
    return 0;
}

/* The language a file's name gives it: C for .c and preprocessed .i (C++ for
 * the C++ driver, as c++ and g++ do), C++ for the C++ suffixes gcc knows and
 * preprocessed .ii; LANG_NONE otherwise. A preprocessed file is instrumented
 * like any other: its line markers keep the user's files and lines. */
static enum lang source_language(const char *a, int cxx_driver)
{
    /* (and the module interface units' suffixes of clang and MSVC, C++ too) */
    static const char *const cxx[] = {".cc",   ".cp",  ".cxx",  ".cpp",  ".CPP", ".c++", ".C",
                                      ".ii",   ".cppm", ".ccm", ".cxxm", ".c++m", ".ixx", NULL};
    const char *dot = strrchr(a, '.');
    if (!dot || strchr(dot, '/') || dot == a)
        return LANG_NONE;
    if (strcmp(dot, ".c") == 0 || strcmp(dot, ".i") == 0)
        return cxx_driver ? LANG_CXX : LANG_C;
    for (const char *const *s = cxx; *s; s++)
        if (strcmp(dot, *s) == 0)
            return LANG_CXX;
    return LANG_NONE;
}

static const char *lang_name(enum lang l) { return l == LANG_CXX ? "c++" : "c"; }

/* The output (-o) is one of the inputs: said as gcc says it, and nothing is
 * compiled (pompcc compiles a copy under another name, so the compiler's own
 * check never saw it, and the object replaced the source). */
static int output_is_input(const struct pompcc *pc)
{
    struct stat out, in;
    if (!pc->output || stat(pc->output, &out) != 0)
        return 0;
    for (size_t i = 0; i < pc->ninputs; i++)
        if (stat(pc->inputs[i].path, &in) == 0 && in.st_dev == out.st_dev && in.st_ino == out.st_ino) {
            fprintf(stderr, "%s: fatal error: input file '%s' is the same as output file\n",
                    tool_name(), pc->inputs[i].path);
            return 1;
        }
    return 0;
}

static void usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "%s: error: ", tool_name());
    fprintf(stderr, fmt, arg);
    fputs("\npompcc options: --pomp-keep --pomp-verbose --pomp-runtime=omp|gomp\n"
          "                --pomp-functions[=include:GLOB,exclude:GLOB,include:file:GLOB,"
          "exclude:file:GLOB]\n"
          "                --pomp-implicit-barriers=explicit|runtime --pomp-iterations\n",
          stderr);
    exit(2);
}

static void parse_pomp_option(struct pompcc *pc, const char *a)
{
    if (strcmp(a, "--pomp-keep") == 0)
        pc->keep = 1;
    else if (strcmp(a, "--pomp-verbose") == 0)
        pc->verbose = 1;
    else if (strncmp(a, "--pomp-runtime=", 15) == 0) {
        if (pomp_runtime_parse(a + 15, &pc->runtime) != 0)
            usage_error("unknown runtime in '%s' (allowed: omp, gomp)", a);
        pc->runtime_given = 1;
    } else if (strcmp(a, "--pomp-functions") == 0) {
        pc->functions = 1;
    } else if (strncmp(a, "--pomp-functions=", 17) == 0) {
        /* checked here, so that a typo stops the build instead of the instrumentation */
        struct function_filter f = {0};
        char err[256];
        if (function_filter_parse(&f, a + 17, err, sizeof err) != 0) {
            char *msg = xasprintf("%s: %s", a, err);
            usage_error("%s", msg);
        }
        function_filter_free(&f);
        pc->functions = 1;
        sb_printf(&pc->function_rules, "%s%s", pc->function_rules.len ? "," : "", a + 17);
    } else if (strcmp(a, "--pomp-implicit-barriers=explicit") == 0 ||
               strcmp(a, "--pomp-implicit-barriers=runtime") == 0 ||
               strcmp(a, "--pomp-iterations") == 0) {
        char *option = xasprintf("--%s", a + 7);
        argv_add(&pc->instrument_options, option);
        free(option);
    } else if (strncmp(a, "--pomp-implicit-barriers=", 25) == 0)
        usage_error("'%s': the value is explicit or runtime", a);
    else
        usage_error("unknown option '%s'", a);
}

static void add_input(struct pompcc *pc, const char *path)
{
    enum lang l = pc->forced_lang ? pc->forced_lang : source_language(path, pc->cxx_driver);
    pc->inputs = xrealloc(pc->inputs, (pc->ninputs + 1) * sizeof *pc->inputs);
    pc->inputs[pc->ninputs++] = (struct input){path, l != LANG_NONE, l, pc->forced_lang != LANG_NONE,
                                               NULL, pc->flags.n};
}

/* -x c, -x c++ and -x none set the language of the inputs after them; any
 * other language makes pompcc pass the command through. Returns 1 if handled. */
static int language_option(struct pompcc *pc, const char *value)
{
    if (strcmp(value, "c") == 0)
        pc->forced_lang = LANG_C;
    else if (strcmp(value, "c++") == 0)
        pc->forced_lang = LANG_CXX;
    else if (strcmp(value, "none") == 0)
        pc->forced_lang = LANG_NONE;
    else
        return 0;
    return 1;
}

/* A response file for the linker (-Wl,@FILE): the linker reads it, and the
 * link command keeps the option as it was given. The objects, archives and
 * -L/-l options in it are the link's as much as those on the command line:
 * pomp-prelink must see them (their POMP_Init_ functions, their construct
 * counts), and so must the runtime choice. Before, they were left out: every
 * handle of those objects was made lazily and their uninstrumented constructs
 * went unsaid. Nested @FILEs are read in turn. (-Xlinker @FILE needs nothing
 * of this: the driver reads every argument @FILE, and so does pompcc.) */
static void read_linker_file(struct pompcc *pc, const char *at_file)
{
    char *text;
    size_t size;
    if (read_file(at_file + 1, &text, &size) != 0)
        return; /* the linker says what it says of it */
    struct argv_list words = {0};
    response_files_split(&words, text);
    response_files_expand(&pc->linker_words, (int)words.n, words.v);
    argv_free(&words);
    free(text);
}

/* The linker's response files named in an option: -Wl,a,@FILE,b. */
static void note_linker_files(struct pompcc *pc, const char *a)
{
    struct argv_list words = {0};
    if (lib_search_wl_words(a, &words))
        for (size_t i = 0; i < words.n; i++)
            if (words.v[i][0] == '@' && words.v[i][1])
                read_linker_file(pc, words.v[i]);
    argv_free(&words);
}

/* Follows the linker's -Bstatic/-Bdynamic state through -Wl,WORDS (and
 * -Xlinker WORD: linker_word) and notes a libgomp asked for as an archive:
 * the libgomp bridge defines libgomp's entry points and needs the shared
 * library behind them, so the link takes no member of libgomp.a and the
 * program runs on libgomp.so (the same library, loaded at run time), which
 * went unsaid (a probe). */
static void note_static_gomp(struct pompcc *pc, const char *a, int linker_word)
{
    struct argv_list words = {0};
    if (linker_word)
        argv_add(&words, a);
    if (linker_word || lib_search_wl_words(a, &words)) {
        for (size_t i = 0; i < words.n; i++) {
            int state = lib_search_static_word(words.v[i]);
            if (state)
                pc->linker_static = state > 0;
        }
        argv_free(&words);
        return;
    }
    if (strcmp(a, "-lgomp") == 0 && pc->linker_static)
        pc->static_gomp = a;
    if (pomp_runtime_is_libgomp_archive(a)) {
        pc->static_gomp = a;
        pc->lgomp = 1; /* libgomp's shared library, after the bridge */
    }
}

/* Appends flags' options from index `from` to view as the preprocessor takes
 * them: the words of -Wp,A,B (split at the commas, as the driver does) and
 * the word after -Xpreprocessor on their own, every other option as it is.
 * A header directory given as -Wp,-Idir was unknown to the parser and to
 * pompcc's look for headers with OpenMP: their constructs went uninstrumented
 * (said, not measured; a probe). The compiler gets the options as given. */
static void preprocessor_view(struct argv_list *view, const struct argv_list *flags, size_t from)
{
    for (size_t i = from; i < flags->n; i++) {
        const char *f = flags->v[i];
        if (strncmp(f, "-Wp,", 4) == 0)
            argv_add_split(view, f + 4, ',', NULL);
        else if (strcmp(f, "-Xpreprocessor") == 0 && i + 1 < flags->n)
            argv_add(view, flags->v[++i]);
        else
            argv_add(view, f);
    }
}

static void parse_args(struct pompcc *pc, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--static") == 0 || strcmp(a, "--static-pie") == 0)
            a = a + 1; /* gcc's spellings of -static, -static-pie: refused alike */
        if (strncmp(a, "--pomp-", 7) == 0) {
            parse_pomp_option(pc, a);
            continue;
        }
        if (strcmp(a, "-c") == 0) {
            pc->mode = MODE_COMPILE;
            continue;
        }
        if (strcmp(a, "-S") == 0) {
            if (pc->mode != MODE_PREPROCESS)
                pc->mode = MODE_ASSEMBLY;
            continue;
        }
        /* nothing to instrument: the compiler's answer (--precompile: clang's
         * module interface into its .pcm, which was taken for a link) */
        if (strcmp(a, "-E") == 0 || strcmp(a, "-M") == 0 || strcmp(a, "-MM") == 0 ||
            strcmp(a, "-fsyntax-only") == 0 || strcmp(a, "--precompile") == 0)
            pc->mode = MODE_PREPROCESS;
        if (strcmp(a, "-###") == 0) /* the commands the compiler would run, none run: its answer */
            pc->dry_run = 1;
        if (strcmp(a, "-") == 0) /* a source on standard input: compiled as it is */
            pc->from_stdin = 1;
        if (takes_separate_value(a) && i + 1 == argc) {
            /* "-o" (or -I, -x, ...) without its value: the compiler says what
             * it says of that (taking the next argument pompcc adds for it
             * could overwrite a file) */
            pc->value_missing = 1;
            continue;
        }
        if (strcmp(a, "-o") == 0 && i + 1 < argc) {
            pc->output = argv[++i];
            continue;
        }
        if (strncmp(a, "-o", 2) == 0 && a[2]) { /* -ofile */
            pc->output = a + 2;
            continue;
        }
        if (strncmp(a, "-Wp,-MD,", 8) == 0 || strncmp(a, "-Wp,-MMD,", 9) == 0) {
            /* the preprocessor's own form (kernel-style builds, automake's
             * older depcomp): -MD or -MMD, -MF file; the target is the
             * preprocessor's default, the source's name with .o */
            int mmd = a[6] == 'M';
            argv_add(&pc->dep_flags, mmd ? "-MMD" : "-MD");
            argv_add(&pc->dep_flags, "-MF");
            argv_add(&pc->dep_flags, a + (mmd ? 9 : 8));
            pc->has_dep_file = 1;
            pc->dep_from_preprocessor = 1;
            continue;
        }
        if (strcmp(a, "-MD") == 0 || strcmp(a, "-MMD") == 0 || strcmp(a, "-MP") == 0) {
            argv_add(&pc->dep_flags, a);
            continue;
        }
        if ((strncmp(a, "-MF", 3) == 0 || strncmp(a, "-MT", 3) == 0 || strncmp(a, "-MQ", 3) == 0) &&
            (a[3] || i + 1 < argc)) { /* -MF file, or joined: -MFfile */
            char opt[4] = {a[0], a[1], a[2], '\0'};
            argv_add(&pc->dep_flags, opt);
            argv_add(&pc->dep_flags, a[3] ? a + 3 : argv[++i]);
            if (a[2] == 'F')
                pc->has_dep_file = 1;
            else
                pc->has_dep_target = 1;
            continue;
        }
        pc->openmp = pomp_runtime_openmp_after(pc->openmp, a);
        if (pomp_runtime_is_offload_flag(a))
            pc->offload = 1;
        /* -x LANG, -xLANG (and GCC's --language, made -x by long_options.c) */
        if (strncmp(a, "-x", 2) == 0) {
            const char *joined = a + 2;
            const char *v = *joined ? joined : i + 1 < argc ? argv[i + 1] : "";
            if (language_option(pc, v)) {
                i += *joined ? 0 : 1;
                continue; /* given again to each compile that needs it, never to the link */
            }
            pc->explicit_language = 1;
        }
        if (strcmp(a, "-shared") == 0)
            pc->shared = 1;
        if (strcmp(a, "-r") == 0)
            pc->relocatable = 1;
        /* -ftree-parallelize-loops=N (N > 1): GCC makes parallel regions of
         * loops and links libgomp itself, so the bridge goes before it (the
         * regions ran unmeasured, after a note that said they were; a probe) */
        if (pomp_runtime_is_libgomp(a) ||
            (strcmp(a, "-Xlinker") == 0 && i + 1 < argc && pomp_runtime_is_libgomp(argv[i + 1])) ||
            (strncmp(a, "-ftree-parallelize-loops=", 25) == 0 && atoi(a + 25) > 1))
            pc->lgomp = 1;
        if (strcmp(a, "-static") == 0 || strcmp(a, "-static-pie") == 0)
            pc->static_flag = argv[i]; /* as the user spelled it */
        note_static_gomp(pc, a, i > 1 && strcmp(argv[i - 1], "-Xlinker") == 0);
        if (a[0] == '-' && a[1] != '\0') {
            size_t first = pc->flags.n;
            argv_add(&pc->flags, a);
            note_linker_files(pc, a);
            if (takes_separate_value(a) && i + 1 < argc)
                argv_add(&pc->flags, argv[++i]);
            preprocessor_view(&pc->pp_flags, &pc->flags, first);
            continue;
        }
        add_input(pc, a);
    }
}

static void find_installation(struct pompcc *pc)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        fprintf(stderr, "%s: error: cannot find where pompcc is installed\n", tool_name());
        exit(2);
    }
    exe[n] = '\0';
    char *dir = dirname(exe);
    pc->bindir = xstrdup(dir);
    pc->libdir = xasprintf("%s/../lib", dir);
    pc->incdir = xasprintf("%s/../include", dir);
}

/* pc->cc, where its compiler is found as pompcc itself (a link named cc
 * first in PATH), becomes the next one on PATH; where none is, an error. */
static void use_compiler_not_self(struct pompcc *pc)
{
    char self[PATH_MAX], *self_at = NULL;
    if (!realpath("/proc/self/exe", self))
        return;
    char *cc = compiler_not_self(pc->cc, self, &self_at);
    if (self_at) {
        fprintf(stderr,
                "%s: error: the compiler '%s' (%s) is pompcc itself (%s), which would "
                "run itself without end: name the real compiler in %s (gcc, clang)\n",
                tool_name(), pc->cc, pc->cc_from, self_at, pc->cxx_driver ? "POMP_CXX" : "POMP_CC");
        exit(2);
    }
    if (cc)
        pc->cc = pc->cc_replaced = cc;
}

/* Whether the options name a library to link (-lname, -l name, -l:file, or
 * one among the linker's words: -Wl,-lname, -Xlinker -lname). */
static int names_library(const struct pompcc *pc)
{
    for (size_t i = 0; i < pc->flags.n; i++) {
        const char *f = pc->flags.v[i];
        if (strncmp(f, "-l", 2) == 0)
            return 1;
        if (strcmp(f, "-Xlinker") == 0 && i + 1 < pc->flags.n &&
            strncmp(pc->flags.v[i + 1], "-l", 2) == 0)
            return 1;
        if (strncmp(f, "-Wl,", 4) == 0 && (strncmp(f + 4, "-l", 2) == 0 || strstr(f, ",-l")))
            return 1;
    }
    return 0;
}

/* cc plus the user's options that matter when compiling (not linking). */
static void compile_command(const struct pompcc *pc, struct argv_list *cmd, const char *iquote)
{
    add_words(cmd, pc->cc); /* a wrapper and its compiler (POMP_CC="ccache gcc") */
    /* the source's own directory, for the quoted includes of its copy: first,
     * where the compiler looks for them in a plain build (after the user's
     * -iquote, "config.h" was another directory's) */
    if (iquote) {
        argv_add(cmd, "-iquote");
        argv_add(cmd, iquote);
    }
    for (size_t i = 0; i < pc->flags.n; i++) {
        const char *f = pc->flags.v[i];
        if (is_link_only(f)) {
            if (takes_separate_value(f))
                i++;
            continue;
        }
        argv_add(cmd, f);
    }
    argv_add(cmd, POMP_VERSION_MACRO);
    char *inc = xasprintf("-I%s", pc->incdir);
    argv_add(cmd, inc);
    free(inc);
}

static char *base_without_ext(const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    char *s = xstrdup(b);
    char *dot = strrchr(s, '.');
    if (dot)
        *dot = '\0';
    return s;
}

/* Whether line `line` (from 1) of `text` belongs to a POMP directive with
 * values, "#pragma pomp userregion ..." (also continued with '\\' from the
 * lines above), the only directive whose text holds the program's
 * expressions. */
static int line_in_values_directive(const char *text, size_t size, long line)
{
    const char *start = text, *end = text + size, *logical = text;
    int continued = 0;
    for (long l = 1;; l++) {
        if (!continued)
            logical = start; /* where the line that goes on here began */
        if (l == line)
            break;
        const char *nl = memchr(start, '\n', (size_t)(end - start));
        if (!nl)
            return 0;
        continued = nl > start && nl[-1] == '\\';
        start = nl + 1;
    }
    const char *nl = memchr(start, '\n', (size_t)(end - start));
    const char *stop = nl ? nl : end, *p = logical;
    while (p < stop && (*p == ' ' || *p == '\t'))
        p++;
    if (p >= stop || *p != '#')
        return 0;
    p++;
    /* "# pragma pomp userregion", any blanks between the words (continued
     * lines end in "\\\n", taken as blanks) */
    static const char *const words[] = {"pragma", "pomp", "userregion"};
    for (size_t w = 0; w < sizeof words / sizeof *words; w++) {
        while (p < stop && (*p == ' ' || *p == '\t' || *p == '\\' || *p == '\n' || *p == '\r'))
            p++;
        size_t n = strlen(words[w]);
        if ((size_t)(stop - p) < n || strncasecmp(p, words[w], n) != 0)
            return 0;
        p += n;
    }
    return p < stop && (*p == ' ' || *p == '\t' || *p == '\\');
}

/* Where a compiler message line ("FILE:LINE:COL: <kind>") is, when FILE is
 * the source src (as given, or by its base name): its line, else 0. *at: the
 * start of kind in line. */
static long message_line_in(const char *src, const char *line, size_t len, const char *kind,
                            const char **at)
{
    const char *base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
    size_t base_len = strlen(base);
    const char *colon = memmem(line, len, kind, strlen(kind));
    long num[2] = {0, 0};
    if (!colon)
        return 0;
    *at = colon;
    for (int k = 1; k >= 0; k--) {
        const char *c = colon - 1;
        while (c > line && *c >= '0' && *c <= '9')
            c--;
        if (*c != ':' || c + 1 >= colon)
            return 0;
        num[k] = strtol(c + 1, NULL, 10);
        colon = c;
    }
    size_t flen = (size_t)(colon - line);
    int same = (flen == strlen(src) && strncmp(line, src, flen) == 0) ||
               (flen >= base_len && strncmp(colon - base_len, base, base_len) == 0 &&
                (flen == base_len || colon[-(long)base_len - 1] == '/'));
    return same ? num[0] : 0;
}

static void append(char **out, size_t *out_len, const char *s, size_t n)
{
    char *grown = realloc(*out, *out_len + n + 1);
    if (!grown)
        return;
    *out = grown;
    memcpy(*out + *out_len, s, n);
    *out_len += n;
    (*out)[*out_len] = '\0';
}

/* The compiler's errors of an instrumented compile that lie on a POMP
 * directive's line of the source: the user's own value expressions
 * ("#pragma pomp userregion start(a : undefined_var)"), which a plain build
 * never compiles. Returned (malloc'ed, one "FILE:LINE:COL: error: ..." line
 * each) or NULL: where the plain file compiles, the build said only "the
 * instrumented file did not compile (please report this)", without file:line
 * (a probe). An error in a macro a value names is GCC's at the macro's
 * definition: it is taken at the directive its "in expansion of macro" note
 * names, the macro's place after it (it fell back with "please report
 * this", no place said; a probe). */
static char *errors_on_pomp_directives(const char *src, const char *errs)
{
    char *text, *source;
    size_t size, source_size;
    if (read_file(errs, &text, &size) != 0)
        return NULL;
    if (read_file(src, &source, &source_size) != 0) {
        free(text);
        return NULL;
    }
    char *out = NULL;
    size_t out_len = 0;
    const char *error = NULL; /* the last error line not on a directive, and its length */
    size_t error_len = 0;
    for (char *line = text; line < text + size;) {
        char *nl = memchr(line, '\n', (size_t)(text + size - line));
        size_t len = nl ? (size_t)(nl - line + 1) : (size_t)(text + size - line);
        const char *kind = NULL;
        long at = message_line_in(src, line, len, ": error: ", &kind);
        if (kind) {
            error = NULL;
            if (at && line_in_values_directive(source, source_size, at))
                append(&out, &out_len, line, len);
            else
                error = line, error_len = len;
        } else if (memmem(line, len, ": warning: ", 11)) {
            error = NULL;
        } else if (error && (at = message_line_in(src, line, len, ": note: in expansion of macro", &kind)) &&
                   line_in_values_directive(source, source_size, at)) {
            /* the directive's place, the error's words, the macro's place */
            const char *words = memmem(error, error_len, ": error: ", 9);
            const char *end = error + error_len - (error[error_len - 1] == '\n');
            append(&out, &out_len, line, (size_t)(kind - line));
            append(&out, &out_len, words, (size_t)(end - words));
            append(&out, &out_len, " (", 2);
            append(&out, &out_len, kind + 8, (size_t)(line + len - (kind + 8)) - (line[len - 1] == '\n'));
            append(&out, &out_len, ", ", 2);
            append(&out, &out_len, error, (size_t)(words - error));
            append(&out, &out_len, ")\n", 2);
            error = NULL;
        }
        line += len;
    }
    free(text);
    free(source);
    return out;
}

static void print_file(const char *path)
{
    char *text;
    size_t size;
    if (read_file(path, &text, &size) == 0) {
        fwrite(text, 1, size, stderr);
        free(text);
    }
}

/* The compiler's messages of an instrumented compile (compile_one): a header
 * found beside a source named without its directory is found through
 * "-iquote /proc/self/cwd", which -fmacro-prefix-map does not take out of
 * diagnostics: named there as the plain compiler names it ("util.h" to GCC,
 * "./util.h" to clang; they said /proc/self/cwd/util.h; a review). */
static void print_compiler_messages(const struct pompcc *pc, const char *path)
{
    static const char proc_cwd[] = "/proc/self/cwd/";
    char *text;
    size_t size;
    if (read_file(path, &text, &size) != 0)
        return;
    int clang = 0;
    for (size_t i = 0; i < pc->identity.n; i++)
        clang |= strncmp(pc->identity.v[i], "-D__clang__=", 12) == 0;
    const char *p = text, *end = text + size, *at;
    while ((at = memmem(p, (size_t)(end - p), proc_cwd, sizeof proc_cwd - 1)) != NULL) {
        fwrite(p, 1, (size_t)(at - p), stderr);
        if (clang)
            fputs("./", stderr);
        p = at + sizeof proc_cwd - 1;
    }
    fwrite(p, 1, (size_t)(end - p), stderr);
    free(text);
}

/* Copies a file of messages to stderr, each line after "pompcc: note:   "
 * where as_notes is set (the tool's name: tool_name). Under pompcc a
 * file pomp cannot instrument is compiled as it is, so where pomp-instrument
 * alone says "error:" the build goes on: with error_as_warning, those lines
 * say "warning:". */
static void print_lines(const char *path, int as_notes, int error_as_warning)
{
    char *text;
    size_t size;
    if (read_file(path, &text, &size) != 0)
        return;
    for (char *line = text; line < text + size;) {
        char *nl = memchr(line, '\n', (size_t)(text + size - line));
        size_t len = nl ? (size_t)(nl - line + 1) : (size_t)(text + size - line);
        char *kind = error_as_warning ? strstr(line, ": error: ") : NULL;
        if (as_notes)
            fprintf(stderr, "%s: note:   ", tool_name());
        if (kind && kind < line + len) {
            fwrite(line, 1, (size_t)(kind - line), stderr);
            fputs(": warning: ", stderr);
            fwrite(kind + 9, 1, len - (size_t)(kind + 9 - line), stderr);
        } else {
            fwrite(line, 1, len, stderr);
        }
        line += len;
    }
    free(text);
}

/* -x <language> before a file whose language came from -x. */
static void add_language(struct argv_list *cmd, const struct input *in)
{
    if (in && in->forced) {
        argv_add(cmd, "-x");
        argv_add(cmd, lang_name(in->lang));
    }
}

/* Writes the dependency file as the plain compile would have, from the original source. */
static int make_dependencies(const struct pompcc *pc, const struct input *in, const char *obj)
{
    if (!pc->dep_flags.n)
        return 0;
    const char *src = in->path;
    struct argv_list cmd = {0};
    compile_command(pc, &cmd, NULL);
    add_language(&cmd, in);
    for (size_t i = 0; i < pc->dep_flags.n; i++)
        argv_add(&cmd, pc->dep_flags.v[i]);
    /* in a compile-and-link the object is pompcc's temporary: as gcc does, the
     * target is the link's output (-o), else the object a -c would make, and
     * the file is the output's name with .d, else a-<source>.d. The target
     * is quoted for make as gcc's own is (-MQ: "out\ dir/k.o"). */
    char *base = base_without_ext(src);
    const char *named = pc->dep_from_preprocessor ? NULL : pc->mode == MODE_LINK ? pc->output : obj;
    char *target = named ? xstrdup(named) : xasprintf("%s.o", base);
    if (!pc->has_dep_target) {
        argv_add(&cmd, "-MQ");
        argv_add(&cmd, target);
    }
    if (!pc->has_dep_file) {
        char *df;
        if (named) {
            char *d = xstrdup(named);
            char *dot = strrchr(d, '.');
            if (dot && !strchr(dot, '/'))
                *dot = '\0';
            df = xasprintf("%s.d", d);
            free(d);
        } else {
            df = xasprintf("a-%s.d", base);
        }
        argv_add(&cmd, "-MF");
        argv_add(&cmd, df);
        free(df);
    }
    free(target);
    free(base);
    argv_add(&cmd, "-E");
    argv_add(&cmd, src);
    argv_add(&cmd, "-o");
    argv_add(&cmd, "/dev/null");
    int rc = run_process(cmd.v, NULL, NULL, pc->verbose);
    argv_free(&cmd);
    return rc;
}

/* Compiles file into obj (-c, or -S for assembly); iquote adds an include
 * directory for quoted includes, errs captures the compiler's stderr. */
static void add_aux_names(struct pompcc *pc, struct argv_list *cmd, const struct input *in);

static int compile_one(struct pompcc *pc, const struct input *in, const char *file,
                       const char *obj, int assembly, const char *iquote, const char *errs,
                       const char *prefix_map)
{
    struct argv_list cmd = {0};
    /* a source named without its directory ("main.c"): its headers are found
     * through -iquote, and named by that directory in __FILE__ and the debug
     * information, where a plain build finds them beside the source and names
     * them "log.h". The directory is named /proc/self/cwd (the compiler's
     * working directory, pompcc's), a prefix that no other name has, and
     * mapped away: "-iquote ." with "./" mapped away also took the "./" of
     * names the plain build keeps (-I. <kern.h>, #line "./lexer.l"; a review) */
    int beside = iquote && strcmp(iquote, ".") == 0 && strncmp(in->path, "./", 2) != 0;
    int proc_cwd = beside && access("/proc/self/cwd/.", F_OK) == 0;
    compile_command(pc, &cmd, proc_cwd ? "/proc/self/cwd" : iquote);
    if (prefix_map) { /* the copy's directory is the source's, in debug information and in
                         __FILE__ and __BASE_FILE__ (the copy's #line directives name the source,
                         but __BASE_FILE__ is the compiled file's name) */
        char *debug = xasprintf("-fdebug-prefix-map=%s", prefix_map);
        char *macro = xasprintf("-fmacro-prefix-map=%s", prefix_map);
        argv_add(&cmd, debug);
        argv_add(&cmd, macro);
        free(debug);
        free(macro);
    }
    if (proc_cwd) {
        argv_add(&cmd, "-fmacro-prefix-map=/proc/self/cwd/=");
        argv_add(&cmd, "-fdebug-prefix-map=/proc/self/cwd/=");
    } else if (beside) { /* (no /proc: "./" of other names goes too) */
        argv_add(&cmd, "-fmacro-prefix-map=./=");
        argv_add(&cmd, "-fdebug-prefix-map=./=");
    }
    add_aux_names(pc, &cmd, in);
    argv_add(&cmd, assembly ? "-S" : "-c");
    add_language(&cmd, in);
    argv_add(&cmd, file);
    argv_add(&cmd, "-o");
    argv_add(&cmd, obj);
    int rc = run_process(cmd.v, NULL, errs, pc->verbose);
    argv_free(&cmd);
    return rc;
}

/* Compiles a source that needs no instrumentation as the plain compiler would:
 * one run of the compiler, which also writes the dependency file when pompcc
 * was asked for -c or -S (in a compile-and-link the object is pompcc's
 * temporary, so the dependencies are written apart, as for other sources). */
static int compile_as_is(struct pompcc *pc, const struct input *in, const char *obj, int assembly)
{
    int direct = pc->mode != MODE_LINK;
    struct argv_list cmd = {0};
    compile_command(pc, &cmd, NULL);
    if (direct)
        for (size_t i = 0; i < pc->dep_flags.n; i++)
            argv_add(&cmd, pc->dep_flags.v[i]);
    add_aux_names(pc, &cmd, in);
    argv_add(&cmd, assembly ? "-S" : "-c");
    add_language(&cmd, in);
    argv_add(&cmd, in->path);
    argv_add(&cmd, "-o");
    argv_add(&cmd, obj);
    int rc = run_process(cmd.v, NULL, NULL, pc->verbose);
    argv_free(&cmd);
    if (rc == 0 && !direct)
        rc = make_dependencies(pc, in, obj);
    return rc;
}

/* The value of macro name in a compiler's -dM output (malloc'ed), or NULL. */
static char *macro_value(const char *defines, const char *name)
{
    size_t n = strlen(name);
    for (const char *l = defines; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        if (strncmp(l, "#define ", 8) != 0 || strncmp(l + 8, name, n) != 0 || l[8 + n] != ' ')
            continue;
        const char *v = l + 9 + n, *end = strchr(v, '\n');
        return xasprintf("%.*s", (int)(end ? (size_t)(end - v) : strlen(v)), v);
    }
    return NULL;
}

/* Whether dir is one of the user's own include directories (-I, -iquote,
 * CPATH and its kin: include_dirs), by its real path. */
static int is_user_include_dir(const struct argv_list *user, const char *dir)
{
    char real[PATH_MAX];
    if (!realpath(dir, real))
        return 0;
    for (size_t i = 0; i < user->n; i++) {
        char other[PATH_MAX];
        if (realpath(user->v[i], other) && strcmp(real, other) == 0)
            return 1;
    }
    return 0;
}

/* Appends `option DIR` to the parser's flags for each directory of the
 * compiler's -v list that follows heading (" DIR" lines), but the user's own:
 * those the parser has already, as the program's (the compiler lists CPATH's
 * too; given again as -idirafter, a system directory to clang, their headers
 * became system headers, whose constructs pomp leaves alone). */
static void add_search_list(struct pompcc *pc, const char *verbose, const char *heading,
                            const char *option)
{
    static const char framework[] = " (framework directory)"; /* (a macOS compiler's) */
    const char *list = verbose ? strstr(verbose, heading) : NULL;
    if (!list)
        return;
    struct argv_list user = {0};
    include_dirs(pc, &user);
    const char *l = list + strlen(heading);
    while (*l == ' ') { /* " DIR\n" each, up to the next heading */
        size_t n = strcspn(l + 1, "\n"), fn = sizeof framework - 1;
        if (n > fn && strncmp(l + 1 + n - fn, framework, fn) == 0)
            n -= fn;
        char *dir = xasprintf("%.*s", (int)n, l + 1);
        if (!is_user_include_dir(&user, dir)) {
            argv_add(&pc->identity, option);
            argv_add(&pc->identity, dir);
        }
        free(dir);
        l += 1 + strcspn(l + 1, "\n");
        l += *l == '\n';
    }
    argv_free(&user);
}

/* The compiler's own include directories (its -v lists) for pomp-instrument's
 * parser, after the user's: the `#include <...>` ones searched after clang's
 * own (-idirafter: libclang reads its own builtin headers, never GCC's). A
 * header only the compiler finds (GCC's quadmath.h, or mpi.h where POMP_CC is
 * mpicc, which adds its -I unseen) was missing to the parser, which then saw
 * no statement after a pragma using what it declares, and the construct went
 * uninstrumented with a warning that blamed the code (a probe). */
static void compiler_include_dirs(struct pompcc *pc, const char *verbose)
{
    add_search_list(pc, verbose, "#include \"...\" search starts here:\n", "-iquote");
    add_search_list(pc, verbose, "#include <...> search starts here:\n", "-idirafter");
}

/* The macros by which code tells compilers apart, which pomp-instrument's
 * parser (libclang) would otherwise answer as clang 19 does: a file built by
 * gcc that picks a pragma with #ifdef __clang__ or #if _OPENMP >= 201811 had
 * the other branch instrumented (its construct not measured, or the file not
 * compiling). Asked of the real compiler once (-dM -E, with the user's OpenMP
 * flags): clang's own are undefined where it has none, _OPENMP and clang's
 * version take its values. __GNUC__ and its minor and patch level stay
 * clang's (4.2.1): glibc's headers test them for attributes clang does not
 * parse; pomp-instrument says where a #if tests them (--gnuc). */
static void compiler_identity(struct pompcc *pc)
{
    static const char *const clang_only[] = {"__clang__", "__clang_major__", "__clang_minor__",
                                             "__clang_patchlevel__", "__clang_version__",
                                             "__llvm__", NULL};
    if (pc->identity_asked)
        return;
    pc->identity_asked = 1;
    struct argv_list cmd = {0};
    add_words(&cmd, pc->cc);
    /* the compiler's OpenMP macros: -fopenmp for a spelling that names a
     * runtime (-fopenmp=libgomp, which gcc refuses: its own compile says so,
     * not a failed probe blamed on the compiler) or is GCC's alone (--openmp) */
    for (size_t i = 0; pc->openmp && i < pc->flags.n; i++)
        if (pomp_runtime_is_openmp_flag(pc->flags.v[i]))
            argv_add(&cmd, strncmp(pc->flags.v[i], "-fopenmp=", 9) == 0 ||
                                   strcmp(pc->flags.v[i], "--openmp") == 0
                               ? "-fopenmp"
                               : pc->flags.v[i]);
    argv_add(&cmd, "-dM");
    argv_add(&cmd, "-E");
    argv_add(&cmd, "-v"); /* its include directories, on stderr */
    argv_add(&cmd, "-x");
    argv_add(&cmd, "c");
    argv_add(&cmd, "/dev/null");
    char *out = NULL, *err = NULL;
    int rc = run_capture(cmd.v, &out, &err);
    argv_free(&cmd);
    pc->identity_rc = rc;
    pc->identity_errno = errno;
    if (rc != 0 || !out) { /* the compile itself will say what is wrong with the compiler */
        free(out), free(err);
        return;
    }
    compiler_include_dirs(pc, err);
    free(err);
    for (const char *const *m = clang_only; *m; m++) {
        char *def = macro_value(out, *m);
        char *flag = def ? xasprintf("-D%s=%s", *m, def) : xasprintf("-U%s", *m);
        argv_add(&pc->identity, flag);
        free(flag), free(def);
    }
    char *openmp = macro_value(out, "_OPENMP"), *gnuc = macro_value(out, "__GNUC__");
    char *flag = openmp ? xasprintf("-D_OPENMP=%s", openmp) : NULL;
    if (flag)
        argv_add(&pc->identity, flag);
    free(flag);
    flag = gnuc && strcmp(gnuc, "4") != 0 ? xasprintf("--gnuc=%s", gnuc) : NULL;
    if (flag)
        argv_add(&pc->identity, flag);
    free(flag), free(openmp), free(gnuc), free(out);
}

/* A compile and link in one call (pompcc a.c b.c -o prog) compiles each
 * source into an object of its temporary directory: GCC names the auxiliary
 * files of a compile after its object, so coverage notes and data (prog-a.gcno
 * and prog-a.gcda in the working directory, for plain gcc) went there, the
 * notes deleted with it, and each run of the program made the directory again
 * to write its data (a probe). Where such files are asked for (coverage,
 * split DWARF), GCC 11 and later are given the names their own one-call
 * compile uses: -dumpdir OUTPUT- (a- without -o), -dumpbase the source's
 * name. Not for clang, which names them otherwise, nor where the user gave
 * -dumpdir or -dumpbase. */
static int wants_aux_names(const struct pompcc *pc)
{
    int wanted = 0;
    for (size_t i = 0; i < pc->flags.n; i++) {
        const char *f = pc->flags.v[i];
        if (strncmp(f, "-dumpdir", 8) == 0 || strncmp(f, "-dumpbase", 9) == 0)
            return 0;
        wanted |= strcmp(f, "--coverage") == 0 || strcmp(f, "-ftest-coverage") == 0 ||
                  strcmp(f, "-fprofile-arcs") == 0 || strncmp(f, "-fprofile-generate", 18) == 0 ||
                  strcmp(f, "-gsplit-dwarf") == 0;
    }
    return wanted;
}

static void add_aux_names(struct pompcc *pc, struct argv_list *cmd, const struct input *in)
{
    if (pc->mode != MODE_LINK || !wants_aux_names(pc))
        return;
    compiler_identity(pc);
    int gnuc = 0, clang = 0;
    for (size_t i = 0; i < pc->identity.n; i++) {
        sscanf(pc->identity.v[i], "--gnuc=%d", &gnuc);
        clang |= strncmp(pc->identity.v[i], "-D__clang__=", 12) == 0;
    }
    if (clang || gnuc < 11)
        return;
    const char *name = strrchr(in->path, '/') ? strrchr(in->path, '/') + 1 : in->path;
    const char *dot = strrchr(name, '.');
    char *dumpdir = xasprintf("%s-", pc->output ? pc->output : "a");
    argv_add(cmd, "-dumpdir");
    argv_add(cmd, dumpdir);
    argv_add(cmd, "-dumpbase");
    argv_add(cmd, name);
    if (dot && dot != name) {
        argv_add(cmd, "-dumpbase-ext");
        argv_add(cmd, dot);
    }
    free(dumpdir);
}

/* Runs pomp-instrument on in into inst (with_headers: and the program's own
 * headers into copies next to it); its messages go to msgs. */
static int run_instrument(const struct pompcc *pc, const struct input *in, const char *inst,
                          int with_headers, const struct argv_list *as_is, const char *msgs)
{
    char *tool = xasprintf("%s/pomp-instrument", pc->bindir);
    struct argv_list cmd = {0};
    argv_add(&cmd, tool);
    if (pc->verbose)
        argv_add(&cmd, "--verbose");
    if (with_headers)
        argv_add(&cmd, "--headers");
    for (size_t i = 0; with_headers && as_is && i < as_is->n; i++) {
        char *opt = xasprintf("--header-as-is=%s", as_is->v[i]);
        argv_add(&cmd, opt);
        free(opt);
    }
    if (pc->functions) {
        char *opt = pc->function_rules.len ? xasprintf("--functions=%s", pc->function_rules.s)
                                           : xstrdup("--functions");
        argv_add(&cmd, opt);
        free(opt);
    }
    for (size_t i = 0; i < pc->instrument_options.n; i++)
        argv_add(&cmd, pc->instrument_options.v[i]);
    for (size_t i = 0; i < pc->identity.n; i++) /* --gnuc=N */
        if (strncmp(pc->identity.v[i], "--", 2) == 0)
            argv_add(&cmd, pc->identity.v[i]);
    argv_add(&cmd, in->path);
    argv_add(&cmd, inst);
    argv_add(&cmd, "--");
    for (size_t i = 0; i < pc->pp_flags.n; i++)
        argv_add(&cmd, pc->pp_flags.v[i]);
    for (size_t i = 0; i < pc->identity.n; i++) /* after the user's: the compiler's answers */
        if (strncmp(pc->identity.v[i], "--", 2) != 0)
            argv_add(&cmd, pc->identity.v[i]);
    argv_add(&cmd, "-x"); /* the language pompcc decided on, whatever the suffix says */
    argv_add(&cmd, lang_name(in->lang));
    int irc = run_process(cmd.v, NULL, msgs, pc->verbose);
    argv_free(&cmd);
    free(tool);
    return irc;
}

/* Whether pomp-instrument wrote copies of headers for inst (their list). */
static int has_header_copies(const char *inst)
{
    char *list = xasprintf("%s.pomp.headers", inst);
    int has = access(list, F_OK) == 0;
    free(list);
    return has;
}

/* The name a header copy gives its header (its `#line 1 "<name>"`, what
 * the compiler's messages say), or NULL. */
static char *copy_header_name(const char *copy)
{
    char *text;
    size_t size;
    if (read_file(copy, &text, &size) != 0)
        return NULL;
    static const char mark[] = "\n#line 1 \"";
    char *at = memmem(text, size, mark, sizeof mark - 1), *name = NULL;
    if (at) {
        struct strbuf b = {0};
        for (char *c = at + sizeof mark - 1; c < text + size && *c != '"' && *c != '\n'; c++)
            sb_addn(&b, c[0] == '\\' && c + 1 < text + size ? ++c : c, 1);
        name = b.s ? b.s : xstrdup("");
    }
    free(text);
    return name;
}

/* Whether the compiler's message line (n bytes) is an error at file
 * ("file:line:col: error: ..." or "fatal error"). */
static int error_line_in(const char *line, size_t n, const char *file)
{
    size_t len = strlen(file);
    return len + 1 < n && strncmp(line, file, len) == 0 && line[len] == ':' &&
           isdigit((unsigned char)line[len + 1]) &&
           (memmem(line, n, ": error: ", 9) || memmem(line, n, ": fatal error: ", 15));
}

/* The headers whose copies the compiler's errors (errs) are in, added to
 * as_is by the names the copies give them; returns how many were added. A
 * message names a copy by its header's name (its #line), its include file by
 * its own path. */
static size_t copies_in_errors(const char *inst, const char *errs, struct argv_list *as_is)
{
    char *list_path = xasprintf("%s.pomp.headers", inst), *list, *text;
    size_t list_size, size, added = 0;
    int ok = read_file(list_path, &list, &list_size) == 0;
    free(list_path);
    if (!ok)
        return 0;
    if (read_file(errs, &text, &size) != 0) {
        free(list);
        return 0;
    }
    for (char *copy = list; copy < list + list_size;) {
        char *nl = memchr(copy, '\n', (size_t)(list + list_size - copy));
        if (!nl)
            break;
        *nl = '\0';
        size_t len = strlen(copy);
        char *name = len > 9 && strcmp(copy + len - 9, ".pomp.inc") == 0 ? NULL
                                                                           : copy_header_name(copy);
        for (size_t k = 0; name && k < as_is->n; k++)
            if (strcmp(as_is->v[k], name) == 0) {
                free(name);
                name = NULL;
            }
        char *inc = name ? pomp_inc_path(copy) : NULL;
        for (char *line = text; name && line < text + size;) {
            char *end = memchr(line, '\n', (size_t)(text + size - line));
            size_t n = end ? (size_t)(end - line) : (size_t)(text + size - line);
            if (error_line_in(line, n, name) || error_line_in(line, n, copy) ||
                error_line_in(line, n, inc)) {
                argv_add(as_is, name);
                added++;
                break;
            }
            line += n + 1;
        }
        free(inc);
        free(name);
        copy = nl + 1;
    }
    free(list);
    free(text);
    return added;
}

/* Removes a temporary directory and what is in it (a source's subdirectory
 * holds the copies of its instrumented headers). */
static void remove_tmpdir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char *p = xasprintf("%s/%s", dir, e->d_name);
        if (unlink(p) != 0 && (errno == EISDIR || errno == EPERM))
            remove_tmpdir(p);
        free(p);
    }
    closedir(d);
    rmdir(dir);
}

/* After a failed compile, where the compiler also failed on an empty file:
 * a compiler that cannot run or that fails without a word (POMP_CC=/bin/false)
 * otherwise left the build failing with nothing said. */
static void say_compiler_failed(const struct pompcc *pc)
{
    if (pc->identity_rc == 0)
        return;
    if (pc->identity_rc < 0)
        fprintf(stderr, "%s: error: the compiler '%s' (%s) cannot be run: %s\n", tool_name(),
                pc->cc, pc->cc_from, strerror(pc->identity_errno));
    else
        fprintf(stderr,
                "%s: error: the compiler '%s' (%s) fails even on an empty file "
                "('%s -dM -E -x c /dev/null' exits with status %d): check the compiler and the "
                "words given with it (a C%s compiler?)\n",
                tool_name(), pc->cc, pc->cc_from, pc->cc, pc->identity_rc,
                pc->cxx_driver ? "++" : "");
}

/* Whether flag on is given, and after the last of off (the last one wins,
 * as for the compiler). */
static int last_flag_on(const struct pompcc *pc, const char *on, const char *off)
{
    int set = 0;
    for (size_t i = 0; i < pc->flags.n; i++)
        if (strcmp(pc->flags.v[i], on) == 0 || strcmp(pc->flags.v[i], off) == 0)
            set = strcmp(pc->flags.v[i], on) == 0;
    return set;
}

static void note_simd_file(const char *path, void *arg)
{
    int *said = arg;
    if (!*said)
        fprintf(stderr,
                "%s: note: %s: compiled with -fopenmp-simd and without -fopenmp: its "
                "OpenMP constructs (the simd ones the compiler applies) are not measured; "
                "add -fopenmp to measure them\n",
                tool_name(), path);
    *said = 1;
}

/* A source compiled with -fopenmp-simd alone has no OpenMP runtime and no
 * libpomp: the simd constructs the compiler applies go unmeasured, which is
 * said (nothing said so but --pomp-verbose). */
static void note_simd_only(const struct pompcc *pc, const char *src, const struct argv_list *dirs)
{
    if (pc->openmp)
        return;
    if (last_flag_on(pc, "-fopenmp-simd", "-fno-openmp-simd")) {
        int said = 0;
        source_files_with_openmp(src, (const char *const *)dirs->v, dirs->n, 0, note_simd_file,
                                 &said);
    }
}

/* A source compiled with -fopenacc that holds OpenACC directives: they run
 * on libgomp unmeasured (pomp measures OpenMP), which is said (a run said
 * nothing of 40 ms of OpenACC kernels; a probe). */
static void note_openacc(const struct pompcc *pc, const char *src)
{
    char *text;
    size_t size;
    if (!last_flag_on(pc, "-fopenacc", "-fno-openacc") || read_file(src, &text, &size) != 0)
        return;
    if (source_has_openacc_directive(text, size))
        fprintf(stderr,
                "%s: note: %s: its OpenACC constructs (-fopenacc) are not measured: pomp measures "
                "OpenMP, and they run on libgomp as without it\n",
                tool_name(), src);
    free(text);
}

static int is_module_unit(const char *src)
{
    char *text = NULL;
    size_t size = 0;
    int module = read_file(src, &text, &size) == 0 && source_is_module_unit(text, size);
    free(text);
    return module;
}

/* Instruments and compiles one source into obj (-c) or asm (-S). */
static int compile_source(struct pompcc *pc, const struct input *in, const char *obj, int assembly,
                          unsigned index)
{
    const char *src = in->path;
    struct argv_list dirs = {0};
    include_dirs(pc, &dirs);
    note_simd_only(pc, src, &dirs);
    note_openacc(pc, src);
    int may = pc->functions || defines_pragma_macro(pc) ||
              source_file_may_need_instrumentation(src, (const char *const *)dirs.v, dirs.n);
    argv_free(&dirs);
    if (!may) {
        if (pc->verbose)
            fprintf(stderr,
                    "%s: %s: no pragma, OpenMP call or main to instrument; compiling it as "
                    "it is\n",
                    tool_name(), src);
        return compile_as_is(pc, in, obj, assembly);
    }
    if (in->lang == LANG_CXX && is_module_unit(src)) {
        /* the header the instrumented copy includes would come before its
         * module declaration, which must come first (the copy did not compile,
         * "please report this"; a probe) */
        fprintf(stderr,
                "%s: warning: %s: a C++20 module unit is not instrumented: its OpenMP constructs "
                "are measured through the runtime's events, without their file and line\n",
                tool_name(), src);
        return compile_as_is(pc, in, obj, assembly);
    }
    compiler_identity(pc);
    if (pc->identity_rc < 0) { /* cannot be run: said once, not once per attempt */
        say_compiler_failed(pc);
        return 127;
    }
    char *base = base_without_ext(src);
    /* the instrumented file's suffix keeps the language for the compiler */
    const char *ext = in->lang == LANG_CXX ? "cpp" : "c";
    /* Without --pomp-keep the instrumented file has the source's own name, in
     * a directory of its own that the debug information names as the
     * source's: the compile unit and the line table's primary file (DWARF 5
     * file 0) are then the source, as in a plain build, not a temporary file
     * (addr2line gave that name to the program's frames in sampled stacks, and
     * the flame graph split a function in two). */
    const char *name = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
    const char *dot = strrchr(name, '.');
    int keep_name = source_language(name, pc->cxx_driver) == in->lang && dot &&
                    strcmp(dot, ".i") != 0 && strcmp(dot, ".ii") != 0;
    char *subdir = NULL, *prefix_map = NULL, *inst;
    if (pc->keep) {
        inst = xasprintf("%s.pomp.%s", base, ext);
    } else {
        subdir = xasprintf("%s/%u", pc->tmpdir, index);
        if (mkdir(subdir, 0700) != 0) {
            free(subdir);
            subdir = NULL;
            inst = xasprintf("%s/%u_%s.pomp.%s", pc->tmpdir, index, base, ext);
        } else {
            inst = keep_name ? xasprintf("%s/%s", subdir, name)
                             : xasprintf("%s/%s.%s", subdir, base, ext);
            prefix_map = xasprintf("%s/=%.*s", subdir, (int)(name - src), src);
        }
    }
    /* pomp's messages wait until the compiler has judged the user's code: if
     * that does not compile, the user sees the compiler's errors alone */
    char *msgs = xasprintf("%s/%u_%s.pomp.msgs", pc->tmpdir, index, base);
    char *errs = xasprintf("%s/%u_%s.stderr", pc->tmpdir, index, base);
    int irc = run_instrument(pc, in, inst, 1, NULL, msgs);
    char *srcdir_buf = xstrdup(src);
    const char *srcdir = dirname(srcdir_buf); /* quoted includes still resolve from there */

    int rc = -1;
    struct argv_list as_is = {0}; /* the headers whose copies did not compile */
    if (irc == 0) {
        rc = compile_one(pc, in, inst, obj, assembly, srcdir, errs, prefix_map);
        /* a copy the compiler's errors are in: that header as it is, the
         * others instrumented (the file fell back to no copies at all, every
         * header's constructs left to the runtime, for one header's; a probe) */
        while (rc != 0 && irc == 0 && has_header_copies(inst) &&
               copies_in_errors(inst, errs, &as_is) > 0) {
            if (pc->verbose) {
                fprintf(stderr, "%s: note: %s: the instrumented copy of %s did not compile:\n",
                        tool_name(), src, as_is.v[as_is.n - 1]);
                print_lines(errs, 1, 0);
            }
            irc = run_instrument(pc, in, inst, 1, &as_is, msgs);
            rc = irc == 0 ? compile_one(pc, in, inst, obj, assembly, srcdir, errs, prefix_map) : -1;
        }
        if (rc == 0)
            for (size_t i = 0; i < as_is.n; i++)
                fprintf(stderr,
                        "%s: warning: %s: the instrumented copy of %s did not compile; its "
                        "constructs are left to the runtime (please report this)\n",
                        tool_name(), src, as_is.v[i]);
        if (rc != 0 && (irc != 0 || has_header_copies(inst))) {
            /* a header's copy may be what does not compile: the file without them */
            if (pc->verbose) {
                fprintf(stderr,
                        "%s: note: %s: the instrumented file did not compile with "
                        "its instrumented headers:\n",
                        tool_name(), src);
                print_lines(errs, 1, 0);
            }
            irc = run_instrument(pc, in, inst, 0, NULL, msgs);
            rc = irc == 0 ? compile_one(pc, in, inst, obj, assembly, srcdir, errs, prefix_map) : -1;
            if (rc == 0)
                fprintf(stderr,
                        "%s: warning: %s: the instrumented copies of its headers did "
                        "not compile; their constructs are left to the runtime (please "
                        "report this)\n",
                        tool_name(), src);
        }
        if (rc == 0) {
            /* an error of pomp's in a header cost only that header: the build goes on */
            print_lines(msgs, 0, 1);
            print_compiler_messages(pc, errs); /* its warnings, at the user's lines */
        } else if (pc->verbose) {
            fprintf(stderr, "%s: note: %s: the instrumented file did not compile:\n", tool_name(),
                    src);
            print_lines(errs, 1, 0);
        }
    }
    char *directive_errors = NULL; /* the user's values on POMP directives that do not compile */
    if (rc != 0 && irc == 0)
        directive_errors = errors_on_pomp_directives(src, errs);
    if (rc != 0) {
        rc = compile_one(pc, in, src, obj, assembly, NULL, errs, NULL);
        if (rc == 0) { /* pomp's failure, not the user's: the build goes on */
            print_lines(msgs, 0, 1);
            if (irc > 128) /* a crash says nothing itself */
                fprintf(stderr,
                        "%s: warning: %s: pomp-instrument was killed by signal %d "
                        "(please report this); compiling it without instrumentation\n",
                        tool_name(), src, irc - 128);
            else if (irc != 0)
                fprintf(stderr,
                        "%s: warning: %s: cannot be instrumented (see above); "
                        "compiling it without instrumentation\n",
                        tool_name(), src);
            else if (directive_errors) {
                /* the program's own expressions: said where they are */
                for (char *l = directive_errors; *l;) {
                    char *nl = strchr(l, '\n');
                    size_t len = nl ? (size_t)(nl - l + 1) : strlen(l);
                    char *kind = strstr(l, ": error: ");
                    fwrite(l, 1, (size_t)(kind - l), stderr);
                    fputs(": warning: ", stderr);
                    fwrite(kind + 9, 1, len - (size_t)(kind + 9 - l), stderr);
                    if (!nl)
                        fputc('\n', stderr);
                    l += len;
                }
                fprintf(stderr,
                        "%s: warning: %s: a value of a '#pragma pomp' directive does not "
                        "compile (see above; a plain build does not evaluate it); compiling "
                        "it without instrumentation\n",
                        tool_name(), src);
            } else
                fprintf(stderr,
                        "%s: warning: %s: the instrumented file did not compile; "
                        "compiling it without instrumentation (please report this)\n",
                        tool_name(), src);
        }
        print_file(errs); /* the user's own errors: once, as the compiler prints them */
        if (rc != 0)
            say_compiler_failed(pc);
    }
    argv_free(&as_is);
    free(directive_errors);
    unlink(msgs);
    unlink(errs);
    free(msgs);
    free(errs);
    free(srcdir_buf);
    if (rc == 0 && (rc = make_dependencies(pc, in, obj)) != 0 && pc->mode != MODE_LINK)
        unlink(obj); /* as the compiler leaves none when it cannot write the dependency file (a
                        make without .DELETE_ON_ERROR took the object as up to date; a probe) */
    if (!pc->keep)
        unlink(inst);
    char *inc = pomp_inc_path(inst);
    if (!pc->keep)
        unlink(inc);
    if (subdir)
        remove_tmpdir(subdir);
    free(subdir);
    free(prefix_map);
    free(inc);
    free(inst);
    free(base);
    return rc;
}

/* The link's library search options, in their order, for pomp-prelink: it
 * looks up the archives of -l in the -L directories (make CC=pompcc with
 * -L. -lsolver). The separate forms ("-L dir", "-l name") keep their word. */
static void add_library_search(const struct pompcc *pc, struct argv_list *cmd)
{
    /* and the linker's own words, where -L, -l, -Bstatic hide too
     * (-Wl,-Llib, -Wl,-Bstatic,-lw,-Bdynamic, -Xlinker -lw): lib_search.c */
    for (size_t i = 0; i < pc->flags.n; i++) {
        const char *f = pc->flags.v[i];
        int separate = strcmp(f, "-L") == 0 || strcmp(f, "-l") == 0 || strcmp(f, "-Xlinker") == 0;
        if (strncmp(f, "-L", 2) == 0 || strncmp(f, "-l", 2) == 0 || strcmp(f, "-static") == 0 ||
            strncmp(f, "-Wl,", 4) == 0 || separate) {
            argv_add(cmd, f);
            if (separate && i + 1 < pc->flags.n)
                argv_add(cmd, pc->flags.v[++i]);
        }
    }
}

/* The runtime each object was built for, or the one asked for, if it serves
 * them (runtime/runtime_select.c). */
static void choose_runtime(struct pompcc *pc)
{
    if (!pc->openmp && !pc->lgomp)
        return;
    struct argv_list inputs = {0}, names = {0};
    for (size_t i = 0; i < pc->ninputs; i++) {
        argv_add(&inputs, pc->inputs[i].object ? pc->inputs[i].object : pc->inputs[i].path);
        argv_add(&names, pc->inputs[i].path);
    }
    struct argv_list search = {0}; /* the -L and -l options, and the linker's response files' */
    add_library_search(pc, &search);
    for (size_t i = 0; i < pc->linker_words.n; i++)
        argv_add(pc->linker_words.v[i][0] == '-' ? &search : &inputs, pc->linker_words.v[i]);
    /* the archives and shared libraries of -l: a library of clang's objects
     * linked with -L. -lsolver runs on libomp, one of GCC's on libgomp (before,
     * only the command line's files counted: the program went to the libgomp
     * bridge, and a GCC scan in such an archive to libomp, which aborts) */
    lib_search_libraries(search.v, search.n, &inputs);
    argv_free(&search);
    while (names.n < inputs.n)
        argv_add(&names, inputs.v[names.n]);
    char *msg = pomp_runtime_choose(pc->runtime_given, &pc->runtime, pc->offload, inputs.v, names.v,
                                    inputs.n, pc->flags.v, pc->flags.n);
    argv_free(&inputs);
    argv_free(&names);
    if (msg)
        fputs(msg, stderr);
    free(msg);
}

/* pomp-prelink on the link's inputs, its -l libraries and what its linker
 * response files name; options (NULL-terminated) are "-o" and the C file to
 * write, "--linked" and the linked program, or "--counts-only" (with "-o" and
 * the C file of the library's mark, written only where it needs one). */
static int run_prelink(const struct pompcc *pc, const char *const *options)
{
    struct argv_list cmd = {0};
    char *tool = xasprintf("%s/pomp-prelink", pc->bindir);
    argv_add(&cmd, tool);
    free(tool);
    if (pc->verbose)
        argv_add(&cmd, "-v");
    argv_addv(&cmd, options);
    for (size_t i = 0; i < pc->ninputs; i++)
        if (pc->inputs[i].object) { /* its notes name the source, not the temporary object */
            argv_add(&cmd, "--named");
            argv_add(&cmd, pc->inputs[i].object);
            argv_add(&cmd, pc->inputs[i].path);
        }
    for (size_t i = 0; i < pc->ninputs; i++)
        argv_add(&cmd, pc->inputs[i].object ? pc->inputs[i].object : pc->inputs[i].path);
    add_library_search(pc, &cmd); /* the archives of -l name in -L dir */
    if (pc->linker_words.n)        /* and what -Wl,@FILE names */
        argv_addv(&cmd, (const char *const *)pc->linker_words.v);
    int rc = run_process(cmd.v, NULL, NULL, pc->verbose);
    argv_free(&cmd);
    return rc;
}

/* Compiles the C file c that pomp-prelink wrote into the object o. */
static int compile_generated(const struct pompcc *pc, const char *c, const char *o)
{
    struct argv_list cmd = {0};
    add_words(&cmd, pc->cc);
    for (size_t i = 0; i < pc->flags.n; i++)
        if (strcmp(pc->flags.v[i], "-m32") == 0 || strcmp(pc->flags.v[i], "-m64") == 0)
            argv_add(&cmd, pc->flags.v[i]);
    argv_add(&cmd, "-c");
    argv_add(&cmd, "-x"); /* C also for c++, so the POMP_Init_ names stay unmangled */
    argv_add(&cmd, "c");
    argv_add(&cmd, c);
    argv_add(&cmd, "-o");
    argv_add(&cmd, o);
    int rc = run_process(cmd.v, NULL, NULL, pc->verbose);
    argv_free(&cmd);
    return rc;
}

static int prelink_and_link(struct pompcc *pc)
{
    choose_runtime(pc);
    struct argv_list cmd = {0};
    char *init_c = xasprintf("%s/pomp_init.c", pc->tmpdir);
    char *init_o = xasprintf("%s/pomp_init.o", pc->tmpdir);
    int rc = 0;
    int prelinked = !pc->shared, marked = 0;
    if (pc->shared) { /* its handles are initialized lazily; its counts are said here, once */
        /* and where it holds OpenMP code not built with pompcc, the mark in
         * its counts that has a program's link follow that code (the counts
         * of its pompcc objects hid it: pomp-prelink reads the library as one
         * file, whose objects are no longer apart) */
        const char *const counts_only[] = {"--counts-only", "-o", init_c, NULL};
        run_prelink(pc, counts_only);
        if (access(init_c, F_OK) == 0) {
            marked = compile_generated(pc, init_c, init_o) == 0;
            if (!marked)
                fprintf(stderr,
                        "%s: warning: cannot mark the library as holding OpenMP code not built "
                        "with pompcc: a program linked with it measures that code with "
                        "POMP_OMPT=full only\n",
                        tool_name());
        }
    }
    if (prelinked) { /* a shared library's handles are initialized lazily */
        const char *const write_init[] = {"-o", init_c, NULL};
        rc = run_prelink(pc, write_init);
        if (rc == 0)
            rc = compile_generated(pc, init_c, init_o);
        if (rc != 0) {
            fprintf(stderr,
                    "%s: warning: pre-linking failed; POMP handles will be initialized "
                    "lazily\n",
                    tool_name());
            prelinked = 0;
        }
    }

    add_words(&cmd, pc->cc);
    if (prelinked || marked) /* first, so that archives after it supply the POMP_Init_ functions */
        argv_add(&cmd, init_o);
    /* the user's options and inputs in the user's order: "-lm" after the objects
     * that need it, archives where they were */
    size_t next = 0;
    for (size_t i = 0; i <= pc->flags.n; i++) {
        for (; next < pc->ninputs && pc->inputs[next].flag_pos <= i; next++)
            if (pc->inputs[next].object ||
                !pomp_runtime_drop_at_link(pc->runtime, pc->inputs[next].path, pc->offload))
                argv_add(&cmd,
                         pc->inputs[next].object ? pc->inputs[next].object : pc->inputs[next].path);
        if (i + 1 < pc->flags.n && strcmp(pc->flags.v[i], "-Xlinker") == 0 &&
            pomp_runtime_drop_at_link(pc->runtime, pc->flags.v[i + 1], pc->offload)) {
            i++; /* -Xlinker -lgomp: both go */
            continue;
        }
        if (i < pc->flags.n && !pomp_runtime_drop_at_link(pc->runtime, pc->flags.v[i], pc->offload))
            argv_add(&cmd, pc->flags.v[i]);
    }
    char *L = xasprintf("-L%s", pc->libdir), *rpath = xasprintf("-Wl,-rpath,%s", pc->libdir);
    argv_add(&cmd, L);
    argv_add(&cmd, rpath);
    /* an OpenMP program keeps libpomp though no object calls it (none could be
     * instrumented): its OMPT tool still measures what the runtime reports;
     * any other program only if its objects call it (POMP user regions): a
     * program without OpenMP is linked as cc links it */
    int openmp = pc->openmp || pc->lgomp;
    argv_add(&cmd, openmp ? "-Wl,--push-state,--no-as-needed" : "-Wl,--push-state,--as-needed");
    argv_add(&cmd, "-lpomp");
    argv_add(&cmd, "-Wl,--pop-state");
    add_words(&cmd, POMP_EXTRA_LINK_FLAGS);
    free(L);
    free(rpath);
    if (openmp) /* with -lgomp alone too: the libgomp bridge goes before libgomp */
        argv_addv(&cmd, pomp_runtime_link_args(pc->runtime));
    if (pc->output) {
        argv_add(&cmd, "-o");
        argv_add(&cmd, pc->output);
    }
    rc = run_process(cmd.v, NULL, NULL, pc->verbose);
    argv_free(&cmd);
    /* the counts that LTO objects held in their IR (a -shared link's too: said
     * nowhere before, where its other objects' were; a probe) */
    if (rc == 0 && (prelinked || pc->shared)) {
        const char *const linked[] = {"--linked", pc->output ? pc->output : "a.out", NULL};
        run_prelink(pc, linked);
    }
    unlink(init_c);
    unlink(init_o);
    free(init_c);
    free(init_o);
    return rc;
}

/* A partial link (-r): the objects (the sources' compiled with instrumentation)
 * into one object, as cc makes it; the program's link adds pomp later. */
static int relocatable_link(const struct pompcc *pc)
{
    struct argv_list cmd = {0};
    add_words(&cmd, pc->cc);
    size_t next = 0;
    for (size_t i = 0; i <= pc->flags.n; i++) {
        for (; next < pc->ninputs && pc->inputs[next].flag_pos <= i; next++)
            argv_add(&cmd, pc->inputs[next].object ? pc->inputs[next].object : pc->inputs[next].path);
        if (i < pc->flags.n)
            argv_add(&cmd, pc->flags.v[i]);
    }
    if (pc->output) {
        argv_add(&cmd, "-o");
        argv_add(&cmd, pc->output);
    }
    int rc = run_process(cmd.v, NULL, NULL, pc->verbose);
    argv_free(&cmd);
    return rc;
}

/* Runs the real compiler with the user's arguments (and _POMP, pomplib.h's path). */
static int pass_through(struct pompcc *pc, int argc, char **argv)
{
    struct argv_list cmd = {0};
    add_words(&cmd, pc->cc);
    /* before the user's arguments (after them, a trailing "-o" took the macro
     * for its file name); pomp's headers after the user's own directories */
    argv_add(&cmd, POMP_VERSION_MACRO);
    argv_add(&cmd, "-idirafter");
    argv_add(&cmd, pc->incdir);
    for (int i = 1; i < argc; i++)
        if (strncmp(argv[i], "--pomp-", 7) != 0)
            argv_add(&cmd, argv[i]);
    int rc = run_process(cmd.v, NULL, NULL, pc->verbose);
    argv_free(&cmd);
    return rc;
}

/* A static program cannot be measured: libpomp, the libgomp bridge and LLVM
 * libomp are shared libraries only (the bridge interposes libgomp's entry
 * points, the runtime loads libpomp's OMPT tool by name). Said before anything
 * is compiled: the link failed with "cannot find -lpomp-gomp" after every
 * compile, and -lpomp could even find OPARI2's static libpomp.a. */
static void refuse_static_link(const struct pompcc *pc)
{
    if (!pc->static_flag)
        return;
    fprintf(stderr,
            "%s: error: '%s': pomp cannot measure a statically linked program (libpomp, the "
            "libgomp bridge and the OpenMP runtime it measures are shared libraries, loaded at run "
            "time); link without %s (-static-libgcc and -static-libstdc++ work)\n",
            tool_name(), pc->static_flag, pc->static_flag);
    exit(2);
}

/* pomp-gcc, pomp-g++, pomp-clang, pomp-clang++ (links to pompcc): the compiler
 * their name says, for build systems that look for "gcc" or "clang" in $(CC)
 * before they add -fopenmp. NULL for pompcc and pompc++. */
static const char *compiler_in_name(const char *me)
{
    /* Clang: the version whose libomp pomp links (as for offloading, below) */
    static const char *const compilers[][2] = {
        {"gcc", "gcc"}, {"g++", "g++"}, {"clang", "clang-19"}, {"clang++", "clang++-19"}};
    if (strncmp(me, "pomp-", 5) != 0)
        return NULL;
    for (size_t i = 0; i < sizeof compilers / sizeof compilers[0]; i++)
        if (strcmp(me + 5, compilers[i][0]) == 0)
            return compilers[i][1];
    return NULL;
}

/* A header given as an input (gcc precompiles it: x.h.gch, and links nothing). */
static int is_header(const char *path)
{
    static const char *const suffixes[] = {".h", ".hh", ".hpp", ".hxx", ".H", ".h++", ".tcc", NULL};
    const char *dot = strrchr(path, '.');
    for (const char *const *s = suffixes; dot && *s; s++)
        if (strcmp(dot, *s) == 0)
            return 1;
    return 0;
}

/* With -c or -S, the inputs beside the sources that pompcc does not
 * instrument (assembly, Fortran, objects): one run of the compiler over all
 * of them, which compiles each as it would without pompcc (they were left
 * out without a word: `pompcc -c a.c x.S` made no x.o, and the build went on
 * to a link error or a stale object; a probe) and says of an object what it
 * says ("linker input file unused"). */
static int compile_others(struct pompcc *pc)
{
    struct argv_list cmd = {0};
    compile_command(pc, &cmd, NULL);
    for (size_t i = 0; i < pc->dep_flags.n; i++)
        argv_add(&cmd, pc->dep_flags.v[i]);
    argv_add(&cmd, pc->mode == MODE_ASSEMBLY ? "-S" : "-c");
    size_t n = cmd.n;
    for (size_t i = 0; i < pc->ninputs; i++)
        if (!pc->inputs[i].is_source)
            argv_add(&cmd, pc->inputs[i].path);
    int rc = cmd.n > n ? run_process(cmd.v, NULL, NULL, pc->verbose) : 0;
    argv_free(&cmd);
    return rc;
}

int main(int argc, char **argv)
{
    struct pompcc pc = {0};
    process_forward_signals(); /* a killed pompcc stops its compiler too */
    struct argv_list expanded = {0}; /* argv with its response files (@FILE) read */
    struct argv_list args = {0};     /* and GCC's long options in their short forms */
    char *tmpl = NULL;               /* the temporary directory's name */
    response_files_expand(&expanded, argc, argv);
    long_options_expand(&args, (int)expanded.n, expanded.v);
    argv_free(&expanded);
    argc = (int)args.n;
    argv = args.v;
    const char *me = strrchr(argv[0], '/');
    me = me ? me + 1 : argv[0];
    pc.cxx_driver = strlen(me) >= 2 && strcmp(me + strlen(me) - 2, "++") == 0;
    const char *var = pc.cxx_driver ? "POMP_CXX" : "POMP_CC";
    const char *named = compiler_in_name(me);
    const char *given = getenv(var);
    /* blanks only: no compiler named, as empty (its next word was run instead) */
    int cc_given = named || (given && given[strspn(given, " \t\n")]);
    pc.cc = named ? named : cc_given ? getenv(var) : pc.cxx_driver ? "c++" : "cc";
    pc.cc_from = named      ? "named by the wrapper"
                 : cc_given ? var
                 : pc.cxx_driver ? "the default; POMP_CXX chooses another"
                                 : "the default; POMP_CC chooses another";
    find_installation(&pc);
    parse_args(&pc, argc, argv);
    if (pc.offload && !cc_given) /* only Clang offloads with libomptarget */
        pc.cc = pc.cxx_driver ? "clang++-19" : "clang-19";
    if (pc.offload && !cc_given)
        pc.cc_from = "the compiler of offloading builds";
    use_compiler_not_self(&pc);

    size_t nsources = 0, nheaders = 0, ncompiled = 0; /* ncompiled: sources and other files
                                                        a compile takes (.S, .f: not objects) */
    for (size_t i = 0; i < pc.ninputs; i++) {
        nsources += pc.inputs[i].is_source;
        nheaders += is_header(pc.inputs[i].path);
        ncompiled += !lib_search_is_input(pc.inputs[i].path); /* not an object or library */
    }
    if (nsources && pc.mode != MODE_PREPROCESS && !pc.explicit_language) /* (-x c-header:
                                                      a precompiled header's own compile) */
        warn_forced_includes(&pc);
    int rc = 0;
    if (pc.from_stdin && pc.mode == MODE_LINK)
        fprintf(stderr,
                "%s: warning: a source read from standard input ('-') is compiled "
                "without instrumentation, and the program is linked as the compiler "
                "links it, without libpomp: nothing of it is measured; give pompcc the "
                "file\n",
                tool_name());
    else if (pc.from_stdin && pc.mode != MODE_PREPROCESS)
        fprintf(stderr,
                "%s: warning: a source read from standard input ('-') is compiled "
                "without instrumentation (the runtime's events measure its constructs "
                "once a link by pompcc makes the program): give pompcc the file\n",
                tool_name());
    /* a link of libraries alone (-lmain: a program whose main is in an archive)
     * is a link, as the compiler takes it (it went to cc as it was, without
     * pomp's libraries: undefined POMP_ calls; a probe) */
    int libraries_only = pc.ninputs == 0 && pc.mode == MODE_LINK && names_library(&pc);
    if (pc.mode == MODE_PREPROCESS || pc.explicit_language || (pc.ninputs == 0 && !libraries_only) ||
        pc.from_stdin || pc.value_missing || pc.dry_run ||
        (nsources == 0 && pc.mode != MODE_LINK) ||
        (pc.output && pc.mode != MODE_LINK && ncompiled > 1) || /* the compiler's own error */
        /* headers only: a precompiled header's */
        (pc.ninputs > 0 && nheaders == pc.ninputs && !pc.explicit_language)) {
        rc = pass_through(&pc, argc, argv);
        goto out;
    }
    if (pc.mode == MODE_LINK && !pc.shared && !pc.relocatable)
        refuse_static_link(&pc);
    if (pc.mode == MODE_LINK && pc.static_gomp && !pc.dry_run)
        fprintf(stderr,
                "%s: note: '%s': libgomp is linked as the shared library under pomp (the libgomp "
                "bridge wraps its entry points): the program runs on the same libgomp, loaded at "
                "run time, not a copy linked into it\n",
                tool_name(), pc.static_gomp);

    if (output_is_input(&pc)) {
        rc = 1;
        goto out;
    }
    /* TMPDIR, else /tmp, as gcc does (a TMPDIR that does not exist) */
    const char *tmp = getenv("TMPDIR");
    tmpl = xasprintf("%s/pompcc-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    pc.tmpdir = mkdtemp(tmpl);
    if (!pc.tmpdir && tmp && *tmp) {
        free(tmpl);
        tmpl = xasprintf("/tmp/pompcc-XXXXXX");
        pc.tmpdir = mkdtemp(tmpl);
    }
    if (!pc.tmpdir) {
        int err = errno;
        fprintf(stderr, "%s: error: cannot create a temporary directory in %s%s%s: %s\n",
                tool_name(), tmp && *tmp ? tmp : "/tmp", tmp && *tmp ? " (TMPDIR) or /tmp" : "",
                tmp && *tmp ? "" : " (TMPDIR chooses another)", strerror(err));
        rc = 1;
        goto out;
    }
    unsigned index = 0;
    for (size_t i = 0; i < pc.ninputs && rc == 0; i++) {
        struct input *in = &pc.inputs[i];
        if (!in->is_source)
            continue;
        char *base = base_without_ext(in->path);
        if (pc.mode == MODE_LINK)
            in->object = xasprintf("%s/%u_%s.o", pc.tmpdir, index, base);
        else if (pc.output)
            in->object = xstrdup(pc.output);
        else
            in->object = xasprintf("%s.%s", base, pc.mode == MODE_ASSEMBLY ? "s" : "o");
        free(base);
        rc = compile_source(&pc, in, in->object, pc.mode == MODE_ASSEMBLY, index++);
    }
    if (rc == 0 && pc.mode != MODE_LINK && nsources < pc.ninputs)
        rc = compile_others(&pc);
    if (rc == 0 && pc.mode == MODE_LINK)
        rc = pc.relocatable ? relocatable_link(&pc) : prelink_and_link(&pc);
out:
    for (size_t i = 0; i < pc.ninputs; i++) {
        if (pc.mode == MODE_LINK && pc.inputs[i].object)
            unlink(pc.inputs[i].object);
        free(pc.inputs[i].object);
    }
    if (pc.tmpdir)
        remove_tmpdir(pc.tmpdir);
    free(tmpl);
    free(pc.inputs);
    argv_free(&pc.flags);
    argv_free(&pc.pp_flags);
    argv_free(&pc.dep_flags);
    argv_free(&pc.instrument_options);
    argv_free(&pc.linker_words);
    argv_free(&pc.identity);
    free(pc.function_rules.s);
    free(pc.bindir);
    free(pc.libdir);
    free(pc.incdir);
    free(pc.cc_replaced);
    argv_free(&args);
    int sig = process_stop_signal();
    if (sig) { /* killed: cleaned up, and ended by the signal, as the compiler would be */
        signal(sig, SIG_DFL);
        raise(sig);
    }
    /* the real compiler's (or linker's) own status; 1 when pompcc itself failed */
    return rc < 0 ? 1 : rc;
}
