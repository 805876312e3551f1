# pompcc as a drop-in for cc: one-step builds, make CC=pompcc with dependency
# files and an incremental rebuild, -E, and _POMP.
source "$(dirname "$0")/lib.sh"
cp "$EXAMPLES"/workshare/*.[ch] .
plain_cc main.c work.c -o app_plain
OMP_NUM_THREADS=3 ./app_plain > plain.txt

# One step, several sources.
"$POMPCC" -fopenmp main.c work.c -o app1
OMP_NUM_THREADS=3 POMP_OUTPUT_DIR=one ./app1 > one.txt
diff -u plain.txt one.txt || fail "one-step build output differs"
assert_eq "$(pomp_regions one)" 7 "regions of the one-step build"
ls *.o 2>/dev/null && fail "a one-step build leaves no objects behind"

# make CC=pompcc with -MMD dependency files.
cat > Makefile <<'MK'
CFLAGS = -fopenmp -O2 -MMD
LDFLAGS = -fopenmp
app: main.o work.o
	$(CC) $(LDFLAGS) $^ -o $@
-include *.d
MK
make -s CC="$POMPCC" > make1.txt 2>&1 || { cat make1.txt; fail "make CC=pompcc"; }
OMP_NUM_THREADS=3 POMP_OUTPUT_DIR=mk ./app > mk.txt
diff -u plain.txt mk.txt || fail "make-built output differs"
[ -f work.d ] || fail "-MMD wrote no work.d"
assert_contains work.d '^work\.o: work\.c work\.h' "dependency file names the object and the user's files"
assert_not_contains work.d 'pomp' "dependency file mentions no temporary or generated file"
# Incremental, through the dependency files: work.h is included by both
# sources, work.c by itself.
mtime() { stat -c %Y "$1"; }
w0=$(mtime work.o) m0=$(mtime main.o)
sleep 1.1; touch work.h
make CC="$POMPCC" > make2.txt 2>&1 || { cat make2.txt; fail "incremental make"; }
[ "$(mtime work.o)" != "$w0" ] && [ "$(mtime main.o)" != "$m0" ] || fail "objects not rebuilt after work.h changed"
w1=$(mtime work.o) m1=$(mtime main.o)
sleep 1.1; touch work.c
make CC="$POMPCC" > make2b.txt 2>&1 || { cat make2b.txt; fail "incremental make"; }
[ "$(mtime work.o)" != "$w1" ] || fail "work.o not rebuilt after work.c changed"
assert_eq "$(mtime main.o)" "$m1" "main.o untouched by a change of work.c"
make CC="$POMPCC" > make3.txt 2>&1
assert_contains make3.txt "is up to date|Nothing to be done" "nothing to rebuild"

# -E passes through, with _POMP defined as YYYYMM.
printf '_POMP\n' > v.c
"$POMPCC" -E v.c > v.i
assert_contains v.i '^202611$' "_POMP under -E"
"$POMPCC" -c work.c -o work_noomp.o     # no -fopenmp: still compiles

# Libraries keep their place after the objects that use them (-lm after the source).
cat > m.c <<'C'
#include <math.h>
#include <stdio.h>
int main(void)
{
    volatile double x = 2.0, s = 0;
    #pragma omp parallel for reduction(+:s)
    for (int i = 0; i < 4; i++)
        s += sqrt(x);
    printf("%.3f\n", s);
    return 0;
}
C
"$POMPCC" -fopenmp -O2 m.c -o m -lm -Wl,--as-needed || fail "link with -lm after the source"
assert_eq "$(POMP_OUTPUT_DIR=lm ./m)" "5.657" "program linked with -lm"

# An archive of instrumented objects linked by -L dir -l name (make's usual
# way): pomp-prelink looks it up in the -L directories, so its handles are
# made before main and its constructs counted, as when the archive is named
mkdir -p libdir
cat > lsum.c <<'C'
double lsum(int n)
{
    double s = 0;
    #pragma omp parallel for reduction(+:s)
    for (int i = 0; i < n; i++)
        s += i;
    return s;
}
C
cat > luse.c <<'C'
#include <stdio.h>
double lsum(int n);
int main(void)
{
    printf("%.0f\n", lsum(100));
    return 0;
}
C
"$POMPCC" -fopenmp -O2 -c lsum.c -o lsum.o && ar rcs libdir/liblsum.a lsum.o
"$POMPCC" -fopenmp -O2 -c luse.c -o luse.o
"$POMPCC" -fopenmp --pomp-verbose luse.o -Llibdir -llsum -o luse 2> luse.err || { cat luse.err; fail "link with -llsum"; }
assert_contains luse.err "lsum.c: note: 1 of 1 OpenMP constructs instrumented" "-l archive: its constructs counted"
assert_eq "$(POMP_OUTPUT_DIR=luse_out ./luse)" 4950 "-l archive: output"
assert_eq "$(jq -c '[.regions[] | select(.file == "lsum.c") | .init] | unique' luse_out/profile.json)" '["handle"]' \
    "-l archive: its regions made before main (pre-initialized handles), none lazily"

# ... in every way the linker finds it: -L after -l (ld applies every -L to
# every -l), LIBRARY_PATH (as gcc adds it; environment modules set it), the
# linker's own words (-Wl,-Llibdir, -Wl,-Bstatic,-llsum,-Bdynamic, -Xlinker),
# and an object named .os (SCons) or .obj: each was not looked up, its
# handles made lazily and what it left to the runtime unsaid (a probe)
cp lsum.o lsum.os
while IFS='|' read -r label vars args; do
    # shellcheck disable=SC2086 # (the arguments are words)
    env ${vars#-} "$POMPCC" -fopenmp --pomp-verbose $args -o luse_way 2> luse_way.err ||
        { cat luse_way.err; fail "-l archive, $label: link"; }
    assert_contains luse_way.err "lsum.c: note: 1 of 1 OpenMP constructs instrumented" "-l archive, $label: its constructs counted"
    rm -rf luse_way_out
    assert_eq "$(POMP_OUTPUT_DIR=luse_way_out ./luse_way)" 4950 "-l archive, $label: output"
    assert_eq "$(jq -c '[.regions[] | select(.file == "lsum.c") | .init] | unique' luse_way_out/profile.json)" '["handle"]' \
        "-l archive, $label: its regions made before main"
done <<'WAYS'
-L after -l|-|luse.o -llsum -Llibdir
LIBRARY_PATH|LIBRARY_PATH=libdir|luse.o -llsum
-Wl,-L|-|luse.o -Wl,-Llibdir -llsum
-Wl,-Bstatic list|-|luse.o -Llibdir -Wl,-Bstatic,-llsum,-Bdynamic
-Xlinker|-|luse.o -Llibdir -Xlinker -llsum
--library-directory|-|luse.o --library-directory libdir -llsum
an object named .os|-|luse.o lsum.os
WAYS

# A thin archive (ar T: member headers naming the objects beside it) is read
# as the plain one: its members' counts and regions (they were read as no
# file: constructs left to the runtime unsaid, a scan linked to libomp,
# which aborted; a probe)
mkdir -p thin/objs
cp lsum.o thin/objs/
cat > thin/left.c <<'C'
#define PSUM(n) _Pragma("omp parallel for reduction(+ : s)") for (int i = 0; i < (n); i++)
int leftf(int n)
{
    int s = 0;
    PSUM(n)
        s += i;
    return s;
}
C
"$POMPCC" -fopenmp -O2 -c thin/left.c -o thin/objs/left.o 2> /dev/null
(cd thin && ar rcsT libthin.a objs/lsum.o objs/left.o) || fail "thin archive: build"
head -c 8 thin/libthin.a | grep '^!<thin>' > /dev/null || fail "thin archive: ar made no thin archive"
printf '#include <stdio.h>\ndouble lsum(int);\nint leftf(int);\nint main(void) { printf("%%.0f %%d\\n", lsum(100), leftf(10)); return 0; }\n' > tuse.c
"$POMPCC" -fopenmp --pomp-verbose tuse.c -Lthin -lthin -o tuse 2> tuse.err || { cat tuse.err; fail "thin archive: link"; }
assert_contains tuse.err "lsum.c: note: 1 of 1 OpenMP constructs instrumented" "thin archive: its member's constructs counted"
assert_contains tuse.err "left.c: warning: 0 of 1 OpenMP constructs instrumented; 1 left to the runtime's events" \
                "thin archive: a member's construct left to the runtime said"
assert_eq "$(POMP_OUTPUT_DIR=tuse_out ./tuse)" "4950 45" "thin archive: output"
assert_eq "$(jq -c '[.regions[] | select(.file == "lsum.c") | .init] | unique' tuse_out/profile.json)" '["handle"]' \
    "thin archive: its member's regions made before main"

# Members of that archive the program does not use stay out of the link, as
# in a plain build: one that needs an optional backend nobody links, one with
# a constructor that prints (pomp-prelink called every member's POMP_Init_:
# the link failed on the backend, the constructor ran)
cat > lback.c <<'C'
extern int missing_backend(int);
int lback(int n)
{
    int s = 0;
    #pragma omp parallel for reduction(+:s)
    for (int i = 0; i < n; i++)
        s += missing_backend(i);
    return s;
}
C
cat > lctor.c <<'C'
#include <stdio.h>
int lctor(int n)
{
    int s = 0;
    #pragma omp parallel for reduction(+:s)
    for (int i = 0; i < n; i++)
        s += i;
    return s;
}
__attribute__((constructor)) static void lctor_init(void) { puts("unused member's constructor ran"); }
C
"$POMPCC" -fopenmp -O2 -c lback.c -o lback.o && "$POMPCC" -fopenmp -O2 -c lctor.c -o lctor.o &&
    ar rcs libdir/liblmore.a lsum.o lback.o lctor.o || fail "archive with unused members: build"
"$POMPCC" -fopenmp luse.o -Llibdir -llmore -o luse_more 2> luse_more.err || { cat luse_more.err; fail "archive with unused members: link"; }
assert_eq "$(POMP_OUTPUT_DIR=luse_more_out ./luse_more)" 4950 "archive with unused members: output as in a plain build"
assert_eq "$(jq -c '[.regions[] | select(.type == "parallel") | .file] | unique' luse_more_out/profile.json)" '["lsum.c"]' \
    "archive with unused members: the used member's region measured"

# A source with nothing to instrument (no pragma, OpenMP call or main) is
# compiled as it is, without pomp-instrument; its dependency file is the
# compiler's own. In a one-step build with an OpenMP source the program
# measures as usual.
cat > helper.c <<'C'
#include "helper.h"
double twice(double x) { return 2 * x; }
C
printf 'double twice(double x);\n' > helper.h
cat > uses.c <<'C'
#include <stdio.h>
#include "helper.h"
int main(void)
{
    double s = 0;
    #pragma omp parallel for reduction(+:s)
    for (int i = 0; i < 4; i++)
        s += twice(i);
    printf("%.1f\n", s);
    return 0;
}
C
"$POMPCC" --pomp-verbose -fopenmp -O2 -MMD -c helper.c -o helper.o 2> helper.log
assert_contains helper.log "helper.c: no pragma, OpenMP call or main to instrument; compiling it as it is" "the quick look skips helper.c"
assert_not_contains helper.log "pomp-instrument" "no pomp-instrument run for helper.c"
assert_contains helper.d '^helper\.o: helper\.c helper\.h' "its dependency file, from the compile itself"
! nm helper.o | grep POMP_ > /dev/null || fail "helper.o calls no POMP routine"
"$POMPCC" --pomp-verbose -fopenmp -O2 -c uses.c -o uses.o 2> uses.log
assert_contains uses.log "pomp-instrument" "uses.c is instrumented"
"$POMPCC" -fopenmp uses.o helper.o -o uses
assert_eq "$(POMP_OUTPUT_DIR=skip ./uses)" "12.0" "program with a skipped source"
assert_eq "$(region_sum skip parallel "$(line_of uses.c '#pragma omp parallel')" visits)" 1 "its parallel region measured"
# One step: the skipped source's object still links, and is no temporary left behind.
"$POMPCC" -fopenmp uses.c helper.c -o uses2 -MMD
assert_eq "$(POMP_OUTPUT_DIR=skip2 ./uses2)" "12.0" "one-step build with a skipped source"

# A shared library built with pompcc in a program linked by plain cc: libgomp
# comes before the libgomp bridge, so the runtime's events cannot be measured;
# the library's own instrumented regions are, and pomp says what is missing.
# Linked by pompcc, the program gets the bridge first: its barriers are there.
cat > lib.c <<'C'
int lib_work(void)
{
    int n = 0;
#pragma omp parallel num_threads(2) reduction(+: n)
    n++;
    return n;
}
C
cat > libmain.c <<'C'
#include <omp.h>
#include <stdio.h>
int lib_work(void);
int main(void) /* OpenMP itself: libgomp is one of its own libraries */
{
    printf("%d %d\n", lib_work(), omp_get_max_threads() > 0);
    return 0;
}
C
"$POMPCC" -fopenmp -fPIC -shared lib.c -o libwork.so
plain_cc $E2E_SANITIZE libmain.c -o plain_main -L. -lwork -Wl,-rpath,"$PWD"
assert_eq "$(POMP_OUTPUT_DIR=libplain ./plain_main 2> libplain.err)" "2 1" "the library in a plain program"
assert_contains libplain.err "^pomp: note: the libgomp bridge \(libpomp-gomp.so\) came after GCC's libgomp" "the missing runtime events said"
assert_not_contains libplain.err "dlopened library" "no dlopened library said where none was loaded"
assert_eq "$(region_sum libplain parallel 4 visits)" 1 "the library's region measured"
# and in the profile, so that the report marks what is missing (it rated the
# run measured whole, synchronisation 100 %, unmarked; a probe)
assert_contains libplain/profile.json '"runtime_events_off_by": "the libgomp bridge loaded after GCC'"'"'s libgomp' \
    "the missing runtime events in the profile"
