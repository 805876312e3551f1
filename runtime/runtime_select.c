#include "runtime_select.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf_symbols.h"
#include "instrument.h" /* POMP_NEEDS_SECTION */
#include "libomp_symbols.h" /* generated from libomp.so at build time */
#include "process.h"
#include "util.h"

static int by_name(const void *key, const void *elem)
{
    return strcmp(key, *(const char *const *)elem);
}

int pomp_libomp_provides(const char *symbol)
{
    return bsearch(symbol, pomp_libomp_symbols,
                   sizeof pomp_libomp_symbols / sizeof *pomp_libomp_symbols,
                   sizeof *pomp_libomp_symbols, by_name) != NULL;
}

int pomp_runtime_is_entry_point(const char *s)
{
    return strncmp(s, "GOMP_", 5) == 0 || strncmp(s, "GOACC_", 6) == 0 ||
           strncmp(s, "omp_", 4) == 0 || strncmp(s, "acc_", 4) == 0;
}

/* What an entry point is for, by prefix; crashes: LLVM libomp defines it
 * but its libgomp compatibility layer crashes in it (issue 18). */
static const struct {
    const char *prefix, *feature;
    int crashes;
} features[] = {
    {"GOMP_error", "the 'error' directive", 0},
    {"GOMP_warning", "the 'error' directive", 0},
    {"GOMP_scope_start", "'scope' with reductions", 0},
    {"GOMP_offload_", "target offloading", 0},
    {"GOMP_target", "target offloading", 0},
    {"GOMP_teams4", "'teams' on the host", 0},
    {"GOMP_PLUGIN_", "target offloading", 0},
    {"GOACC_", "OpenACC", 0},
    {"acc_", "OpenACC", 0},
    /* libomp's layer aborts in it for lastprivate(conditional:) ("OMP: Error
     * #277 ... feature: scan"), and serves a task reduction, which makes the
     * same call: both go to libgomp (a probe) */
    {"GOMP_sections2_start", "'sections' with lastprivate(conditional:) or a task reduction", 1},
    {"omp_fulfill_event", "'detach' tasks", 1},
    {"omp_display_affinity", "affinity display", 1},
    {"omp_capture_affinity", "affinity capture", 1},
};

static int feature_of(const char *s)
{
    for (size_t i = 0; i < sizeof features / sizeof *features; i++)
        if (strncmp(s, features[i].prefix, strlen(features[i].prefix)) == 0)
            return (int)i;
    return -1;
}

int pomp_libomp_serves(const char *symbol)
{
    int f = feature_of(symbol);
    return pomp_libomp_provides(symbol) && !(f >= 0 && features[f].crashes);
}

char *pomp_runtime_missing_symbol(const char *nm_output)
{
    const char *line = nm_output;
    while (*line) {
        const char *eol = strchr(line, '\n');
        size_t len = eol ? (size_t)(eol - line) : strlen(line);
        size_t name_len = strcspn(line, " @\n");
        if (name_len < len && name_len < 256) {
            char name[256];
            memcpy(name, line, name_len);
            name[name_len] = '\0';
            const char *type = memchr(line, ' ', len);
            if (type && type[1] == 'U' && pomp_runtime_is_entry_point(name) &&
                !pomp_libomp_serves(name))
                return xstrdup(name);
        }
        line += len + (eol ? 1 : 0);
    }
    return NULL;
}

const char *pomp_runtime_feature(const char *s)
{
    int f = feature_of(s);
    return f >= 0 ? features[f].feature : "an OpenMP routine";
}

const char *pomp_runtime_lack(const char *symbol)
{
    return pomp_libomp_provides(symbol) ? "which LLVM libomp's libgomp layer does not support"
                                        : "which LLVM libomp does not provide";
}

/* GCC's offloading flags only: clang's -foffload-lto, -fopenmp-target-jit's
 * companion, and its other -foffload-* flags ask for nothing of libgomp (its
 * -foffload-lto once moved a clang GPU build onto libgomp). */
int pomp_runtime_is_gcc_offload_flag(const char *a)
{
    static const char *const gcc[] = {"-foffload=", "-foffload-options=", "-foffload-abi="};
    for (size_t i = 0; i < sizeof gcc / sizeof *gcc; i++)
        if (strncmp(a, gcc[i], strlen(gcc[i])) == 0)
            return strcmp(a, "-foffload=disable") != 0;
    return 0;
}

static int is_shared_object(const char *path)
{
    const char *so = strstr(path, ".so");
    return so && (so[3] == '\0' || so[3] == '.');
}

int pomp_runtime_calls_kmpc(const char *nm_output)
{
    for (const char *p = strstr(nm_output, "__kmpc_"); p; p = strstr(p + 1, "__kmpc_"))
        if (p == nm_output || p[-1] == '\n')
            return 1;
    return 0;
}

/* nm's output for a link input in mode, read directly where elf_symbols.c can
 * (nm costs tens of milliseconds a run), else by running nm with nm_args (at
 * most three) before the path; NULL if neither reads it. */
