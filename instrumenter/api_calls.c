/* Runtime API call sites (seed 002 §3.4, Tables 6-8): each call of an OpenMP
 * lock routine or of a routine of Table 8 in a function body becomes a call of
 * a macro from the generated include file, which evaluates the arguments once,
 * calls the routine, records its Runtime-group events with the call site's
 * handle and CTC, and yields the routine's value.
 *
 * (docs/instrumentation.md.)
 *
 *   omp_set_lock(&l)   becomes   pomp_omp_set_lock_7_(3, 0, &l)
 *
 * (pomp_: the file's prefix of declared names, rw_local)
 *
 * with, in the include file,
 *
 *   #define pomp_omp_set_lock_7_(k, f, a) __extension__ ({ __typeof__(&*(a)) pomp_l_ = (a);
 *       int pomp_fl_ = POMP_Fast_counted(pomp_f_(f)); if (!pomp_fl_) POMP_Set_lock_enter(...);
 *       omp_set_lock(pomp_l_); if (!pomp_fl_) POMP_Set_lock_exit_slow(...); ... })
 *
 * (f: the site's inline counter, for a lock's set, unset and test only).
 *
 * Only the callee and the '(' are replaced: the arguments stay where they are
 * (other calls inside them are rewritten too), and a statement expression keeps
 * the call an expression of the same type. The macro's number is the set of
 * POMP calls it makes: those the compile-time level at the call keeps. */
#include <stdlib.h>
#include <string.h>

#include "ctc.h"
#include "inst_levels.h"
#include "modules.h"
#include "rewriter.h"
#include "source.h"

enum shape {
    LOCK,       /* void omp_x(lock) */
    LOCK_HINT,  /* void omp_x(lock, hint) */
    TEST,       /* int omp_x(lock) */
    SET_VALUE,  /* void omp_x(int) */
    GET_VALUE,  /* int omp_x(void) */
};

/* How a POMP routine is called: its arguments after (handle, thread id). */
enum form { F_LOCK, F_LOCK_EXIT, F_TEST, F_VALUE };

struct step {
    const char *routine;   /* without POMP_; NULL ends the list */
    enum form form;
    int before;            /* before the routine is called (else after) */
    int offers;            /* calls POMP_<routine>_slow, which offers the site's inline counter */
};

#define MAX_STEPS 3
static const struct api_routine {
    const char *name;
    enum shape shape;
    struct step steps[MAX_STEPS];
} routines[] = {
    /* Table 6: the unset and destroy events come before the call, so a release
     * is recorded before another thread can acquire the lock. */
    {"omp_init_lock", LOCK, {{"Init_lock_event", F_LOCK, 0, 0}}},
    {"omp_init_lock_with_hint", LOCK_HINT, {{"Init_lock_event", F_LOCK, 0, 0}}},
    {"omp_destroy_lock", LOCK, {{"Destroy_lock_event", F_LOCK, 1, 0}}},
    {"omp_set_lock", LOCK,
     {{"Set_lock_enter", F_LOCK, 1, 0},
      {"Set_lock_exit", F_LOCK_EXIT, 0, 1},
      {"Set_lock_event", F_LOCK, 0, 0}}},
    {"omp_unset_lock", LOCK, {{"Unset_lock_event", F_LOCK, 1, 1}}},
    {"omp_test_lock", TEST, {{"Test_lock_event", F_TEST, 0, 1}}},
    /* Table 7 */
    {"omp_init_nest_lock", LOCK, {{"Init_nest_lock_event", F_LOCK, 0, 0}}},
    {"omp_init_nest_lock_with_hint", LOCK_HINT, {{"Init_nest_lock_event", F_LOCK, 0, 0}}},
    {"omp_destroy_nest_lock", LOCK, {{"Destroy_nest_lock_event", F_LOCK, 1, 0}}},
    {"omp_set_nest_lock", LOCK,
     {{"Set_nest_lock_enter", F_LOCK, 1, 0},
      {"Set_nest_lock_exit", F_LOCK_EXIT, 0, 1},
      {"Set_nest_lock_event", F_LOCK, 0, 0}}},
    {"omp_unset_nest_lock", LOCK, {{"Unset_nest_lock_event", F_LOCK, 1, 1}}},
    {"omp_test_nest_lock", TEST, {{"Test_nest_lock_event", F_TEST, 0, 1}}},
    /* Table 8: the value set or returned */
    {"omp_set_num_threads", SET_VALUE, {{"Set_num_threads_event", F_VALUE, 0, 0}}},
    {"omp_get_num_threads", GET_VALUE, {{"Get_num_threads_event", F_VALUE, 0, 0}}},
    {"omp_get_max_threads", GET_VALUE, {{"Get_max_threads_event", F_VALUE, 0, 0}}},
    {"omp_get_thread_num", GET_VALUE, {{"Get_thread_num_event", F_VALUE, 0, 0}}},
    {"omp_get_num_procs", GET_VALUE, {{"Get_num_procs_event", F_VALUE, 0, 0}}},
    {"omp_in_parallel", GET_VALUE, {{"In_parallel_event", F_VALUE, 0, 0}}},
    {"omp_set_dynamic", SET_VALUE, {{"Set_dynamic_event", F_VALUE, 0, 0}}},
    {"omp_get_dynamic", GET_VALUE, {{"Get_dynamic_event", F_VALUE, 0, 0}}},
    {"omp_set_nested", SET_VALUE, {{"Set_nested_event", F_VALUE, 0, 0}}},
    {"omp_get_nested", GET_VALUE, {{"Get_nested_event", F_VALUE, 0, 0}}},
};
#define NROUTINES (sizeof routines / sizeof *routines)

