#include "report_json.h"

#include "report_flame.h"

#include <stdio.h>
#include <string.h>

/* A count: an integer where it is one (28656, not 28656.0: a probe), which
 * every count is but an estimate's share. */
static json_t *count(double v)
{
    /* (the range first: a cast of a double out of it is undefined) */
    return v > -9007199254740992.0 && v < 9007199254740992.0 && v == (double)(json_int_t)v
               ? json_integer((json_int_t)v)
               : json_real(v);
}

static json_t *stats(const struct rp_stats *s, json_t *o)
{
    json_object_set_new(o, "visits", count(s->visits));
    json_object_set_new(o, "threads", json_integer((json_int_t)s->threads));
    json_object_set_new(o, "min_ns", json_real(s->min));
    json_object_set_new(o, "mean_ns", json_real(s->mean));
    json_object_set_new(o, "max_ns", json_real(s->max));
    json_object_set_new(o, "imbalance_pct", json_real(s->imbalance));
    json_object_set_new(o, "load_balance_pct",
                        s->load_balance >= 0 ? json_real(s->load_balance) : json_null());
    json_object_set_new(o, "incl_sum_ns", json_real(s->incl_sum));
    json_object_set_new(o, "self_ns", json_real(s->self_sum));
    return o;
}

static json_t *regions(const struct rp_profile *p)
{
    json_t *a = json_array();
    for (size_t i = 0; i < p->nregions; i++) {
        const struct rp_region *r = &p->regions[i];
        char label[200], loc[RP_LOCATION_MAX];
        rp_region_label(r, label, sizeof label);
        rp_region_location(r, loc, sizeof loc);
        json_t *o = json_pack("{sI ss ss ss si si ss ss}", "id", (json_int_t)r->id, "type",
                              r->type, "name", r->name, "file", r->file, "first_line",
                              r->first_line, "last_line", r->last_line, "label", label,
                              "location", loc);
        /* the names of its user values, which the call paths' per_thread
         * figures give by position only (they went without names: a probe) */
        json_t *values = json_object_get(r->json, "values");
        if (o && json_is_object(values))
            json_object_set(o, "values", values);
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *callpath(const struct rp_profile *p)
{
    json_t *a = json_array();
    for (size_t i = 0; i < p->nnodes; i++) {
        const struct rp_node *n = &p->nodes[i];
        json_t *o = json_pack("{sI sI si}", "id", (json_int_t)n->id, "parent", (json_int_t)n->parent,
                              "depth", n->depth);
        json_object_set_new(o, "region", n->region ? json_integer(n->region->id) : json_null());
        if (n->task_root)
            json_object_set_new(o, "task_root", json_true());
        if (n->binding_id) /* a task root: the node where its tasks' team was forked */
            json_object_set_new(o, "binding", json_integer(n->binding_id));
        /* the row's words as the text's call-path table has them: "[throttled]"
         * marks the paths with untimed executions, not every path of a
         * throttled region (the page labelled the rows by their region: a
         * throttled task's timed executions "task [throttled]", a critical
         * counted untimed inside a throttled region "critical"; a probe) */
        char label[256], loc[RP_LOCATION_MAX];
        rp_node_label(n, label, sizeof label);
        json_object_set_new(o, "label", json_string(label));
        rp_node_location(p, i, loc, sizeof loc);
        json_object_set_new(o, "location", json_string(loc));
        stats(&n->s, o);
        json_object_set(o, "per_thread", n->per_thread ? n->per_thread : json_array());
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *flat(const struct rp_profile *p)
{
    json_t *a = json_array();
    static const char *const parts[] = {[RP_FLAT_ALL] = "all",
                                        [RP_FLAT_CREATIONS] = "creations",
                                        [RP_FLAT_EXECUTIONS] = "executions",
                                        [RP_FLAT_AT_PLACE] = "all"};
    for (size_t i = 0; i < p->nflat; i++) {
        const struct rp_flat *f = &p->flat[i];
        json_t *row = json_pack("{sIss}", "region", (json_int_t)f->region->id, "part",
                                parts[f->part]);
        if (row && f->part == RP_FLAT_AT_PLACE) /* the region that places it (null: none) */
            json_object_set_new(row, "placed_in",
                                f->place ? json_integer(f->place->id) : json_null());
        char label[256], loc[RP_LOCATION_MAX]; /* as the text says them (the HTML shows these) */
        rp_flat_label(p, f, label, sizeof label);
        rp_flat_location(f, loc, sizeof loc);
        json_object_set_new(row, "label", json_string(label));
        json_object_set_new(row, "location", json_string(loc));
        json_array_append_new(a, stats(&f->s, row));
    }
    return a;
}

static json_t *waits(const struct rp_profile *p)
{
    json_t *cats = json_array(), *rows = json_array();
    for (int k = 0; k < WAIT_COUNT; k++)
        json_array_append_new(cats, json_string(wait_names[k]));
    for (size_t i = 0; i < p->nwaits; i++) {
        const struct rp_wait_row *w = &p->waits[i];
        json_t *values = json_object();
        for (int k = 0; k < WAIT_COUNT; k++)
            json_object_set_new(values, wait_names[k], json_real(w->waits[k]));
        json_t *o = json_pack("{so sf sf}", "ns", values, "thread_time_ns", w->thread_time,
                              "total_ns", w->total);
        json_object_set_new(o, "node", w->node ? json_integer(w->node->id) : json_null());
        json_object_set_new(o, "task_root", json_boolean(w->node && w->node->task_root));
        json_object_set_new(o, "region",
                            w->node && w->node->region ? json_integer(w->node->region->id)
                                                       : json_null());
        char label[256], loc[RP_LOCATION_MAX]; /* as the text says them */
        rp_wait_label(w, label, sizeof label);
        if (w->node)
            rp_node_location(p, (size_t)(w->node - p->nodes), loc, sizeof loc);
        else
            snprintf(loc, sizeof loc, "-");
        json_object_set_new(o, "label", json_string(label));
        json_object_set_new(o, "location", json_string(loc));
        json_array_append_new(rows, o);
    }
    return json_pack("{ss so so}", "source", p->wait_source, "categories", cats, "rows", rows);
}

/* The POP metrics of the run or of one parallel region, in percent. */
static json_t *pop(const struct rp_pop *m)
{
    json_t *o = json_pack("{sf sI sf sf sf sf sf sf}", "elapsed_ns", m->elapsed_ns, "threads",
                          (json_int_t)m->threads, "useful_mean_ns", m->useful_mean_ns,
                          "useful_max_ns", m->useful_max_ns, "parallel_efficiency_pct",
                          100 * m->parallel_eff, "load_balance_pct", 100 * m->load_balance,
                          "synchronisation_efficiency_pct", 100 * m->sync_eff,
                          "fork_join_efficiency_pct", 100 * m->fork_join_eff);
    if (o) { /* waits not measured (throttled regions, blocks not recorded): overstated figures */
        json_object_set_new(o, "untimed_wait_executions", count(m->untimed_waits));
        json_object_set_new(o, "untimed_wait_enclosing_own_ns", count(m->untimed_wait_own_ns));
        json_object_set_new(o, "blockless_wait_executions", count(m->blockless_waits));
    }
    if (o && m->node) {
        char label[256], loc[RP_LOCATION_MAX]; /* as the text says them */
        rp_region_label(m->node->region, label, sizeof label);
        rp_region_location(m->node->region, loc, sizeof loc);
        json_object_set_new(o, "label", json_string(label));
        json_object_set_new(o, "location", json_string(loc));
        json_object_set_new(o, "shared_task_waits", json_boolean(m->shared_task_waits));
        json_object_set_new(o, "node", json_integer(m->node->id));
        json_object_set_new(o, "region", m->node->region ? json_integer(m->node->region->id)
                                                         : json_null());
    }
    return o;
}

static json_t *efficiency(const struct rp_profile *p)
{
    json_t *regions = json_array();
    if (p->pop_not_rated[0]) /* a level that records no wait, no task's execution */
        return json_pack("{s{sf sI sb ss} so sI}", "run", "elapsed_ns", p->pop_run.elapsed_ns,
                         "threads", (json_int_t)p->pop_run.threads, "rated", 0, "why",
                         p->pop_not_rated, "parallel_regions", regions,
                         "parallel_regions_without_shares", (json_int_t)p->pop_without_shares);
    for (size_t i = 0; i < p->npop; i++)
        json_array_append_new(regions, pop(&p->pop_regions[i]));
    /* not the run where its figures alone are not rated (pop_run_not_rated) */
    int run_rated = !p->pop_run_not_rated[0];
    json_t *run = !run_rated ? json_pack("{sf sI sb ss}", "elapsed_ns", p->pop_run.elapsed_ns,
                                         "threads", (json_int_t)p->pop_run.threads, "rated", 0,
                                         "why", p->pop_run_not_rated)
                             : pop(&p->pop_run);
    /* (said whether or not the run is rated: its regions are marked by them) */
    if (run && rp_lock_waits_unrecorded(p)) /* (lock waits read as work) */
        json_object_set_new(run, "lock_waits_unrecorded_by",
                            json_string(rp_lock_waits_unrecorded(p)));
    if (run && rp_barrier_waits_unrecorded(p)) { /* (no implicit barrier) */
        json_object_set_new(run, "implicit_barrier_waits_unrecorded_by",
                            json_string(rp_barrier_waits_unrecorded(p)));
        /* those inside the shares: read as work */
        json_object_set_new(run, "worksharing_barriers_unrecorded",
                            json_integer((json_int_t)rp_worksharing_barriers_unrecorded(p)));
    }
    if (run && p->cpu_wait_ns >= 0) { /* (the machine's share of the figures) */
        json_object_set_new(run, "cpu_wait_ns", json_real(p->cpu_wait_ns));
        json_object_set_new(run, "cpu_wait_pct", json_real(100 * rp_cpu_wait_share(p)));
        json_object_set_new(run, "cpu_wait_unread", count(p->cpu_wait_unread));
    }
    return json_pack("{so so sI}", "run", run, "parallel_regions", regions,
                     "parallel_regions_without_shares", (json_int_t)p->pop_without_shares);
}

/* Task constructs whose tasks did not all run (report_data.c, find_unrun). */
static json_t *tasks_not_run(const struct rp_profile *p)
{
    json_t *a = json_array();
    for (size_t k = 0; k < p->nunrun; k++)
        json_array_append_new(a, json_pack("{sI sf sf sb sb sb sb}", "region",
                                           (json_int_t)p->unrun[k].region->id, "created",
                                           p->unrun[k].created, "ran", p->unrun[k].ran,
                                           "cancelled", p->unrun[k].cancelled, "runs_unmeasured",
                                           p->runs_unmeasured, "runs_too_deep", p->runs_too_deep,
                                           "runs_in_overflow", p->runs_overflowed));
    return a;
}

json_t *report_json(const struct rp_profile *p)
{
    json_t *threads = json_object_get(p->root, "threads");
    json_t *out = json_pack("{ss si ss sI sf sO so so so so so}", "format", "pomp-report", "version",
                            1, "program", p->program, "pid", (json_int_t)p->pid, "duration_ns",
                            p->duration_ns, "threads", threads, "regions", regions(p), "callpath",
                            callpath(p), "flat", flat(p), "waits", waits(p), "sampling",
                            report_flame_json(p->root));
    json_t *devices = json_object_get(p->root, "devices"); /* target offloading, as profiled */
    if (out && devices)
        json_object_set(out, "devices", devices);
    json_t *unmeasured = json_object_get(p->root, "unmeasured"); /* what a source could not measure */
    if (out && unmeasured)
        json_object_set(out, "unmeasured", unmeasured);
    json_t *together = json_object_get(p->root, "kept_together"); /* what it could not keep apart */
    if (out && together)
        json_object_set(out, "kept_together", together);
    if (out) {
        /* the count the text's header and the exit summary give: not the
         * runtime's regions no call path holds (a block the instrumentation's
         * region took over, one made while measurement was paused), which
         * `regions` lists all the same (the page said 15 where they said 14) */
        json_object_set_new(out, "regions_counted", json_integer((json_int_t)rp_regions_counted(p)));
        json_object_set_new(out, "efficiency", efficiency(p));
        json_object_set_new(out, "tasks_not_run", tasks_not_run(p));
    }
    return out;
}
