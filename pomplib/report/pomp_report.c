/* pomp-report DIR: the profile of a run as text tables, --json, an HTML page
 * (--html FILE) and the trace as Chrome/Perfetto JSON (--chrome FILE).
 * docs/output.md. */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report_check.h"
#include "report_data.h"
#include "report_html.h"
#include "report_json.h"
#include "report_text.h"
#include "trace_chrome.h"
#include "trace_load.h"

struct options {
    const char *dir;
    int per_thread, json, check;
    const char *html, *chrome;
};

static void usage(FILE *f)
{
    fputs("usage: pomp-report [--threads] [--json] [--html FILE] [--chrome FILE] [--check] "
          "DIR|DIR/profile.json\n"
          "  --threads       one line per thread under each call path\n"
          "  --json          the report's figures as JSON on stdout\n"
          "  --html FILE     one self-contained page: timeline (with a trace), profile, waits\n"
          "  --chrome FILE   the trace as Chrome/Perfetto JSON (needs POMP_TRACE)\n"
          "  --check         check the profile's invariants; exit 1, naming each one broken\n"
          "With neither --json, --html nor --chrome, text tables go to stdout.\n",
          f);
}

static int parse_options(int argc, char **argv, struct options *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--threads") == 0) {
            o->per_thread = 1;
        } else if (strcmp(a, "--json") == 0) {
            o->json = 1;
        } else if (strcmp(a, "--check") == 0) {
            o->check = 1;
        } else if (strcmp(a, "--html") == 0 || strcmp(a, "--chrome") == 0) {
            if (i + 1 == argc) {
                fprintf(stderr, "pomp-report: %s needs a file name\n", a);
                return 2;
            }
            *(a[2] == 'h' ? &o->html : &o->chrome) = argv[++i];
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (a[0] == '-') {
            fprintf(stderr, "pomp-report: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        } else if (!o->dir) {
            o->dir = a;
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (!o->dir) {
        usage(stderr);
        return 2;
    }
    return -1;
}

/* A run without a trace into the directory of one with a trace leaves that
 * trace beside its profile: converted as asked, but said to be another run's
 * (as --html, which does not show it). */
static void warn_other_run(const char *dir, const char *profile_path, const struct trace_model *m)
{
    struct stat st;
    if (stat(profile_path, &st) != 0 || !S_ISREG(st.st_mode))
        return;
    json_t *profile = json_load_file(profile_path, 0, NULL);
    long long pid = profile ? (long long)json_integer_value(json_object_get(profile, "pid")) : 0;
    if (pid && pid != (long long)m->pid)
        fprintf(stderr, "pomp-report: warning: %s/" TRACE_RAW_DIR " is the trace of another run "
                        "(pid %d; the profile's: %lld): converted as it is\n",
                dir, m->pid, pid);
    json_decref(profile);
}

static int write_chrome(const char *dir, const struct trace_model *m, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "pomp-report: cannot write %s: %s\n", path, strerror(errno));
        return 1;
    }
    int rc = trace_chrome_write(m, f);
    int bad = rc != 0 || ferror(f);
    if (fclose(f) != 0 || bad) {
        fprintf(stderr, "pomp-report: cannot write %s: %s\n", path,
                rc ? "out of memory" : strerror(errno));
        return 1;
    }
    fprintf(stderr, "pomp-report: wrote %s (the trace of %s)\n", path, dir);
    return 0;
}

