/* Code addresses of one module named from its debug information in this
 * process, with elfutils' libdw (loaded when first needed, so that a program
 * that never names an address maps none of it). It writes what
 * `addr2line -a -f -i -C` writes, which pomp_symbols.c reads from either
 * symbolizer it runs: the symbolizers were a process each (LLVM's: 0.1-0.35 s
 * and ~100 MB to start, per module, at the end of every run under pomprun or
 * sampling). */
#include "pomp_dwarf.h"

#include <dlfcn.h>
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* libdw's calls, by their own types. */
#define DW_CALLS(X)                                                                             \
    X(dwfl_begin)                                                                               \
    X(dwfl_end)                                                                                 \
    X(dwfl_report_begin)                                                                        \
    X(dwfl_report_elf)                                                                          \
    X(dwfl_report_end)                                                                          \
    X(dwfl_addrmodule)                                                                          \
    X(dwfl_module_addrdie)                                                                      \
    X(dwfl_module_addrname)                                                                     \
    X(dwfl_module_getsymtab)                                                                    \
    X(dwfl_module_getsym_info)                                                                  \
    X(dwfl_module_getdwarf)                                                                     \
    X(dwfl_build_id_find_elf)                                                                   \
    X(dwfl_standard_find_debuginfo)                                                             \
    X(dwfl_offline_section_address)                                                             \
    X(dwarf_nextcu)                                                                             \
    X(dwarf_offdie)                                                                             \
    X(dwarf_child)                                                                              \
    X(dwarf_siblingof)                                                                          \
    X(dwarf_haspc)                                                                              \
    X(dwarf_getsrc_die)                                                                         \
    X(dwarf_getsrclines)                                                                        \
    X(dwarf_onesrcline)                                                                         \
    X(dwarf_lineaddr)                                                                           \
    X(dwarf_linebeginstatement)                                                                 \
    X(dwarf_lineendsequence)                                                                    \
    X(dwarf_lowpc)                                                                              \
    X(dwarf_lineno)                                                                             \
    X(dwarf_linesrc)                                                                            \
    X(dwarf_tag)                                                                                \
    X(dwarf_attr_integrate)                                                                     \
    X(dwarf_formstring)                                                                         \
    X(dwarf_formudata)                                                                          \
    X(dwarf_getsrcfiles)                                                                        \
    X(dwarf_filesrc)

struct libdw {
#define DW_POINTER(name) __typeof__(&name) name;
    DW_CALLS(DW_POINTER)
#undef DW_POINTER
    /* the C++ runtime's demangler: the program's, else libstdc++'s, loaded
     * for the first mangled name (a C++ program that needs nothing of
     * libstdc++ does not link it) */
    char *(*demangle)(const char *, char *, size_t *, int *);
};

static struct libdw dw;
static int dw_loaded;
static pthread_once_t dw_once = PTHREAD_ONCE_INIT;

