/* After the run, each region the bridge created from a code address gets a
 * function and a file:line. The address is a return address into the code
 * that called the runtime; the call itself is one byte before it. The object
 * that holds it and its load bias come from dl_iterate_phdr; binutils'
 * addr2line, run once per object with all its addresses, reads the debug
 * information. Without debug information (or without addr2line) the region
 * keeps <object>+0x<offset> as its file. */
#include "bridge_symbols.h"

#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bridge_regions.h"
#include "ctc.h"
#include "pomp_region.h"

extern char **environ;

struct site {
    struct POMP_Region_s *region;
    uintptr_t address;      /* the call: codeptr_ra - 1 */
    uintptr_t offset;       /* in the object's file (its virtual address there) */
    int module;             /* index in modules[], -1 when no object holds it */
    char *function, *file;
    int line;
};

struct lookup {
    uintptr_t address;
    char path[4096];
    uintptr_t bias;
    int found;
};

static int find_object(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    struct lookup *l = data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type != PT_LOAD || l->address < start || l->address >= start + ph->p_memsz)
            continue;
        l->bias = info->dlpi_addr;
        l->found = 1;
        if (info->dlpi_name[0]) {
            snprintf(l->path, sizeof l->path, "%s", info->dlpi_name);
        } else { /* the program itself */
            ssize_t n = readlink("/proc/self/exe", l->path, sizeof l->path - 1);
            l->path[n > 0 ? n : 0] = '\0';
        }
        return 1;
    }
    return 0;
}

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
        if (strncmp(environ[i], "LD_PRELOAD=", 11) != 0 &&
            strncmp(environ[i], "OMP_TOOL", 8) != 0)
            env[k++] = environ[i];
    return env;
}

/* Runs addr2line on the sites of one object (count addresses), filling
 * function, file and line. Returns 0, or -1 if it could not run. */
