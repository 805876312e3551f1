#include "pomp_run_build.h"

#include <errno.h> /* program_invocation_short_name (GNU) */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pomp_control.h"
#include "pomp_devices.h"
#include "pomp_levels.h"
#include "pomp_merge.h"
#include "pomp_outdir.h"
#include "pomp_sources.h"
#include "pomp_profile.h"
#include "pomp_region.h"
#include "pomp_sampling.h"
#include "pomp_thread.h"
#include "pomp_trace_buffer.h"

static const char *const *group_names(void)
{
    static const char *names[POMP_GROUP_COUNT];
    for (int g = 0; g < POMP_GROUP_COUNT; g++)
        names[g] = pomp_group_name((enum pomp_group)g);
    return names;
}

static const char *const *level_names(void)
{
    static const char *names[POMP_GROUP_COUNT];
    for (int g = 0; g < POMP_GROUP_COUNT; g++)
        names[g] = pomp_level_name((enum pomp_level)pomp_active_level[g]);
    return names;
}

/* Appends to buf (size bytes, *len used), cut where it is full. */
static void append(char *buf, size_t size, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void append(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *len, size - *len, fmt, ap);
    va_end(ap);
    if (n > 0)
        *len = *len + (size_t)n < size ? *len + (size_t)n : size - 1;
}

/* Whether group g is set to a level that records less than its default
 * (POMP_USER=EnterExit: a user region's begin and end, the only events a
 * program of user regions makes, are not recorded; it was said that no POMP
 * region ran; a probe). */
static int level_rank(unsigned level)
{
    return level == POMP_LEVEL_NONE ? 0 : level == POMP_LEVEL_EVENT ? 1 : level == POMP_LEVEL_ENTEREXIT ? 2 : 3;
}

static int group_lowered(enum pomp_group g)
{
    int rank = level_rank(pomp_active_level[g]);
    return rank > 0 && rank < level_rank(pomp_level_default(g));
}

/* Settings under which constructs that ran record nothing: a source's events
 * off (the runtime's: all that pomprun measures), every group at none, or
 * some at none, or filters that took out regions (a filter whose pattern has
 * a typo, or levels that left nothing, read as "no OpenMP construct or POMP
 * region ran"; a probe). */
static const char *unrecording_settings(char *buf, size_t size)
{
    const char *declined = pomp_sources_declined_by();
    int all_none = 1, some_none = 0, some_lowered = 0;
    for (int g = 0; g < POMP_GROUP_COUNT; g++) {
        all_none &= pomp_active_level[g] == POMP_LEVEL_NONE;
        some_none |= pomp_active_level[g] == POMP_LEVEL_NONE;
        some_lowered |= group_lowered((enum pomp_group)g);
    }
    uint32_t regions = 0, filtered = 0;
    for (const struct POMP_Region_s *r = pomp_region_list(); r; r = r->next, regions++)
        filtered += r->filtered_out;
    if (!declined && !some_none && !some_lowered && !filtered)
        return NULL;
    size_t len = 0;
    buf[0] = '\0';
    if (declined)
        append(buf, size, &len, "%s", declined);
    if (all_none)
        append(buf, size, &len, "%severy POMP_<GROUP>=none", len ? "; " : "");
    for (int g = 0; !all_none && g < POMP_GROUP_COUNT; g++)
        if (pomp_active_level[g] == POMP_LEVEL_NONE || group_lowered((enum pomp_group)g))
            append(buf, size, &len, "%sPOMP_%s=%s", len ? "; " : "",
                   pomp_group_name((enum pomp_group)g),
                   pomp_level_name((enum pomp_level)pomp_active_level[g]));
    if (filtered)
        append(buf, size, &len,
               "%sPOMP_FILTER_INCLUDE/POMP_FILTER_EXCLUDE: %u of the %u regions filtered out",
               len ? "; " : "", filtered, regions);
    return buf;
}

/* Writes what is left in every thread's trace buffer, so that the counts the
 * profile reports are final. */
static void finish_raw_traces(void)
{
    char path[4300];
    pomp_trace_raw_path(0, path, sizeof path); /* makes trace-raw/, even for a run without events */
    uint32_t n;
    for (struct pomp_thread *t = pomp_thread_list(&n); t; t = t->next)
        pomp_eventlog_finish(&t->log, t->index);
}

