/* pomp-prelink [-v] [-o pomp_init.c | --linked program | --counts-only [-o mark.c]]
 *              [-L dir] [-l name]
 *              objects... archives...
 * Scans the inputs' symbol tables for POMP_Init_* functions and writes
 * POMP_Init_Handles, which calls them all (seed 002, Appendix B). ELF objects,
 * archives and shared objects are read directly (elf_symbols.c); the others
 * (LTO objects, bitcode) by nm ($NM, default nm). It also says, per file, how
 * many of its OpenMP constructs were instrumented (all files with -v; those
 * with constructs left to the runtime always). Libraries named by -l are looked
 * up in the -L directories, as the linker would (not in the system's: those
 * hold no instrumented code). With --linked, after the link, it says the
 * construct counts that the program holds and the inputs did not show: those
 * of objects compiled for link-time optimization, in their IR until then.
 * With --counts-only (a shared library's link, which has no pre-link) it says
 * the counts; with -o too, it writes there the C file that marks the library
 * as holding OpenMP code not built with pompcc, where it does (and no file
 * where it does not). */
#include "instrument.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elf_symbols.h"
#include "lib_search.h"
#include "prelink.h"
#include "process.h"
#include "util.h"

/* The objects pompcc compiled for this link into its temporary directory,
 * and their sources (--named OBJECT SOURCE): a note names the source, not an
 * object that is gone after the link. */
struct named_objects {
    const char **object, **source;
    int n;
};

/* The name a note gives path: its source where pompcc compiled it. */
static const char *shown_name(const char *path, const struct named_objects *named)
{
    const char *shown = path;
    for (int i = 0; i < named->n; i++)
        if (strcmp(named->object[i], path) == 0)
            shown = named->source[i];
    return shown;
}

/* library: said at a shared library's link, whose mark (--counts-only -o)
 * has the link of a program that names the library follow that code; a
 * program that loads it by dlopen does not see it (as for a plain plugin:
 * the run names the library at its end, POMP_OMPT=full measures it). */
static void note_uninstrumented(const char *path, const struct named_objects *named, int library)
{
    const char *shown = shown_name(path, named);
    fprintf(stderr,
            "pomp-prelink: note: %s%s has OpenMP constructs not built with pompcc: the runtime's "
            "events measure them, their tasks and waits included%s\n",
            shown, shown != path ? " (its object)" : "",
            library ? ", in a program whose link by pompcc names the library linked here (loaded "
                      "by dlopen: with POMP_OMPT=full)"
                    : "");
}

/* What input_has_uninstrumented_openmp looks at, object by object. */
struct openmp_scan {
    struct strbuf *counts;
    const struct named_objects *named; /* NULL: say nothing */
    int library;                       /* named: a shared library's link (note_uninstrumented) */
    struct strbuf *plain;              /* NULL, or the library's mark: "plain NAME" for each
                                          found, "plainlocks NAME" for each that sets locks */
    int found;
};

static int object_has_uninstrumented_openmp(const unsigned char *data, size_t size,
                                            const char *name, void *arg)
{
    struct openmp_scan *scan = arg;
    size_t before = scan->counts->len;
    if (elf_section_buffer(data, size, POMP_COUNTS_SECTION, scan->counts) != 0 ||
        scan->counts->len != before)
        return 0; /* not one this reader reads (taken for instrumented), or pompcc's */
    struct strbuf undefined = {0};
    if (elf_nm_buffer(data, size, ELF_NM_UNDEFINED, &undefined) == 0 && undefined.s &&
        prelink_calls_openmp_constructs(undefined.s)) {
        scan->found = 1;
        if (scan->named)
            note_uninstrumented(name, scan->named, scan->library);
        if (scan->plain)
            sb_printf(scan->plain, "plain %s\n", scan->named ? shown_name(name, scan->named) : name);
    } else if (undefined.s && prelink_calls_lock_routines(undefined.s)) {
        const char *shown = scan->named ? shown_name(name, scan->named) : name;
        sb_printf(scan->counts, "plainlocks %s\n", shown);
        /* and in a shared library's mark: its pompcc objects' counts hid it
         * from a program's link, which did not follow its lock waits */
        if (scan->plain)
            sb_printf(scan->plain, "plainlocks %s\n", shown);
    }
    free(undefined.s);
    return 0;
}