"$REPORT" libplain > libplain.report
assert_contains libplain.report "! waits not measured: the libgomp bridge loaded after GCC's libgomp" \
    "the report marks the run"
# pompcc objects linked by hand without the bridge: the same
"$POMPCC" -fopenmp -c libmain.c -o libmain_pomp.o
"$POMPCC" -fopenmp -fPIC -c lib.c -o lib_pomp.o
plain_cc $E2E_SANITIZE libmain_pomp.o lib_pomp.o -o hand_main -L"$BUILD/lib" -Wl,-rpath,"$BUILD/lib" -lpomp
assert_eq "$(POMP_OUTPUT_DIR=hand ./hand_main 2> hand.err)" "2 1" "pompcc objects linked by hand"
assert_contains hand.err "^pomp: note: this program ran on GCC's libgomp without the libgomp bridge" "said at the end"
assert_contains hand/profile.json '"runtime_events_off_by": "GCC'"'"'s libgomp without the libgomp bridge' \
    "linked by hand: the missing runtime events in the profile"
"$POMPCC" -fopenmp libmain.c -o pomp_main -L. -lwork -Wl,-rpath,"$PWD"
assert_eq "$(POMP_OUTPUT_DIR=libpomp ./pomp_main 2> libpomp.err)" "2 1" "the library in a pompcc program"
assert_not_contains libpomp.err "came after" "nothing missing with the bridge first"
[ "$(jq '[.regions[] | select(.type == "implicit_barrier")] | length' libpomp/profile.json)" -gt 0 ] ||
    fail "the library's implicit barrier measured in a pompcc program"
