#include "pomp_symbols.h"

#include "pomp_dwarf.h"

#include <dlfcn.h>
#include <errno.h>
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/wait.h>
#include <unistd.h>

static char *dup_or_empty(const char *s) { return strdup(s ? s : ""); }

/* The file mapped at base, from the kernel's list of this process's
 * mappings (an absolute path), into buf; NULL if none is. */
static const char *mapped_file(uintptr_t base, char *buf, size_t size)
{
    FILE *maps = fopen("/proc/self/maps", "r");
    if (!maps)
        return NULL;
    char line[PATH_MAX + 128];
    const char *found = NULL;
    while (!found && fgets(line, sizeof line, maps)) {
        char *slash = strchr(line, '/');
        if (strtoull(line, NULL, 16) != base || !slash)
            continue;
        slash[strcspn(slash, "\n")] = '\0';
        if (strlen(slash) < size)
            found = strcpy(buf, slash);
    }
    fclose(maps);
    return found;
}

/* The module's path as a file that the symbolizer can open. A relative name
 * (a library found through LD_LIBRARY_PATH=. or dlopen("./x.so")) is the
 * mapped file's: the program may have changed its directory since. */
static const char *module_path(const char *dli_fname, const void *base, char *buf, size_t size)
{
    if (dli_fname && dli_fname[0] != '/' && strchr(dli_fname, '/') &&
        mapped_file((uintptr_t)base, buf, size))
        return buf;
    if (dli_fname && strchr(dli_fname, '/') && realpath(dli_fname, buf))
        return buf;
    /* the main program: glibc names it by argv[0], which may be relative or bare */
    ssize_t len = readlink("/proc/self/exe", buf, size - 1);
    if (len <= 0)
        return "";
    buf[len] = '\0';
    return buf;
}

static void free_locations(struct pomp_symbol *sym)
{
    for (size_t k = 0; sym->at && k < sym->depth; k++) {
        free(sym->at[k].function);
        free(sym->at[k].file);
    }
    free(sym->at);
    sym->at = NULL;
    sym->depth = 0;
}

/* One location: the function from dladdr (dynamic symbols only), no file. */
static void set_dladdr_name(struct pomp_symbol *sym, const char *name)
{
    sym->at = calloc(1, sizeof *sym->at);
    if (!sym->at)
        return;
    sym->depth = 1;
    sym->at[0].function = dup_or_empty(name);
    sym->at[0].file = dup_or_empty("");
}

/* The module's path, interned in module_names. */
static const char *intern_module(const char *p, char **module_names, size_t *nmodules)
{
    for (size_t m = 0; m < *nmodules; m++)
        if (strcmp(module_names[m], p) == 0)
            return module_names[m];
    char *copy = strdup(p);
    if (!copy)
        return "";
    module_names[(*nmodules)++] = copy;
    return copy;
}

static void describe(struct pomp_symbol *sym, uintptr_t addr, char **module_names,
                     size_t *nmodules)
{
    Dl_info info;
    char path[PATH_MAX];
    sym->module = "";
    sym->offset = addr;
    if (!dladdr((void *)addr, &info) || !info.dli_fbase) {
        set_dladdr_name(sym, "");
        return;
    }
    const ElfW(Ehdr) *ehdr = info.dli_fbase;
    if (ehdr->e_type == ET_DYN) /* position-independent: debug info counts from 0 */
        sym->offset = addr - (uintptr_t)info.dli_fbase;
    /* the kernel's vDSO (clock_gettime), which has no file: named by its
     * symbol, its helpers without one as "[vdso]"; it was taken for the
     * program (a bare name), at offsets that named nothing of the program's */
    if ((uintptr_t)info.dli_fbase == (uintptr_t)getauxval(AT_SYSINFO_EHDR)) {
        set_dladdr_name(sym, info.dli_sname ? info.dli_sname : "[vdso]");
        return;
    }
    set_dladdr_name(sym, info.dli_sname);
    const char *p = module_path(info.dli_fname, info.dli_fbase, path, sizeof path);
    sym->module = intern_module(p, module_names, nmodules);
}

/* describe(), for an address whose module was taken when it ran: that
 * module, whatever the address holds now (nothing, or another library
 * loaded there since); dladdr's name only where it is still the same. */
static void describe_in(struct pomp_symbol *sym, uintptr_t addr, const char *module,
                        uintptr_t offset, char **module_names, size_t *nmodules)
{
    char now[PATH_MAX];
    uintptr_t now_offset;
    if (pomp_symbols_module_of(addr, now, sizeof now, &now_offset) && now_offset == offset &&
        strcmp(now, module) == 0) {
        describe(sym, addr, module_names, nmodules);
        return;
    }
    char path[PATH_MAX];
    set_dladdr_name(sym, "");
    sym->module = intern_module(realpath(module, path) ? path : module, module_names, nmodules);
    sym->offset = offset;
}

