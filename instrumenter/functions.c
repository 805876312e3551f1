/* Function regions (opt-in: --pomp-functions): the body of each selected
 * function defined in the file records POMP_Function_begin when it starts and
 * POMP_Function_end on every way out: each return (after its value is
 * computed), and the end of the body. In C++ a guard object's destructor
 * records the end, so returns and exceptions need no rewriting.
 * (docs/instrumentation.md.)
 *
 * C:    int f(int x) { if (x) return g(x); return 0; }
 * becomes
 *       int f(int x) { POMP_Int32 pomp_fb_ ... = POMP_Function_begin(H, TID, C);
 *           if (x) { int pomp_ret_ = (g(x)); POMP_Function_end(V, TID); return pomp_ret_; }
 *           { int pomp_ret_ = (0); POMP_Function_end(V, TID); return pomp_ret_; } POMP_Function_end(V, TID); }
 *
 * The begin is a declaration, valid where C89 allows only declarations. The
 * return value is computed before the end event, into a variable of the
 * function's declared result type (__auto_type where that type cannot be
 * spelled in a declaration, such as a pointer to a function). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ctc.h"
#include "function_filter.h"
#include "inst_levels.h"
#include "modules.h"
#include "rewriter.h"
#include "source.h"

struct functions {
    struct rewriter *w;
    const struct inst_levels *levels;
    const struct function_filter *filter;
    int used_guard;   /* a C++ function got the guard: the include file defines it */
};

/* Only with --functions, and not in a header (instrument.h). */
static void *functions_begin(struct rewriter *w)
{
    if (!rw_options(w)->functions || rw_options(w)->header)
        return NULL;
    struct functions *f = xcalloc(1, sizeof *f);
    f->w = w;
    f->levels = rw_module_state(w, &inst_levels_module);
    f->filter = rw_options(w)->functions;
    return f;
}

/* Edits at the body's braces: after main's POMP_Init, before its POMP_Finalize. */
enum { ORDER_BEGIN = INT_MIN / 2 + 1, ORDER_END = INT_MAX / 2 - 1, ORDER_RETURN = 1 << 20 };

static unsigned function_region(struct functions *fn, const struct source_function *f)
{
    const struct source *s = rw_source(fn->w);
    struct ctc_builder b;
    ctc_builder_init(&b);
    ctc_builder_add(&b, "type", "function");
    ctc_builder_add_file(&b, source_presumed_file(s, f->body_open), rw_options(fn->w)->cwd);
    ctc_builder_add_lines(&b, "slines", (int)source_presumed_line(s, f->decl_start),
                          (int)source_presumed_line(s, f->body_open));
    int last = (int)source_presumed_line(s, f->body_close);
    ctc_builder_add_lines(&b, "elines", last, last);
    ctc_builder_add(&b, "name", f->name);
    return rw_region(fn->w, rw_ctc_finish(&b));
}

/* A type spelling usable as "T name": no declarator parts of its own. */
static int plain_type(const char *t)
{
    return *t && !strpbrk(t, "()[]");
}

/* An edit of function f: all of a function's calls follow the compile-time
 * level at its definition. */
static void edit(struct functions *fn, const struct source_function *f, unsigned offset,
                 unsigned remove, int order, char *text)
{
    rw_edit_anchored(fn->w, f->decl_start, offset, remove, order, text);
}

/* Only the keyword and the ';' are replaced: what lies between (the
 * expression, and in preprocessed input maybe line markers) stays as it is. */
static void rewrite_return(struct functions *fn, const struct source_function *f,
                           const struct source_return *r, unsigned region)
{
    enum { KEYWORD = 6 }; /* strlen("return") */
    unsigned semi = r->end - 1;
    char *end = xasprintf("POMP_Function_end((*pomp_h_(%u)), POMP_TID_);", region);
    if (!r->has_expr) {
        edit(fn, f, r->start, 0, ORDER_RETURN, xasprintf("{ %s ", end));
        edit(fn, f, r->end, 0, -ORDER_RETURN, xstrdup(" }"));
    } else if (f->returns_void) { /* return of a void expression (GNU C, C++) */
        edit(fn, f, r->start, KEYWORD, ORDER_RETURN, xstrdup("{ (void)("));
        edit(fn, f, semi, 1, ORDER_RETURN, xasprintf("); %s return; }", end));
    } else {
        /* __extension__: __auto_type is GNU C, which -pedantic-errors would reject */
        const char *type = plain_type(f->result_type) ? f->result_type : "__extension__ __auto_type";
        edit(fn, f, r->start, KEYWORD, ORDER_RETURN, xasprintf("{ %s pomp_ret_ = (", type));
        edit(fn, f, semi, 1, ORDER_RETURN, xasprintf("); %s return pomp_ret_; }", end));
    }
    free(end);
}