# A shared library with a construct left to the runtime (a critical behind a
# stringizing _Pragma macro): its link says so, as a program's does (nothing
# was said: a -shared link has no pre-link; a probe), and a program linked
# with it follows the runtime's waits for it (the critical's wait went
# unmeasured)
cat > libcrit.c <<'C'
#include <unistd.h>
#define CRIT_ADD(s, i) _Pragma("omp critical(upd)") { s += i; usleep(2000); }
double crit_work(int n)
{
    double s = 0;
#pragma omp parallel num_threads(2)
    for (int i = 0; i < n; i++) {
        CRIT_ADD(s, i)
    }
    return s;
}
C
"$POMPCC" -fopenmp -fPIC -shared libcrit.c -o libcrit.so 2> libcrit.err || { cat libcrit.err; fail "shared library with a left construct: build"; }
assert_contains libcrit.err "^libcrit.c: warning: 1 of 2 OpenMP constructs instrumented; 1 left to the runtime's events" \
                "shared library: its link says the construct left to the runtime"
printf '#include <stdio.h>\ndouble crit_work(int);\nint main(void) { printf("%%.0f\\n", crit_work(10)); return 0; }\n' > critmain.c
"$POMPCC" -fopenmp critmain.c -o critmain -L. -lcrit -Wl,-rpath,"$PWD" 2> critmain.err || { cat critmain.err; fail "shared library with a left construct: the program's link"; }
assert_not_contains critmain.err "warning" "shared library: said once, at its own link"
assert_eq "$(POMP_OUTPUT_DIR=critrun ./critmain 2> /dev/null)" 90 "shared library with a left construct: output"
assert_eq "$(jq '[.regions[] | select(.type == "wait" and .name == "critical")] | length' critrun/profile.json)" 1 \
          "shared library: the left critical's wait measured by the runtime's events"