int pomp_symbols_module_of(uintptr_t addr, char *buf, size_t size, uintptr_t *offset)
{
    struct dl_find_object found;
    if (_dl_find_object((void *)addr, &found) != 0 || !found.dlfo_link_map)
        return 0;
    const struct link_map *m = found.dlfo_link_map;
    if (!m->l_name || !m->l_name[0])
        return 0;
    const char *p = m->l_name;
    if (p[0] != '/') { /* dlopen("./x.so"): the file, before the program changes directory */
        p = mapped_file((uintptr_t)found.dlfo_map_start, buf, size);
        if (!p)
            return 0;
    } else if (strlen(p) >= size) {
        return 0;
    } else {
        strcpy(buf, p);
    }
    *offset = addr - (uintptr_t)m->l_addr;
    return 1;
}

extern char **environ;

/* The symbolizer's environment: the program's, without what would load the
 * OpenMP runtime or this tool into it. */
static char **child_environment(void)
{
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = calloc(n + 1, sizeof *env);
    if (!env)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "LD_PRELOAD=", 11) != 0 && strncmp(environ[i], "OMP_TOOL", 8) != 0)
            env[k++] = environ[i];
    return env;
}

/* LLVM's symbolizer (its GNU output style prints what addr2line prints) is
 * asked first where a file must be exact (POMP_SYMBOLS_EXACT): binutils
 * 2.40's addr2line names the wrong file for a function that GCC's DWARF 5
 * line table starts in a header without setting the file (a template's or a
 * static inline function's outlined region: named at the same line of the .c
 * file that includes it, and merged with whatever region is there). Each is
 * the other's fallback (one not installed, or failing). */
#ifndef POMP_LLVM_SYMBOLIZER
#define POMP_LLVM_SYMBOLIZER "llvm-symbolizer"
#endif

/* Runs argv (`<tool> ... -a -f -i -C -e module`) with the offsets in fd `in`
 * on stdin; its output in a file, or NULL if it could not run or failed. */