static void load_libdw(void)
{
    void *h = dlopen("libdw.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return;
#define DW_LOAD(name)                                                                           \
    if (!(*(void **)&dw.name = dlsym(h, #name)))                                                \
        return;
    DW_CALLS(DW_LOAD)
#undef DW_LOAD
    dw_loaded = 1;
}

static pthread_once_t demangler_once = PTHREAD_ONCE_INIT;

static void load_demangler(void)
{
    void *f = dlsym(RTLD_DEFAULT, "__cxa_demangle");
    void *cxx = f ? NULL : dlopen("libstdc++.so.6", RTLD_NOW | RTLD_LOCAL);
    if (cxx)
        f = dlsym(cxx, "__cxa_demangle");
    *(void **)&dw.demangle = f;
}

static int find_demangler(void)
{
    pthread_once(&demangler_once, load_demangler);
    return dw.demangle != NULL;
}

/* Separate debug files are looked for on this machine only: with
 * DEBUGINFOD_URLS set, libdw's standard search would ask those servers, from
 * inside the program's exit, for each module without local debug
 * information. */
static int find_local_debuginfo(Dwfl_Module *m, void **user, const char *name, Dwarf_Addr base,
                                const char *file, const char *debuglink, GElf_Word crc,
                                char **debuginfo)
{
    const char *urls = getenv("DEBUGINFOD_URLS");
    if (urls && urls[0])
        return -1;
    return dw.dwfl_standard_find_debuginfo(m, user, name, base, file, debuglink, crc, debuginfo);
}

/* A name as addr2line -C writes it: a mangled C++ name demangled, its clone
 * suffixes (GCC's "._omp_fn.1", Clang's ".omp_outlined") as " [clone
 * .<suffix>]" where the demangler left them; any other as it is. */
static void write_name(FILE *out, const char *name)
{
    if (!name) {
        fprintf(out, "??\n");
        return;
    }
    if (strncmp(name, "_Z", 2) == 0 && find_demangler()) {
        int status = -1;
        char *plain = dw.demangle(name, NULL, NULL, &status);
        const char *dot = strchr(name, '.');
        if ((!plain || status != 0) && dot) { /* the name before the suffixes */
            char symbol[4096];
            snprintf(symbol, sizeof symbol, "%.*s", (int)(dot - name), name);
            free(plain);
            plain = dw.demangle(symbol, NULL, NULL, &status);
            if (plain && status == 0) {
                fprintf(out, "%s [clone %s]\n", plain, dot);
                free(plain);
                return;
            }
        }
        if (plain && status == 0) {
            fprintf(out, "%s\n", plain);
            free(plain);
            return;
        }
        free(plain);
    }
    fprintf(out, "%s\n", name);
}

/* A function's name: its linkage name (C++'s), else its own (C's, and
 * GCC's name of an outlined region: "main._omp_fn.0", or mangled). GCC
 * writes no linkage name for a C++ function of internal linkage: its
 * symbol's (symbol, where the code is that function's own, not inlined),
 * if mangled, names it with its parameters, as the other functions are. */
static void write_die_name(FILE *out, Dwarf_Die *die, const char *symbol)
{
    Dwarf_Attribute a;
    const char *name = NULL;
    if (dw.dwarf_attr_integrate(die, DW_AT_linkage_name, &a) ||
        dw.dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a))
        name = dw.dwarf_formstring(&a);
    if (!name && symbol && strncmp(symbol, "_Z", 2) == 0)
        name = symbol;
    if (!name && dw.dwarf_attr_integrate(die, DW_AT_name, &a))
        name = dw.dwarf_formstring(&a);
    write_name(out, name);
}

/* "file:line": a relative file name joined to the compile unit's folder.
 * GCC's DWARF 5 line table names a file compiled as `gcc -c lib/x.c` by a
 * relative folder ("lib") and x.c, which libdw joins to "lib/x.c" and no
 * further: the name then depended on where the compiler ran, not on the
 * file, and two libraries' src/kern.c were one file, their regions merged
 * into one (a probe). addr2line joins the unit's DW_AT_comp_dir too. */
static void write_file_line(FILE *out, Dwarf_Die *cu, const char *file, uint64_t line)
{
    Dwarf_Attribute a;
    const char *dir = NULL;
    if (file[0] != '/' && cu && dw.dwarf_attr_integrate(cu, DW_AT_comp_dir, &a))
        dir = dw.dwarf_formstring(&a);
    if (dir && dir[0] == '/')
        fprintf(out, "%s%s%s:%" PRIu64 "\n", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", file,
                line);
    else
        fprintf(out, "%s:%" PRIu64 "\n", file, line);
}

/* The place an inlined function's code was inlined at: its call site. */
static void write_call_site(FILE *out, Dwarf_Die *cu, Dwarf_Die *inlined, Dwarf_Files *files,
                            size_t nfiles)
{
    Dwarf_Attribute a;
    Dwarf_Word file = 0, line = 0;
    const char *name = NULL;
    if (files && dw.dwarf_attr_integrate(inlined, DW_AT_call_file, &a) &&
        dw.dwarf_formudata(&a, &file) == 0 && file < nfiles)
        name = dw.dwarf_filesrc(files, file, NULL, NULL);
    if (dw.dwarf_attr_integrate(inlined, DW_AT_call_line, &a))
        dw.dwarf_formudata(&a, &line);
    if (name && line)
        write_file_line(out, cu, name, (uint64_t)line);
    else
        fprintf(out, "??:0\n");
}

/* Whether row l starts a statement of the code at its address: not the end
 * of a sequence, nor a row that is no statement (the leftover that closes
 * the function before, at the same address: GCC's hot and .cold parts). */
static int row_starts_statement(Dwarf_Line *l)
{
    bool stmt = false, end = false;
    return dw.dwarf_linebeginstatement(l, &stmt) == 0 && stmt &&
           dw.dwarf_lineendsequence(l, &end) == 0 && !end;
}

/* The first line-table row at pc, or NULL. At a function's entry GCC's rows
 * are the function's own line first, then its body's first statement's at
 * the same address; libdw's look-up gives the last, and an outlined region's
 * function (main._omp_fn.1) was named by its body's line, not its pragma's
 * (a nested parallel at the usleep inside it; a probe). Of the rows there,
 * the first that starts a statement: a row before it may close the function
 * before (line 9 of a `parallel sections` split into hot and cold parts,
 * not a statement, named the `parallel` at line 5 after it, and the two
 * regions folded into one; a probe). */
static Dwarf_Line *first_row_at(Dwarf_Die *cu, Dwarf_Addr pc)
{
    Dwarf_Lines *lines;
    size_t n, lo = 0, hi;
    if (dw.dwarf_getsrclines(cu, &lines, &n) != 0)
        return NULL;
    hi = n;
    while (lo < hi) { /* the first row at or past pc (libdw's rows are by address) */
        size_t mid = lo + (hi - lo) / 2;
        Dwarf_Addr a;
        Dwarf_Line *l = dw.dwarf_onesrcline(lines, mid);
        if (l && dw.dwarf_lineaddr(l, &a) == 0 && a < pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    Dwarf_Addr a;
    Dwarf_Line *first = lo < n ? dw.dwarf_onesrcline(lines, lo) : NULL;
    if (!first || dw.dwarf_lineaddr(first, &a) != 0 || a != pc)
        return NULL;
    for (size_t k = lo; k < n; k++) {
        Dwarf_Line *l = dw.dwarf_onesrcline(lines, k);
        if (!l || dw.dwarf_lineaddr(l, &a) != 0 || a != pc)
            break;
        if (row_starts_statement(l))
            return l;
    }
    return first;
}

/* pc's file and line; entry: pc is its function's entry (first_row_at). */
static void write_address_line(FILE *out, Dwarf_Die *cu, Dwarf_Addr pc, int entry)
{
    Dwarf_Line *l = cu && entry ? first_row_at(cu, pc) : NULL;
    if (!l)
        l = cu ? dw.dwarf_getsrc_die(cu, pc) : NULL;
    int line = 0;
    const char *file = l && dw.dwarf_lineno(l, &line) == 0 ? dw.dwarf_linesrc(l, NULL, NULL) : NULL;
    if (file && line > 0)
        write_file_line(out, cu, file, (uint64_t)line);
    else
        fprintf(out, "??:0\n");
}

/* The compile unit whose code holds pc: libdw's lookup, which reads
 * .debug_aranges, else each unit's own ranges (Clang writes no aranges). */
static int unit_of(Dwfl_Module *m, Dwarf_Addr addr, Dwarf_Die *cu, Dwarf_Addr *bias)
{
    Dwarf_Die *found = dw.dwfl_module_addrdie(m, addr, bias);
    if (found) {
        *cu = *found;
        return 1;
    }
    Dwarf *dbg = dw.dwfl_module_getdwarf(m, bias);
    Dwarf_Off off = 0, next;
    size_t header;
    while (dbg && dw.dwarf_nextcu(dbg, off, &next, &header, NULL, NULL, NULL) == 0) {
        if (dw.dwarf_offdie(dbg, off + header, cu) && dw.dwarf_haspc(cu, addr - *bias) == 1)
            return 1;
        off = next;
    }
    return 0;
}

enum { MAX_SCOPES = 64 };

/* The scopes holding pc below parent, outermost first, into path from
 * depth on; returns the depth reached. Every function's body is searched,
 * holding pc or not: GCC writes an outlined region's function (main._omp_fn.0)
 * inside the function it came from, whose own range does not cover it (so
 * libdw's dwarf_getscopes, which searches only scopes holding pc, finds no
 * function there). */
static int scopes_of(Dwarf_Die *parent, Dwarf_Addr pc, Dwarf_Die *path, int depth)
{
    Dwarf_Die child;
    if (depth == MAX_SCOPES || dw.dwarf_child(parent, &child) != 0)
        return depth;
    do {
        int tag = dw.dwarf_tag(&child);
        int scope = tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
                    tag == DW_TAG_lexical_block;
        if (scope && dw.dwarf_haspc(&child, pc) == 1) {
            path[depth] = child;
            return scopes_of(&child, pc, path, depth + 1);
        }
        /* a function nested in one that does not hold pc, or in a namespace,
         * class or block of one */
        if (scope || tag == DW_TAG_namespace || tag == DW_TAG_class_type ||
            tag == DW_TAG_structure_type || tag == DW_TAG_union_type) {
            int reached = scopes_of(&child, pc, path, depth);
            if (reached > depth)
                return reached;
        }
    } while (dw.dwarf_siblingof(&child, &child) == 0);
    return depth;
}

/* A module's sized symbols by address, so that naming n addresses costs n
 * binary searches: libdw's dwfl_module_addrname reads the whole symbol table
 * for each address (a probe's program of 12,000 functions: its 1,200 runtime
 * regions took 1.3 billion instructions, most of its exit). Where exactly one
 * sized symbol holds the address and no sizeless one is there, it is libdw's
 * answer too; aliases, overlaps, a sizeless symbol at the address (libdw may
 * take a global one there first) and addresses no sized symbol holds are left
 * to libdw. Symbols without a name are passed over, as libdw does. */
struct symbol_span {
    Dwarf_Addr start, end; /* [start, end) */
    Dwarf_Addr reach;      /* the highest end of this span and every one before it */
    const char *name;      /* libdw's, alive as long as the Dwfl */
};
struct symbol_index {
    int built;
    size_t n, nsizeless;
    struct symbol_span *v;
    Dwarf_Addr *sizeless; /* the sizeless symbols' addresses, sorted: one at an address
                             may be libdw's answer there (it looks at global ones first) */
};

static int by_start(const void *a, const void *b)
{
    const struct symbol_span *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

static int by_address(const void *a, const void *b)
{
    Dwarf_Addr x = *(const Dwarf_Addr *)a, y = *(const Dwarf_Addr *)b;
    return x < y ? -1 : x > y;
}

static void index_symbols(Dwfl_Module *m, struct symbol_index *x)
{
    x->built = 1;
    int count = dw.dwfl_module_getsymtab(m);
    if (count <= 0 || !(x->v = malloc((size_t)count * sizeof *x->v)) ||
        !(x->sizeless = malloc((size_t)count * sizeof *x->sizeless)))
        return;
    for (int i = 0; i < count; i++) {
        GElf_Sym sym;
        GElf_Addr addr;
        GElf_Word shndx;
        Elf *elf;
        Dwarf_Addr bias;
        const char *name = dw.dwfl_module_getsym_info(m, i, &sym, &addr, &shndx, &elf, &bias);
        int type = GELF_ST_TYPE(sym.st_info);
        /* the kinds of symbol libdw's own search passes over */
        if (!name || !*name || shndx == SHN_UNDEF || type == STT_SECTION || type == STT_FILE ||
            type == STT_TLS)
            continue;
        if (!sym.st_size)
            x->sizeless[x->nsizeless++] = addr;
        else
            x->v[x->n++] = (struct symbol_span){addr, addr + sym.st_size, 0, name};
    }
    qsort(x->v, x->n, sizeof *x->v, by_start);
    qsort(x->sizeless, x->nsizeless, sizeof *x->sizeless, by_address);
    for (size_t i = 0; i < x->n; i++)
        x->v[i].reach = i && x->v[i - 1].reach > x->v[i].end ? x->v[i - 1].reach : x->v[i].end;
}

static const char *symbol_at(Dwfl_Module *m, struct symbol_index *x, Dwarf_Addr addr)
{
    if (!x->built)
        index_symbols(m, x);
    size_t lo = 0, hi = x->n; /* to the first span that starts after addr */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (x->v[mid].start <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    const char *found = NULL;
    int holders = 0;
    for (size_t i = lo; i-- > 0 && x->v[i].reach > addr && holders < 2;)
        if (addr < x->v[i].end && holders++ == 0)
            found = x->v[i].name;
    int sizeless_there = x->nsizeless && bsearch(&addr, x->sizeless, x->nsizeless,
                                                 sizeof *x->sizeless, by_address) != NULL;
    return holders == 1 && !sizeless_there ? found : dw.dwfl_module_addrname(m, addr);
}

/* Whether a function is GCC's outlined body of a region or task
 * ("main._omp_fn.3", a C++ one's "..._omp_fn.3"). */
static int outlined_region(Dwarf_Die *die)
{
    Dwarf_Attribute a;
    const char *name = dw.dwarf_attr_integrate(die, DW_AT_name, &a) ? dw.dwarf_formstring(&a) : NULL;
    return name && strstr(name, "._omp_fn.") != NULL;
}

/* One address: its function and line, then each function it is inlined in,
 * with the call's line, innermost first (addr2line -i); the symbol table's
 * name where no debug information covers it. */
static void write_address(FILE *out, Dwfl *dwfl, struct symbol_index *symbols,
                          Dwarf_Addr addr)
{
    fprintf(out, "0x%016" PRIx64 "\n", (uint64_t)addr);
    Dwfl_Module *m = dw.dwfl_addrmodule(dwfl, addr);
    if (!m) {
        fprintf(out, "??\n??:0\n");
        return;
    }
    Dwarf_Addr bias = 0;
    Dwarf_Die cu, path[MAX_SCOPES];
    int has_cu = unit_of(m, addr, &cu, &bias);
    Dwarf_Addr pc = addr - bias;
    int depth = has_cu ? scopes_of(&cu, pc, path, 0) : 0;
    /* the functions, innermost first, down to the one whose code it is */
    Dwarf_Die *chain[MAX_SCOPES];
    int n = 0;
    for (int k = depth - 1; k >= 0; k--) {
        int tag = dw.dwarf_tag(&path[k]);
        if (tag == DW_TAG_inlined_subroutine || tag == DW_TAG_subprogram)
            chain[n++] = &path[k];
        if (tag == DW_TAG_subprogram)
            break;
    }
    if (n == 0) {
        write_name(out, symbol_at(m, symbols, addr));
        write_address_line(out, has_cu ? &cu : NULL, pc, 0);
        return;
    }
    /* the entry of GCC's outlined body of a region ("main._omp_fn.0"): the
     * region's place, its pragma's line, not that of a function inlined as
     * the body's first statement (a parallel region named by a helper with
     * no OpenMP in it, "parallel @ inl.c:4, function add"; a probe). Its
     * first row is the pragma's (first_row_at) */
    Dwarf_Addr low;
    if (n > 1 && dw.dwarf_tag(chain[n - 1]) == DW_TAG_subprogram &&
        dw.dwarf_lowpc(chain[n - 1], &low) == 0 && low == pc && outlined_region(chain[n - 1])) {
        chain[0] = chain[n - 1];
        n = 1;
    }
    Dwarf_Files *files = NULL;
    size_t nfiles = 0;
    if (n > 1 && dw.dwarf_getsrcfiles(&cu, &files, &nfiles) != 0)
        files = NULL;
    const char *symbol = symbol_at(m, symbols, addr);
    write_die_name(out, chain[0], n == 1 ? symbol : NULL);
    int entry = n == 1 && dw.dwarf_tag(chain[0]) == DW_TAG_subprogram &&
                dw.dwarf_lowpc(chain[0], &low) == 0 && low == pc;
    write_address_line(out, &cu, pc, entry);
    for (int k = 1; k < n; k++) {
        write_die_name(out, chain[k], k == n - 1 ? symbol : NULL);
        write_call_site(out, &cu, chain[k - 1], files, nfiles);
    }
}

FILE *pomp_dwarf_symbolize(const char *module, const uintptr_t *offsets, size_t n)
{
    pthread_once(&dw_once, load_libdw);
    if (!dw_loaded)
        return NULL;
    char *debuginfo_path = NULL; /* libdw's default places */
    const Dwfl_Callbacks callbacks = {
        .find_elf = dw.dwfl_build_id_find_elf,
        .find_debuginfo = find_local_debuginfo,
        .section_address = dw.dwfl_offline_section_address,
        .debuginfo_path = &debuginfo_path,
    };
    Dwfl *dwfl = dw.dwfl_begin(&callbacks);
    if (!dwfl)
        return NULL;
    dw.dwfl_report_begin(dwfl);
    /* at the addresses its own program headers give (a shared object: from 0) */
    Dwfl_Module *m = dw.dwfl_report_elf(dwfl, "", module, -1, 0, true);
    dw.dwfl_report_end(dwfl, NULL, NULL);
    FILE *out = m ? tmpfile() : NULL;
    struct symbol_index symbols = {0};
    if (out) {
        for (size_t i = 0; i < n; i++)
            write_address(out, dwfl, &symbols, offsets[i]);
        if (fflush(out) != 0 || ferror(out)) {
            fclose(out);
            out = NULL;
        } else {
            rewind(out);
        }
    }
    free(symbols.v);
    free(symbols.sizeless);
    dw.dwfl_end(dwfl);
    return out;
}