# The library named by its path (CMake, libtool): the program calls none of its
# POMP_Init_ functions (its handles are its own, made at their first event),
# so another build of it loads too, a plain one included (before: "symbol
# lookup error: undefined symbol: POMP_Init_..." with any other build)
mkdir -p by_path other
cp libwork.so by_path/
"$POMPCC" -fopenmp libmain.c by_path/libwork.so -o path_main -Wl,-rpath,"$PWD/by_path"
assert_eq "$(nm -D path_main | grep -c ' U POMP_Init_')" 0 "by path: no POMP_Init_ of the library in the program"
assert_eq "$(POMP_OUTPUT_DIR=libpath ./path_main 2> /dev/null)" "2 1" "by path: the library in a pompcc program"
assert_eq "$(region_sum libpath parallel 4 visits)" 1 "by path: the library's region measured"
plain_cc $E2E_SANITIZE -fopenmp -fPIC -shared lib.c -o other/libwork.so
assert_eq "$(LD_LIBRARY_PATH=other POMP_OUTPUT_DIR=libother ./path_main 2> /dev/null)" "2 1" \
    "by path: a plain build of the library in its place loads"

# A plain OpenMP plugin dlopened by a program pompcc linked: the link could
# not see it, so the callbacks follow the instrumentation only; its parallel
# region is measured (with its implicit barrier), and the run says that the
# constructs inside went unmeasured and how to measure them (its loop,
# critical and tasks went without a word; a probe). POMP_OMPT=full measures
# them, and says nothing.
cat > plugin.c <<'C'
long plug(void)
{
    long n = 0;
#pragma omp parallel num_threads(2) reduction(+ : n)
    {
#pragma omp for schedule(dynamic, 1)
        for (int i = 0; i < 8; i++)
            n++;
#pragma omp critical
        n += 10;
    }
    return n;
}
C
cat > plugin_main.c <<'C'
#include <dlfcn.h>
#include <stdio.h>
int main(void)
{
    int t = 0;
#pragma omp parallel num_threads(2) reduction(+ : t)
    t++;
    void *h = dlopen("./libplugin.so", RTLD_NOW);
    long (*plug)(void) = h ? (long (*)(void))dlsym(h, "plug") : NULL;
    printf("%d %ld\n", t, plug ? plug() : -1L);
    return 0;
}
C
gcc -fopenmp -fPIC -shared plugin.c -o libplugin.so
"$POMPCC" -fopenmp plugin_main.c -o plugin_main -ldl 2> plugin_main.err || { cat plugin_main.err; fail "plugin: the build"; }
assert_eq "$(POMP_OUTPUT_DIR=plugin.d ./plugin_main 2> plugin.err)" "2 28" "plugin: the program"
assert_contains plugin.err "^pomp: note: a parallel region that pompcc did not instrument ran \(in libplugin.so\): only it and its implicit barriers were measured.*POMP_OMPT=full measures them" \
    "plugin: the constructs left unmeasured in it said"
