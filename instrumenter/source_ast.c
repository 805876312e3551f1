/* Function bodies, return statements and omp_* calls from libclang's AST (see
 * source_ast.h). One recursive walk that carries the innermost enclosing body,
 * so that a return or a call is attributed to its own function or lambda. */
#include "source_ast.h"

#include <clang-c/Index.h>
#include <stdlib.h>
#include <string.h>

#include "source.h"
#include "util.h"

struct tok {
    unsigned start, end;
};

struct collector {
    struct source *s;
    CXFile file;
    CXTranslationUnit tu;
    struct tok *toks;
    unsigned ntoks;
};

struct walk {
    struct collector *c;
    int function; /* innermost enclosing body, -1 outside */
};

static void tokenize(struct collector *c)
{
    CXSourceLocation b = clang_getLocationForOffset(c->tu, c->file, 0);
    CXSourceLocation e = clang_getLocationForOffset(c->tu, c->file, (unsigned)c->s->size);
    CXToken *toks = NULL;
    unsigned n = 0;
    clang_tokenize(c->tu, clang_getRange(b, e), &toks, &n);
    c->toks = xmalloc((n ? n : 1) * sizeof *c->toks);
    c->ntoks = 0;
    for (unsigned i = 0; i < n; i++) {
        /* comments are no tokens of the program: "omp_unset_lock /\* x *\/ (&l)"
         * is a call written out here (its '(' was taken for missing) */
        if (clang_getTokenKind(toks[i]) == CXToken_Comment)
            continue;
        CXSourceRange r = clang_getTokenExtent(c->tu, toks[i]);
        clang_getFileLocation(clang_getRangeStart(r), NULL, NULL, NULL, &c->toks[c->ntoks].start);
        clang_getFileLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &c->toks[c->ntoks].end);
        c->ntoks++;
    }
    clang_disposeTokens(c->tu, toks, n);
}

