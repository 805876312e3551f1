# A GCC program with an OMPT tool of its own built in (an ompt_start_tool for
# libomp, which libgomp never calls): on libgomp the libgomp bridge starts
# libpomp's tool, not the program's. The program's ompt_start_tool is exported
# where a pompcc link has the bridge's reference to the name (and under
# -rdynamic); the bridge's reference bound to it, so that the program's tool
# was started (its output changed) and pomp's was not (no runtime event, said
# nowhere; under pomprun no profile at all). Now: the plain build's output,
# and the runtime's events measured (the implicit barrier), in the pompcc
# build and under pomprun of a plain -rdynamic build (docs/gomp.md).
source "$(dirname "$0")/lib.sh"
POMPRUN="$BUILD/bin/pomprun"
[ -n "$E2E_SANITIZE" ] && exit 0 # (a sanitized libpomp cannot be loaded into a plain program)
export OMP_NUM_THREADS=2

cat > own_tool.c <<'SRC'
#include <omp.h>
#include <stdio.h>
/* omp-tools.h's types (GCC 12 has no omp-tools.h) */
typedef union { unsigned long value; void *ptr; } ompt_data_t;
typedef void (*ompt_interface_fn_t)(void);
typedef ompt_interface_fn_t (*ompt_function_lookup_t)(const char *);
typedef struct {
    int (*initialize)(ompt_function_lookup_t, int, ompt_data_t *);
    void (*finalize)(ompt_data_t *);
    ompt_data_t tool_data;
} ompt_start_tool_result_t;
static int started;
static int my_init(ompt_function_lookup_t l, int d, ompt_data_t *t) { (void)l; (void)d; (void)t; started++; return 1; }
static void my_fini(ompt_data_t *t) { (void)t; }
ompt_start_tool_result_t *ompt_start_tool(unsigned int v, const char *rt)
{
    static ompt_start_tool_result_t r = {my_init, my_fini, {0}};
    (void)v; (void)rt;
    printf("the program's ompt_start_tool called\n");
    return &r;
}
int main(void)
{
    int n = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp atomic
        n++;
    }
    printf("n=%d own tool started=%d\n", n, started);
    return 0;
}
SRC

cc -g -O2 -fopenmp -rdynamic own_tool.c -o own_tool.plain
./own_tool.plain > plain.txt
assert_contains plain.txt "^n=2 own tool started=0$" "the plain build (libgomp starts no tool)"
line=$(line_of own_tool.c "#pragma omp parallel")

# barriers DIR: visits of the parallel region's implicit barrier (the runtime's event)
barriers() {
    jq '([.regions[] | select(.type == "implicit_barrier") | .id]) as $ids
        | [.callpath[] | select(.region as $r | $ids | index($r)) | .per_thread[].visits] | add // 0' \
      "$1/profile.json"
}

"$POMPCC" -g -O2 -fopenmp own_tool.c -o own_tool.pomp
nm -D own_tool.pomp | grep " T ompt_start_tool$" > /dev/null || fail "the pompcc build does not export the program's ompt_start_tool (the case is not tested)"
POMP_OUTPUT_DIR=out_pomp ./own_tool.pomp > pomp.txt
diff -u plain.txt pomp.txt || fail "pompcc build: the output differs from the plain build (the program's tool was started)"
assert_eq "$(barriers out_pomp)" 2 "pompcc build: implicit barrier visits (pomp's tool on libgomp)"

POMP_OUTPUT_DIR=out_run "$POMPRUN" ./own_tool.plain > run.txt
diff -u plain.txt run.txt || fail "pomprun: the output differs from the plain build (the program's tool was started)"
[ -f out_run/profile.json ] || fail "pomprun: no profile written"
assert_eq "$(barriers out_run)" 2 "pomprun: implicit barrier visits (pomp's tool on libgomp)"
# On LLVM libomp the program's tool is the one libomp starts, with pomp or
# without (its output as the plain clang build's); pomp's is never asked, so
# the runtime's events are lost: said (runtime_events_off_by, the run marked)
# as for OMP_TOOL=disabled, where it read synchronisation 100 % with no word.
clang-19 -O2 -fopenmp own_tool.c -o own_tool.clang
./own_tool.clang > clang.txt
"$POMPCC" --pomp-runtime=omp -O2 -fopenmp own_tool.c -o own_tool.omp
POMP_OUTPUT_DIR=out_omp ./own_tool.omp > omp.txt
diff -u clang.txt omp.txt || fail "libomp: the output differs from the plain clang build"
assert_contains omp.txt "^n=2 own tool started=1$" "libomp: the program's tool started (as without pomp)"
assert_contains out_omp/profile.json '"runtime_events_off_by": "another OMPT tool' \
                "libomp: the profile says the runtime's events went to another tool"
"$REPORT" out_omp > omp_report.txt
assert_contains omp_report.txt "^\(the run\) ! " "libomp: the run marked"
assert_contains omp_report.txt "! waits not measured: another OMPT tool" "libomp: said why"
# A pompcc plugin in a plain Clang program: libomp, the program's, looked for
# its tool before libpomp came with the plugin (dlopen's local scope): no
# tool, and the reason is that, not a tool of the program's (which has none:
# the ompt_start_tool found first is libomp's own weak one; a probe)
cat > ptplug.c <<'C'
int plugin_run(void)
{
    int n = 0;
#pragma omp parallel num_threads(2) reduction(+ : n)
    n++;
    return n;
}
C
cat > pthost.c <<'C'
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>
int main(void)
{
    printf("max %d\n", omp_get_max_threads() > 0);
    void *h = dlopen("./libptplug.so", RTLD_NOW);
    if (!h)
        return 1;
    int (*run)(void) = (int (*)(void))dlsym(h, "plugin_run");
    printf("%d\n", run());
    return 0;
}
C
"$POMPCC" --pomp-runtime=omp -O2 -fopenmp -fPIC -shared ptplug.c -o libptplug.so
clang-19 -O2 -fopenmp pthost.c -o pthost -ldl
assert_eq "$(POMP_OUTPUT_DIR=out_pt ./pthost | tr '\n' ' ')" "max 1 2 " "a pompcc plugin in a Clang program: the output"
assert_contains out_pt/profile.json '"runtime_events_off_by": "LLVM libomp started before libpomp was there' \
                "a pompcc plugin in a Clang program: the reason is libomp's start before libpomp"
"$REPORT" out_pt > pt_report.txt
assert_contains pt_report.txt "the program run by pomprun \\(or with LD_PRELOAD=<prefix>/lib/libpomp.so\\) measures them" \
                "a pompcc plugin in a Clang program: the remedy"
echo "PASS test_gomp_own_tool"
