/* OpenMP's x of an atomic construct (the storage it reads, writes or updates)
 * made out from libclang's AST of the statement, and its size: the
 * compilers update x with one instruction only where it is 1, 2, 4 or 8
 * bytes; a larger x (long double, a complex double, __int128, _Float128) is
 * updated under a lock (GCC: GOMP_atomic_start; Clang: libomp's atomic
 * locks, libatomic's for read and write), and the time spent getting it is a
 * wait that the atomic's event alone did not see. */
#include "atomic_operand.h"

#include <string.h>

#include "loops.h"

/* c without the parentheses and implicit conversions around it. */
static CXCursor stripped(CXCursor c)
{
    for (;;) {
        enum CXCursorKind k = clang_getCursorKind(c);
        if (k != CXCursor_ParenExpr && k != CXCursor_UnexposedExpr)
            return c;
        struct cursor_children ks = cursor_children(c);
        if (ks.n != 1)
            return c;
        c = ks.c[0];
    }
}

static int is_assignment(CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    return (k == CXCursor_BinaryOperator &&
            clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Assign) ||
           k == CXCursor_CompoundAssignOperator;
}

static int is_step(CXCursor c) /* ++ or -- */
{
    if (clang_getCursorKind(c) != CXCursor_UnaryOperator)
        return 0;
    enum CXUnaryOperatorKind k = clang_getCursorUnaryOperatorKind(c);
    return k == CXUnaryOperator_PostInc || k == CXUnaryOperator_PostDec || k == CXUnaryOperator_PreInc || k == CXUnaryOperator_PreDec;
}

/* The spelling of an expression's tokens, joined, into buf (empty if too long). */
static void spelling(CXCursor c, char *buf, size_t size)
{
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
    CXToken *toks = NULL;
    unsigned n = 0;
    clang_tokenize(tu, clang_getCursorExtent(c), &toks, &n);
    size_t len = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < n; i++) {
        CXString s = clang_getTokenSpelling(tu, toks[i]);
        const char *t = clang_getCString(s);
        size_t l = strlen(t);
        if (len + l + 1 >= size) {
            clang_disposeString(s);
            buf[0] = '\0';
            break;
        }
        memcpy(buf + len, t, l);
        buf[len += l] = ' ';
        buf[++len] = '\0';
        clang_disposeString(s);
    }
    clang_disposeTokens(tu, toks, n);
}

static int same_spelling(CXCursor a, CXCursor b)
{
    char sa[256], sb[256];
    spelling(a, sa, sizeof sa);
    spelling(b, sb, sizeof sb);
    return sa[0] && strcmp(sa, sb) == 0;
}

/* x of an expression statement: the target of an assignment (of the inner
 * one in a capture's v = x op= e), the operand of ++ or --, the right side of
 * a read's v = x. */
static int x_of_expression(CXCursor e, int read, CXCursor *x)
{
    e = stripped(e);
    if (is_step(e)) {
        struct cursor_children k = cursor_children(e);
        return k.n == 1 ? (*x = k.c[0], 1) : 0;
    }
    if (!is_assignment(e))
        return 0;
    struct cursor_children k = cursor_children(e);
    if (k.n != 2)
        return 0;
    CXCursor rhs = stripped(k.c[1]);
    if (clang_getCursorKind(e) == CXCursor_BinaryOperator && (is_assignment(rhs) || is_step(rhs)))
        return x_of_expression(rhs, 0, x); /* capture: v = x++, v = x op= e, v = x = ... */
    *x = stripped(read ? k.c[1] : k.c[0]); /* (a read's v = x: x before its conversion to v's type) */
    return 1;
}

static int x_of(CXCursor s, int read, CXCursor *x);

/* A capture's or compare's block of two statements: {v = x; update},
 * {update; v = x}, {v = x; x = e} (the swap), {v = x; if (...) x = e;}. */
static int x_of_block(CXCursor first, CXCursor second, CXCursor *x)
{
    CXCursor a = stripped(first), b = stripped(second), t;
    struct cursor_children kb = cursor_children(b);
    /* {x update; v = x}: the second reads what the first wrote */
    if (clang_getCursorKind(b) == CXCursor_BinaryOperator && is_assignment(b) && kb.n == 2 &&
        x_of(a, 0, &t) && same_spelling(stripped(kb.c[1]), stripped(t)))
        return *x = t, 1;
    return x_of(b, 0, x);
}

static int x_of(CXCursor s, int read, CXCursor *x)
{
    enum CXCursorKind k = clang_getCursorKind(s);
    if (k == CXCursor_CompoundStmt) {
        struct cursor_children ks = cursor_children(s);
        if (ks.n == 1)
            return x_of(ks.c[0], read, x);
        return ks.n == 2 ? x_of_block(ks.c[0], ks.c[1], x) : 0;
    }
    if (k == CXCursor_IfStmt) { /* compare: if (x == e) x = d; (then: the second child) */
        struct cursor_children ks = cursor_children(s);
        return ks.n >= 2 ? x_of(ks.c[1], 0, x) : 0;
    }
    return x_of_expression(s, read, x);
}

long long atomic_operand_size(CXCursor stmt, int read)
{
    CXCursor x;
    if (!x_of(stmt, read, &x))
        return -1;
    CXType t = clang_getCanonicalType(clang_getCursorType(x));
    if (t.kind == CXType_Invalid || t.kind == CXType_Dependent)
        return -1;
    long long size = clang_Type_getSizeOf(t);
    return size > 0 ? size : -1;
}

int atomic_operand_locked(long long size)
{
    return size > 0 && size != 1 && size != 2 && size != 4 && size != 8;
}