static unsigned tok_at_or_after(const struct collector *c, unsigned offset)
{
    unsigned lo = 0, hi = c->ntoks;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (c->toks[mid].start < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int tok_is(const struct collector *c, unsigned i, const char *text)
{
    if (i >= c->ntoks)
        return 0;
    size_t n = strlen(text);
    return c->toks[i].end - c->toks[i].start == n && memcmp(c->s->text + c->toks[i].start, text, n) == 0;
}

/* Offsets of a cursor's extent in this file; 0 if it is not (wholly) here. */
static int extent_in_file(const struct collector *c, CXCursor cur, unsigned *b, unsigned *e)
{
    CXSourceRange r = clang_getCursorExtent(cur);
    CXFile fb, fe;
    clang_getExpansionLocation(clang_getRangeStart(r), &fb, NULL, NULL, b);
    clang_getExpansionLocation(clang_getRangeEnd(r), &fe, NULL, NULL, e);
    return fb && fe && clang_File_isEqual(fb, c->file) && clang_File_isEqual(fe, c->file) && *e >= *b &&
           *e <= c->s->size;
}

static int text_starts_with(const struct collector *c, unsigned offset, const char *word)
{
    size_t n = strlen(word);
    return offset + n <= c->s->size && memcmp(c->s->text + offset, word, n) == 0;
}

static int blank(char ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r'; }

/* Whether the text [b, e) is the callee in parentheses, "(omp_set_lock)"
 * (which keeps a function-like macro of that name from expanding). */
static int parenthesized_callee(const struct collector *c, unsigned b, unsigned e,
                                const char *callee)
{
    const char *t = c->s->text;
    size_t n = strlen(callee);
    if (e > c->s->size || e < b + n + 2 || t[b] != '(' || t[e - 1] != ')')
        return 0;
    unsigned i = b + 1;
    while (i < e && blank(t[i]))
        i++;
    if (!text_starts_with(c, i, callee))
        return 0;
    for (i += (unsigned)n; i < e - 1 && blank(t[i]); i++)
        ;
    return i == e - 1;
}

static enum CXChildVisitResult last_child(CXCursor cur, CXCursor parent, CXClientData d)
{
    (void)parent;
    *(CXCursor *)d = cur;
    return CXChildVisit_Continue;
}

static enum CXChildVisitResult first_child(CXCursor cur, CXCursor parent, CXClientData d)
{
    (void)parent;
    *(CXCursor *)d = cur;
    return CXChildVisit_Break;
}

static int is_function_kind(enum CXCursorKind k)
{
    return k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_Constructor ||
           k == CXCursor_Destructor || k == CXCursor_ConversionFunction ||
           k == CXCursor_FunctionTemplate || k == CXCursor_LambdaExpr;
}

/* "ns::Class::method" for C++, the plain name for C. */
static char *qualified_name(CXCursor cur)
{
    CXString sp = clang_getCursorSpelling(cur);
    char *name = xstrdup(clang_getCString(sp));
    clang_disposeString(sp);
    enum CXCursorKind own = clang_getCursorKind(cur);
    char *args = strchr(name, '<');
    if ((own == CXCursor_Constructor || own == CXCursor_Destructor) && args)
        *args = '\0'; /* a class template's "Guard<L>": named as its other members are */
    for (CXCursor p = clang_getCursorSemanticParent(cur);
         !clang_Cursor_isNull(p) && clang_getCursorKind(p) != CXCursor_TranslationUnit;
         p = clang_getCursorSemanticParent(p)) {
        enum CXCursorKind k = clang_getCursorKind(p);
        if (k != CXCursor_Namespace && k != CXCursor_StructDecl && k != CXCursor_ClassDecl &&
            k != CXCursor_ClassTemplate && k != CXCursor_UnionDecl)
            break;
        CXString ps = clang_getCursorSpelling(p);
        const char *scope = clang_getCString(ps);
        /* an anonymous namespace is spelled "" (a function read "::f"), as the demangler names it */
        char *q = xasprintf("%s::%s", scope && *scope ? scope : "(anonymous namespace)", name);
        clang_disposeString(ps);
        free(name);
        name = q;
    }
    return name;
}

/* Any of the words among the tokens in [from, to)? */
static int tokens_contain(const struct collector *c, unsigned from, unsigned to,
                          const char *const *words)
{
    for (unsigned i = tok_at_or_after(c, from); i < c->ntoks && c->toks[i].start < to; i++)
        for (const char *const *w = words; *w; w++)
            if (tok_is(c, i, *w))
                return 1;
    return 0;
}

/* A conversion operator template's name as written: libclang spells its type
 * parameter "type-parameter-0-0" ("operator type-parameter-0-0" for
 * "operator T"); the tokens between "operator" and "(" in the declaration
 * [from, to) are its type. */
static void written_conversion_type(const struct collector *c, struct source_function *f,
                                    unsigned from, unsigned to)
{
    char *op = strstr(f->name, "operator type-parameter-");
    if (!op)
        return;
    unsigned i = tok_at_or_after(c, from);
    while (i < c->ntoks && c->toks[i].start < to && !tok_is(c, i, "operator"))
        i++;
    struct strbuf type = {0};
    for (i++; i < c->ntoks && c->toks[i].start < to && !tok_is(c, i, "("); i++) {
        if (type.len)
            sb_add(&type, " ");
        sb_addn(&type, c->s->text + c->toks[i].start, c->toks[i].end - c->toks[i].start);
    }
    if (type.len) {
        char *named = xasprintf("%.*soperator %s", (int)(op - f->name), f->name, type.s);
        free(f->name);
        f->name = named;
    }
    free(type.s);
}

static int add_function(struct collector *c, CXCursor cur)
{
    enum CXCursorKind k = clang_getCursorKind(cur);
    if (k != CXCursor_LambdaExpr && !clang_isCursorDefinition(cur))
        return -1;
    CXCursor body = clang_getNullCursor();
    clang_visitChildren(cur, last_child, &body);
    /* a function-try-block: listed, said not instrumented (it was skipped
     * without a word) */
    int try_block = clang_getCursorKind(body) == CXCursor_CXXTryStmt;
    if (clang_getCursorKind(body) != CXCursor_CompoundStmt && !try_block)
        return -1; /* a declaration */
    unsigned ds, de, bo, bc;
    if (!extent_in_file(c, cur, &ds, &de) || !extent_in_file(c, body, &bo, &bc) || bc <= bo)
        return -1;
    struct source_ast *a = &c->s->ast;
    a->functions = xrealloc(a->functions, (a->nfunctions + 1) * sizeof *a->functions);
    struct source_function *f = &a->functions[a->nfunctions];
    memset(f, 0, sizeof *f);
    f->decl_start = ds;
    f->body_open = bo;
    f->body_close = bc - 1;
    f->is_lambda = k == CXCursor_LambdaExpr;
    f->name = f->is_lambda ? xstrdup("<lambda>") : qualified_name(cur);
    written_conversion_type(c, f, ds, bo);
    f->is_main = !f->is_lambda && strcmp(f->name, "main") == 0;
    CXType rt = clang_getCursorResultType(cur);
    CXString rs = clang_getTypeSpelling(rt);
    f->result_type = xstrdup(clang_getCString(rs));
    clang_disposeString(rs);
    /* through typedefs: `typedef void nothing_t;` made `nothing_t pomp_ret_`,
     * which does not compile (the file fell back; a probe) */
    f->returns_void = clang_getCanonicalType(rt).kind == CXType_Void;
    static const char *const constexpr_words[] = {"constexpr", "consteval", NULL};
    static const char *const coroutine_words[] = {"co_return", "co_await", "co_yield", NULL};
    if (try_block)
        f->unsupported = FUNCTION_TRY_BLOCK;
    else if (c->s->text[bo] != '{' || c->s->text[bc - 1] != '}')
        f->unsupported = FUNCTION_IN_MACRO;
    else if (tokens_contain(c, ds, bo, constexpr_words))
        f->unsupported = FUNCTION_CONSTEXPR;
    else if (tokens_contain(c, bo, bc, coroutine_words))
        f->unsupported = FUNCTION_COROUTINE;
    return (int)a->nfunctions++;
}

/* The offset of the ';' that follows offset, past blanks, comments and whole
 * preprocessor lines (line markers split statements of preprocessed input
 * around macro expansions from system headers); 0 if something else comes. */
static unsigned semicolon_after(const struct source *s, unsigned i)
{
    int line_start = 0;
    while (i < s->size) {
        char ch = s->text[i];
        if (ch == '\n') {
            line_start = 1;
            i++;
        } else if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v') {
            i++;
        } else if (ch == '#' && line_start) {
            while (i < s->size && s->text[i] != '\n')
                i++;
        } else {
            size_t past = i;
            if (!skip_comment(s->text, s->size, &past))
                return ch == ';' ? i : 0;
            i = (unsigned)past;
        }
    }
    return 0;
}

static void add_return(struct collector *c, CXCursor cur, int function)
{
    struct source_ast *a = &c->s->ast;
    unsigned b, e;
    if (!extent_in_file(c, cur, &b, &e))
        return;
    /* a return written by a macro: the expansion points at the macro's name */
    unsigned semi = semicolon_after(c->s, e);
    if (!text_starts_with(c, b, "return") || !semi) {
        a->functions[function].unsupported = FUNCTION_MACRO_RETURN;
        return;
    }
    struct source_return r = {.start = b, .end = semi + 1, .function = function};
    CXCursor expr = clang_getNullCursor();
    clang_visitChildren(cur, first_child, &expr);
    unsigned xb, xe;
    if (!clang_Cursor_isNull(expr) && extent_in_file(c, expr, &xb, &xe) && xb > b && xe <= e) {
        r.has_expr = 1;
        r.expr_start = xb;
        r.expr_end = xe;
    } else if (!clang_Cursor_isNull(expr)) {
        a->functions[function].unsupported = FUNCTION_MACRO_RETURN;
        return;
    }
    a->returns = xrealloc(a->returns, (a->nreturns + 1) * sizeof *a->returns);
    a->returns[a->nreturns++] = r;
}

/* Is the call an operand that is never evaluated: sizeof x, decltype(...), ...?
 * Looks back through the enclosing parentheses of the same statement. */
static int in_unevaluated_operand(const struct collector *c, unsigned call_start)
{
    static const char *const words[] = {"sizeof", "_Alignof", "alignof", "__alignof__", "__alignof",
                                        "typeof", "__typeof__", "__typeof", "typeof_unqual",
                                        "decltype", "noexcept", "__builtin_types_compatible_p",
                                        NULL};
    unsigned i = tok_at_or_after(c, call_start);
    int depth = 0;
    int check_next = 1; /* the token right before the call, then before each enclosing '(' */
    while (i-- > 0) {
        if (check_next) {
            for (const char *const *w = words; *w; w++)
                if (tok_is(c, i, *w))
                    return 1;
            check_next = 0;
        }
        if (tok_is(c, i, ")") || tok_is(c, i, "]")) {
            depth++;
        } else if (tok_is(c, i, "(") || tok_is(c, i, "[")) {
            if (depth == 0)
                check_next = 1;
            else
                depth--;
        } else if (depth == 0 && (tok_is(c, i, ";") || tok_is(c, i, "{") || tok_is(c, i, "}"))) {
            return 0;
        }
    }
    return 0;
}

static const char *intern_name(struct source_ast *a, const char *path, const char *name)
{
    if (strcmp(name, path) == 0)
        return path;
    for (size_t i = 0; i < a->nfile_names; i++)
        if (strcmp(a->file_names[i], name) == 0)
            return a->file_names[i];
    a->file_names = xrealloc(a->file_names, (a->nfile_names + 1) * sizeof *a->file_names);
    return a->file_names[a->nfile_names++] = xstrdup(name);
}

/* Is the location, where its macro expansion is written, in this file? A call
 * in a header's inline function is not, nor one expanded from a macro there. */
static int expanded_in_file(const struct collector *c, CXSourceLocation loc)
{
    CXFile f;
    clang_getExpansionLocation(loc, &f, NULL, NULL, NULL);
    return f && clang_File_isEqual(f, c->file);
}

/* Where the compiler's messages place a call of another file (#line included). */
static void place_elsewhere(struct collector *c, CXSourceLocation loc, struct source_call *call)
{
    CXString name;
    clang_getPresumedLocation(loc, &name, &call->other_line, &call->other_col);
    const char *n = clang_getCString(name);
    /* the file itself keeps its name as given (an absolute one too) */
    char *file = n && strcmp(n, c->s->path) == 0 ? xstrdup(n)
                                                 : region_file_name(n && *n ? n : "<unknown file>");
    call->other_file = intern_name(&c->s->ast, c->s->path, file);
    free(file);
    clang_disposeString(name);
    CXFile f;
    clang_getExpansionLocation(loc, &f, NULL, NULL, NULL);
    CXString real = clang_getFileName(f);
    char *real_name = region_file_name(clang_getCString(real) ? clang_getCString(real) : "");
    call->other_real = intern_name(&c->s->ast, c->s->path, real_name);
    free(real_name);
    clang_disposeString(real);
}

/* Whether the call of name (an OpenMP routine's) calls the OpenMP routine:
 * the function it names is declared at file scope with C linkage (its symbol
 * is its name), not the program's own of that name (a member, one in a
 * namespace, a C++ overload: rewritten, the call lost its object or
 * namespace and called the runtime). Where the call is not resolved (a
 * dependent call in a template) its text decides: no '.', '->' or qualifier
 * before the name. */
static int calls_openmp_routine(const struct collector *c, CXCursor call, CXCursor callee_expr,
                                const char *name)
{
    CXCursor ref = clang_getCursorReferenced(call);
    if (!clang_Cursor_isNull(ref) && !clang_isInvalid(clang_getCursorKind(ref))) {
        if (clang_getCursorKind(ref) != CXCursor_FunctionDecl)
            return 0;
        enum CXCursorKind scope = clang_getCursorKind(clang_getCursorSemanticParent(ref));
        if (scope != CXCursor_TranslationUnit && scope != CXCursor_LinkageSpec)
            return 0;
        CXString m = clang_Cursor_getMangling(ref);
        const char *symbol = clang_getCString(m);
        int c_linkage = !symbol || !*symbol || strcmp(symbol, name) == 0;
        clang_disposeString(m);
        return c_linkage;
    }
    unsigned fb, fe, n = (unsigned)strlen(name);
    if (clang_Cursor_isNull(callee_expr) || !extent_in_file(c, callee_expr, &fb, &fe) || fe < n)
        return 1;
    unsigned at = tok_at_or_after(c, fe - n);
    if (at == 0)
        return 1;
    if (tok_is(c, at - 1, ".") || tok_is(c, at - 1, "->"))
        return 0;
    /* "ns::omp_..." or "T::omp_...", not "::omp_..." (the file-scope one) */
    if (tok_is(c, at - 1, "::") && at >= 2) {
        const char ch = c->s->text[c->toks[at - 2].end - 1];
        if (ch == '_' || ch == '>' || (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') ||
            (ch >= 'A' && ch <= 'Z'))
            return 0;
    }
    return 1;
}

static void add_call(struct collector *c, CXCursor cur, int function)
{
    /* the callee's name; a callee in parentheses gives the call none */
    CXString sp = clang_getCursorSpelling(cur);
    const char *name = clang_getCString(sp);
    if (!name || !name[0]) { /* the function the callee expression names */
        CXCursor callee_expr = clang_getNullCursor();
        clang_visitChildren(cur, first_child, &callee_expr);
        for (int depth = 0; depth < 4 && !clang_Cursor_isNull(callee_expr) &&
                            clang_getCursorKind(callee_expr) != CXCursor_DeclRefExpr;
             depth++) {
            CXCursor inner = clang_getNullCursor();
            clang_visitChildren(callee_expr, first_child, &inner);
            callee_expr = inner;
        }
        if (!clang_Cursor_isNull(callee_expr)) {
            clang_disposeString(sp);
            sp = clang_getCursorSpelling(callee_expr);
            name = clang_getCString(sp);
        }
        /* a call in a template whose argument depends on its parameters
         * (omp_set_lock(&m_.lock) in a lock guard's template) is not
         * resolved: its DeclRefExpr has no name, the OverloadedDeclRef under
         * it has (such a call was neither rewritten nor counted: a probe) */
        CXCursor overloaded = clang_getNullCursor();
        if (!clang_Cursor_isNull(callee_expr) && (!name || !name[0]))
            clang_visitChildren(callee_expr, first_child, &overloaded);
        if (!clang_Cursor_isNull(overloaded) &&
            clang_getCursorKind(overloaded) == CXCursor_OverloadedDeclRef) {
            clang_disposeString(sp);
            sp = clang_getCursorSpelling(overloaded);
            name = clang_getCString(sp);
        }
    }
    int wanted = name && strncmp(name, "omp_", 4) == 0;
    char *callee = wanted ? xstrdup(name) : NULL;
    clang_disposeString(sp);
    if (!wanted)
        return;
    CXSourceLocation at = clang_getRangeStart(clang_getCursorExtent(cur));
    /* not the program's code: nothing to say about it (no note per pragma there either) */
    if (!expanded_in_file(c, at) && clang_Location_isInSystemHeader(at)) {
        free(callee);
        return;
    }
    CXCursor fn = clang_getNullCursor();
    clang_visitChildren(cur, first_child, &fn);
    if (!calls_openmp_routine(c, cur, fn, callee)) {
        free(callee);
        return;
    }
    struct source_call call = {.callee = callee, .function = function};
    unsigned fb, fe;
    if (!expanded_in_file(c, at)) {
        place_elsewhere(c, at, &call);
    } else if (!extent_in_file(c, cur, &call.start, &call.end) || clang_Cursor_isNull(fn) ||
               !extent_in_file(c, fn, &fb, &fe)) {
        call.in_macro = 1;
    } else {
        unsigned lp = tok_at_or_after(c, fe);
        /* written out here: the callee's text is there and '(' follows it */
        call.in_macro = !tok_is(c, lp, "(") || call.end <= c->toks[lp].end ||
                        c->s->text[call.end - 1] != ')' ||
                        ((fe < strlen(callee) ||
                          !text_starts_with(c, fe - (unsigned)strlen(callee), callee)) &&
                         !parenthesized_callee(c, fb, fe, callee));
        if (!call.in_macro)
            call.lparen_end = c->toks[lp].end;
        call.unevaluated = in_unevaluated_operand(c, call.start);
    }
    int nargs = clang_Cursor_getNumArguments(cur);
    call.nargs = nargs > 0 ? (unsigned)nargs : 0;
    struct source_ast *a = &c->s->ast;
    a->calls = xrealloc(a->calls, (a->ncalls + 1) * sizeof *a->calls);
    a->calls[a->ncalls++] = call;
}

static void add_local_call(struct collector *c, CXCursor cur)
{
    CXCursor def = clang_getCursorDefinition(clang_getCursorReferenced(cur));
    unsigned cs, ce, ds, de;
    if (clang_Cursor_isNull(def) || !is_function_kind(clang_getCursorKind(def)) ||
        !extent_in_file(c, cur, &cs, &ce) || !extent_in_file(c, def, &ds, &de))
        return;
    struct source_ast *a = &c->s->ast;
    a->local_calls = xrealloc(a->local_calls, (a->nlocal_calls + 1) * sizeof *a->local_calls);
    a->local_calls[a->nlocal_calls++] = (struct source_local_call){cs, ds};
}

/* Whether a class, struct, union or enum (kind k) is defined in the type of
 * the declaration parent (struct L { ... } l;, typedef struct { ... } T;,
 * using U = struct V { ... };): libclang visits such a definition among the
 * declarations of its own context and again as the declaration's type, and
 * the second visit listed its member functions and calls again (a local
 * class's omp_get_thread_num() had two notes and two regions). */
static int defined_in_declared_type(enum CXCursorKind k, CXCursor parent)
{
    enum CXCursorKind p = clang_getCursorKind(parent);
    return (k == CXCursor_StructDecl || k == CXCursor_ClassDecl || k == CXCursor_UnionDecl ||
            k == CXCursor_EnumDecl) &&
           (p == CXCursor_VarDecl || p == CXCursor_FieldDecl || p == CXCursor_TypedefDecl ||
            p == CXCursor_TypeAliasDecl);
}

/* The statement kinds with substatements, and their keywords (NULL: none). */
static const char *control_keyword(enum CXCursorKind k)
{
    switch (k) {
    case CXCursor_IfStmt: return "if";
    case CXCursor_ForStmt:
    case CXCursor_CXXForRangeStmt: return "for";
    case CXCursor_WhileStmt: return "while";
    case CXCursor_DoStmt: return "do";
    case CXCursor_SwitchStmt: return "switch";
    default: return NULL;
    }
}

struct substatements {
    struct collector *c;
    const char *keyword;
    unsigned owner_start, before; /* the end of the child before, or the owner's start */
};

static enum CXChildVisitResult add_substatement(CXCursor cur, CXCursor parent, CXClientData d)
{
    (void)parent;
    struct substatements *w = d;
    unsigned b, e;
    if (!extent_in_file(w->c, cur, &b, &e))
        return CXChildVisit_Continue;
    /* a substatement, not a part of the header: past the header's ')' or an
     * 'else', or do's body (an expression statement is an expression cursor) */
    const char *gap = w->c->s->text + w->before;
    size_t n = b > w->before ? b - w->before : 0;
    if (n && (memchr(gap, ')', n) || memmem(gap, n, "else", 4) ||
              (strcmp(w->keyword, "do") == 0 && w->before == w->owner_start))) {
        struct source_ast *a = &w->c->s->ast;
        a->substatements =
            xrealloc(a->substatements, (a->nsubstatements + 1) * sizeof *a->substatements);
        a->substatements[a->nsubstatements++] =
            (struct source_substatement){w->before, b, w->owner_start, w->keyword};
    }
    w->before = e;
    return CXChildVisit_Continue;
}

static enum CXChildVisitResult visit(CXCursor cur, CXCursor parent, CXClientData data)
{
    struct walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(cur);
    if (defined_in_declared_type(k, parent))
        return CXChildVisit_Continue; /* visited in its context */
    if (is_function_kind(k)) {
        int f = add_function(w->c, cur);
        if (f >= 0) {
            struct walk inner = {w->c, f};
            clang_visitChildren(cur, visit, &inner);
            return CXChildVisit_Continue;
        }
    } else if (k == CXCursor_ReturnStmt && w->function >= 0) {
        add_return(w->c, cur, w->function);
    } else if (k == CXCursor_CallExpr) {
        add_local_call(w->c, cur);
        add_call(w->c, cur, w->function);
    } else if (control_keyword(k)) {
        unsigned b, e;
        if (extent_in_file(w->c, cur, &b, &e)) {
            struct substatements sub = {w->c, control_keyword(k), b, b};
            clang_visitChildren(cur, add_substatement, &sub);
        }
    }
    return CXChildVisit_Recurse;
}

/* The presumed file and line of every physical line; kept only when some line
 * differs from itself. */
static void presumed_lines(struct collector *c)
{
    struct source *s = c->s;
    struct source_ast *a = &s->ast;
    a->presumed_line = xmalloc((s->nlines ? s->nlines : 1) * sizeof *a->presumed_line);
    a->presumed_file = xmalloc((s->nlines ? s->nlines : 1) * sizeof *a->presumed_file);
    a->presumed_spelled = xmalloc((s->nlines ? s->nlines : 1) * sizeof *a->presumed_spelled);
    /* the file's own lines under its name as the compiler spells it (given:
     * a header's inclusion's spelling, not clang's ./x.h where GCC says x.h);
     * the names of #line directives and line markers as they are written */
    const char *own_spelled = source_spelled_name(s);
    int differs = 0;
    for (unsigned i = 0; i < s->nlines; i++) {
        CXSourceLocation loc = clang_getLocationForOffset(c->tu, c->file, s->line_offsets[i]);
        /* a line inside a macro invocation's arguments: libclang presumes it
         * at the invocation (a loop written in RUN(...)'s argument ended on
         * the line of RUN(, before it began: mac.c:8-7; a probe). It goes on
         * from the line before, as any line without a #line of its own. */
        unsigned expanded;
        clang_getExpansionLocation(loc, NULL, &expanded, NULL, NULL);
        if (i > 0 && expanded != i + 1) {
            a->presumed_file[i] = a->presumed_file[i - 1];
            a->presumed_spelled[i] = a->presumed_spelled[i - 1];
            a->presumed_line[i] = a->presumed_line[i - 1] + 1;
            differs |= a->presumed_file[i] != s->path || a->presumed_line[i] != i + 1 ||
                       a->presumed_spelled[i] != s->path;
            continue;
        }
        CXString name;
        unsigned line, col;
        clang_getPresumedLocation(loc, &name, &line, &col);
        const char *raw = clang_getCString(name);
        char *n = !raw                         ? NULL
                  : strcmp(raw, s->path) == 0 ? xstrdup(raw) /* the file's own name, as given */
                                               : region_file_name(raw);
        a->presumed_file[i] = n && *n ? intern_name(a, s->path, n) : s->path;
        free(n);
        /* (the file itself by whatever name clang gives it here, its region
         * name the same: ./beside.h for a header beside a source named
         * without its directory, where its own lookup's name is beside.h) */
        a->presumed_spelled[i] = !raw || !*raw || a->presumed_file[i] == s->path
                                     ? own_spelled
                                     : intern_name(a, s->path, raw);
        a->presumed_line[i] = line ? line : i + 1;
        clang_disposeString(name);
        differs |= a->presumed_file[i] != s->path || a->presumed_line[i] != i + 1 ||
                   a->presumed_spelled[i] != s->path;
    }
    if (!differs) {
        free(a->presumed_line);
        free(a->presumed_file);
        free(a->presumed_spelled);
        a->presumed_line = NULL;
        a->presumed_file = NULL;
        a->presumed_spelled = NULL;
    }
}

void source_ast_collect(struct source *s, struct CXTranslationUnitImpl *tu, void *file)
{
    struct collector c = {.s = s, .file = file, .tu = tu};
    presumed_lines(&c);
    tokenize(&c);
    struct walk w = {&c, -1};
    clang_visitChildren(clang_getTranslationUnitCursor(tu), visit, &w);
    free(c.toks);
}

void source_ast_free(struct source_ast *a)
{
    for (size_t i = 0; i < a->nfunctions; i++) {
        free(a->functions[i].name);
        free(a->functions[i].result_type);
    }
    free(a->functions);
    free(a->substatements);
    free(a->local_calls);
    free(a->returns);
    for (size_t i = 0; i < a->ncalls; i++)
        free(a->calls[i].callee);
    free(a->calls);
    free(a->presumed_line);
    free(a->presumed_file);
    free(a->presumed_spelled);
    for (size_t i = 0; i < a->nfile_names; i++)
        free(a->file_names[i]);
    free(a->file_names);
    memset(a, 0, sizeof *a);
}

int source_ast_function_at(const struct source_ast *a, unsigned offset)
{
    int best = -1;
    for (size_t i = 0; i < a->nfunctions; i++)
        if (a->functions[i].body_open < offset && offset <= a->functions[i].body_close &&
            (best < 0 || a->functions[i].body_open > a->functions[best].body_open))
            best = (int)i;
    return best;
}

const struct source_substatement *source_ast_substatement_at(const struct source_ast *a,
                                                             unsigned offset)
{
    for (size_t i = 0; i < a->nsubstatements; i++)
        if (a->substatements[i].gap_start <= offset && offset < a->substatements[i].start)
            return &a->substatements[i];
    return NULL;
}
