/* pomp-instrument [options] in.c [out.c] [-- compiler flags]
 * Writes the instrumented out.c and out.c.pomp.inc (without out.c: the
 * instrumented source on stdout and in.c.pomp.inc). */
#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "function_filter.h"
#include "headers.h"
#include "source_scan.h"
#include "instrument.h"
#include "runtime.h"
#include "source.h"
#include "util.h"

static void usage(FILE *f)
{
    fputs("usage: pomp-instrument [options] in.c [out.c] [-- compiler flags]\n"
          "  --id=ID     suffix of the POMP_Init_ID function (letters, digits, _); default: a hash\n"
          "  --openmp    instrument OpenMP pragmas (also implied by -fopenmp among the compiler flags)\n"
          "  --functions[=RULES]  function regions for the functions the rules select (all without\n"
          "              rules): include:GLOB, exclude:GLOB, include:file:GLOB, exclude:file:GLOB\n"
          "  --verbose   say what is done with every pragma\n"
          "  --gnuc=N    the compiler is GCC N: warn where a #if tests the GCC version\n"
          "  --implicit-barriers=explicit|runtime\n"
          "              explicit: nowait plus an explicit, measured barrier (OPARI2 style);\n"
          "              runtime (default): left to the runtime, measured through OMPT\n"
          "  --iterations  iteration events in the bodies of worksharing loops (costs vectorization)\n"
          "  --headers   also instrument the program's own headers: copies next to out.c, listed\n"
          "              in out.c.pomp.headers (needs out.c)\n"
          "  --header-as-is=NAME  with --headers: that header's copy is its text as it is, its\n"
          "              constructs left to the runtime (pompcc: its instrumented copy did not\n"
          "              compile); NAME as the copy's #line names it\n",
          f);
}

/* A hash of where the file is and when it was instrumented: two objects made from
 * the same source (different -D, say) still get different POMP_Init_ names. */
static char *default_id(const char *in, const char *out)
{
    char abs[PATH_MAX];
    const char *a = realpath(in, abs) ? abs : in;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    char salt[128];
    snprintf(salt, sizeof salt, "|%s|%ld.%ld|%d", out ? out : "-", (long)ts.tv_sec, ts.tv_nsec,
             (int)getpid());
    uint64_t h = fnv1a(fnv1a(FNV1A_START, a, strlen(a)), salt, strlen(salt));
    return xasprintf("%016llx", (unsigned long long)h);
}