static FILE *run_symbolizer(char *const argv[], int in)
{
    char out_path[] = "/tmp/pomp-line-XXXXXX";
    int out = mkstemp(out_path);
    if (out < 0)
        return NULL;
    unlink(out_path);
    lseek(in, 0, SEEK_SET);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in, 0);
    posix_spawn_file_actions_adddup2(&fa, out, 1);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    char **envp = child_environment();
    pid_t pid;
    int ok = envp && posix_spawnp(&pid, argv[0], &fa, NULL, argv, envp) == 0;
    posix_spawn_file_actions_destroy(&fa);
    free(envp);
    int status = 0;
    pid_t waited = 0;
    if (ok)
        while ((waited = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
            ;
    if (ok && (waited < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0))
        ok = 0;
    if (!ok) {
        close(out);
        return NULL;
    }
    lseek(out, 0, SEEK_SET);
    return fdopen(out, "r");
}

/* The module's offsets resolved in this process (libdw), else by one
 * symbolizer process, else by the other. */
static FILE *resolve_module(const char *module, const struct pomp_symbol *syms, size_t n,
                            enum pomp_symbols_files files)
{
    uintptr_t *offsets = malloc((n ? n : 1) * sizeof *offsets);
    size_t k = 0;
    for (size_t i = 0; offsets && i < n; i++)
        if (syms[i].module == module)
            offsets[k++] = syms[i].offset;
    FILE *named = offsets ? pomp_dwarf_symbolize(module, offsets, k) : NULL;
    free(offsets);
    if (named)
        return named;
    char in_path[] = "/tmp/pomp-addr-XXXXXX";
    int in = mkstemp(in_path);
    if (in < 0)
        return NULL;
    unlink(in_path);
    FILE *addrs = fdopen(dup(in), "w");
    if (addrs) {
        for (size_t i = 0; i < n; i++)
            if (syms[i].module == module)
                fprintf(addrs, "0x%lx\n", (unsigned long)syms[i].offset);
        fclose(addrs);
    }
    char *llvm[] = {POMP_LLVM_SYMBOLIZER, "--output-style=GNU", "-a", "-f", "-i", "-C",
                    "-e", (char *)module, NULL};
    char *binutils[] = {"addr2line", "-a", "-f", "-i", "-C", "-e", (char *)module, NULL};
    char **first = files == POMP_SYMBOLS_EXACT ? llvm : binutils;
    char **second = files == POMP_SYMBOLS_EXACT ? binutils : llvm;
    FILE *f = run_symbolizer(first, in);
    if (!f)
        f = run_symbolizer(second, in);
    close(in);
    return f;
}

/* "/src/./gen.h" is "/src/gen.h", "./gen.h" "gen.h": a header that pompcc's
 * compile found through its -iquote . (the source is compiled from a
 * temporary copy) is recorded so, where the plain build and the instrumented
 * regions' CTC say "gen.h". In place. */
static void drop_dot_components(char *path)
{
    char *out = path;
    for (const char *in = path; *in;) {
        if (in[0] == '.' && in[1] == '/' && (in == path || in[-1] == '/')) {
            in += 2;
            continue;
        }
        *out++ = *in++;
    }
    *out = '\0';
}

/* "file:line", "file:line (discriminator 2)", "??:0", "??:?" */
static void parse_location(char *text, struct pomp_location *at)
{
    text[strcspn(text, "\n")] = '\0';
    char *paren = strstr(text, " (");
    if (paren)
        *paren = '\0';
    char *colon = strrchr(text, ':');
    if (!colon)
        return;
    *colon = '\0';
    int line = atoi(colon + 1);
    if (strcmp(text, "??") == 0 || line <= 0)
        return;
    drop_dot_components(text);
    char *file = strdup(text);
    if (!file)
        return;
    free(at->file);
    at->file = file;
    at->line = line;
}

/* A function's name as addr2line writes it, from llvm-symbolizer's (the
 * symbol's name, where addr2line gives the debug information's): a demangled
 * C++ clone's " (.<suffix>)" is " [clone .<suffix>]", and a C function's
 * clone suffixes of GCC's optimizations (".constprop.0", ".isra.0", ".part.0",
 * ".cold", which its debug information's name has not) go; an outlined
 * region's "._omp_fn.<n>" is its own name in both. A section's first symbol
 * named for code outside any function is no name. In place; size: name's. */
static void addr2line_name(char *name, size_t size)
{
    static const char *const clones[] = {".constprop.", ".isra.", ".part.", ".cold"};
    if (strchr(name, '(')) {
        char out[4096];
        size_t o = 0;
        const char *in = name, *close;
        while (*in && o < sizeof out - 1) {
            /* a lambda's closure type: LLVM's 'lambda'(int), 'lambda0'(int) (the
             * first, the second, ...) are {lambda(int)#1}, {lambda(int)#2} */
            if (strncmp(in, "'lambda", 7) == 0) {
                const char *q = in + 7;
                unsigned number = 1;
                if (*q >= '0' && *q <= '9')
                    number = (unsigned)strtoul(q, (char **)&q, 10) + 2;
                const char *params = *q == '\'' ? q + 1 : NULL;
                int depth = 0;
                const char *end = params && *params == '(' ? params : NULL;
                for (; end && *end; end++) {
                    depth += *end == '(' ? 1 : *end == ')' ? -1 : 0;
                    if (depth == 0)
                        break;
                }
                if (end && *end == ')') {
                    int w = snprintf(out + o, sizeof out - o, "{lambda%.*s#%u}",
                                     (int)(end + 1 - params), params, number);
                    if (w < 0 || (size_t)w >= sizeof out - o)
                        break;
                    o += (size_t)w;
                    in = end + 1;
                    continue;
                }
            }
            if (strncmp(in, " (.", 3) == 0 && (close = strchr(in + 3, ')'))) {
                int w = snprintf(out + o, sizeof out - o, " [clone %.*s]", (int)(close - in - 2),
                                 in + 2);
                if (w < 0 || (size_t)w >= sizeof out - o)
                    break;
                o += (size_t)w;
                in = close + 1;
            } else {
                out[o++] = *in++;
            }
        }
        out[o] = '\0';
        snprintf(name, size, "%s", out);
        return;
    }
    /* the symbol of the section a function starts (_init: the PLT after it),
     * where addr2line knows no function */
    if (strcmp(name, "_init") == 0 || strcmp(name, "_fini") == 0 || strcmp(name, "_end") == 0) {
        snprintf(name, size, "??");
        return;
    }
    char *outlined = strstr(name, "._omp_fn."), *from = outlined ? outlined + 1 : name;
    for (char *dot = strchr(from, '.'); dot; dot = strchr(dot + 1, '.'))
        for (size_t k = 0; k < sizeof clones / sizeof *clones; k++)
            if (dot != name && strncmp(dot, clones[k], strlen(clones[k])) == 0) {
                *dot = '\0';
                return;
            }
}

/* `-a -f -i` prints (either tool), per address, a line "0x..." and then pairs of
 * lines (function, file:line) from the innermost inlined function out. */
static void read_one(FILE *f, char *line, size_t size, struct pomp_symbol *sym)
{
    struct pomp_location chain[32];
    size_t n = 0;
    char loc[4096];
    while (fgets(line, (int)size, f) && strncmp(line, "0x", 2) != 0) {
        if (!fgets(loc, sizeof loc, f))
            break;
        if (n == sizeof chain / sizeof *chain)
            continue;
        line[strcspn(line, "\n")] = '\0';
        addr2line_name(line, size);
        chain[n].function = strdup(strcmp(line, "??") == 0 ? "" : line);
        chain[n].file = NULL;
        chain[n].line = 0;
        parse_location(loc, &chain[n]);
        n++;
    }
    if (n == 0 || !chain[n - 1].function || !chain[n - 1].function[0]) {
        for (size_t k = 0; k < n; k++) { /* keep dladdr's name */
            free(chain[k].function);
            free(chain[k].file);
        }
        return;
    }
    struct pomp_location *at = calloc(n, sizeof *at);
    if (!at) {
        for (size_t k = 0; k < n; k++) {
            free(chain[k].function);
            free(chain[k].file);
        }
        return;
    }
    for (size_t k = 0; k < n; k++) /* outermost first */
        at[k] = chain[n - 1 - k];
    free_locations(sym);
    sym->at = at;
    sym->depth = n;
}

static void read_resolved(FILE *f, const char *module, struct pomp_symbol *syms, size_t n)
{
    char line[4096];
    if (!fgets(line, sizeof line, f)) /* the first address line */
        return;
    for (size_t i = 0; i < n && !feof(f); i++)
        if (syms[i].module == module)
            read_one(f, line, sizeof line, &syms[i]);
}

int pomp_symbols_resolve(const uintptr_t *addrs, size_t n, struct pomp_symbol_table *t,
                         enum pomp_symbols_files files)
{
    return pomp_symbols_resolve_in(addrs, NULL, NULL, n, t, files);
}

int pomp_symbols_resolve_in(const uintptr_t *addrs, const char *const *modules,
                            const uintptr_t *offsets, size_t n, struct pomp_symbol_table *t,
                            enum pomp_symbols_files files)
{
    t->n = n;
    t->nmodules = 0;
    t->syms = calloc(n ? n : 1, sizeof *t->syms);
    t->modules = calloc(n ? n : 1, sizeof *t->modules);
    if (!t->syms || !t->modules) {
        pomp_symbols_free(t);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        if (modules && modules[i])
            describe_in(&t->syms[i], addrs[i], modules[i], offsets[i], t->modules, &t->nmodules);
        else
            describe(&t->syms[i], addrs[i], t->modules, &t->nmodules);
    }
    t->symbolizer_ran = 1;
    for (size_t m = 0; m < t->nmodules; m++) {
        FILE *f = resolve_module(t->modules[m], t->syms, n, files);
        if (!f)
            t->symbolizer_ran = 0;
        if (f) {
            read_resolved(f, t->modules[m], t->syms, n);
            fclose(f);
        }
    }
    return 0;
}

void pomp_symbols_free(struct pomp_symbol_table *t)
{
    for (size_t i = 0; t->syms && i < t->n; i++)
        free_locations(&t->syms[i]);
    for (size_t m = 0; t->modules && m < t->nmodules; m++)
        free(t->modules[m]);
    free(t->syms);
    free(t->modules);
    t->syms = NULL;
    t->modules = NULL;
    t->n = t->nmodules = 0;
}

/* What may make up a C identifier or an Itanium-mangled C++ name: never a dot. */
static const char symbol_chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$";

size_t pomp_symbols_source_function_len(const char *function)
{
    /* demangled (-C): every clone suffix is a " [clone .<kind>.<n>]" (binutils)
     * or " (.<kind>.<n>)" (LLVM) after the name and its parameters, and a dot
     * may be in the name itself ("f(int, ...)") */
    const char *clone = strstr(function, " [clone .");
    if (!clone)
        clone = strstr(function, " (.");
    if (clone)
        return (size_t)(clone - function);
    /* Clang's outlined bodies and task entries of its own: ".omp_outlined.",
     * ".omp_task_entry..8", ".omp.reduction.reduction_func" name no function
     * of the source (those of clang 16 on, "<function>.omp_outlined", do) */
    if (function[0] == '.')
        return 0;
    /* a C name, or a mangled one (dladdr's, where addr2line did not name it):
     * the first dot starts the suffixes */
    size_t symbol = strspn(function, symbol_chars);
    if (symbol > 0 && function[symbol] == '.')
        return symbol;
    return strlen(function);
}
