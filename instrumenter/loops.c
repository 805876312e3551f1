/* Reading a canonical OpenMP loop (OpenMP 5.2 §4.4.1) from libclang's AST:
 *   for (var = lb; var relop b; var++ | var-- | var += s | var -= s | var = var + s ...)
 * The bounds and step are kept as source text only when copying them before
 * the directive is harmless: the expression lies in the file on one line and
 * has no side effect (no call, assignment, ++/--, statement expression or
 * volatile access), so evaluating it once more changes nothing. */
#include "loops.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

static enum CXChildVisitResult collect(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    struct cursor_children *ch = d;
    if (ch->n < sizeof ch->c / sizeof *ch->c)
        ch->c[ch->n++] = c;
    return CXChildVisit_Continue;
}

struct cursor_children cursor_children(CXCursor c)
{
    struct cursor_children ch = {.n = 0};
    clang_visitChildren(c, collect, &ch);
    return ch;
}

/* The offsets of a cursor's extent in the file (expansion locations); 0 when
 * either end lies outside the file. */
static int extent_in_file(CXCursor c, CXFile file, unsigned *b, unsigned *e)
{
    CXSourceRange r = clang_getCursorExtent(c);
    CXFile fb, fe;
    clang_getExpansionLocation(clang_getRangeStart(r), &fb, NULL, NULL, b);
    clang_getExpansionLocation(clang_getRangeEnd(r), &fe, NULL, NULL, e);
    return fb && fe && clang_File_isEqual(fb, file) && clang_File_isEqual(fe, file) && *e >= *b;
}

/* Implicit casts and parentheses around an expression. */
static CXCursor strip(CXCursor c)
{
    for (;;) {
        enum CXCursorKind k = clang_getCursorKind(c);
        if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr)
            return c;
        struct cursor_children ch = cursor_children(c);
        if (ch.n != 1)
            return c;
        c = ch.c[0];
    }
}

static int is_ref_to(CXCursor c, const char *var)
{
    c = strip(c);
    if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
        return 0;
    CXString s = clang_getCursorSpelling(c);
    int same = strcmp(clang_getCString(s), var) == 0;
    clang_disposeString(s);
    return same;
}

/* ---- side effects ---- */

struct purity {
    const char *var;   /* the loop variable: an expression using it is not copied either */
    int impure;
};

static int is_assignment(enum CXBinaryOperatorKind op)
{
    return op >= CXBinaryOperator_Assign && op <= CXBinaryOperator_OrAssign;
}

static int is_volatile(CXCursor c)
{
    return clang_isVolatileQualifiedType(clang_getCursorType(c)) != 0;
}

static void judge(CXCursor c, struct purity *pu)
{
    switch (clang_getCursorKind(c)) {
    case CXCursor_IntegerLiteral:
    case CXCursor_FloatingLiteral:
    case CXCursor_CharacterLiteral:
    case CXCursor_ParenExpr:
    case CXCursor_ArraySubscriptExpr:
    case CXCursor_ConditionalOperator:
    case CXCursor_CStyleCastExpr:
    case CXCursor_UnaryExpr: /* sizeof, _Alignof */
    case CXCursor_TypeRef:
    case CXCursor_UnexposedExpr: /* implicit conversions */
    case CXCursor_CXXBoolLiteralExpr:
        break;
    case CXCursor_DeclRefExpr:
    case CXCursor_MemberRefExpr:
        if (is_volatile(c) || (pu->var && is_ref_to(c, pu->var)))
            pu->impure = 1;
        break;
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
        if (op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PostDec ||
            op == CXUnaryOperator_PreInc || op == CXUnaryOperator_PreDec)
            pu->impure = 1;
        break;
    }
    case CXCursor_BinaryOperator:
        if (is_assignment(clang_getCursorBinaryOperatorKind(c)))
            pu->impure = 1;
        break;
    default: /* calls, assignments, statement expressions, anything unknown */
        pu->impure = 1;
        break;
    }
}