assert_eq "$(jq '[.regions[] | select(.type == "parallel")] | length' plugin.d/profile.json)" 2 "plugin: its parallel region measured"
assert_contains <(jq -r ".unmeasured[]?" plugin.d/profile.json) "parallel region that pompcc did not instrument" \
    "plugin: the profile's unmeasured says it too"
POMP_OMPT=full POMP_OUTPUT_DIR=plugin_full.d ./plugin_main > /dev/null 2> plugin_full.err
assert_not_contains plugin_full.err "did not instrument ran" "plugin, POMP_OMPT=full: nothing to say"
assert_eq "$(jq '[.regions[] | select(.type == "critical")] | length' plugin_full.d/profile.json)" 1 \
    "plugin, POMP_OMPT=full: its critical measured"
# The plain plugin loaded, called and closed three times: one region of 3
# visits (its call sites let go at each dlclose, each load made regions of
# its own: three identical rows of 1 visit; a probe), and the note counts
# executions, not regions ("3 parallel regions" for one, before)
cat > reload_main.c <<'C'
#include <dlfcn.h>
#include <stdio.h>
int main(void)
{
    long sum = 0;
    for (int k = 0; k < 3; k++) {
        void *h = dlopen("./libplugin.so", RTLD_NOW);
        long (*plug)(void) = h ? (long (*)(void))dlsym(h, "plug") : NULL;
        sum += plug ? plug() : -1000;
        if (h)
            dlclose(h);
    }
    printf("%ld\n", sum);
    return 0;
}
C
"$POMPCC" -fopenmp reload_main.c -o reload_main -ldl 2> reload_main.err || { cat reload_main.err; fail "reload: the build"; }
assert_eq "$(POMP_OUTPUT_DIR=reload.d ./reload_main 2> reload.err)" 84 "reload: the program"
assert_contains reload.err "^pomp: note: parallel regions that pompcc did not instrument ran 3 times \(in libplugin.so\)" \
    "reload: the note counts executions, and names the library, unloaded before the end"