static void keep_said(void *ctx, const char *what)
{
    struct pomp_run_said *said = ctx;
    if (said->n == POMP_RUN_UNMEASURED) {
        said->past++;
        return;
    }
    snprintf(said->text[said->n++], sizeof said->text[0], "%s", what);
}

int pomp_run_build(struct pomp_run *run, const struct pomp_config *cfg,
                   const struct pomp_clock *clock)
{
    memset(run, 0, sizeof *run);
    run->program = program_invocation_short_name;
    run->pid = (int)getpid();
    uint32_t nthreads;
    (void)pomp_thread_list(&nthreads);
    /* a program that never reached an OpenMP construct or POMP region (a
     * configure test built by pompcc): no directory full of nothing. Samples
     * are something: a plain program under pomprun with POMP_OMPT=off records
     * no event, and its samples were dropped as nothing (a probe) */
    run->nothing_recorded = nthreads == 0 && !cfg->trace && !pomp_sampling_is_on();
    if (run->nothing_recorded)
        run->unrecording = unrecording_settings(run->unrecording_buf, sizeof run->unrecording_buf);
    /* a directory only where something is written into it: a profile or a
     * trace (POMP_PROFILE=off without a trace left an empty one) */
    if (!run->nothing_recorded && (cfg->profile || cfg->trace))
        run->dir = pomp_output_dir(&run->dir_errno);
    run->clock = *clock;
    run->duration_ns = pomp_ticks_to_ns(clock, clock->end_ticks - clock->start_ticks);
    pomp_sources_unmeasured(keep_said, &run->unmeasured);
    pomp_sources_kept_together(keep_said, &run->kept_together);
    run->runtime_events_off_by = pomp_sources_declined_by();
    uint64_t paused_ticks;
    pomp_paused(&paused_ticks, &run->paused_times);
    run->paused_ns = (uint64_t)pomp_ticks_to_ns(clock, paused_ticks);
    run->write_profile = cfg->profile;
    run->summary = cfg->summary;
    run->max_depth = cfg->profile_depth;
    run->throttle_visits = cfg->throttle_visits;
    run->throttle_ns = cfg->throttle_ns;
    /* the early rule, where a check comes before the executions reach the
     * rule's (maybe_throttle checks at each multiple of 1024 from a tenth of
     * them on: 9,000 under 1 us throttled after 1,024 under 100 ns, and the
     * note named the rule alone; a probe) */
    uint64_t early = cfg->throttle_visits / POMP_THROTTLE_EARLY;
    uint64_t first_check = (early + POMP_THROTTLE_CHECK_EVERY - 1) / POMP_THROTTLE_CHECK_EVERY *
                           POMP_THROTTLE_CHECK_EVERY;
    if (first_check < POMP_THROTTLE_CHECK_EVERY)
        first_check = POMP_THROTTLE_CHECK_EVERY;
    run->throttle_early = first_check < cfg->throttle_visits ? POMP_THROTTLE_EARLY : 0;
    run->trace = cfg->trace;
    run->ngroups = POMP_GROUP_COUNT;
    run->group_names = group_names();
    run->level_names = level_names();
    if (cfg->trace && !run->dir_errno)
        finish_raw_traces();
    if (pomp_merge(&run->profile) != 0) {
        fprintf(stderr, "pomp: error: out of memory while merging the profile\n");
        return -1;
    }
    pomp_devices_snapshot(run->devices);
    if (pomp_sampling_is_on()) {
        run->sampling.on = 1;
        run->sampling.period_ns = pomp_sampling_period_ns();
        run->sampling.timer = pomp_sampling_timer_name();
        run->sampling.complete = pomp_sampling_merge(&run->sampling.tree, &run->sampling.taken,
                                                     &run->sampling.lost) == 0;
        struct pomp_sampling_raised raised;
        pomp_sampling_raised(&raised);
        run->sampling.raised_threads = raised.threads;
        run->sampling.blocked_threads = raised.blocked_threads;
        run->sampling.max_period_ns = raised.threads ? raised.max_period_ns : run->sampling.period_ns;
    }
    return 0;
}

void pomp_run_free(struct pomp_run *run)
{
    pomp_merged_free(&run->profile);
    if (run->sampling.on)
        pomp_sample_tree_destroy(&run->sampling.tree);
    memset(run, 0, sizeof *run);
}
