/* GCC drops the barrier of a worksharing construct (for, sections, single)
 * that ends a parallel region, the region's own barrier following, unless a
 * local variable of the region's outlined function is addressable (a task
 * could still use it after the function returns: GCC's omp-expand,
 * remove_exit_barrier). pomp's exit call after the construct hid from GCC
 * that the construct ends the region, and the pompcc build kept a barrier the
 * plain build did not have (a probe: 1.5 times the plain run time under
 * OMP_WAIT_POLICY=passive). constructs.c adds the nowait GCC would have
 * where this says that no local can be addressable. Conservative: where GCC
 * would drop the barrier all the same (a scalar local whose address is never
 * taken), the barrier stays, one more than in the plain build as before;
 * never one fewer. */
#include "addressable.h"

#include <stdlib.h>
#include <string.h>

#include "loops.h"
#include "util.h"

struct walk {
    int locals;          /* the answer (may_address_locals) */
    unsigned *loop_vars; /* offsets of the for loops' own declarations */
    size_t nloop_vars;
};

static int is_array(CXType t)
{
    enum CXTypeKind k = clang_getCanonicalType(t).kind;
    return k == CXType_ConstantArray || k == CXType_IncompleteArray ||
           k == CXType_VariableArray || k == CXType_DependentSizedArray;
}

static int is_pointer(CXType t) { return clang_getCanonicalType(t).kind == CXType_Pointer; }

static unsigned offset_of(CXCursor c)
{
    unsigned offset = 0;
    clang_getSpellingLocation(clang_getCursorLocation(c), NULL, NULL, NULL, &offset);
    return offset;
}

static int at_file_scope(CXCursor decl)
{
    if (clang_getCursorKind(decl) != CXCursor_VarDecl)
        return 0; /* a parameter, or what cannot be made out: a local */
    if (clang_Cursor_getStorageClass(decl) == CX_SC_Extern)
        return 1;
    return clang_getCursorKind(clang_getCursorSemanticParent(decl)) == CXCursor_TranslationUnit;
}

/* ref (a DeclRefExpr) names a variable whose storage may be addressed: a
 * local settles the answer; a file-scope one is no local of the outlined
 * function (constructs.c allows no clause that would make it private). */
static void pin(struct walk *w, CXCursor ref)
{
    CXCursor decl = clang_getCursorReferenced(ref);
    if (clang_Cursor_isNull(decl) || !at_file_scope(decl))
        w->locals = 1;
}

/* The variable whose storage &e addresses: x in &x, &x.f, &x[i] (x an
 * array); none in &p->f, &p[i] (p a pointer), &*p or a call's result. */
static void pin_address_of(struct walk *w, CXCursor e)
{
    for (;;) {
        enum CXCursorKind k = clang_getCursorKind(e);
        if (k == CXCursor_DeclRefExpr) {
            pin(w, e);
            return;
        }
        struct cursor_children ks = cursor_children(e);
        if (ks.n == 0)
            return;
        if (k == CXCursor_ParenExpr || k == CXCursor_UnexposedExpr) {
            if (ks.n != 1) {
                w->locals = 1; /* not made out */
                return;
            }
        } else if (k == CXCursor_MemberRefExpr || k == CXCursor_ArraySubscriptExpr) {
            if (is_pointer(clang_getCursorType(ks.c[0])))
                return; /* through a pointer: no address of it taken */
        } else {
            return;
        }
        e = ks.c[0];
    }
}

static enum CXChildVisitResult visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_ForStmt) {
        /* for (int i = ...): the loop's own scalar variable is the one
         * declaration allowed */
        struct cursor_children ks = cursor_children(c);
        if (ks.n && clang_getCursorKind(ks.c[0]) == CXCursor_DeclStmt) {
            struct cursor_children ds = cursor_children(ks.c[0]);
            for (unsigned i = 0; i < ds.n; i++)
                if (clang_getCursorKind(ds.c[i]) == CXCursor_VarDecl &&
                    !is_array(clang_getCursorType(ds.c[i]))) {
                    w->loop_vars = xrealloc(w->loop_vars, (w->nloop_vars + 1) * sizeof *w->loop_vars);
                    w->loop_vars[w->nloop_vars++] = offset_of(ds.c[i]);
                }
        }
    } else if (k == CXCursor_VarDecl) {
        unsigned at = offset_of(c);
        int loop_var = 0;
        for (size_t i = 0; i < w->nloop_vars; i++)
            loop_var |= w->loop_vars[i] == at;
        w->locals |= !loop_var;
    } else if (k == CXCursor_CompoundLiteralExpr) {
        w->locals = 1; /* an unnamed local object */
    } else if (k == CXCursor_DeclRefExpr) {
        CXCursor decl = clang_getCursorReferenced(c);
        if (!clang_Cursor_isNull(decl) && is_array(clang_getCursorType(decl)))
            pin(w, c);
    } else if (k == CXCursor_UnaryOperator &&
               clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_AddrOf) {
        struct cursor_children ks = cursor_children(c);
        if (ks.n == 1)
            pin_address_of(w, ks.c[0]);
        else
            w->locals = 1;
    }
    return CXChildVisit_Recurse;
}

int may_address_locals(CXCursor stmt)
{
    struct walk w = {0, NULL, 0};
    visit(stmt, clang_getNullCursor(), &w); /* (the statement may be the for loop itself) */
    clang_visitChildren(stmt, visit, &w);
    free(w.loop_vars);
    return w.locals;
}