static const char *why_not(const struct source *s, const struct source_function *f,
                           const char *main_file)
{
    switch (f->unsupported) {
    case FUNCTION_MACRO_RETURN:
        return "a return statement comes from a macro";
    case FUNCTION_CONSTEXPR:
        return "it is constexpr";
    case FUNCTION_COROUTINE:
        return "it is a coroutine";
    case FUNCTION_IN_MACRO:
        return "its body comes from a macro";
    case FUNCTION_TRY_BLOCK:
        return "its body is a function-try-block (its handlers would need an end too)";
    default:
        break;
    }
    if (source_presumed_file(s, f->body_open) != main_file)
        return "it comes from an included file";
    return NULL;
}

static int functions_instrument(void *state)
{
    struct functions *fn = state;
    const struct source *s = rw_source(fn->w);
    int cxx = rw_options(fn->w)->cplusplus;
    /* preprocessed input holds the headers' functions too: only the main
     * file's count, and the end of the file is always back in it */
    const char *main_file = source_presumed_file(s, (unsigned)(s->size ? s->size - 1 : 0));
    for (size_t i = 0; i < s->ast.nfunctions; i++) {
        const struct source_function *f = &s->ast.functions[i];
        if (f->is_lambda)
            continue;
        const char *file = source_presumed_file(s, f->body_open);
        if (!function_filter_matches(fn->filter, f->name, file))
            continue;
        const char *why = why_not(s, f, main_file);
        if (!why && !inst_levels_keeps(fn->levels, f->decl_start, "Function_begin"))
            why = "the instrumentation level of the user group";
        if (why) {
            rw_note(fn->w, f->decl_start, "function '%s' not instrumented: %s", f->name, why);
            continue;
        }
        unsigned region = function_region(fn, f);
        if (cxx) {
            /* main's guard lives in a block of its own, so that a main that falls
             * off its end records the end there, before any exit handler */
            fn->used_guard = 1;
            edit(fn, f, f->body_open + 1, 0, ORDER_BEGIN,
                 xasprintf(" %spomp_function_guard_ pomp_fg_(pomp_h_(%u), pomp_c_(%u));",
                           f->is_main ? "{ " : "", region, region));
            if (f->is_main)
                edit(fn, f, f->body_close, 0, ORDER_END, xstrdup("} "));
        } else {
            edit(fn, f, f->body_open + 1, 0, ORDER_BEGIN,
                    xasprintf(" POMP_Int32 pomp_fb_ __attribute__((__unused__)) = "
                              "POMP_Function_begin(pomp_h_(%u), POMP_TID_, pomp_c_(%u));",
                              region, region));
            for (size_t k = 0; k < s->ast.nreturns; k++)
                if (s->ast.returns[k].function == (int)i)
                    rewrite_return(fn, f, &s->ast.returns[k], region);
            edit(fn, f, f->body_close, 0, ORDER_END,
                    xasprintf("POMP_Function_end((*pomp_h_(%u)), POMP_TID_); ", region));
        }
        rw_note(fn->w, f->decl_start, "instrumented function '%s'", f->name);
    }
    return 0;
}

static void functions_emit_inc(const void *state, struct strbuf *inc)
{
    const struct functions *fn = state;
    if (!fn->used_guard)
        return;
    /* C++: the end is recorded however the body is left, return or exception */
    sb_add(inc, "namespace {\n"
                "struct pomp_function_guard_ {\n"
                "    POMP_Handle_t *h_;\n"
                "    pomp_function_guard_(POMP_Handle_t *h, const char *c) : h_(h)\n"
                "    { POMP_Function_begin(h, POMP_TID_, c); }\n"
                "    ~pomp_function_guard_() { POMP_Function_end(*h_, POMP_TID_); }\n"
                "  private: /* not copied (declared, never defined: also C++98) */\n"
                "    pomp_function_guard_(const pomp_function_guard_ &);\n"
                "    pomp_function_guard_ &operator=(const pomp_function_guard_ &);\n"
                "};\n"
                "}\n");
}

const struct module functions_module = {
    .name = "functions",
    .begin = functions_begin,
    .finish = functions_instrument,
    .emit_inc = functions_emit_inc,
    .end = free,
};
