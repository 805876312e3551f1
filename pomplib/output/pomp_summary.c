#include "pomp_summary.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "devices_output.h"
#include "pomp_region_type.h"
#include "pomp_symbols.h"
#include "pomp_twin.h"

enum { TOP_REGIONS = 5 };

static void pomp_summary_note_throttled(FILE *f, const struct pomp_run *run);
static void pomp_summary_note_paused(FILE *f, const struct pomp_run *run);
static void pomp_summary_note_cpu_waits(FILE *f, const struct pomp_run *run);

struct row {
    size_t node;
    uint64_t max_incl, visits;
    uint32_t threads;
    int untimed; /* executions of its path counted without time: its time is a part */
};

/* The function a region is named by: none where it stands for several (a
 * template's instantiations folded into one, pomp_merge.c), as in
 * profile.json and pomp-report; the summary named the first instantiation,
 * whose row then held every instantiation's visits (a probe). */
static const char *region_function(const struct pomp_run_region *r)
{
    return r->several_functions ? NULL : ctc_get(&r->ctc, "function");
}

/* A region's twin key (pomp_twin.h). */
static struct pomp_twin_key twin_key(const struct pomp_run_region *r)
{
    const char *name = r->ctc.name, *function = region_function(r);
    struct pomp_twin_key k = {r->type, name ? name : "", function ? function : "",
                              ctc_get(&r->ctc, "module"), 0};
    k.module_len = k.module ? strlen(k.module) : 0;
    return k;
}

/* Whether the run has a twin of r (pomp_twin.h): then both are labelled with
 * their offsets, as pomp-report labels them; the summary printed two
 * identical rows (a probe). */
static int has_twin(const struct pomp_run *run, const struct pomp_run_region *r)
{
    if (r->ctc.file || !ctc_get(&r->ctc, "offset"))
        return 0;
    const struct pomp_merged *m = &run->profile;
    struct pomp_twin_key key = twin_key(r);
    for (uint32_t i = 0; i < m->nregions; i++) {
        const struct pomp_run_region *o = &m->regions[i];
        if (o == r || o->same_as || o->ctc.file || !ctc_get(&o->ctc, "offset"))
            continue;
        struct pomp_twin_key other = twin_key(o);
        if (pomp_twins(&key, &other))
            return 1;
    }
    return 0;
}

/* Whether a region without a file has a place to be named by: a function,
 * or a twin (print_function_place). */
static int has_function_place(const struct pomp_run *run, const struct pomp_run_region *r)
{
    return region_function(r) || has_twin(run, r);
}

/* Where a region without a file is (has_function_place): its function, and
 * where it has a twin its offset in its module, as pomp-report labels it
 * ("main() [0x1c48]"); a twin of no function (a stripped binary's) by its
 * module and that offset. */
static void print_function_place(FILE *f, const struct pomp_run *run,
                                 const struct pomp_run_region *r)
{
    const char *function = region_function(r);
    int twin = has_twin(run, r);
    if (function) {
        fprintf(f, "%s%s", function, pomp_symbols_call_parens(function));
        if (twin)
            fprintf(f, " [%s]", ctc_get(&r->ctc, "offset"));
        return;
    }
    const char *module = ctc_get(&r->ctc, "module");
    size_t len = module ? strlen(module) : 0;
    const char *base = pomp_twin_module_base(module, &len);
    fprintf(f, "%.*s", (int)len, base);
    if (twin)
        fprintf(f, "+%s", ctc_get(&r->ctc, "offset"));
}

static int by_time_desc(const void *a, const void *b)
{
    const struct row *x = a, *y = b;
    return (x->max_incl < y->max_incl) - (x->max_incl > y->max_incl);
}