assert_eq "$(jq '[.regions[] | select(.type == "parallel")] | length' reload.d/profile.json)" 1 "reload: one region"
assert_eq "$(jq '([.regions[] | select(.type == "parallel") | .id]) as $p
    | [.callpath[] | select(.region as $r | $p | index($r)) | .per_thread[].visits] | add' reload.d/profile.json)" 3 \
    "reload: its 3 executions"
# Coverage in one compile-and-link call: the notes and data in the working
# directory, named as gcc names them (prog-a.gcno, prog-a.gcda), not in
# pompcc's temporary directory, deleted with it and made again by each run (a
# probe)
if [ -z "$E2E_SANITIZE" ]; then
    mkdir -p cov && cd cov
    cat > cova.c <<'C'
int twice(int x) { return 2 * x; }
C
    cat > covmain.c <<'C'
#include <stdio.h>
int twice(int x);
int main(void)
{
    int s = 0;
#pragma omp parallel num_threads(2) reduction(+ : s)
    s += twice(1);
    printf("%d\n", s);
    return 0;
}
C
    "$POMPCC" -fopenmp --coverage cova.c covmain.c -o covprog 2> cov.err || { cat cov.err; fail "coverage: the build"; }
    assert_eq "$(POMP_OUTPUT_DIR=cov.d ./covprog 2> /dev/null)" 4 "coverage: the program"
    for f in covprog-cova.gcno covprog-covmain.gcno covprog-cova.gcda covprog-covmain.gcda; do
        [ -s "$f" ] || fail "coverage: $f written where gcc writes it (got: $(ls | tr '\n' ' '))"
    done
    cd ..
fi
