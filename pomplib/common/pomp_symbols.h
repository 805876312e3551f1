/* Code addresses of this process turned into function, file and line, after
 * the run (never in an event or a signal handler): dladdr() names the module
 * and its load address, LLVM's llvm-symbolizer (else binutils' addr2line)
 * reads the module's debug information. Without either tool or debug
 * information the function name comes
 * from the dynamic symbol table, and file/line stay empty. */
#ifndef POMP_SYMBOLS_H
#define POMP_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* A function and a place in it. */
struct pomp_location {
    char *function;       /* "" if unknown */
    char *file;           /* "" if unknown */
    int line;             /* 0 if unknown */
};

struct pomp_symbol {
    const char *module;   /* path of the executable or shared object ("" if unknown) */
    uintptr_t offset;     /* address as the module's debug information knows it */
    struct pomp_location *at; /* at[0]: the function whose code holds the address;
                                 at[1..]: functions inlined there, outermost first */
    size_t depth;         /* at least 1 */
};

struct pomp_symbol_table {
    struct pomp_symbol *syms; /* one per address, in the order given */
    size_t n;
    char **modules;           /* the distinct module paths the symbols point into */
    size_t nmodules;
    int symbolizer_ran;       /* 0: neither symbolizer could run for some module */
};

/* How the addresses' files must be known. */
enum pomp_symbols_files {
    /* exact: LLVM's symbolizer first (binutils 2.40's addr2line names the .c
     * file for a header's function that begins its compile unit's code) */
    POMP_SYMBOLS_EXACT,
    /* checked by the caller (against an instrumented construct's place):
     * addr2line first, a third of the time */
    POMP_SYMBOLS_CHECKED,
};

/* Resolves n addresses into t; returns 0, or -1 when out of memory. */
int pomp_symbols_resolve(const uintptr_t *addrs, size_t n, struct pomp_symbol_table *t,
                         enum pomp_symbols_files files);

/* The shared object holding addr, taken while it is loaded: its path into buf
 * and addr's offset in it (what its debug information counts). 0 for the main
 * program (always there at the end) and an address in no object. No lock and
 * no allocation (_dl_find_object); a relative name reads /proc/self/maps. */
int pomp_symbols_module_of(uintptr_t addr, char *buf, size_t size, uintptr_t *offset);

/* pomp_symbols_resolve, where modules[i] (with offsets[i]), if not NULL, is
 * the object that held addrs[i] when it ran (pomp_symbols_module_of): a
 * library unloaded since (dlclose) is still read from its file. */
int pomp_symbols_resolve_in(const uintptr_t *addrs, const char *const *modules,
                            const uintptr_t *offsets, size_t n, struct pomp_symbol_table *t,
                            enum pomp_symbols_files files);
void pomp_symbols_free(struct pomp_symbol_table *t);

/* How much of a function's name names the function written in the source:
 * GCC outlines a construct's body into "<function>._omp_fn.<n>", which is
 * still <function>'s code for whoever reads where a construct is, and names
 * its other clones alike ("<function>.constprop.<n>", ".isra.<n>", ".part.<n>",
 * ".cold", one after another). C++ names come demangled, each suffix then a
 * " [clone .<suffix>]" after the parameters: "count_errors(int) [clone
 * ._omp_fn.1]" names "count_errors(int)". Clang's own names of outlined
 * code (".omp_outlined..6", ".omp_task_entry.") name none: 0. */
size_t pomp_symbols_source_function_len(const char *function);

/* What follows a function's name where it names a place: "()" after a C name
 * ("main()"); nothing after a demangled C++ name, which ends with its own
 * parameters ("count_errors(int)", "S::get() const"). */
static inline const char *pomp_symbols_call_parens(const char *function)
{
    return strchr(function, '(') ? "" : "()";
}

#endif