void pomp_summary_print(FILE *f, const struct pomp_run *run, int profile_written)
{
    const struct pomp_merged *m = &run->profile;
    const struct pomp_clock *clock = &run->clock;
    struct row *rows = calloc(m->count ? m->count : 1, sizeof *rows);
    if (!rows)
        return;
    /* the regions with a tree of executions (their other nodes are creations,
     * said so, as pomp-report's flat table does: two "task @ x.c:8" lines),
     * and those with any node */
    enum { HAS_ROOT = 1, HAS_NODE = 2 };
    unsigned char *region_nodes = calloc(m->nregions ? m->nregions : 1, 1);
    for (size_t i = 1; region_nodes && i < m->count; i++)
        if (m->nodes[i].region)
            region_nodes[m->nodes[i].region - m->regions] |=
                m->nodes[i].task_root ? HAS_ROOT | HAS_NODE : HAS_NODE;
    size_t n = 0;
    for (size_t i = 1; i < m->count; i++) {
        struct row r = {.node = i};
        uint64_t begins = 0;
        const struct pomp_mnode *node = &m->nodes[i];
        /* a creation's own time: what it holds beside it is its tasks run at
         * once (if(0), a full queue), which their executions' row has */
        int creation = region_nodes && node->region && !node->task_root &&
                       (region_nodes[node->region - m->regions] & HAS_ROOT);
        for (uint32_t t = 0; t < m->nthreads; t++) {
            const struct pomp_stat *s = pomp_merged_stat(m, i, t);
            if (!pomp_stat_recorded(s))
                continue;
            r.threads++;
            r.visits += s->visits;
            r.untimed |= s->untimed != 0;
            begins += s->begins;
            uint64_t time = creation ? s->excl : s->incl;
            if (time > r.max_incl)
                r.max_incl = time;
        }
        /* pomp-report's rule: a region with begin events only ran as often as it began */
        if (!r.visits)
            r.visits = begins;
        rows[n++] = r;
    }
    qsort(rows, n, sizeof *rows, by_time_desc);

    uint32_t streams = 0; /* device streams are columns of the profile, not threads */
    uint64_t os_threads = 0; /* a record may stand for OS threads one after another */
    for (uint32_t t = 0; t < m->nthreads; t++) {
        streams += m->threads[t].device >= 0;
        os_threads += m->threads[t].device < 0 ? m->threads[t].os_threads : 0;
    }
    uint32_t threads = m->nthreads - streams;
    fprintf(f, "pomp: %s: %.3f s, %u thread%s", run->program, run->duration_ns / 1e9, threads,
            threads == 1 ? "" : "s");
    if (os_threads > threads) /* (libgomp's nested teams' fresh threads, pomp_thread.c) */
        fprintf(f, " (standing for %llu OS threads)", (unsigned long long)os_threads);
    fputs(", ", f);
    if (streams)
        fprintf(f, "%u device stream%s, ", streams, streams == 1 ? "" : "s");
    uint32_t regions = 0, runtime_only = 0; /* runtime_only: not instrumented, seen through the
                                                runtime (OMPT); one with another: not a region */
    uint32_t filtered = 0;
    for (uint32_t i = 0; i < m->nregions; i++) {
        int runtime = m->regions[i].init && strcmp(m->regions[i].init, "ompt") == 0;
        /* a runtime's region without a node, not filtered out: a masked block the
         * instrumentation's took over */
        if (m->regions[i].same_as || (runtime && !m->regions[i].filtered && region_nodes &&
                                      !(region_nodes[i] & HAS_NODE)))
            continue;
        regions++;
        runtime_only += runtime;
        filtered += m->regions[i].filtered;
    }
    fprintf(f, "%u region%s", regions, regions == 1 ? "" : "s");
    if (runtime_only)
        fprintf(f, " (%u seen only through the runtime)", runtime_only);
    /* a directory named with its '/' (the root, POMP_OUTPUT_DIR=/) gets no second one */
    size_t dir_len = run->dir ? strlen(run->dir) : 0; /* (none: no profile, no trace) */
    const char *slash = dir_len && run->dir[dir_len - 1] == '/' ? "" : "/";
    if (profile_written)
        fprintf(f, "; output in %s%s\n", run->dir, slash);
    else if (!run->write_profile) /* asked for: not an error */
        fprintf(f, "; no profile (POMP_PROFILE=off)%s%s%s\n", run->trace ? "; output in " : "",
                run->trace ? run->dir : "", run->trace ? slash : "");
    else
        fprintf(f, "; no profile written (above)\n");
    if (filtered) /* a pattern with a typo filters everything: said, not an empty table */
        fprintf(f, "pomp: note: %u of the %u regions filtered out (POMP_FILTER_INCLUDE, "
                   "POMP_FILTER_EXCLUDE): not recorded\n",
                filtered, regions);
    if (n)
        fprintf(f, "pomp: %12s %8s %7s  %s\n", "max time(ms)", "visits", "threads", "region");
    for (size_t i = 0; i < n && i < TOP_REGIONS; i++) {
        const struct pomp_mnode *node = &m->nodes[rows[i].node];
        const struct pomp_run_region *r = node->region;
        fprintf(f, "pomp: %12.3f %8llu %7u  ", pomp_ticks_to_ns(clock, rows[i].max_incl) / 1e6,
                (unsigned long long)rows[i].visits, rows[i].threads);
        if (r) {
            int creation = region_nodes && (region_nodes[r - m->regions] & HAS_ROOT) &&
                           !node->task_root;
            /* marked as pomp-report marks it: a path with executions counted
             * untimed, its own region throttled or one it ran inside (a region
             * run inside a throttled one read 1 ms of 20 unmarked; a probe) */
            fprintf(f, "%s%s%s%s%s", r->type, r->ctc.name ? " " : "",
                    r->ctc.name ? r->ctc.name : "", creation ? " (creation)" : "",
                    rows[i].untimed ? " [throttled]" : "");
            /* a region the runtime reported without a file is named by its
             * function (no debug information) and placed where its nearest
             * enclosing region with a place is, as pomp-report does; the
             * library's own region ("pomp flush") has no place at all */
            size_t at = rows[i].node;
            const struct pomp_run_region *where = NULL;
            while (!r->ctc.file && m->nodes[at].parent && !where) {
                at = m->nodes[at].parent;
                const struct pomp_run_region *up = m->nodes[at].region;
                if (up && (up->ctc.file || has_function_place(run, up)))
                    where = up;
            }
            /* placed in another, it is named by a function of its own only:
             * one folded over several (a header's loop barrier in two
             * compile units) was its module and offset, twin of the other
             * such barrier in the header, where pomp-report says "in for @
             * kern.h:11-12" (a probe) */
            int placed = !r->ctc.file &&
                         (where ? region_function(r) != NULL : has_function_place(run, r));
            if (r->ctc.file) {
                fprintf(f, " @ %s:%d", r->ctc.file, r->ctc.start_line_first);
            } else if (placed) {
                fputs(" @ ", f);
                print_function_place(f, run, r);
            }
            if (where && where->ctc.file) {
                fprintf(f, "%s in %s @ %s:%d", placed ? "," : "", where->type, where->ctc.file,
                        where->ctc.start_line_first);
            } else if (where) {
                fprintf(f, "%s in %s @ ", placed ? "," : "", where->type);
                print_function_place(f, run, where);
            }
            fputc('\n', f);
        } else
            fputs("<overflow: more paths than the profile holds>\n", f);
    }
    pomp_devices_summary(f, run);
    pomp_summary_note_throttled(f, run);
    pomp_summary_note_paused(f, run);
    pomp_summary_note_cpu_waits(f, run);
    if (profile_written) { /* a command to paste: quoted where the shell would split it */
        int plain = run->dir[strspn(run->dir, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                              "0123456789_-./+,:@%=")] == '\0';
        /* (./ before a name that starts with '-', which pomp-report took for an
         * option: "unknown option '-dash'"; a probe) */
        fprintf(f, "pomp: full tables: pomp-report %s%s", run->dir[0] == '-' ? "./" : "",
                plain ? run->dir : "'");
        for (const char *c = run->dir; !plain && *c; c++)
            fputs(*c == '\'' ? "'\\''" : (char[2]){*c, '\0'}, f);
        fputs(plain ? "\n" : "'\n", f);
    }
    free(region_nodes);
    free(rows);
}

