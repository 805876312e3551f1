/* What the rewriting modules need from libclang's AST beyond pragmas and their
 * statements: function definitions with their return statements (function
 * regions, instrumentation control) and calls of the OpenMP runtime routines
 * that seed 002 Tables 6-8 instrument (api_calls.c). Everything here is in the
 * instrumented file itself, outside macro expansions, unless flagged: a call in
 * a macro expansion or in a project header is kept, so that a note can say why
 * it is left alone (calls in system headers are not). */
#ifndef POMP_SOURCE_AST_H
#define POMP_SOURCE_AST_H

#include <stddef.h>

struct source_function {
    char *name;             /* as written ("solve", "Matrix::mul", "operator()") */
    unsigned decl_start;    /* first character of the definition (template, storage class, type) */
    unsigned body_open;     /* offset of the body's '{' */
    unsigned body_close;    /* offset of the body's '}' */
    int is_lambda;          /* a lambda's body: code context only, never a function region */
    int is_main;
    int returns_void;
    char *result_type;      /* spelling of the declared result type */
    int unsupported;        /* why the body cannot get a function region, or 0 (enum below) */
};

enum {
    FUNCTION_OK = 0,
    FUNCTION_MACRO_RETURN = 1,  /* a return statement inside a macro expansion */
    FUNCTION_CONSTEXPR,         /* constexpr/consteval: no runtime calls allowed */
    FUNCTION_COROUTINE,         /* co_return/co_await: returns are not plain returns */
    FUNCTION_IN_MACRO,          /* the body comes from a macro expansion */
    FUNCTION_TRY_BLOCK,         /* a function-try-block: its handlers end it too */
};

struct source_return {
    unsigned start;         /* offset of 'return' */
    unsigned end;           /* just past its ';' (line markers of preprocessed input may
                               stand between the expression and the ';') */
    int has_expr;
    unsigned expr_start, expr_end;
    int function;           /* index into functions: the innermost enclosing body */
};

struct source_call {
    char *callee;           /* "omp_set_lock" */
    unsigned start;         /* first character of the call (callee expression) */
    unsigned lparen_end;    /* just past the '(' of the argument list */
    unsigned end;           /* just past the ')' */
    unsigned nargs;
    int function;           /* innermost enclosing body, -1 at file scope */
    int in_macro;           /* part of a macro expansion in this file: not rewritable */
    int unevaluated;        /* operand of sizeof, typeof, decltype, ...: never executed */
    /* A call written in another file (an inline function or a template in a
     * header): where the compiler's messages place it. The offsets above are
     * then not this file's and must not be used. NULL for a call in this file. */
    const char *other_file; /* one of file_names (or the source's path, after a #line) */
    unsigned other_line, other_col;
    /* the file it is written in, by libclang's name (region_file_name), which
     * a #line does not change: the header whose copy rewrites it */
    const char *other_real;
};

/* A call, written in this file, of a function whose definition is in this
 * file too (device code by being called in a target region: context.c). */
struct source_local_call {
    unsigned start;         /* first character of the call */
    unsigned callee_decl;   /* the callee definition's decl_start (source_function) */
};

/* The place of a statement that belongs to an if, else, for, while, do or
 * switch (its body, or the else branch): a directive standing there
 * (after the header, before the statement) would be taken for that
 * statement once it becomes a call, and the statement would run always. */
struct source_substatement {
    unsigned gap_start;     /* just past what comes before it: the condition, the other
                               branch, the statement's own start (do) */
    unsigned start;         /* first character of the statement */
    unsigned owner_start;   /* first character of the if, for, ... */
    const char *keyword;    /* "if", "for", "while", "do", "switch" */
};

struct source_ast {
    struct source_function *functions;  /* in order of their bodies */
    size_t nfunctions;
    struct source_substatement *substatements;
    size_t nsubstatements;
    struct source_local_call *local_calls;
    size_t nlocal_calls;
    struct source_return *returns;
    size_t nreturns;
    struct source_call *calls;          /* calls of omp_* routines only */
    size_t ncalls;
    /* Where each physical line comes from for the user, by #line directives and
     * line markers (a preprocessed .i file): index = line - 1. NULL when every
     * line is itself. */
    unsigned *presumed_line;
    const char **presumed_file;         /* the source's path or one of file_names */
    /* the same file as the compiler spells it (not normalized: inc/../x.h,
     * an absolute -I path), what the #line directives of the instrumented
     * file must say, so that __FILE__ and assert's messages read as in the
     * plain build; presumed_file's names are the regions' */
    const char **presumed_spelled;      /* the source's path, its spelled name or one of
                                           file_names */
    char **file_names;
    size_t nfile_names;
};

struct source;
struct CXTranslationUnitImpl;

/* Fills s->ast from the parsed translation unit (file: the CXFile of s). */
void source_ast_collect(struct source *s, struct CXTranslationUnitImpl *tu, void *file);
void source_ast_free(struct source_ast *a);

/* The substatement whose place (gap_start, start) holds offset, or NULL. */
const struct source_substatement *source_ast_substatement_at(const struct source_ast *a,
                                                             unsigned offset);

/* The innermost function body (lambdas included) that contains offset, or -1. */
int source_ast_function_at(const struct source_ast *a, unsigned offset);

#endif