static enum CXChildVisitResult purity_visitor(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    struct purity *pu = d;
    judge(c, pu);
    return pu->impure ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* The expression's text if it may be evaluated once more, else NULL. */
static char *copyable_text(CXCursor c, CXFile file, const char *text, const char *var)
{
    unsigned b, e;
    if (!extent_in_file(c, file, &b, &e) || e == b)
        return NULL;
    for (unsigned i = b; i < e; i++)
        if (text[i] == '\n' || text[i] == '\r' || text[i] == '\\' || text[i] == '#' ||
            (text[i] == '/' && i + 1 < e && (text[i + 1] == '/' || text[i + 1] == '*')))
            return NULL;
    struct purity pu = {var, 0};
    judge(c, &pu);
    if (!pu.impure)
        clang_visitChildren(c, purity_visitor, &pu);
    if (pu.impure)
        return NULL;
    return xasprintf("%.*s", (int)(e - b), text + b);
}

/* ---- the header ---- */

static int is_integer(CXType t)
{
    enum CXTypeKind k = clang_getCanonicalType(t).kind;
    return (k >= CXType_Char_U && k <= CXType_UInt128) || (k >= CXType_Char_S && k <= CXType_Int128);
}

static char *spelling(CXCursor c)
{
    CXString s = clang_getCursorSpelling(c);
    char *r = xstrdup(clang_getCString(s));
    clang_disposeString(s);
    return r;
}

/* var = lb, or the declaration of var with lb. Returns the initializer. */
static int read_init(CXCursor init, struct loop_header *l, CXCursor *lb)
{
    enum CXCursorKind k = clang_getCursorKind(init);
    if (k == CXCursor_BinaryOperator &&
        clang_getCursorBinaryOperatorKind(init) == CXBinaryOperator_Assign) {
        struct cursor_children ch = cursor_children(init);
        CXCursor lhs = ch.n == 2 ? strip(ch.c[0]) : clang_getNullCursor();
        if (clang_getCursorKind(lhs) != CXCursor_DeclRefExpr)
            return -1;
        l->var = spelling(lhs);
        l->var_outside = 1;
        l->var_is_integer = is_integer(clang_getCursorType(lhs));
        *lb = ch.c[1];
        return 0;
    }
    if (k == CXCursor_DeclStmt) {
        struct cursor_children ch = cursor_children(init);
        if (ch.n != 1 || clang_getCursorKind(ch.c[0]) != CXCursor_VarDecl)
            return -1;
        struct cursor_children vd = cursor_children(ch.c[0]);
        if (vd.n == 0 || !clang_isExpression(clang_getCursorKind(vd.c[vd.n - 1])))
            return -1;
        l->var = spelling(ch.c[0]);
        l->var_is_integer = is_integer(clang_getCursorType(ch.c[0]));
        *lb = vd.c[vd.n - 1];
        return 0;
    }
    return -1;
}

/* The step as an int64 expression: "1", "-1", "POMP_I64(s)", "-POMP_I64(s)". */
static char *read_incr(CXCursor inc, const struct loop_header *l, CXFile file, const char *text)
{
    enum CXCursorKind k = clang_getCursorKind(inc);
    struct cursor_children ch = cursor_children(inc);
    if (k == CXCursor_UnaryOperator && ch.n == 1 && is_ref_to(ch.c[0], l->var)) {
        enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(inc);
        if (op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PreInc)
            return xstrdup("1");
        if (op == CXUnaryOperator_PostDec || op == CXUnaryOperator_PreDec)
            return xstrdup("-1");
        return NULL;
    }
    if (ch.n != 2)
        return NULL;
    enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(inc);
    const char *sign = NULL;
    CXCursor step = clang_getNullCursor();
    if ((k == CXCursor_CompoundAssignOperator || k == CXCursor_BinaryOperator) &&
        (op == CXBinaryOperator_AddAssign || op == CXBinaryOperator_SubAssign) &&
        is_ref_to(ch.c[0], l->var)) {
        sign = op == CXBinaryOperator_AddAssign ? "" : "-";
        step = ch.c[1];
    } else if (k == CXCursor_BinaryOperator && op == CXBinaryOperator_Assign &&
               is_ref_to(ch.c[0], l->var)) {
        CXCursor rhs = strip(ch.c[1]);
        struct cursor_children r = cursor_children(rhs);
        enum CXBinaryOperatorKind rop = clang_getCursorBinaryOperatorKind(rhs);
        if (clang_getCursorKind(rhs) != CXCursor_BinaryOperator || r.n != 2)
            return NULL;
        if (rop == CXBinaryOperator_Add && is_ref_to(r.c[0], l->var))
            sign = "", step = r.c[1];
        else if (rop == CXBinaryOperator_Add && is_ref_to(r.c[1], l->var))
            sign = "", step = r.c[0];
        else if (rop == CXBinaryOperator_Sub && is_ref_to(r.c[0], l->var))
            sign = "-", step = r.c[1];
    }
    if (!sign)
        return NULL;
    char *s = copyable_text(step, file, text, l->var);
    if (!s)
        return NULL;
    /* a literal 1 keeps its plain form: the != test below asks for it */
    char *r = strcmp(s, "1") == 0 ? xasprintf("%s1", sign) : xasprintf("%sPOMP_I64((%s))", sign, s);
    free(s);
    return r;
}

/* The last value the condition allows, from var relop b. */
static char *read_final(CXCursor cond, const struct loop_header *l, CXFile file, const char *text)
{
    struct cursor_children ch = cursor_children(cond);
    if (clang_getCursorKind(cond) != CXCursor_BinaryOperator || ch.n != 2)
        return NULL;
    enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(cond);
    CXCursor bound;
    if (is_ref_to(ch.c[0], l->var)) {
        bound = ch.c[1];
    } else if (is_ref_to(ch.c[1], l->var)) { /* b relop var: turn it around */
        bound = ch.c[0];
        op = op == CXBinaryOperator_LT   ? CXBinaryOperator_GT
             : op == CXBinaryOperator_GT ? CXBinaryOperator_LT
             : op == CXBinaryOperator_LE ? CXBinaryOperator_GE
             : op == CXBinaryOperator_GE ? CXBinaryOperator_LE
                                         : op;
    } else {
        return NULL;
    }
    const char *adjust;
    switch (op) {
    case CXBinaryOperator_LT: adjust = " - 1"; break;
    case CXBinaryOperator_GT: adjust = " + 1"; break;
    case CXBinaryOperator_LE:
    case CXBinaryOperator_GE: adjust = ""; break;
    case CXBinaryOperator_NE: /* allowed with a step of 1 or -1 only */
        if (!l->incr || (strcmp(l->incr, "1") != 0 && strcmp(l->incr, "-1") != 0))
            return NULL;
        adjust = strcmp(l->incr, "1") == 0 ? " - 1" : " + 1";
        break;
    default: return NULL;
    }
    char *b = copyable_text(bound, file, text, l->var);
    if (!b)
        return NULL;
    char *r = xasprintf("POMP_I64((%s))%s", b, adjust);
    free(b);
    return r;
}

/* ---- the body ---- */

static enum CXChildVisitResult break_visitor(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    switch (clang_getCursorKind(c)) {
    case CXCursor_BreakStmt:
        *(int *)d = 1;
        return CXChildVisit_Break;
    case CXCursor_ForStmt:
    case CXCursor_WhileStmt:
    case CXCursor_DoStmt:
    case CXCursor_SwitchStmt:
        return CXChildVisit_Continue; /* a break in there leaves that statement */
    default:
        return CXChildVisit_Recurse;
    }
}

/* Just past the statement, its ';' included; 0 if it cannot be found. */
static unsigned statement_end(CXCursor c, unsigned e, const char *text, unsigned size)
{
    if (!needs_semicolon(c))
        return e;
    for (unsigned i = e; i < size;) {
        size_t past = i;
        if (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')
            i++;
        else if (skip_comment(text, size, &past) > 0)
            i = (unsigned)past;
        else
            return text[i] == ';' ? i + 1 : 0;
    }
    return 0;
}

/* Finds the top-level ';' and the closing ')' of the loop header that starts
 * at or after from. Returns 0 when the header is not plain text. */
static int header_layout(const char *text, unsigned size, unsigned from, unsigned *semi1,
                         unsigned *semi2, unsigned *close)
{
    unsigned i = from, nsemi = 0;
    while (i < size && text[i] != '(')
        i++;
    int depth = 0;
    for (; i < size; i++) {
        char ch = text[i];
        if (ch == '"' || ch == '\'') {
            for (i++; i < size && text[i] != ch; i++)
                if (text[i] == '\\')
                    i++;
        } else if (ch == '(' || ch == '[' || ch == '{') {
            depth++;
        } else if (ch == ')' || ch == ']' || ch == '}') {
            if (--depth == 0) {
                *close = i;
                return nsemi == 2;
            }
        } else if (ch == ';' && depth == 1) {
            if (nsemi == 0)
                *semi1 = i;
            else if (nsemi == 1)
                *semi2 = i;
            nsemi++;
        }
    }
    return 0;
}

struct loop_header *loop_analyze(CXCursor c, CXFile file, const char *text, unsigned size)
{
    if (clang_getCursorKind(c) != CXCursor_ForStmt)
        return NULL;
    struct loop_header *l = xcalloc(1, sizeof *l);
    unsigned fb, fe, s1 = 0, s2 = 0, rp = 0;
    /* The header must be written in the file: its parts are told apart by
     * where they lie between the parentheses (libclang skips empty parts). */
    if (!extent_in_file(c, file, &fb, &fe) || !header_layout(text, size, fb, &s1, &s2, &rp))
        return l;
    struct cursor_children ch = cursor_children(c);
    CXCursor init = clang_getNullCursor(), cond = init, inc = init, body = init;
    for (unsigned i = 0; i < ch.n; i++) {
        unsigned b, e;
        if (!extent_in_file(ch.c[i], file, &b, &e))
            continue;
        if (b < s1)
            init = ch.c[i];
        else if (b < s2)
            cond = ch.c[i];
        else if (b < rp)
            inc = ch.c[i];
        else
            body = ch.c[i];
    }
    if (!clang_Cursor_isNull(body)) {
        unsigned b, e;
        CXSourceLocation start = clang_getRangeStart(clang_getCursorExtent(body));
        CXFile sf;
        unsigned spelled;
        clang_getSpellingLocation(start, &sf, NULL, NULL, &spelled);
        if (extent_in_file(body, file, &b, &e) && sf && clang_File_isEqual(sf, file) && spelled == b) {
            unsigned end = statement_end(body, e, text, size);
            if (end) {
                l->body_start = b;
                l->body_end = end;
                l->body_in_file = 1;
            }
        }
        clang_visitChildren(body, break_visitor, &l->has_break);
        if (clang_getCursorKind(body) == CXCursor_BreakStmt)
            l->has_break = 1;
        CXCursor only = body;
        if (clang_getCursorKind(body) == CXCursor_CompoundStmt) {
            struct cursor_children bc = cursor_children(body);
            only = bc.n == 1 ? bc.c[0] : clang_getNullCursor();
        }
        if (!clang_Cursor_isNull(only))
            l->inner = loop_analyze(only, file, text, size);
    }
    CXCursor lb;
    if (clang_Cursor_isNull(init) || read_init(init, l, &lb) != 0)
        return l;
    if (!l->var_is_integer)
        return l; /* pointers, iterators: no int64 values */
    char *t = copyable_text(lb, file, text, l->var);
    if (t) {
        l->init = xasprintf("POMP_I64((%s))", t);
        free(t);
    }
    if (!clang_Cursor_isNull(inc))
        l->incr = read_incr(inc, l, file, text);
    if (!clang_Cursor_isNull(cond))
        l->final = read_final(cond, l, file, text);
    return l;
}

void loop_free(struct loop_header *l)
{
    while (l) {
        struct loop_header *inner = l->inner;
        free(l->var);
        free(l->init);
        free(l->final);
        free(l->incr);
        free(l);
        l = inner;
    }
}