/* Whether a link input holds OpenMP code built without pompcc (a library, a
 * file compiled with plain cc, a member of an archive): one of its objects
 * calls the OpenMP runtime for constructs and has no construct counts of
 * pompcc's; the counts of the others are appended to *counts (as the link's
 * counts are read). Each such object is named on stderr where named is not
 * NULL. An archive is looked at member by member: read as one file, the counts
 * of a member built by pompcc hid another built by cc, whose worksharing,
 * critical and task constructs then went unmeasured, unsaid at the link. An
 * object this reader cannot read is taken for instrumented. */
static int input_has_uninstrumented_openmp(const char *path, struct strbuf *counts,
                                           const struct named_objects *named, int library,
                                           struct strbuf *plain)
{
    struct openmp_scan scan = {counts, named, library, plain, 0};
    size_t before = counts->len;
    if (elf_each_object(path, object_has_uninstrumented_openmp, &scan) != 0) {
        if (counts->s) { /* a malformed archive: nothing of it, as elf_section */
            counts->len = before;
            counts->s[before] = '\0';
        }
        return 0;
    }
    return scan.found;
}

/* Runs nm on files[0..n-1] and collects their POMP_Init_ functions; 0, nm's status, or -1
 * (errno: why nm could not run). */
static int scan(const char *nm, char **files, int n, struct prelink_names *names)
{
    char **nm_argv = xmalloc((size_t)(n + 5) * sizeof *nm_argv);
    nm_argv[0] = (char *)nm;
    nm_argv[1] = "-P";
    nm_argv[2] = "-g";
    nm_argv[3] = "--defined-only";
    memcpy(nm_argv + 4, files, (size_t)n * sizeof *files);
    nm_argv[n + 4] = NULL;
    char *text = NULL;
    int st = run_capture(nm_argv, &text, NULL);
    int run_errno = errno; /* st -1: why nm could not run */
    if (st == 0)
        prelink_collect(names, text);
    free(text);
    free(nm_argv);
    errno = run_errno;
    return st;
}

/* Sections of several objects may be padded with NULs between their lines. */
static void lines_of(struct strbuf *records)
{
    for (size_t i = 0; i < records->len; i++)
        if (records->s[i] == '\0')
            records->s[i] = '\n';
}

/* --linked: the construct counts of the linked program (its POMP_COUNTS_SECTION,
 * which holds the LTO objects' lines too) that the inputs did not show. */
static int report_linked(const char *program, struct strbuf *known, int verbose)
{
    struct strbuf all = {0};
    if (elf_section(program, POMP_COUNTS_SECTION, &all) != 0) {
        fprintf(stderr, "pomp-prelink: warning: cannot read the construct counts of %s\n", program);
        free(all.s);
        return 0;
    }
    lines_of(&all);
    if (all.s)
        prelink_report_new_counts(all.s, known->s, verbose, stderr);
    free(all.s);
    return 0;
}

/* One nm run for files[0..n-1]; only if it fails, one run per input names the
 * file. 0, or 1 after an error message. */
static int scan_group(const char *nm, char **files, int n, struct prelink_names *names)
{
    if (n == 0 || scan(nm, files, n, names) == 0)
        return 0;
    int rc = 0;
    for (int i = 0; i < n; i++) {
        int st = scan(nm, &files[i], 1, names);
        if (st < 0)
            fprintf(stderr, "pomp-prelink: error: cannot run '%s' for %s: %s\n", nm, files[i],
                    strerror(errno));
        else if (st != 0)
            fprintf(stderr, "pomp-prelink: error: '%s -P %s' failed (status %d)\n", nm, files[i], st);
        rc |= st != 0;
    }
    return rc;
}

/* The lists main makes of its arguments, and what -l found. */
struct prelink_inputs {
    struct argv_list inputs; /* the link's objects and archives, -l's archives among them */
    struct argv_list shared; /* its shared libraries, named or found by -l */
    struct lib_search ls;
    char **order;            /* inputs.v's strings, in the order they are read */
};