static char *symbols(const char *in, enum elf_nm_mode mode, const char *const *nm_args)
{
    struct strbuf b = {0};
    if (elf_nm(in, mode, &b) == 0)
        return b.s ? b.s : xstrdup("");
    free(b.s);
    char *argv[6] = {(char *)elf_nm_program(in, "nm")}, **a = argv + 1;
    for (; *nm_args; nm_args++)
        *a++ = (char *)*nm_args;
    *a++ = (char *)in;
    *a = NULL;
    char *out = NULL;
    if (run_capture(argv, &out, NULL) != 0) {
        free(out);
        return NULL;
    }
    return out;
}

/* `nm -P -u` of a link input (-D for a shared object: its own imports). */
static char *undefined_symbols(const char *in)
{
    static const char *const object[] = {"-P", "-u", NULL};
    static const char *const shared[] = {"-P", "-u", "-D", NULL};
    return symbols(in, ELF_NM_UNDEFINED, is_shared_object(in) ? shared : object);
}

/* `nm -P --defined-only` of a link input, local symbols too. */
static char *defined_symbols(const char *in)
{
    static const char *const args[] = {"-P", "--defined-only", NULL};
    return symbols(in, ELF_NM_DEFINED, args);
}

char *pomp_runtime_task_copy_function(const char *nm_output)
{
    const char *p = strstr(nm_output, "._omp_cpyfn.");
    if (!p)
        return NULL;
    while (p > nm_output && p[-1] != '\n') /* the symbol's line */
        p--;
    size_t len = strcspn(p, " \n");
    char *name = xmalloc(len + 1);
    memcpy(name, p, len);
    name[len] = '\0';
    return name;
}

/* A C++ symbol as a user reads it (c++filt, binutils': where it cannot run,
 * the symbol as it is); sym is taken over. */
static char *demangled(char *sym)
{
    if (strncmp(sym, "_Z", 2) != 0)
        return sym;
    char *argv[] = {"c++filt", "--", sym, NULL}, *out = NULL;
    if (run_capture(argv, &out, NULL) != 0 || !out || !out[0] || strncmp(out, "_Z", 2) == 0) {
        free(out);
        return sym;
    }
    out[strcspn(out, "\n")] = '\0';
    free(sym);
    return out;
}

char *pomp_runtime_input_task_copy_function(const char *path)
{
    char *defined = defined_symbols(path);
    char *copy = defined ? pomp_runtime_task_copy_function(defined) : NULL;
    free(defined);
    /* a C++ task's copy function was named by its mangled symbol (a probe) */
    return copy ? demangled(copy) : NULL;
}

/* Whether a source pompcc compiled has a scan directive: GCC's code for it
 * calls GOMP_loop_start, which libomp defines but aborts in for a scan, so
 * the objects' symbols do not tell. Read as text: for a source whose object
 * the instrumentation did not mark (instrumented_object), which may be its
 * plain compile. */
static int source_uses_scan(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[4096];
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        const char *p = line + strspn(line, " \t");
        if (*p++ != '#')
            continue;
        p += strspn(p, " \t");
        if (strncmp(p, "pragma", 6) != 0)
            continue;
        p += 6;
        p += strspn(p, " \t");
        if (strncmp(p, "omp", 3) != 0)
            continue;
        p += 3;
        p += strspn(p, " \t");
        found = strncmp(p, "scan", 4) == 0 && !isalnum((unsigned char)p[4]) && p[4] != '_';
    }
    fclose(f);
    return found;
}

/* Whether an object pompcc compiled has a scan directive: the instrumentation
 * says so in its POMP_NEEDS_SECTION (an object compiled with -c, linked in
 * another call). */
static int object_uses_scan(const char *path)
{
    struct strbuf needs = {0};
    int found = elf_section(path, POMP_NEEDS_SECTION, &needs) == 0 && needs.s &&
                (strncmp(needs.s, "scan ", 5) == 0 || strstr(needs.s, "\nscan ") != NULL);
    free(needs.s);
    return found;
}

/* Whether the instrumentation marked an object (its POMP_COUNTS_SECTION: a
 * file with constructs pompcc instrumented), whose POMP_NEEDS_SECTION then
 * tells its scans: a worksharing loop's only, not a simd loop's, nor one in
 * an #if 0 block, which a source's text held too (a probe: both were linked
 * to libgomp against --pomp-runtime=omp). */
static int instrumented_object(const char *path)
{
    struct strbuf counts = {0};
    int marked = elf_section(path, POMP_COUNTS_SECTION, &counts) == 0 && counts.len > 0;
    free(counts.s);
    return marked;
}

/* Whether an input holds GCC's LTO IR without pomp's sections beside it (a
 * slim object: not -ffat-lto-objects): what object_uses_scan and the task copy
 * functions are looked up in is then in the IR, where no reader of ours sees
 * it (before: such a scan went to libomp, which aborts with OMP: Error #277). */
static int slim_lto_unknown(const char *path)
{
    return elf_has_lto_ir(path) && !elf_has_llvm_bitcode(path) && !instrumented_object(path);
}