static int same_file(const char *a, const char *b)
{
    struct stat x, y;
    return stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

/* An output (--html, --chrome) that is one of the files read: the profile, or
 * a file of the raw trace (which is mapped while it is read: truncated, the
 * read died of SIGBUS); or another file the run wrote, which pomp-report
 * cannot write again (events.log, the OTF2 archive: `--html run/traces.otf2`
 * replaced the archive's anchor file, unsaid; a probe). Said, and nothing is
 * written. */
static int output_is_input(const char *option, const char *out, const char *dir,
                           const char *profile_path)
{
    static const char *const own_files[] = {"events.log", "traces.otf2", "traces.def",
                                            "trace.json"};
    static const char *const own_dirs[] = {TRACE_RAW_DIR, "traces"};
    char own[4200], parent[4200];
    snprintf(parent, sizeof parent, "%s", out);
    const char *out_dir = dirname(parent), *what = NULL;
    if (same_file(out, profile_path))
        what = "its profile";
    for (size_t k = 0; !what && k < sizeof own_files / sizeof *own_files; k++) {
        snprintf(own, sizeof own, "%s/%s", dir, own_files[k]);
        if (same_file(out, own))
            what = own_files[k];
    }
    for (size_t k = 0; !what && k < sizeof own_dirs / sizeof *own_dirs; k++) {
        snprintf(own, sizeof own, "%s/%s", dir, own_dirs[k]);
        if (same_file(out_dir, own))
            what = k == 0 ? "its raw trace" : "its OTF2 trace";
    }
    if (!what)
        return 0;
    fprintf(stderr, "pomp-report: %s %s would write over the run's own files (%s); name another file\n",
            option, out, what);
    return 1;
}

/* A directory without its profile.json but with a raw trace: a run that did
 * not end normally (killed by a signal, or one that called exec), which
 * "profile.json: No such file or directory" did not say (a probe). Says what
 * is there and returns 1; 0 where that is not the case. */
static int said_no_profile(const char *dir, const char *path)
{
    struct stat st;
    char defs[4300];
    snprintf(defs, sizeof defs, "%s/" TRACE_RAW_DIR "/defs.json", dir);
    if (stat(path, &st) == 0 || errno != ENOENT)
        return 0;
    int has_defs = stat(defs, &st) == 0;
    snprintf(defs, sizeof defs, "%s/" TRACE_RAW_DIR, dir);
    if (!has_defs && stat(defs, &st) != 0)
        return 0;
    fprintf(stderr,
            "pomp-report: %s has no profile.json, only the raw trace the run wrote while it ran "
            "(%s/): the run did not end normally (a signal killed it, or it called exec), or "
            "POMP_PROFILE=off%s\n",
            dir, defs,
            has_defs ? "; pomp-report --chrome FILE converts what was recorded"
                     : "; its trace definitions (defs.json), written at the end, are missing too: "
                       "nothing can be read from it");
    return 1;
}

int main(int argc, char **argv)
{
    struct options o = {0};
    int rc = parse_options(argc, argv, &o);
    if (rc >= 0)
        return rc;
    struct stat st;
    if (stat(o.dir, &st) != 0) { /* its reason: "profile.json/" is not a directory, a
                                    directory without search permission, ... */
        fprintf(stderr, "pomp-report: %s: %s\n", o.dir,
                errno == ENOENT ? "no such file or directory" : strerror(errno));
        return 1;
    }
    char path[4200], dir[4200];
    if (S_ISDIR(st.st_mode)) {
        snprintf(dir, sizeof dir, "%s", o.dir);
        snprintf(path, sizeof path, "%s/profile.json", o.dir);
    } else {
        snprintf(path, sizeof path, "%s", o.dir);
        char copy[4200];
        snprintf(copy, sizeof copy, "%s", o.dir);
        snprintf(dir, sizeof dir, "%s", dirname(copy));
    }

    if ((o.html && output_is_input("--html", o.html, dir, path)) ||
        (o.chrome && output_is_input("--chrome", o.chrome, dir, path)))
        return 2;
    if (o.html && o.chrome && (strcmp(o.html, o.chrome) == 0 || same_file(o.html, o.chrome))) {
        /* (the second written over the first: one of them lost, "wrote" said twice) */
        fprintf(stderr, "pomp-report: --html and --chrome name one file (%s); name two\n", o.html);
        return 2;
    }
    struct trace_model trace;
    int has_trace = 0;
    if (o.chrome || o.html) {
        has_trace = trace_load(dir, &trace);
        if (has_trace < 0)
            return 1;
    }
    rc = 0;
    if (o.chrome) {
        if (!has_trace) {
            fprintf(stderr, "pomp-report: %s has no trace (" TRACE_RAW_DIR "/defs.json); record one "
                            "with POMP_TRACE=otf2, chrome or both\n", dir);
            rc = 1;
        } else {
            warn_other_run(dir, path, &trace);
            rc |= write_chrome(dir, &trace, o.chrome);
        }
    }
    int text = !o.json && !o.html && !o.chrome && !o.check;
    if (!rc && (text || o.json || o.html || o.check)) {
        struct rp_profile p = {0}; /* (freed whether loaded or not) */
        if (S_ISDIR(st.st_mode) && said_no_profile(dir, path)) {
            rc = 1;
        } else if (rp_load(path, &p) != 0) {
            rc = 1;
        } else {
            if (o.check) {
                rc |= report_check(&p, path);
            } else { /* the tables of a profile --check refuses: said, so not taken as true */
                char first[512];
                size_t broken = report_check_quiet(&p, path, first, sizeof first);
                if (broken)
                    fprintf(stderr, "pomp-report: warning: %s breaks %zu invariant%s of a profile "
                                    "(the first: %s): the figures below may be wrong; "
                                    "pomp-report --check %s lists them\n",
                            path, broken, broken == 1 ? "" : "s", first, o.dir ? o.dir : path);
            }
            if (text)
                report_text(&p, o.per_thread);
            if (o.json) {
                json_t *j = report_json(&p);
                if (!j || json_dumpf(j, stdout, JSON_INDENT(1)) != 0)
                    rc = 1;
                putchar('\n');
                json_decref(j);
            }
            /* a run that wrote no trace into a directory holding an earlier
             * run's leaves that trace beside its profile: not this run's */
            if (o.html && has_trace && (long long)trace.pid != p.pid) {
                fprintf(stderr, "pomp-report: warning: %s/" TRACE_RAW_DIR " is the trace of another "
                                "run (pid %d; the profile's: %lld): not shown\n",
                        dir, trace.pid, p.pid);
                trace_model_free(&trace);
                has_trace = 0;
            }
            if (o.html) {
                if (report_html(&p, has_trace ? &trace : NULL, o.html) != 0)
                    rc = 1;
                else
                    fprintf(stderr, "pomp-report: wrote %s%s\n", o.html,
                            has_trace ? "" : " (no trace in this run: no timeline)");
            }
        }
        rp_free(&p);
    }
    if (has_trace)
        trace_model_free(&trace);
    /* the tables themselves: a full disk or a closed pipe loses them, which is said */
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "pomp-report: cannot write the report to standard output: %s\n",
                strerror(errno ? errno : EIO));
        rc = 1;
    }
    return rc;
}