static int valid_id(const char *id)
{
    if (!*id)
        return 0;
    for (const char *p = id; *p; p++)
        if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9')))
            return 0;
    return 1;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* C++ by the last -x among the flags, else by the file's suffix (as clang decides). */
static int is_cplusplus(const char *in, int nflags, const char *const *flags)
{
    const char *lang = NULL;
    for (int k = 0; k < nflags; k++) {
        if (strcmp(flags[k], "-x") == 0 && k + 1 < nflags)
            lang = flags[++k];
        else if (strncmp(flags[k], "-x", 2) == 0)
            lang = flags[k] + 2;
    }
    if (lang && strcmp(lang, "none") != 0)
        return strcmp(lang, "c++") == 0 || strcmp(lang, "c++-cpp-output") == 0;
    static const char *const cxx[] = {".cc", ".cp", ".cxx", ".cpp", ".CPP", ".c++", ".C", ".ii", NULL};
    const char *dot = strrchr(in, '.');
    for (const char *const *s = cxx; dot && *s; s++)
        if (strcmp(dot, *s) == 0)
            return 1;
    return 0;
}

/* <out>.pomp.headers: the header copies the output includes, one a line
 * (pompcc compiles the file again without them if it does not compile). */
static int write_copy_list(const char *out, const struct header_copies *c)
{
    if (!out || !c->npaths)
        return 0;
    struct strbuf b = {0};
    for (size_t i = 0; i < c->npaths; i++)
        sb_printf(&b, "%s\n", c->paths[i]);
    char *list = xasprintf("%s.pomp.headers", out);
    int rc = write_file(list, b.s, b.len);
    if (rc != 0)
        perror(list);
    free(list);
    free(b.s);
    return rc;
}

/* Whether the identifier at t (of the preprocessor line that starts at line)
 * is the operand of `defined`. */
static int operand_of_defined(const char *line, const char *t)
{
    for (;;) {
        while (t > line && (t[-1] == ' ' || t[-1] == '\t' || t[-1] == '('))
            t--;
        if (!(t > line && t[-1] == '\n' && source_newline_spliced(line, (size_t)(t - 1 - line))))
            break;
        t--; /* back over the splice: its newline, CR, blanks and backslash */
        while (t > line && (t[-1] == '\r' || t[-1] == ' ' || t[-1] == '\t' || t[-1] == '\f' ||
                            t[-1] == '\v'))
            t--;
        t -= t > line && t[-1] == '\\';
    }
    return t - line >= 7 && strncmp(t - 7, "defined", 7) == 0;
}

/* Whether physical line l ends in a backslash-newline: the directive goes on. */
static int ends_in_backslash(const struct source *s, unsigned l)
{
    return source_newline_spliced(s->text, s->line_offsets[l + 1] - 1); /* (its newline) */
}

/* The #if and #elif lines of the file that test the GCC version (__GNUC__,
 * __GNUC_MINOR__, __GNUC_PATCHLEVEL__, __GNUC_PREREQ), in a file with
 * OpenMP pragmas: the parser reads them as clang's 4.2.1, not as the
 * compiler's version (gnuc), so a construct such a line selects may be left
 * out, or the other branch's instrumented. Said, one warning a line. */
static void warn_gcc_version_tests(const struct source *s, const char *gnuc)
{
    if (!gnuc || !source_has_openmp_directive(s->text, s->size))
        return;
    static const char *const names[] = {"__GNUC__", "__GNUC_MINOR__", "__GNUC_PATCHLEVEL__",
                                        "__GNUC_PREREQ", NULL};
    for (unsigned l = 0; l < s->nlines; l++) {
        const char *line = s->text + s->line_offsets[l], *p = line;
        unsigned last = l; /* the directive's last physical line (backslash-newlines) */
        while (last + 1 < s->nlines && ends_in_backslash(s, last))
            last++;
        const char *end =
            last + 1 < s->nlines ? s->text + s->line_offsets[last + 1] : s->text + s->size;
        unsigned first = l;
        l = last;
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        if (p >= end || *p++ != '#')
            continue;
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        if (!(end - p > 3 && (strncmp(p, "if ", 3) == 0 || strncmp(p, "if(", 3) == 0 ||
                              strncmp(p, "elif", 4) == 0)))
            continue;
        for (const char *const *n = names; *n; n++) {
            size_t len = strlen(*n);
            const char *t = p;
            while ((t = memmem(t, (size_t)(end - t), *n, len)) != NULL) {
                int word = (t == line || !(isalnum((unsigned char)t[-1]) || t[-1] == '_')) &&
                           !(isalnum((unsigned char)t[len]) || t[len] == '_');
                if (word && !operand_of_defined(line, t)) {
                    unsigned at = first; /* the physical line of the name */
                    while (at < last && s->text + s->line_offsets[at + 1] <= t)
                        at++;
                    fprintf(stderr,
                            "%s:%u:%d: warning: this #%.*s tests the GCC version (%s), which "
                            "pomp's parser reads as clang's 4, not the compiler's %s: an OpenMP "
                            "construct it selects may be left out of the measurement\n",
                            s->path, at + 1, (int)(t - (s->text + s->line_offsets[at])) + 1,
                            p[1] == 'f' ? 2 : 4, p, *n, gnuc);
                    goto next_line;
                }
                t += len;
            }
        }
    next_line:;
    }
}

int main(int argc, char **argv)
{
    struct instrument_options opt = {0};
    struct function_filter filter = {0};
    const char *in = NULL, *out = NULL, *gnuc = NULL;
    char *id = NULL;
    int i, headers = 0;
    struct {
        char **v;
        size_t n;
    } as_is = {0};
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        } else if (strncmp(a, "--id=", 5) == 0) {
            free(id);
            id = xstrdup(a + 5);
            if (!valid_id(id)) {
                fprintf(stderr, "pomp-instrument: error: --id='%s': use letters, digits and _ only\n", id);
                return 2;
            }
        } else if (strcmp(a, "--openmp") == 0) {
            opt.openmp = 1;
        } else if (strcmp(a, "--functions") == 0 || strncmp(a, "--functions=", 12) == 0) {
            char err[256];
            if (a[11] == '=' && function_filter_parse(&filter, a + 12, err, sizeof err) != 0) {
                fprintf(stderr, "pomp-instrument: error: %s: %s\n", a, err);
                return 2;
            }
            opt.functions = &filter;
        } else if (strncmp(a, "--gnuc=", 7) == 0) {
            gnuc = a + 7;
            opt.gcc = 1;
        } else if (strcmp(a, "--verbose") == 0) {
            opt.verbose = 1;
        } else if (strcmp(a, "--implicit-barriers=explicit") == 0) {
            opt.explicit_barriers = 1;
        } else if (strcmp(a, "--implicit-barriers=runtime") == 0) {
            opt.explicit_barriers = 0;
        } else if (strcmp(a, "--headers") == 0) {
            headers = 1;
        } else if (strncmp(a, "--header-as-is=", 15) == 0) {
            as_is.v = xrealloc(as_is.v, (as_is.n + 1) * sizeof *as_is.v);
            as_is.v[as_is.n++] = (char *)(a + 15);
            opt.headers_as_is = as_is.v;
            opt.nheaders_as_is = as_is.n;
        } else if (strcmp(a, "--iterations") == 0) {
            opt.iterations = 1;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strncmp(a, "--implicit-barriers=", 20) == 0) { /* (was an "unknown option") */
            fprintf(stderr, "pomp-instrument: error: '%s': the value is explicit or runtime\n", a);
            return 2;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "pomp-instrument: error: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        } else if (!in) {
            in = a;
        } else if (!out) {
            out = a;
        } else {
            fprintf(stderr, "pomp-instrument: error: unexpected argument '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (!in) {
        usage(stderr);
        return 2;
    }
    struct stat in_st, out_st;
    if (stat(in, &in_st) == 0 && S_ISDIR(in_st.st_mode)) { /* (libclang "could not parse" it) */
        fprintf(stderr, "%s: error: is a directory, not a source file\n", in);
        return 1;
    }
    if (out && stat(in, &in_st) == 0 && stat(out, &out_st) == 0 && in_st.st_dev == out_st.st_dev &&
        in_st.st_ino == out_st.st_ino) { /* the source would be replaced by its instrumented form */
        fprintf(stderr, "pomp-instrument: error: the output '%s' is the input file\n", out);
        return 2;
    }
    const char *const *flags = (const char *const *)argv + i;
    int nflags = argc - i;
    opt.cplusplus = is_cplusplus(in, nflags, flags);
    for (int k = 0; k < nflags; k++)
        opt.openmp = pomp_runtime_openmp_after(opt.openmp, flags[k]);
    if (!id)
        id = default_id(in, out);
    opt.unique_id = id;
    char *inc_path = pomp_inc_path(out ? out : in);
    opt.inc_name = base_name(inc_path);
    char cwd[PATH_MAX];
    opt.cwd = getcwd(cwd, sizeof cwd); /* (NULL: no "dir" in the CTC strings) */

    struct source src = {0};
    struct source_unit unit;
    struct header_copies copies = {0};
    int rc = 1;
    struct instrument_result res = {0};
    if (source_unit_open(&unit, in, nflags, flags, opt.openmp, opt.verbose) != 0 ||
        source_load_file(&src, &unit, in) != 0)
        goto done;
    warn_gcc_version_tests(&src, gnuc);
    if (headers && out && headers_instrument(&unit, &opt, out, &copies) != 0) {
        fprintf(stderr, "%s: warning: the instrumented copies of its headers cannot be written; "
                        "their constructs are left to the runtime\n", in);
        header_copies_free(&copies);
    }
    opt.replacements = copies.main_replacements;
    opt.nreplacements = copies.nmain_replacements;
    opt.instrumented_headers = copies.instrumented;
    opt.ninstrumented_headers = copies.ninstrumented;
    opt.final_waits_may_wait = copies.final_waits_may_wait;
    if (instrument(&src, &opt, &res) != 0 || write_copy_list(out, &copies) != 0)
        goto done;
    if (write_file(inc_path, res.inc.s, res.inc.len) != 0) {
        perror(inc_path);
        goto done;
    }
    if (copies.left_counts.len) { /* the counts of headers that stay as they are */
        if (res.source.len && res.source.s[res.source.len - 1] != '\n')
            sb_add(&res.source, "\n");
        sb_addn(&res.source, copies.left_counts.s, copies.left_counts.len);
    }
    if (out) {
        if (write_file(out, res.source.s, res.source.len) != 0) {
            perror(out);
            goto done;
        }
        copy_mtime(in, out);
    } else if (fwrite(res.source.s, 1, res.source.len, stdout) != res.source.len) {
        perror("stdout");
        goto done;
    }
    rc = 0;
    if (opt.verbose)
        print_construct_counts(stderr, in, res.counts.instrumented, res.counts.constructs,
                               res.counts.on_purpose);
done:
    if (src.text)
        source_free(&src);
    source_unit_close(&unit);
    header_copies_free(&copies);
    free(res.source.s);
    free(res.inc.s);
    free(res.left_locks.s);
    free(inc_path);
    free(id);
    function_filter_free(&filter);
    free(as_is.v);
    return rc;
}