static const unsigned shape_nargs[] = {[LOCK] = 1, [LOCK_HINT] = 2, [TEST] = 1, [SET_VALUE] = 1,
                                       [GET_VALUE] = 0};

struct api_calls {
    struct rewriter *w;
    const struct inst_levels *levels;
    /* which macro variants the file uses: bit m of used[r] for step set m */
    unsigned used[NROUTINES];
};

/* In a header's copy too (headers.c): its call sites' handles, CTC strings
 * and counters are the header's, as its constructs' are; the macros are
 * named after the file's prefix of declared names (rw_local), the only part
 * of their text that differs between files, so a header's and the
 * including file's may both define one. */
static void *api_calls_begin(struct rewriter *w)
{
    struct api_calls *a = xcalloc(1, sizeof *a);
    a->w = w;
    a->levels = rw_module_state(w, &inst_levels_module);
    return a;
}

static const struct api_routine *find_routine(const char *name)
{
    for (size_t i = 0; i < NROUTINES; i++)
        if (strcmp(routines[i].name, name) == 0)
            return &routines[i];
    return NULL;
}

static char *call_ctc(const struct source *s, const char *cwd, const struct source_call *c)
{
    struct ctc_builder b;
    ctc_builder_init(&b);
    ctc_builder_add(&b, "type", c->callee);
    ctc_builder_add_file(&b, source_presumed_file(s, c->start), cwd);
    int first = (int)source_presumed_line(s, c->start), last = (int)source_presumed_line(s, c->end - 1);
    ctc_builder_add_lines(&b, "slines", first, last);
    ctc_builder_add_lines(&b, "elines", first, last);
    return rw_ctc_finish(&b);
}

/* Why a call stays as it is, or NULL if it can be rewritten. */
static const char *why_not(const struct source *s, const struct source_call *c)
{
    if (c->in_macro)
        return "it is part of a macro expansion";
    if (c->unevaluated)
        return "it is never evaluated (sizeof, typeof, decltype, ...)";
    /* a default argument belongs to its function's declaration, not to the body */
    if (c->function < 0 || c->start < s->ast.functions[c->function].body_open ||
        c->start > s->ast.functions[c->function].body_close)
        return "it is not in a function body";
    if (s->ast.functions[c->function].unsupported == FUNCTION_CONSTEXPR)
        return "it is in a constexpr function";
    return NULL;
}

/* Whether a call site with these steps kept has an inline counter (pomplib.h,
 * POMP_Fast_count): a lock's set (its exit offers it), unset or test. Once the
 * site's region is throttled (a test's: from its first call, when no trace is
 * written), a call counted there makes none of its POMP calls: a throttled
 * lock loop cost 2.3x its plain time in four calls a pair. */
static int counted_inline(const struct api_routine *r, unsigned mask)
{
    for (int k = 0; k < MAX_STEPS && r->steps[k].routine; k++)
        if ((mask & (1u << k)) && r->steps[k].offers)
            return 1;
    return 0;
}

/* Whether a step of this form is among the steps kept. */
static int mask_has_form(const struct api_routine *r, unsigned mask, enum form form)
{
    for (int k = 0; k < MAX_STEPS && r->steps[k].routine; k++)
        if ((mask & (1u << k)) && r->steps[k].form == form)
            return 1;
    return 0;
}

/* Whether file (a call's other_real) is a header whose copy settles its
 * calls (rewritten there, or left alone and counted there). */
static int header_instrumented(const struct rewriter *w, const char *file)
{
    const struct instrument_options *o = rw_options(w);
    for (size_t i = 0; i < o->ninstrumented_headers; i++)
        if (strcmp(o->instrumented_headers[i], file) == 0)
            return 1;
    return 0;
}