char *pomp_runtime_needs_gomp(char *const *inputs, char *const *names, size_t ninputs,
                              char *const *flags, size_t nflags)
{
    for (size_t i = 0; i < nflags; i++)
        if (pomp_runtime_is_gcc_offload_flag(flags[i]))
            return xasprintf("'%s' asks for GCC's target offloading, which needs libgomp", flags[i]);
    char *why = NULL;
    const char *kmpc = NULL; /* an input compiled for libomp itself (clang) */
    for (size_t i = 0; i < ninputs; i++) {
        const char *in = inputs[i];
        if (in[0] == '-')
            continue;
        char *out = undefined_symbols(in);
        /* clang's scan calls libomp's own entry points: only GCC's needs libgomp */
        int own_kmpc = out && pomp_runtime_calls_kmpc(out);
        if (!why && !own_kmpc &&
            (object_uses_scan(in) || (strcmp(in, names[i]) != 0 && !instrumented_object(in) &&
                                      source_uses_scan(names[i]))))
            why = xasprintf("%s uses 'scan' (GOMP_loop_start with a scan reduction), which LLVM "
                            "libomp's libgomp layer does not support", names[i]);
        /* its calls of the runtime are made at the link too: out lists none of them */
        if (!why && !own_kmpc && slim_lto_unknown(in))
            why = xasprintf("%s is a GCC object for link-time optimization, whose 'scan' loops and "
                            "task copy functions (which LLVM libomp's libgomp layer does not serve) "
                            "pompcc cannot see before the link (-ffat-lto-objects lets it)",
                            names[i]);
        char *copy = why ? NULL : pomp_runtime_input_task_copy_function(in);
        if (copy)
            why = xasprintf("%s has a task whose data GCC copies with a function (%s: a "
                            "firstprivate it cannot copy as plain bytes, such as a C++ class or "
                            "reference, or a variable it reaches through the enclosing parallel "
                            "region's data), which LLVM libomp's libgomp layer breaks when it runs "
                            "such a task at once (an if(0) task, for one): the program crashes",
                            names[i], copy);
        free(copy);
        if (!out)
            continue; /* not an object nm reads (a linker script...): the link will tell */
        /* a clang object's routines are libomp's own (omp_fulfill_event for its
         * detach tasks): what crashes is the libgomp layer, under GCC's code */
        char *missing = why || own_kmpc ? NULL : pomp_runtime_missing_symbol(out);
        if (!kmpc && own_kmpc)
            kmpc = names[i];
        free(out);
        if (missing) {
            why = xasprintf("%s calls %s (%s), %s", names[i], missing,
                            pomp_runtime_feature(missing), pomp_runtime_lack(missing));
            free(missing);
        }
    }
    if (why && kmpc) {
        fprintf(stderr, "%s: warning: %s, but %s needs libomp (compiled by clang?): no runtime "
                        "serves both; linking LLVM libomp\n", tool_name(), why, kmpc);
        free(why);
        return NULL;
    }
    return why;
}

/* Whether any input calls libomp's own entry points (clang's objects). */
static int any_calls_kmpc(char *const *inputs, size_t ninputs)
{
    for (size_t i = 0; i < ninputs; i++) {
        if (inputs[i][0] == '-')
            continue;
        char *out = undefined_symbols(inputs[i]);
        int kmpc = out && pomp_runtime_calls_kmpc(out);
        free(out);
        if (kmpc)
            return 1;
    }
    return 0;
}

/* Whether the link names libomp itself (clang's -fopenmp=libomp): objects
 * that call no runtime entry point of either kind (CMake's FindOpenMP test,
 * which calls omp_get_max_threads only) then run on it, as the plain link
 * would (before: libgomp's bridge, which CMake then gave every OpenMP target
 * of the project as one of OpenMP's libraries). */
static int asks_for_libomp(char *const *flags, size_t nflags)
{
    for (size_t i = 0; i < nflags; i++)
        if (strcmp(flags[i], "-fopenmp=libomp") == 0)
            return 1;
    return 0;
}

char *pomp_runtime_choose(int given, enum pomp_runtime *rt, int clang_offload,
                          char *const *inputs, char *const *names, size_t ninputs,
                          char *const *flags, size_t nflags)
{
    if (given && *rt == POMP_RUNTIME_GOMP)
        return NULL;
    if (!given) { /* each object on the runtime it was built for */
        *rt = clang_offload || any_calls_kmpc(inputs, ninputs) || asks_for_libomp(flags, nflags)
                  ? POMP_RUNTIME_LIBOMP
                  : POMP_RUNTIME_GOMP;
        if (*rt == POMP_RUNTIME_GOMP)
            return NULL;
    }
    /* libomp: for clang's objects, or asked for (--pomp-runtime=omp) */
    char *why = pomp_runtime_needs_gomp(inputs, names, ninputs, flags, nflags);
    if (!why)
        return NULL;
    char *msg = xasprintf("%s: warning: %s; linking GCC's libgomp%s\n", tool_name(), why,
                          given ? " instead of the LLVM libomp --pomp-runtime=omp asks for" : "");
    *rt = POMP_RUNTIME_GOMP;
    free(why);
    return msg;
}