static void free_inputs(struct prelink_inputs *in)
{
    argv_free(&in->inputs);
    argv_free(&in->shared);
    lib_search_free(&in->ls);
    free(in->order);
}

int main(int argc, char **argv)
{
    const char *out = NULL, *linked = NULL;
    int counts_only = 0; /* say the counts, write nothing (a shared library's link) */
    const char *nm = getenv("NM") && *getenv("NM") ? getenv("NM") : "nm";
    struct prelink_names names = {0};
    int rc = 0;
    struct prelink_inputs in = {0};
    lib_search_init(&in.ls, argv + 1, (size_t)argc - 1);
    int verbose = 0;
    struct named_objects named = {xmalloc((size_t)argc * sizeof *named.object),
                                  xmalloc((size_t)argc * sizeof *named.source), 0};
    for (int i = 1; i < argc; i++) {
        size_t at = (size_t)i;
        if (lib_search_option(&in.ls, argv, (size_t)argc, &at, &in.inputs, &in.shared)) {
            i = (int)at;
            continue;
        }
        if (strcmp(argv[i], "-v") == 0) {
            verbose = 1;
            continue;
        }
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
            out = argv[++i];
            continue;
        }
        if (strcmp(argv[i], "--linked") == 0 && i + 1 < argc) {
            linked = argv[++i];
            continue;
        }
        if (strcmp(argv[i], "--counts-only") == 0) { /* a -shared link: no pre-link */
            counts_only = 1;
            continue;
        }
        if (strcmp(argv[i], "--named") == 0 && i + 2 < argc) {
            named.object[named.n] = argv[++i];
            named.source[named.n++] = argv[++i];
            continue;
        }
        if (strcmp(argv[i], "--help") == 0) {
            puts("usage: pomp-prelink [-v] [-o pomp_init.c | --linked program | --counts-only "
                 "[-o mark.c]] "
                 "[--named object source]... objects... archives...");
            free_inputs(&in);
            free(named.object), free(named.source);
            return 0;
        }
        if (argv[i][0] == '-' || !lib_search_is_input(argv[i]))
            continue; /* linker options and other inputs have no POMP_Init_ functions */
        if (lib_search_is_shared(argv[i])) {
            /* named by its path (CMake, libtool) as by -l: its handles are its
             * own, initialized lazily; calling its POMP_Init_ functions tied
             * the program to that one build of it (another build, or a plain
             * one, failed to load: undefined symbol POMP_Init_...) */
            argv_add(&in.shared, argv[i]);
            continue;
        }
        argv_add(&in.inputs, argv[i]);
    }
    int ninputs = (int)in.inputs.n;
    char **inputs = in.order = xmalloc((in.inputs.n + 1) * sizeof *inputs); /* reordered below */
    for (size_t i = 0; i <= in.inputs.n; i++)
        inputs[i] = i < in.inputs.n ? in.inputs.v[i] : NULL;
    struct strbuf counts = {0}, shared_counts = {0};
    struct strbuf plain = {0}; /* --counts-only: what the library's mark names */
    int uninstrumented = 0, unread = 0;
    for (int i = 0; i < ninputs; i++) {
        size_t before = counts.len;
        /* --linked: said by the run before the link already */
        if (input_has_uninstrumented_openmp(inputs[i], &counts, linked ? NULL : &named,
                                            counts_only, &plain)) {
            uninstrumented++;
        } else if (counts.len == before && elf_has_lto_ir(inputs[i])) {
            unread++; /* its counts are in its IR: the linked program shows them */
        }
    }
    lines_of(&counts);
    if (linked) { /* after the link: what the LTO objects' IR held */
        int rc = unread ? report_linked(linked, &counts, verbose) : 0;
        free(counts.s), free(plain.s);
        free_inputs(&in);
        free(named.object), free(named.source);
        return rc;
    }
    /* a shared library's own counts were said at its link (--counts-only);
     * what it left to the runtime counts here too, unsaid: the bridges follow
     * it in this program (its critical waits went unmeasured) */
    for (size_t i = 0; i < in.shared.n; i++)
        if (input_has_uninstrumented_openmp(in.shared.v[i], &shared_counts, &named, counts_only,
                                            &plain))
            uninstrumented++;
    lines_of(&shared_counts);
    int shared_left = shared_counts.s ? prelink_report_counts(shared_counts.s, 0, NULL) : 0;
    free(shared_counts.s);
    /* constructs the instrumentation did not reach: the bridges follow what
     * the runtime reports of them (a library's tasks run in a barrier are
     * work, not the barrier's wait) */
    int left_to_runtime = (counts.s ? prelink_report_counts(counts.s, verbose, stderr) : 0) |
                          shared_left |
                          (uninstrumented ? PRELINK_LEFT_CONSTRUCTS | PRELINK_LEFT_MUTEXES : 0);
    if (counts_only) {
        /* the library's mark: in the one file its link makes, the counts of
         * its objects built by pompcc hid those built without it (or the
         * plain libraries it needs) from a program's link, which read it as
         * instrumented: its bridges did not follow that code, whose single,
         * tasks and taskwait went unmeasured, though this link said above
         * that the runtime's events measure them */
        if (out && plain.s) {
            FILE *f = fopen(out, "w");
            int bad = !f || prelink_write_plain_marker(plain.s, f) != 0;
            if ((f && fclose(f) != 0) || bad) {
                perror(out);
                rc = 1;
            }
        }
        free(counts.s), free(plain.s);
        free_inputs(&in);
        free(named.object), free(named.source);
        prelink_free(&names);
        return rc;
    }
    /* An LTO object's counts are in its IR, which no reader of ours sees
     * before the link: whether it left constructs to the runtime is not known
     * yet, so the bridges follow every construct's runtime events (POMP_OMPT=
     * full's cost; before, an uninstrumented critical of such an object was
     * not measured at all). pompcc says its counts after the link (--linked). */
    if (unread) {
        left_to_runtime |= PRELINK_LEFT_CONSTRUCTS | PRELINK_LEFT_MUTEXES;
        if (verbose)
            fprintf(stderr, "pomp-prelink: note: %d input%s compiled for link-time optimization: "
                            "the runtime's events follow every construct; the construct counts "
                            "come after the link\n", unread, unread == 1 ? " is" : "s are");
    }
    free(counts.s), free(plain.s);
    /* The inputs this program reads itself; the rest go to nm */
    struct strbuf symbols = {0};
    int left = 0;
    for (int i = 0; i < ninputs; i++)
        if (elf_nm(inputs[i], ELF_NM_DEFINED_EXTERNAL, &symbols) != 0)
            inputs[left++] = inputs[i];
    if (symbols.s)
        prelink_collect(&names, symbols.s);
    free(symbols.s);
    ninputs = left;
    /* One nm for all of those: GNU nm loads every plugin of its bfd-plugins
     * directory (LLVMgold, hence all of libLLVM) at start, tens of
     * milliseconds per run. LLVM bitcode goes to LLVM's nm instead, in a run
     * of its own (elf_nm_program). */
    int ngnu = 0; /* GNU nm's inputs first, then llvm-nm's */
    for (int i = 0; i < ninputs; i++)
        if (elf_nm_program(inputs[i], nm) == nm) {
            char *t = inputs[ngnu];
            inputs[ngnu++] = inputs[i];
            inputs[i] = t;
        }
    const char *llvm_nm = ngnu < ninputs ? elf_nm_program(inputs[ngnu], nm) : nm;
    rc |= scan_group(nm, inputs, ngnu, &names);
    rc |= scan_group(llvm_nm, inputs + ngnu, ninputs - ngnu, &names);
    free_inputs(&in);
    free(named.object), free(named.source);
    FILE *f = out ? fopen(out, "w") : stdout;
    if (!f) {
        perror(out);
        prelink_free(&names);
        return 1;
    }
    if (prelink_write(&names, left_to_runtime, f) != 0)
        rc = 1;
    if (out && fclose(f) != 0)
        rc = 1;
    prelink_free(&names);
    return rc;
}
