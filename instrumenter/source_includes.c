#include "source_includes.h"

#include <clang-c/Index.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* libclang's name of a file, as the compiler spells it (its regions' locations
 * read like the source's: "x.h:9" beside "main.c:18"). */
static char *file_name(CXFile f)
{
    CXString s = clang_getFileName(f);
    char *name = region_file_name(clang_getCString(s) ? clang_getCString(s) : "");
    clang_disposeString(s);
    return name;
}

static enum CXChildVisitResult inclusion_visitor(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    struct source_includes *out = d;
    if (clang_getCursorKind(c) != CXCursor_InclusionDirective)
        return CXChildVisit_Continue;
    CXFile target = clang_getIncludedFile(c);
    CXFile in;
    unsigned offset;
    clang_getFileLocation(clang_getRangeStart(clang_getCursorExtent(c)), &in, NULL, NULL, &offset);
    if (!target)
        return CXChildVisit_Continue; /* not found: the compiler says so */
    /* in no file: given on the command line (-include), in_file "" (a header
     * entered so too cannot be pointed at a copy: headers.c) */
    out->v = xrealloc(out->v, (out->n + 1) * sizeof *out->v);
    out->v[out->n++] = (struct source_include){in ? file_name(in) : xstrdup(""), in ? offset : 0,
                                               file_name(target)};
    return CXChildVisit_Continue;
}

void source_includes_collect(const struct source_unit *u, struct source_includes *out)
{
    memset(out, 0, sizeof *out);
    clang_visitChildren(clang_getTranslationUnitCursor(u->tu), inclusion_visitor, out);
}

void source_includes_free(struct source_includes *in)
{
    for (size_t i = 0; i < in->n; i++) {
        free(in->v[i].in_file);
        free(in->v[i].target);
    }
    free(in->v);
    memset(in, 0, sizeof *in);
}

int source_unit_is_system_file(const struct source_unit *u, const char *name)
{
    CXFile f = clang_getFile(u->tu, name);
    return !f || clang_Location_isInSystemHeader(clang_getLocationForOffset(u->tu, f, 0));
}