/* Rewrites every call the AST index found (source_ast.h). */
static int api_calls_instrument(void *state)
{
    struct api_calls *a = state;
    const struct source *s = rw_source(a->w);
    for (size_t i = 0; i < s->ast.ncalls; i++) {
        const struct source_call *c = &s->ast.calls[i];
        const struct api_routine *r = find_routine(c->callee);
        if (!r)
            continue;
        /* a call that takes or gives back a lock (not init or destroy, which wait for nothing) */
        int lock = (r->shape == LOCK || r->shape == TEST) &&
                   (strncmp(c->callee, "omp_set_", 8) == 0 ||
                    strncmp(c->callee, "omp_unset_", 10) == 0 || strncmp(c->callee, "omp_test_", 9) == 0);
        /* another file's call: its copy rewrites it where it has one
         * (headers.c: a header with lock calls or pragmas); each header's
         * copy leaves the others' calls alone, and the main file says
         * which stay as written */
        if (c->other_file && (rw_options(a->w)->header || header_instrumented(a->w, c->other_real)))
            continue;
        if (c->other_file) {
            rw_note_at(a->w, c->other_file, c->other_line, c->other_col,
                       "call of '%s' left alone: it is in a header that is not instrumented "
                       "(no --headers, or the header stays as it is)%s",
                       c->callee, lock ? "; the runtime's events measure its waits" : "");
            if (lock)
                rw_count_left_lock_call(a->w, c->other_file);
            continue;
        }
        const char *why = why_not(s, c);
        if (!why && c->nargs != shape_nargs[r->shape])
            why = "it has an unexpected number of arguments";
        if (why) {
            /* a lock call that runs as written: the link has the runtime's
             * events measure it (one never evaluated waits for nothing) */
            int counted = lock && !c->unevaluated;
            rw_note(a->w, c->start, "call of '%s' left alone: %s%s", c->callee, why,
                    counted ? "; the runtime's events measure its waits" : "");
            if (counted)
                rw_count_left_lock_call(a->w, s->path);
            continue;
        }
        unsigned mask = 0;
        for (int k = 0; k < MAX_STEPS && r->steps[k].routine; k++)
            if (inst_levels_keeps(a->levels, c->start, r->steps[k].routine))
                mask |= 1u << k;
        if (!mask) {
            rw_note(a->w, c->start, "call of '%s' left alone: instrumentation level", c->callee);
            continue;
        }
        a->used[r - routines] |= 1u << mask;
        unsigned region = rw_region(a->w, call_ctc(s, rw_options(a->w)->cwd, c));
        /* after any code inserted at the same place (a construct's block start) */
        const char *v = rw_local(a->w);
        if (counted_inline(r, mask))
            rw_edit(a->w, c->start, c->lparen_end - c->start, 1 << 20,
                    xasprintf("%s%s_%u_(%u, %u, ", v, c->callee, mask, region,
                              rw_fast_counter(a->w)));
        else
            rw_edit(a->w, c->start, c->lparen_end - c->start, 1 << 20,
                    xasprintf("%s%s_%u_(%u%s", v, c->callee, mask, region, c->nargs ? ", " : ""));
        rw_note(a->w, c->start, "instrumented call of '%s'", c->callee);
    }
    return 0;
}

/* One POMP call of a macro; in a site counted inline (fast), made only when
 * this call is not counted (the answer in <v>fl_), the offering step's as
 * POMP_<routine>_slow with the counter. */
static void add_step(struct strbuf *b, const struct step *st, const char *v, int fast)
{
    int slow = fast && st->offers;
    /* a set site's exit (the offering step of a set, whose calls are marked:
     * emit_macro) offers its counter while a bridge follows the lock waits too */
    const char *suffix = !slow ? "" : st->form == F_LOCK_EXIT ? "_marked" : "_slow";
    if (fast)
        sb_printf(b, " if (!%sfl_)", v);
    switch (st->form) {
    case F_LOCK:
        sb_printf(b, " POMP_%s%s(pomp_h_(k), POMP_TID_, %sl_, pomp_c_(k)%s);", st->routine,
                  suffix, v, slow ? ", pomp_f_(f)" : "");
        break;
    case F_LOCK_EXIT:
        sb_printf(b, " POMP_%s%s((*pomp_h_(k)), POMP_TID_, %sl_%s);", st->routine, suffix, v,
                  slow ? ", pomp_f_(f)" : "");
        break;
    case F_TEST:
        sb_printf(b, " POMP_%s%s(pomp_h_(k), POMP_TID_, %sl_, %st_, pomp_c_(k)%s);", st->routine,
                  suffix, v, v, slow ? ", pomp_f_(f)" : "");
        break;
    case F_VALUE: /* (recorded at POMP_RUNTIME=Event only: pomplib.h, POMP_Value_events) */
        sb_printf(b,
                  " if (POMP_Value_events_on())"
                  " POMP_%s(pomp_h_(k), POMP_TID_, %sn_, pomp_c_(k));",
                  st->routine, v);
        break;
    }
}