/* The threads' waits for a CPU, where they are a share of their time in the
 * run that every figure holds (more threads runnable than CPUs free): the
 * figure pomp-report's efficiency note gives (report_pop.c, cpu_waits: the
 * first thread in the run for the whole run, the others for their lives). */
static void pomp_summary_note_cpu_waits(FILE *f, const struct pomp_run *run)
{
    const struct pomp_merged *m = &run->profile;
    double wait = 0, in_run = 0;
    unsigned long unread = 0;
    int known = 0;
    for (uint32_t i = 0; i < m->nthreads; i++) {
        struct pomp_thread_life life;
        if (m->threads[i].device >= 0)
            continue;
        pomp_thread_life_of(run, &m->threads[i], &life);
        if (!life.wait_known)
            continue;
        known = 1;
        wait += life.wait;
        unread += m->threads[i].cpu_wait_unread;
        in_run += i == 0 ? run->duration_ns : life.apart ? life.wait_life : life.end - life.start;
    }
    if (!known || in_run <= 0 || wait / in_run < POMP_CPU_WAIT_SAID)
        return;
    fprintf(f, "pomp: note: threads waited %.1f ms for a CPU, %.0f %% of their %.1f ms in the run "
               "(runnable, not running: more threads than free CPUs): that time reads as work or "
               "as waits in every figure (docs/output.md)",
            wait / 1e6, 100 * wait / in_run, in_run / 1e6);
    /* as pomp-report says it: the share is of the threads read */
    if (unread > 0)
        fprintf(f, "; %lu OS thread%s that ended within 1 ms of %s first event %s not read",
                unread, unread == 1 ? "" : "s", unread == 1 ? "its" : "their",
                unread == 1 ? "was" : "were");
    fputc('\n', f);
}

