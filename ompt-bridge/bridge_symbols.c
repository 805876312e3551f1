/* After the run, each region the bridge created from a code address gets a
 * function and a file:line. The address is a return address into the code
 * that called the runtime; the call itself is one byte before it.
 * pomp_symbols (dladdr, llvm-symbolizer or addr2line) resolves it; of the functions
 * inlined at the address, the innermost is where the construct is written
 * (pomp's own inlined code aside; one without a line, the innermost that has
 * one).
 * Without debug information the region is named by its function (the symbol
 * table), without a file; its object and offset stay in the CTC string
 * (module, offset) for the record, never as a location. A source path under
 * the working directory is written relative to it, as the instrumenter writes
 * the files it was given: one path style for every region. */
#include "bridge_symbols.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "bridge_regions.h"
#include "ctc.h"
#include "pomp_object_name.h"
#include "pomp_record.h"
#include "pomp_symbols.h"

static int has_codeptr(const struct POMP_Region_s *r)
{
    return r->init_kind == POMP_INIT_OMPT && ctc_get(&r->ctc, "codeptr") != NULL;
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

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The instrumented construct a region was made in (a loop's closing
 * barrier: construct_file, construct_lines, bridge_regions.c). */
struct construct_place {
    const char *file;
    unsigned first, last;
};

static int construct_place(const struct ctc *c, struct construct_place *p)
{
    const char *lines = ctc_get(c, "construct_lines");
    p->file = ctc_get(c, "construct_file");
    return p->file && lines && sscanf(lines, "%u,%u", &p->first, &p->last) == 2;
}

/* Whether location `at` lies within the construct's lines. The construct's
 * file is compared by its last component: the instrumenter names it as the
 * compile found it, the debug information by its full path. */
static int inside(const struct construct_place *p, const struct pomp_location *at)
{
    return at->file && strcmp(base_name(p->file), base_name(at->file)) == 0 &&
           (unsigned)at->line >= p->first && (unsigned)at->line <= p->last;
}

/* Whether file is a system header (the C and C++ libraries', the compiler's):
 * code inlined from there at a runtime call (a vector's size() computing a
 * loop's bound, GCC: the call to GOMP_loop_*_start gets stl_vector.h:988) is
 * not where the program's construct is written, when a frame outside them
 * holds the call. */
static int system_header(const char *file)
{
    return strncmp(file, "/usr/include/", 13) == 0 || strncmp(file, "/usr/lib/", 9) == 0;
}

/* Where a runtime call's code is written: of the functions inlined at its
 * address, the innermost that is not pomp's own code nor a system header's
 * (all of them are: the outermost, the function the code is in), and of
 * those, where it has no line, the innermost out from it that has one; for a region made
 * inside an instrumented construct, the innermost that lies within the
 * construct's lines (GCC gives the call closing a loop in a lambda the line
 * of a vector's size() it inlined, stl_vector.h:988; the lambda's own frame
 * has the loop's line). *placed: whether the location is the region's
 * place. If no frame lies within the construct it is not: the outermost
 * function names the region, and its call path places it, as one without
 * debug information. NULL if every frame is pomp's. */
static const struct pomp_location *program_location(const struct pomp_symbol *sym,
                                                    const struct ctc *c, int *placed)
{
    struct construct_place p;
    int in_construct = construct_place(c, &p);
    const struct pomp_location *innermost = NULL, *outermost = NULL, *lined = NULL;
    for (size_t k = sym->depth; k-- > 0;) {
        const struct pomp_location *at = &sym->at[k];
        if (at->file && pomp_inserted_code(at->file))
            continue;
        if (!innermost && (!at->file || !system_header(at->file)))
            innermost = at;
        if (!lined && at->file && at->file[0] && at->line > 0 && !system_header(at->file))
            lined = at;
        outermost = at;
        if (in_construct && inside(&p, at)) {
            *placed = 1;
            return at;
        }
    }
    *placed = !in_construct;
    if (in_construct || !innermost)
        return outermost;
    /* a frame without a line (Clang's outlined body of a target task,
     * inlined into its task entry at -O1: line 0) is no place; the innermost
     * frame out from it that has one is (the entry: the construct's line) */
    int no_line = !innermost->file || !innermost->file[0] || innermost->line <= 0;
    return no_line && lined ? lined : innermost;
}

/* The locks of named critical constructs: the program's data objects of
 * that prefix, gathered at the first lock that is not one of them. */
static const char critical_prefix[] = ".gomp_critical_user_";
struct critical_locks {
    struct pomp_named_object *list;
    size_t n;
    int gathered;
};

/* A word of this process's memory, or 0 where it cannot be read (no crash). */
static int read_word(uintptr_t addr, uintptr_t *word)
{
    struct iovec local = {word, sizeof *word}, remote = {(void *)addr, sizeof *word};
    return addr && process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == (ssize_t)sizeof *word;
}

/* LLVM libomp reports a named critical's wait by its lock, which for most
 * kinds of lock (the default: queuing) it allocates at the construct's first
 * execution and keeps in a record whose first word points to it; the
 * construct's own object (.gomp_critical_user_<name>.var) holds the record's
 * address. The lock is named after the object that leads to it (under
 * pomprun a clang program's criticals lost their names). */
static const struct pomp_named_object *critical_of_lock(uintptr_t lock,
                                                        struct critical_locks *locks)
{
    if (!locks->gathered) {
        locks->n = pomp_objects_named(critical_prefix, &locks->list);
        locks->gathered = 1;
    }
    for (size_t i = 0; i < locks->n; i++) {
        uintptr_t record, first;
        if (read_word(locks->list[i].addr, &record) && record % sizeof record == 0 &&
            read_word(record, &first) && first == lock)
            return &locks->list[i];
    }
    return NULL;
}

/* Names of criticals found while what leads to them was still there: a
 * plugin's, before dlclose unmapped its lock's symbol (another plugin's, loaded
 * there next, named it after the run: a probe, both plugins' criticals
 * unnamed or named after the second); a lock libomp allocated, before its
 * shutdown freed the record that leads to it. "" for a critical with no name. */
struct kept_name {
    struct POMP_Region_s *region;
    char *name;
};
static struct {
    pthread_mutex_t lock;
    struct kept_name *list;
    size_t n, cap;
} kept = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* The kept name of r (NULL: none kept); under kept.lock or after the run. */
static const char *kept_name_of(const struct POMP_Region_s *r)
{
    for (size_t i = 0; i < kept.n; i++)
        if (kept.list[i].region == r)
            return kept.list[i].name;
    return NULL;
}

static int critical_name(const struct POMP_Region_s *r, struct critical_locks *locks, char *buf,
                         size_t size);

void bridge_symbols_keep_critical_names(uintptr_t lo, uintptr_t hi)
{
    struct critical_locks locks = {0};
    pthread_mutex_lock(&kept.lock);
    for (struct POMP_Region_s *r = pomp_region_list(); r; r = r->next) {
        const char *codeptr = has_codeptr(r) ? ctc_get(&r->ctc, "codeptr") : NULL;
        uintptr_t code = codeptr ? (uintptr_t)strtoull(codeptr, NULL, 16) : 0;
        if (!code || code < lo || code >= hi || !__atomic_load_n(&r->object, __ATOMIC_RELAXED) ||
            !r->ctc.type || strcmp(r->ctc.type, "critical") != 0 || kept_name_of(r))
            continue;
        char name[200];
        if (!critical_name(r, &locks, name, sizeof name))
            name[0] = '\0';
        if (kept.n == kept.cap) {
            size_t cap = kept.cap ? 2 * kept.cap : 16;
            struct kept_name *list = realloc(kept.list, cap * sizeof *list);
            if (!list)
                break;
            kept.list = list;
            kept.cap = cap;
        }
        char *copy = strdup(name);
        if (!copy)
            break;
        kept.list[kept.n++] = (struct kept_name){r, copy};
    }
    pthread_mutex_unlock(&kept.lock);
    pomp_named_objects_free(locks.list, locks.n);
}

/* The name of a named critical construct from its lock's symbol: GCC's
 * ".gomp_critical_user_<name>", Clang's ".gomp_critical_user_<name>.var" (the
 * unnamed critical: libgomp's own lock, or Clang's empty name: none). */
static int critical_name(const struct POMP_Region_s *r, struct critical_locks *locks, char *buf,
                         size_t size)
{
    static const char clang_suffix[] = ".var";
    uintptr_t lock = __atomic_load_n(&r->object, __ATOMIC_RELAXED);
    char symbol[256];
    const char *found = symbol;
    if (!lock || !r->ctc.type || strcmp(r->ctc.type, "critical") != 0)
        return 0;
    if (!pomp_object_name(lock, symbol, sizeof symbol)) {
        const struct pomp_named_object *object = critical_of_lock(lock, locks);
        found = object ? object->name : NULL;
    }
    if (!found || strncmp(found, critical_prefix, sizeof critical_prefix - 1) != 0)
        return 0;
    const char *name = found + sizeof critical_prefix - 1;
    size_t n = strlen(name), suffix = sizeof clang_suffix - 1;
    if (n >= suffix && strcmp(name + n - suffix, clang_suffix) == 0)
        n -= suffix;
    if (n == 0 || n >= size)
        return 0;
    memcpy(buf, name, n);
    buf[n] = '\0';
    return 1;
}

/* The region's new CTC string: what it had, and where its code is. */
static void relabel(struct POMP_Region_s *r, const struct pomp_symbol *sym, const char *cwd,
                    struct critical_locks *locks)
{
    int placed;
    const struct pomp_location *at = program_location(sym, &r->ctc, &placed);
    const struct ctc *old = &r->ctc;
    struct ctc_builder b;
    ctc_builder_init(&b);
    ctc_builder_add(&b, "type", old->type ? old->type : "unknown");
    char critical[200];
    const char *kept_critical = kept_name_of(r);
    if (old->name)
        ctc_builder_add(&b, "name", old->name);
    else if (kept_critical && kept_critical[0])
        ctc_builder_add(&b, "name", kept_critical);
    else if (!kept_critical && critical_name(r, locks, critical, sizeof critical))
        ctc_builder_add(&b, "name", critical);
    if (placed && at && at->file && at->file[0] && at->line > 0) {
        char *file = ctc_path_seen_from(at->file, cwd); /* the instrumented regions' rule */
        ctc_builder_add(&b, "file", file ? file : at->file);
        free(file);
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
    static const char *const kept[] = {"codeptr", "construct_file", "construct_lines", "place_of"};
    for (size_t k = 0; k < sizeof kept / sizeof *kept; k++) {
        const char *value = ctc_get(old, kept[k]);
        if (value)
            ctc_builder_add(&b, kept[k], value);
    }
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
    uintptr_t *addresses = calloc(n, sizeof *addresses), *offsets = calloc(n, sizeof *offsets);
    const char **modules = calloc(n, sizeof *modules);
    struct pomp_symbol_table t = {0};
    if (!regions || !addresses || !offsets || !modules)
        goto out;
    /* a file is checked against the place of the instrumented construct a
     * region was made in; one made in no such construct (a program run by
     * pomprun, an uninstrumented file) needs the exact one */
    enum pomp_symbols_files files = POMP_SYMBOLS_CHECKED;
    struct construct_place place;
    for (struct POMP_Region_s *r = pomp_region_list(); r && k < n; r = r->next)
        if (has_codeptr(r)) {
            regions[k] = r;
            /* the library it was in when it ran (bridge_regions.c) */
            const char *module = ctc_get(&r->ctc, "module"), *offset = ctc_get(&r->ctc, "offset");
            if (module && offset) {
                modules[k] = module;
                offsets[k] = (uintptr_t)strtoull(offset, NULL, 16) - 1;
            }
            addresses[k++] = (uintptr_t)strtoull(ctc_get(&r->ctc, "codeptr"), NULL, 16) - 1;
            if (!construct_place(&r->ctc, &place))
                files = POMP_SYMBOLS_EXACT;
        }
    if (pomp_symbols_resolve_in(addresses, modules, offsets, k, &t, files) != 0)
        goto out;
    if (!t.symbolizer_ran)
        fputs("pomp: note: neither llvm-symbolizer nor addr2line (binutils) could run; regions "
              "reported by the runtime are named by object and offset\n", stderr);
    char cwd[4096];
    const char *dir = pomp_config_start_dir(pomp_config(), cwd, sizeof cwd); /* as pomp_region.c */
    struct critical_locks locks = {0};
    for (size_t i = 0; i < k; i++)
        relabel(regions[i], &t.syms[i], dir, &locks);
    pomp_named_objects_free(locks.list, locks.n);
out:
    pomp_symbols_free(&t);
    free(modules);
    free(offsets);
    free(addresses);
    free(regions);
}
