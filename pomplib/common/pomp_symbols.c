#include "pomp_symbols.h"

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
#include <sys/wait.h>
#include <unistd.h>

static char *dup_or_empty(const char *s) { return strdup(s ? s : ""); }

/* The module's path as a file that addr2line can open. */
static const char *module_path(const char *dli_fname, char *buf, size_t size)
{
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
    set_dladdr_name(sym, info.dli_sname);
    const char *p = module_path(info.dli_fname, path, sizeof path);
    for (size_t m = 0; m < *nmodules; m++)
        if (strcmp(module_names[m], p) == 0) {
            sym->module = module_names[m];
            return;
        }
    char *copy = strdup(p);
    if (copy) {
        module_names[(*nmodules)++] = copy;
        sym->module = copy;
    }
}

extern char **environ;

/* The environment for addr2line: the program's, without what would load the
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

/* Runs `addr2line -a -f -i -C -e module` with the offsets on stdin, output to a file. */
static FILE *run_addr2line(const char *module, const struct pomp_symbol *syms, size_t n)
{
    char in_path[] = "/tmp/pomp-addr-XXXXXX", out_path[] = "/tmp/pomp-line-XXXXXX";
    int in = mkstemp(in_path);
    if (in < 0)
        return NULL;
    int out = mkstemp(out_path);
    if (out < 0) {
        close(in);
        unlink(in_path);
        return NULL;
    }
    unlink(out_path);
    FILE *addrs = fdopen(dup(in), "w");
    if (addrs) {
        for (size_t i = 0; i < n; i++)
            if (syms[i].module == module)
                fprintf(addrs, "0x%lx\n", (unsigned long)syms[i].offset);
        fclose(addrs);
    }
    lseek(in, 0, SEEK_SET);
    unlink(in_path);

    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in, 0);
    posix_spawn_file_actions_adddup2(&fa, out, 1);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    char *argv[] = {"addr2line", "-a", "-f", "-i", "-C", "-e", (char *)module, NULL};
    char **envp = child_environment();
    pid_t pid;
    int ok = envp && posix_spawnp(&pid, "addr2line", &fa, NULL, argv, envp) == 0;
    posix_spawn_file_actions_destroy(&fa);
    free(envp);
    close(in);
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

/* addr2line -a -f -i prints, per address, a line "0x..." and then pairs of
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

static void read_addr2line(FILE *f, const char *module, struct pomp_symbol *syms, size_t n)
{
    char line[4096];
    if (!fgets(line, sizeof line, f)) /* the first address line */
        return;
    for (size_t i = 0; i < n && !feof(f); i++)
        if (syms[i].module == module)
            read_one(f, line, sizeof line, &syms[i]);
}

int pomp_symbols_resolve(const uintptr_t *addrs, size_t n, struct pomp_symbol_table *t)
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
        describe(&t->syms[i], addrs[i], t->modules, &t->nmodules);
    }
    t->addr2line_ran = 1;
    for (size_t m = 0; m < t->nmodules; m++) {
        FILE *f = run_addr2line(t->modules[m], t->syms, n);
        if (!f)
            t->addr2line_ran = 0;
        if (f) {
            read_addr2line(f, t->modules[m], t->syms, n);
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
    /* demangled (addr2line -C): every clone suffix is a " [clone .<kind>.<n>]"
     * after the name and its parameters, and a dot may be in the name itself
     * ("f(int, ...)") */
    const char *clone = strstr(function, " [clone .");
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