/* A duration as POMP_THROTTLE writes it: "10 us", "100 ns", "1 s". */
static const char *throttle_duration(char *buf, size_t size, double ns)
{
    static const struct { double ns; const char *unit; } units[] = {
        {1e9, "s"}, {1e6, "ms"}, {1e3, "us"}, {1, "ns"}};
    size_t u = 0;
    while (u + 1 < sizeof units / sizeof *units && ns < units[u].ns)
        u++;
    snprintf(buf, size, "%g %s", ns / units[u].ns, units[u].unit);
    return buf;
}

/* Measurement paused: its time is in no figure, and would read as the run's
 * serial time (pomp-report rates the parallel regions, not the run). */
static void pomp_summary_note_paused(FILE *f, const struct pomp_run *run)
{
    if (!run->paused_times)
        return;
    fprintf(f,
            "pomp: note: measurement was paused %u time%s (POMP_Off, #pragma pomp inst off), "
            "%.1f ms of the run's %.1f ms: what ran then is in no figure; pomp-report rates "
            "the parallel regions, not the run, whose serial time it would read as\n",
            run->paused_times, run->paused_times == 1 ? "" : "s", run->paused_ns / 1e6,
            run->duration_ns / 1e6);
}

/* The regions throttled (POMP_THROTTLE): which, from when, and how to time them all. */
static void pomp_summary_note_throttled(FILE *f, const struct pomp_run *run)
{
    enum { LISTED = 4 };
    const struct pomp_merged *m = &run->profile;
    uint32_t n = 0;
    for (uint32_t i = 0; i < m->nregions; i++)
        n += m->regions[i].throttled_ns != 0 && !m->regions[i].same_as;
    if (!n)
        return;
    /* the early rule (pomp_profile.h): a tenth of the executions, a tenth of the mean */
    char mean[32], early[80] = "";
    if (run->throttle_early) {
        char early_mean[32];
        snprintf(early, sizeof early, ", or %llu under %s",
                 (unsigned long long)(run->throttle_visits / run->throttle_early),
                 throttle_duration(early_mean, sizeof early_mean,
                                   (double)run->throttle_ns / run->throttle_early));
    }
    fprintf(f, "pomp: note: %u region%s throttled (more than %llu executions on a path under %s "
               "each%s): counted, not timed, from then on:",
            n, n == 1 ? "" : "s", (unsigned long long)run->throttle_visits,
            throttle_duration(mean, sizeof mean, (double)run->throttle_ns), early);
    uint32_t shown = 0;
    for (uint32_t i = 0; i < m->nregions && shown < LISTED; i++) {
        const struct pomp_run_region *r = &m->regions[i];
        if (!r->throttled_ns || r->same_as)
            continue;
        fprintf(f, "%s %s%s%s", shown ? "," : "", r->type, r->ctc.name ? " " : "",
                r->ctc.name ? r->ctc.name : "");
        if (r->ctc.file && r->ctc.file[0])
            fprintf(f, " @ %s:%d", r->ctc.file, r->ctc.start_line_first);
        fprintf(f, " (from %.3f s)", r->throttled_ns / 1e9);
        shown++;
    }
    /* (a probe: a loop throttled in a phase of tiny executions, 400 ms of
     * long ones later read as its parent's, unsaid) */
    fprintf(f, "%s; their time since is their enclosing region's own; POMP_THROTTLE=off times "
               "them all\n",
            n > shown ? ", ..." : "");
    /* a throttled site that waits: its waits read as work from then on */
    int waits = 0;
    for (uint32_t i = 0; i < m->nregions; i++) {
        const struct pomp_run_region *r = &m->regions[i];
        waits |= r->throttled_ns && !r->same_as && pomp_type_waits_to_enter(r->type);
    }
    if (waits)
        fprintf(f, "pomp: note: the waits of throttled critical, ordered or lock sites (to enter, "
                   "to take the lock) are not timed from then on: they read as work, and "
                   "pomp-report marks the efficiencies they raise with '!'\n");
}

/* POMP_LOOP=IterEvent or IterBeginEnd where no loop was built with iteration
 * events (their CTC's iterationEvents, pompcc --pomp-iterations): nothing
 * feeds that level, and nothing said so. */
static void note_no_iteration_events(FILE *f, const struct pomp_run *run)
{
    const char *level = NULL;
    for (uint32_t g = 0; g < run->ngroups && run->group_names && run->level_names; g++)
        if (strcasecmp(run->group_names[g], "loop") == 0)
            level = run->level_names[g];
    if (!level || (strcasecmp(level, "IterEvent") != 0 && strcasecmp(level, "IterBeginEnd") != 0))
        return;
    const struct pomp_merged *m = &run->profile;
    for (uint32_t i = 0; i < m->nregions; i++)
        if (ctc_get(&m->regions[i].ctc, "iterationEvents"))
            return;
    fprintf(f, "pomp: note: POMP_LOOP=%s records loop iterations, but no loop of this program was "
               "built with iteration events (pompcc --pomp-iterations): none were recorded\n",
            level);
}

