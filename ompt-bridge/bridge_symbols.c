/* After the run, each region the bridge created from a code address gets a
 * function and a file:line. The address is a return address into the code
 * that called the runtime; the call itself is one byte before it.
 * pomp_symbols (dladdr, binutils' addr2line) resolves it; of the functions
 * inlined at the address, the innermost is where the construct is written
 * (pomp's own inlined code aside).
 * Without debug information the region is named by its function (the symbol
 * table), without a file; its object and offset stay in the CTC string
 * (module, offset) for the record, never as a location. A source path under
 * the working directory is written relative to it, as the instrumenter writes
 * the files it was given: one path style for every region. */
#include "bridge_symbols.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bridge_regions.h"
#include "ctc.h"
#include "pomp_record.h"
#include "pomp_symbols.h"

static int has_codeptr(const struct POMP_Region_s *r)
{
    return r->init_kind == POMP_INIT_OMPT && ctc_get(&r->ctc, "codeptr") != NULL;
}

/* path, relative to dir when it lies below it. */
static const char *relative_to(const char *dir, const char *path)
{
    size_t n = dir ? strlen(dir) : 0;
    if (n > 1 && strncmp(path, dir, n) == 0 && path[n] == '/')
        return path + n + 1;
    return path;
}

/* Whether file is pomp's code inlined into the program: pomplib.h (the inline
 * counter of atomic, critical and task sites) or a .pomp.inc file the
 * instrumenter generated. The compiler may give the instructions around a
 * runtime call the line of that code (a loop's closing barrier right after
 * the counter of its last atomic): it is never where a construct is written. */
static int pomp_inserted_code(const char *file)
{
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    size_t n = strlen(base), inc = strlen(".pomp.inc");
    return strcmp(base, "pomplib.h") == 0 || (n > inc && strcmp(base + n - inc, ".pomp.inc") == 0);
}

/* Where a runtime call's code is written: the innermost of the functions
 * inlined at its address that is not pomp's own code; NULL if none. */
static const struct pomp_location *program_location(const struct pomp_symbol *sym)
{
    for (size_t k = sym->depth; k-- > 0;)
        if (!sym->at[k].file || !pomp_inserted_code(sym->at[k].file))
            return &sym->at[k];
    return NULL;
}

/* The region's new CTC string: what it had, and where its code is. */
static void relabel(struct POMP_Region_s *r, const struct pomp_symbol *sym, const char *cwd)
{
    const struct pomp_location *at = program_location(sym);
    const struct ctc *old = &r->ctc;
    struct ctc_builder b;
    ctc_builder_init(&b);
    ctc_builder_add(&b, "type", old->type ? old->type : "unknown");
    if (old->name)
        ctc_builder_add(&b, "name", old->name);
    if (at && at->file && at->file[0] && at->line > 0) {
        ctc_builder_add(&b, "file", relative_to(cwd, at->file));
        ctc_builder_add_lines(&b, "slines", at->line, at->line);
        ctc_builder_add_lines(&b, "elines", at->line, at->line);
    }
    size_t function_len = at && at->function ? pomp_symbols_source_function_len(at->function) : 0;
    if (function_len > 0) { /* GCC's outlined body: its function's (clang's own names: none) */
        char *function = strndup(at->function, function_len);
        if (function)
            ctc_builder_add(&b, "function", function);
        free(function);
    }
    const char *codeptr = ctc_get(old, "codeptr");
    if (codeptr)
        ctc_builder_add(&b, "codeptr", codeptr);
    if (sym->module[0]) {
        char offset[32];
        snprintf(offset, sizeof offset, "0x%lx", (unsigned long)sym->offset);
        ctc_builder_add(&b, "module", sym->module);
        ctc_builder_add(&b, "offset", offset);
    }
    char *ctc = ctc_builder_finish(&b);
    if (ctc)
        pomp_region_relabel(r, ctc);
    free(ctc);
}

void bridge_symbols_resolve(void)
{
    size_t n = 0, k = 0;
    for (struct POMP_Region_s *r = pomp_region_list(); r; r = r->next)
        n += has_codeptr(r);
    if (n == 0)
        return;
    struct POMP_Region_s **regions = calloc(n, sizeof *regions);
    uintptr_t *addresses = calloc(n, sizeof *addresses);
    struct pomp_symbol_table t = {0};
    if (!regions || !addresses)
        goto out;
    for (struct POMP_Region_s *r = pomp_region_list(); r && k < n; r = r->next)
        if (has_codeptr(r)) {
            regions[k] = r;
            addresses[k++] = (uintptr_t)strtoull(ctc_get(&r->ctc, "codeptr"), NULL, 16) - 1;
        }
    if (pomp_symbols_resolve(addresses, k, &t) != 0)
        goto out;
    if (!t.addr2line_ran)
        fputs("pomp: note: addr2line (binutils) did not run; regions reported by the runtime are "
              "named by object and offset\n", stderr);
    char cwd[4096];
    const char *dir = getcwd(cwd, sizeof cwd);
    for (size_t i = 0; i < k; i++)
        relabel(regions[i], &t.syms[i], dir);
out:
    pomp_symbols_free(&t);
    free(addresses);
    free(regions);
}