static int run_addr2line(const char *path, struct site **sites, size_t count)
{
    enum { FIXED_ARGS = 5 };
    char **argv = calloc(FIXED_ARGS + count + 1, sizeof *argv);
    char (*addresses)[24] = calloc(count, sizeof *addresses);
    char **env = child_environment();
    int pipefd[2] = {-1, -1};
    int rc = -1;
    if (!argv || !addresses || !env || pipe(pipefd) != 0)
        goto out;
    argv[0] = "addr2line";
    argv[1] = "-f";
    argv[2] = "-C";
    argv[3] = "-e";
    argv[4] = (char *)path;
    for (size_t i = 0; i < count; i++) {
        snprintf(addresses[i], sizeof addresses[i], "0x%lx", (unsigned long)sites[i]->offset);
        argv[FIXED_ARGS + i] = addresses[i];
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addclose(&fa, pipefd[0]);
    pid_t pid;
    int spawned = posix_spawnp(&pid, "addr2line", &fa, NULL, argv, env) == 0;
    posix_spawn_file_actions_destroy(&fa);
    close(pipefd[1]);
    pipefd[1] = -1;
    if (!spawned)
        goto out;
    FILE *f = fdopen(pipefd[0], "r");
    if (!f)
        goto out;
    pipefd[0] = -1;
    char *line = NULL;
    size_t cap = 0;
    for (size_t i = 0; i < count; i++) {
        if (getline(&line, &cap, f) < 0)
            break;
        line[strcspn(line, "\n")] = '\0';
        sites[i]->function = strdup(line);
        if (getline(&line, &cap, f) < 0)
            break;
        line[strcspn(line, "\n")] = '\0';
        char *disc = strstr(line, " (discriminator");
        if (disc)
            *disc = '\0';
        char *colon = strrchr(line, ':');
        if (colon && colon != line && strncmp(line, "??", 2) != 0) {
            *colon = '\0';
            sites[i]->line = atoi(colon + 1);
            sites[i]->file = strdup(line);
        }
    }
    free(line);
    fclose(f);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    rc = 0;
out:
    if (pipefd[0] >= 0)
        close(pipefd[0]);
    if (pipefd[1] >= 0)
        close(pipefd[1]);
    free(argv);
    free(addresses);
    free(env);
    return rc;
}

/* The region's new CTC string: what it had, and where its code is. */
static void relabel(struct site *s, const char *module)
{
    const struct ctc *old = &s->region->ctc;
    struct ctc_builder b;
    ctc_builder_init(&b);
    ctc_builder_add(&b, "type", old->type ? old->type : "unknown");
    if (old->name)
        ctc_builder_add(&b, "name", old->name);
    if (s->file) {
        ctc_builder_add(&b, "file", s->file);
        if (s->line > 0) {
            ctc_builder_add_lines(&b, "slines", s->line, s->line);
            ctc_builder_add_lines(&b, "elines", s->line, s->line);
        }
    } else if (module) {
        const char *base = strrchr(module, '/');
        char where[4200];
        snprintf(where, sizeof where, "%s+0x%lx", base ? base + 1 : module,
                 (unsigned long)s->offset);
        ctc_builder_add(&b, "file", where);
    }
    if (s->function && strcmp(s->function, "??") != 0)
        ctc_builder_add(&b, "function", s->function);
    const char *codeptr = ctc_get(old, "codeptr");
    if (codeptr)
        ctc_builder_add(&b, "codeptr", codeptr);
    if (module)
        ctc_builder_add(&b, "module", module);
    char *ctc = ctc_builder_finish(&b);
    if (ctc)
        pomp_region_relabel(s->region, ctc);
    free(ctc);
}

void bridge_symbols_resolve(void)
{
    size_t n = 0;
    for (struct POMP_Region_s *r = pomp_region_list(); r; r = r->next)
        n += r->init_kind == POMP_INIT_OMPT && ctc_get(&r->ctc, "codeptr") != NULL;
    if (n == 0)
        return;
    struct site *sites = calloc(n, sizeof *sites);
    struct site **batch = calloc(n, sizeof *batch);
    char **modules = calloc(n, sizeof *modules);
    size_t nmodules = 0, k = 0;
    if (!sites || !batch || !modules)
        goto out;
    for (struct POMP_Region_s *r = pomp_region_list(); r && k < n; r = r->next) {
        const char *codeptr = r->init_kind == POMP_INIT_OMPT ? ctc_get(&r->ctc, "codeptr") : NULL;
        if (!codeptr)
            continue;
        struct site *s = &sites[k++];
        s->region = r;
        s->address = (uintptr_t)strtoull(codeptr, NULL, 16) - 1;
        s->module = -1;
        struct lookup l = {.address = s->address};
        dl_iterate_phdr(find_object, &l);
        if (!l.found || !l.path[0])
            continue;
        s->offset = s->address - l.bias;
        for (size_t m = 0; m < nmodules && s->module < 0; m++)
            if (strcmp(modules[m], l.path) == 0)
                s->module = (int)m;
        if (s->module < 0 && (modules[nmodules] = strdup(l.path)) != NULL)
            s->module = (int)nmodules++;
    }
    int ran = 1;
    for (size_t m = 0; m < nmodules; m++) {
        size_t count = 0;
        for (size_t i = 0; i < k; i++)
            if (sites[i].module == (int)m)
                batch[count++] = &sites[i];
        if (run_addr2line(modules[m], batch, count) != 0)
            ran = 0;
    }
    if (!ran)
        fputs("pomp: note: addr2line (binutils) did not run; regions reported by the runtime are "
              "named by object and offset\n", stderr);
    for (size_t i = 0; i < k; i++)
        relabel(&sites[i], sites[i].module >= 0 ? modules[sites[i].module] : NULL);
out:
    for (size_t i = 0; sites && i < k; i++) {
        free(sites[i].function);
        free(sites[i].file);
    }
    for (size_t m = 0; m < nmodules; m++)
        free(modules[m]);
    free(modules);
    free(batch);
    free(sites);
}