/* "type name @ file:line", as far as known */
static void say_region(FILE *f, const struct pomp_run_region *r)
{
    fprintf(f, "%s%s%s", r->type, r->ctc.name ? " " : "", r->ctc.name ? r->ctc.name : "");
    if (r->ctc.file && r->ctc.file[0])
        fprintf(f, " @ %s:%d", r->ctc.file, r->ctc.start_line_first);
}

void pomp_summary_warn_losses(FILE *f, const struct pomp_run *run, int profile_written)
{
    const struct pomp_merged *m = &run->profile;
    uint64_t errors = 0, paths = 0, deep = 0, values = 0, open = 0, interrupted = 0;
    uint32_t max_nodes = 0, unmatched = 0, unended = 0, first_open = 0;
    for (uint32_t t = 0; t < m->nthreads; t++) {
        const struct pomp_run_thread *th = &m->threads[t];
        errors += th->nesting_errors;
        if (!unmatched) {
            unmatched = th->first_unmatched;
            unended = th->first_unended;
        }
        open += th->open_at_end;
        if (!first_open)
            first_open = th->first_open;
        paths += th->dropped_paths;
        deep += th->deep_events;
        values += th->dropped_values;
        interrupted += th->interrupted_events;
        if (th->max_nodes > max_nodes)
            max_nodes = th->max_nodes;
    }
    if (errors) {
        fprintf(f, "pomp: warning: %llu unmatched end/exit events", (unsigned long long)errors);
        /* where: a region that ends in another thread or region than it began in */
        const struct pomp_run_region *r =
            unmatched && unmatched <= m->nregions ? &m->regions[unmatched - 1] : NULL;
        const struct pomp_run_region *inside =
            unended && unended <= m->nregions ? &m->regions[unended - 1] : NULL;
        if (r) {
            fputs(", the first of ", f);
            say_region(f, r);
            if (inside) { /* (it named only the end that came, not the region left open) */
                fputs(", which ended with ", f);
                say_region(f, inside);
                fputs(" still open inside it (that region's end missing, an altend before an "
                      "early exit?, or this one's end misplaced)",
                      f);
            } else {
                fputs(" (a region that ends where it did not begin?)", f);
            }
        }
        fputs(" (see profile.json threads)\n", f);
    }
    if (open) {
        fprintf(f, "pomp: warning: %llu region%s still open when measurement ended",
                (unsigned long long)open, open == 1 ? " was" : "s were");
        /* which: a user region whose end never came went unnamed (a probe) */
        const struct pomp_run_region *r =
            first_open && first_open <= m->nregions ? &m->regions[first_open - 1] : NULL;
        if (r) {
            fputs(", the first of ", f);
            say_region(f, r);
        }
        fputs(" (exit() or a signal inside them, a longjmp out of them, or a begin without its "
              "end): timed to the end (profile.json threads[].open_at_end)\n",
              f);
    }
    if (paths)
        fprintf(f,
                "pomp: warning: %llu entries into call paths that did not fit the profile "
                "(POMP_PROFILE_NODES=%u per thread; a path counts at each entry, so fewer paths): "
                "their figures are in the <overflow> row; raise POMP_PROFILE_NODES\n",
                (unsigned long long)paths, max_nodes);
    if (deep)
        fprintf(f,
                "pomp: warning: %llu events nested deeper than %u regions (POMP_PROFILE_DEPTH) were "
                "not recorded (their time stays with the deepest recorded region; profile.json "
                "threads[].deep_events); raise POMP_PROFILE_DEPTH\n",
                (unsigned long long)deep, run->max_depth);
    if (values)
        fprintf(f, "pomp: warning: %llu value lists did not fit the value pool (profile.json "
                   "threads[].dropped_values)\n",
                (unsigned long long)values);
    if (interrupted)
        fprintf(f,
                "pomp: warning: %llu events of signal handlers (POMP regions in a handler) came "
                "while their thread was inside another event, and were not recorded (profile.json "
                "threads[].interrupted_events)\n",
                (unsigned long long)interrupted);
    if (!profile_written && (errors || open || deep || values || interrupted))
        fprintf(f, "pomp: (the profile.json these warnings name was not written)\n");
    note_no_iteration_events(f, run);
}
