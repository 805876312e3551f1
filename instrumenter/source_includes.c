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

/* Whether the include directive over range r names its file "quoted". */
static int directive_quoted(CXTranslationUnit tu, CXSourceRange r)
{
    CXToken *toks;
    unsigned n;
    int quoted = 0;
    clang_tokenize(tu, r, &toks, &n);
    for (unsigned i = 0; i < n && !quoted; i++) {
        CXString s = clang_getTokenSpelling(tu, toks[i]);
        quoted = clang_getCString(s) && clang_getCString(s)[0] == '"';
        clang_disposeString(s);
    }
    if (toks)
        clang_disposeTokens(tu, toks, n);
    return quoted;
}

/* What the collection needs of each directive found (out->v[i]'s): the
 * file it is written in (NULL: the command line), where it ends there (for
 * recovery marking), and its target (whose spelled name is out->v[i]'s). */
struct directive_files {
    CXFile in, target;
    unsigned end;
};

struct collector {
    struct source_includes *out;
    CXTranslationUnit tu;
    CXFile main;           /* the unit's main file */
    const char *main_name; /* as given */
    struct directive_files *files;
};

/* The name GCC gives file f, an includer (as __FILE__ reads in it): the main
 * file's as given, a header's as its first inclusion spelled it, else NULL. */
static const char *spelled_includer(const struct collector *col, CXFile f)
{
    if (!f)
        return NULL;
    if (col->main && clang_File_isEqual(f, col->main))
        return col->main_name;
    for (size_t i = 0; i < col->out->n; i++)
        if (clang_File_isEqual(col->files[i].target, f))
            return col->out->v[i].spelled;
    return NULL;
}

/* The target of an include directive as the compiler spells it (__FILE__
 * there, its messages): clang's name (inc/../x.h, an absolute path under an
 * absolute -I), except that clang names a file found beside an includer
 * named without a directory ./x.h, where GCC names it x.h (the includer's
 * directory is "" to GCC, "." to clang); a "./" of -I., of an includer named
 * ./main.c, stays, as GCC keeps it. */
static char *target_spelled(const struct collector *col, CXCursor c, CXSourceRange r, CXFile in,
                            CXFile target)
{
    CXString s = clang_getFileName(target), written = clang_getCursorSpelling(c);
    const char *raw = clang_getCString(s) ? clang_getCString(s) : "";
    const char *includer = spelled_includer(col, in);
    int beside = strncmp(raw, "./", 2) == 0 && clang_getCString(written) &&
                 strcmp(raw + 2, clang_getCString(written)) == 0 && includer &&
                 !strchr(includer, '/') && directive_quoted(col->tu, r);
    char *name = xstrdup(beside ? raw + 2 : raw);
    clang_disposeString(s);
    clang_disposeString(written);
    return name;
}

static enum CXChildVisitResult inclusion_visitor(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    struct collector *col = d;
    struct source_includes *out = col->out;
    if (clang_getCursorKind(c) != CXCursor_InclusionDirective)
        return CXChildVisit_Continue;
    CXFile target = clang_getIncludedFile(c);
    CXFile in;
    unsigned offset, end;
    CXSourceRange r = clang_getCursorExtent(c);
    clang_getFileLocation(clang_getRangeStart(r), &in, NULL, NULL, &offset);
    clang_getFileLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &end);
    if (!target)
        return CXChildVisit_Continue; /* not found: the compiler says so */
    /* in no file: given on the command line (-include), in_file "" (a header
     * entered so too cannot be pointed at a copy: headers.c) */
    out->v = xrealloc(out->v, (out->n + 1) * sizeof *out->v);
    col->files = xrealloc(col->files, (out->n + 1) * sizeof *col->files);
    col->files[out->n] = (struct directive_files){in, target, in ? end : 0};
    char *spelled = target_spelled(col, c, r, in, target);
    out->v[out->n++] = (struct source_include){in ? file_name(in) : xstrdup(""), in ? offset : 0,
                                               file_name(target), spelled, 0};
    return CXChildVisit_Continue;
}

/* Marks the directives the parser reports an error in yet found a file for
 * (found_by_recovery): the compiler stops there, and a directive pointed at
 * the header's copy made its build succeed (#include <x.h> with x.h only in
 * an -iquote directory compiled under pompcc, and GCC said "x.h: No such
 * file or directory"). */
static void mark_recovered(CXTranslationUnit tu, const struct collector *col)
{
    for (unsigned i = 0, n = col->out->n ? clang_getNumDiagnostics(tu) : 0; i < n; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        CXFile f = NULL;
        unsigned at = 0;
        if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error)
            clang_getFileLocation(clang_getDiagnosticLocation(d), &f, NULL, NULL, &at);
        for (size_t k = 0; f && k < col->out->n; k++)
            if (col->files[k].in && clang_File_isEqual(col->files[k].in, f) &&
                col->out->v[k].offset <= at && at < col->files[k].end)
                col->out->v[k].found_by_recovery = 1;
        clang_disposeDiagnostic(d);
    }
}

void source_includes_collect(const struct source_unit *u, struct source_includes *out)
{
    memset(out, 0, sizeof *out);
    struct collector col = {.out = out, .tu = u->tu, .main = clang_getFile(u->tu, u->path),
                            .main_name = u->path};
    clang_visitChildren(clang_getTranslationUnitCursor(u->tu), inclusion_visitor, &col);
    mark_recovered(u->tu, &col);
    free(col.files);
}

void source_includes_free(struct source_includes *in)
{
    for (size_t i = 0; i < in->n; i++) {
        free(in->v[i].in_file);
        free(in->v[i].target);
        free(in->v[i].spelled);
    }
    free(in->v);
    memset(in, 0, sizeof *in);
}

int source_unit_is_system_file(const struct source_unit *u, const char *name)
{
    CXFile f = clang_getFile(u->tu, name);
    return !f || clang_Location_isInSystemHeader(clang_getLocationForOffset(u->tu, f, 0));
}