/* v: the file's prefix of declared names (rw_local): the macro's temporaries
 * never hide a variable of the program passed to it (a lock pointer named
 * pomp_l_ was passed as the uninitialized temporary itself: a crash). */
static void emit_macro(struct strbuf *inc, const struct api_routine *r, unsigned mask,
                       const char *v)
{
    static const char *const params[] = {[LOCK] = "k, a", [LOCK_HINT] = "k, a, b", [TEST] = "k, a",
                                         [SET_VALUE] = "k, a", [GET_VALUE] = "k"};
    int fast = counted_inline(r, mask);
    /* a routine without a value makes a void expression, as its call is:
     * clang's -Wcomma warns of a statement expression left of a comma
     * (omp_set_lock(l), ++n), not of a void one (a -Werror header fell back) */
    int is_void = r->shape == LOCK || r->shape == LOCK_HINT || r->shape == SET_VALUE;
    /* (a header's copy and the including file may define the same one) */
    sb_printf(inc, "#ifndef %s%s_%u_\n#define %s%s_%u_(%s) %s__extension__ ({", v, r->name, mask, v,
              r->name, mask, fast ? "k, f, a" : params[r->shape], is_void ? "((void)" : "");
    switch (r->shape) {
    case LOCK:
    case TEST:
        sb_printf(inc, " __typeof__(&*(a)) %sl_ = (a);", v);
        if (fast) /* the counter's answer before the call, kept for the calls after it */
            sb_printf(inc, " int %sfl_ = POMP_Fast_counted(pomp_f_(f));", v);
        break;
    case LOCK_HINT:
        sb_printf(inc, " __typeof__(&*(a)) %sl_ = (a); __typeof__(b) %shint_ = (b);", v, v);
        break;
    case SET_VALUE:
        sb_printf(inc, " int %sn_ = (a);", v);
        break;
    case GET_VALUE:
        break;
    }
    for (int k = 0; k < MAX_STEPS && r->steps[k].routine; k++)
        if ((mask & (1u << k)) && r->steps[k].before)
            add_step(inc, &r->steps[k], v, fast);
    /* a set counted inline makes no POMP call, and its frame is not open: the
     * mark tells a bridge that follows the runtime's lock waits that the
     * acquisition is this counted call's (pomplib.h, POMP_Fast_lock_mark) */
    int marked = fast && mask_has_form(r, mask, F_LOCK_EXIT);
    switch (r->shape) {
    case LOCK:
        if (marked)
            sb_printf(inc, " POMP_Fast_lock_mark(%sfl_); %s(%sl_); POMP_Fast_lock_mark(0);", v,
                      r->name, v);
        else
            sb_printf(inc, " %s(%sl_);", r->name, v);
        break;
    case LOCK_HINT:
        sb_printf(inc, " %s(%sl_, %shint_);", r->name, v, v);
        break;
    case TEST:
        sb_printf(inc, " int %st_ = %s(%sl_);", v, r->name, v);
        break;
    case SET_VALUE:
        sb_printf(inc, " %s(%sn_);", r->name, v);
        break;
    case GET_VALUE:
        sb_printf(inc, " int %sn_ = %s();", v, r->name);
        break;
    }
    for (int k = 0; k < MAX_STEPS && r->steps[k].routine; k++)
        if ((mask & (1u << k)) && !r->steps[k].before)
            add_step(inc, &r->steps[k], v, fast);
    if (r->shape == TEST)
        sb_printf(inc, " %st_;", v);
    else if (r->shape == GET_VALUE)
        sb_printf(inc, " %sn_;", v);
    sb_printf(inc, " })%s\n#endif\n", is_void ? ")" : "");
}

/* The macros the rewritten calls use. */
static void api_calls_emit_inc(const void *state, struct strbuf *inc)
{
    const struct api_calls *a = state;
    for (size_t i = 0; i < NROUTINES; i++)
        for (unsigned mask = 1; mask < (1u << MAX_STEPS); mask++)
            if (a->used[i] & (1u << mask))
                emit_macro(inc, &routines[i], mask, rw_local(a->w));
}

const struct module api_calls_module = {
    .name = "api_calls",
    .begin = api_calls_begin,
    .finish = api_calls_instrument,
    .emit_inc = api_calls_emit_inc,
    .end = free,
};
