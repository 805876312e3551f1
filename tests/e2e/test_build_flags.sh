# pompcc under the flags of real builds: link-time optimization (GCC and
# clang, objects in archives), section garbage collection and hidden
# visibility, the linker's response files, -static (refused, clearly), and a
# CMake project with find_package(OpenMP) and CMAKE_INTERPROCEDURAL_OPTIMIZATION.
# Each program must print what the plain build prints, count every construct's
# visits exactly, and have every handle made before main (pomp-prelink found
# every object's POMP_Init_ function).
source "$(dirname "$0")/lib.sh"
BIN=$(dirname "$POMPCC")

# A library of two files and a main: 3 calls of a parallel loop, a critical
# run 5 times by each of 2 threads.
cat > sum.c <<'C'
double lib_sum(int n)
{
    double s = 0;
#pragma omp parallel for reduction(+:s) num_threads(2)
    for (int i = 0; i < n; i++)
        s += i;
    return s;
}
C
cat > count.c <<'C'
/* a count of the critical's entries
   (its lines differ from sum.c's: the checks find regions by type and line) */
int lib_count(int reps)
{
    int c = 0;
#pragma omp parallel num_threads(2)
    for (int r = 0; r < reps; r++) {
#pragma omp critical
        c++;
    }
    return c;
}
C
cat > main.c <<'C'
#include <stdio.h>
double lib_sum(int n);
int lib_count(int reps);
int main(void)
{
    double s = 0;
    for (int k = 0; k < 3; k++)
        s += lib_sum(100);
    printf("%.0f %d\n", s, lib_count(5));
    return 0;
}
C
LOOP=$(line_of sum.c 'omp parallel for') CRIT=$(line_of count.c 'omp critical')
cc -fopenmp sum.c count.c main.c -o plain
./plain > plain.txt

# check_program NAME PROGRAM: same output, exact visits, no handle made lazily
check_program() {
    POMP_OUTPUT_DIR="out_$1" "$2" > "$1.txt" || fail "$1: the program failed"
    diff -u plain.txt "$1.txt" || fail "$1: output differs from the plain build"
    assert_eq "$(region_sum "out_$1" parallel "$LOOP" visits)" 3 "$1: visits of the parallel loop"
    assert_eq "$(region_sum "out_$1" for "$LOOP" visits)" 6 "$1: visits of its loop (2 threads)"
    assert_eq "$(region_sum "out_$1" critical "$CRIT" visits)" 10 "$1: visits of the critical"
    assert_eq "$(region_init "out_$1")" handle "$1: every handle made before main"
}
# build_archive NAME AR COMPILER FLAGS...: the library in an archive, then main
build_archive() {
    local name=$1 ar=$2 cc=$3
    shift 3
    "$cc" "$@" -c sum.c -o "$name-sum.o" && "$cc" "$@" -c count.c -o "$name-count.o" &&
        "$ar" rcs "lib$name.a" "$name-sum.o" "$name-count.o" &&
        "$cc" "$@" main.c -L. -l"$name" -o "$name" 2> "$name.err" || { cat "$name.err"; fail "$name: build"; }
}

# Under make sanitize libpomp carries gcc's ASan runtime, which clang's
# objects cannot join (as in test_cxx and test_device): the clang cases run
# in make test only.
CLANG=$([ -n "$E2E_SANITIZE" ] || echo yes)

# ---- link-time optimization ----
# clang's -flto objects are LLVM bitcode, which GNU nm reads only through an
# LLVMgold plugin of the same LLVM: Debian's older one made nm print "no
# symbols" with status 0, every handle was made lazily, and the program went
# to libgomp's bridge for want of the __kmpc_ calls it makes.
if [ -n "$CLANG" ]; then
    build_archive clto "$LIBOMP_DIR/../bin/llvm-ar" "$BIN/pomp-clang" -fopenmp -O2 -flto
    check_program clto ./clto
    ! ldd clto | grep libpomp-gomp > /dev/null || fail "clang -flto: linked with the libgomp bridge"
    build_archive cthin "$LIBOMP_DIR/../bin/llvm-ar" "$BIN/pomp-clang" -fopenmp -O2 -flto=thin
    check_program cthin ./cthin
fi
# GCC's LTO objects, archived by gcc-ar (its plugin), and fat ones by ar
build_archive glto gcc-ar "$POMPCC" -fopenmp -O2 -flto=auto
check_program glto ./glto
build_archive gfat ar "$POMPCC" -fopenmp -O2 -flto -ffat-lto-objects
check_program gfat ./gfat

# clang's objects in an archive that -L. -l names, with a main that calls no
# runtime entry point: libomp, as the plain build (before: the runtime choice
# read the command line's files only, and took libgomp's bridge)
if [ -n "$CLANG" ]; then
    build_archive clang ar "$BIN/pomp-clang" -fopenmp -O2
    check_program clang ./clang
    ! ldd clang | grep libpomp-gomp > /dev/null || fail "clang archive by -l: linked with the libgomp bridge"
fi

# An LTO object's construct counts are in its IR until the link: a construct
# the instrumentation left to the runtime (a pragma from a macro) is said
# after the link, from the program, and the runtime's events measure it
# (before: no warning, and its 10 visits were nowhere in the profile).
cat > macro.c <<'C'
#define LOCKED(x) _Pragma("omp critical") x++
int lib_count(int reps)
{
    int c = 0;
#pragma omp parallel num_threads(2)
    for (int r = 0; r < reps; r++)
        LOCKED(c);
    return c;
}
C
for lto in "$POMPCC -flto" ${CLANG:+"$BIN/pomp-clang -flto=thin"}; do
    name=macro_$(basename "${lto%% *}")
    $lto -fopenmp -O2 -c macro.c -o "$name.o" && $lto -fopenmp -O2 -c sum.c -o "$name-sum.o"
    $lto -fopenmp -O2 main.c "$name.o" "$name-sum.o" -o "$name" 2> "$name.err" || { cat "$name.err"; fail "$name: build"; }
    assert_contains "$name.err" "^macro.c: warning: 1 of 2 OpenMP constructs instrumented; 1 left to the runtime's events" \
        "$name: the construct left to the runtime is said"
    POMP_OUTPUT_DIR="out_$name" "./$name" > "$name.txt"
    diff -u plain.txt "$name.txt" || fail "$name: output differs"
    assert_eq "$(jq '[.regions[] | select(.type == "critical") | .id] as $c
                     | [.callpath[] | select(.region as $r | $c | index($r)) | .per_thread[].visits] | add' \
                 "out_$name/profile.json")" 10 "$name: the runtime's events count the macro's critical"
    # ... and a shared library's link says them too, from the library (it
    # said nothing where its objects were LTO's; a probe)
    $lto -fopenmp -O2 -fPIC -c macro.c -o "$name-pic.o" || fail "$name: -fPIC compile"
    $lto -fopenmp -O2 -shared "$name-pic.o" -o "lib$name.so" 2> "$name-so.err" || { cat "$name-so.err"; fail "$name: -shared link"; }
    assert_contains "$name-so.err" "^macro.c: warning: 1 of 2 OpenMP constructs instrumented; 1 left to the runtime's events" \
        "$name -shared: the construct left to the runtime is said"
done

# A GCC LTO object's scan is in its IR too: --pomp-runtime=omp links libgomp
# for it, saying why (before: libomp, and the program aborted with OMP: Error
# #277).
cat > scan.c <<'C'
#include <stdio.h>
int main(void)
{
    int a[64], b[64], s = 0;
    for (int i = 0; i < 64; i++)
        a[i] = i;
#pragma omp parallel for reduction(inscan, +: s) num_threads(2)
    for (int i = 0; i < 64; i++) {
        s += a[i];
#pragma omp scan inclusive(s)
        b[i] = s;
    }
    printf("%d\n", b[63]);
    return 0;
}
C
"$POMPCC" --pomp-runtime=omp -fopenmp -O2 -flto -c scan.c
"$POMPCC" --pomp-runtime=omp -fopenmp -flto scan.o -o scan 2> scan.err
assert_contains scan.err "scan.o is a GCC object for link-time optimization.*linking GCC's libgomp" "LTO scan: the reason"
assert_eq "$(POMP_OUTPUT_DIR=out_scan ./scan)" 2016 "LTO scan on libgomp"

# ---- sections, visibility, static libgcc ----
build_archive gc ar "$POMPCC" -fopenmp -O2 -ffunction-sections -fdata-sections -Wl,--gc-sections \
    -fvisibility=hidden -static-libgcc
check_program gc ./gc

# ---- response files ----
# The compiler's (CMake's objects1.rsp; -Xlinker @FILE is read by the driver
# as well) and the linker's: -Wl,@FILE holds objects and -l options that the
# linker reads and pomp-prelink must too (before: every handle of those
# objects lazy, and the runtime chosen without them).
"$POMPCC" -fopenmp -O2 -c sum.c count.c main.c
printf 'main.o\nsum.o count.o\n' > objects.rsp
"$POMPCC" -fopenmp @objects.rsp -o rsp_cc
check_program rsp_cc ./rsp_cc
printf 'sum.o count.o\n' > ld_objects.rsp
"$POMPCC" -fopenmp main.o -Wl,@ld_objects.rsp -o rsp_wl
check_program rsp_wl ./rsp_wl
ar rcs libboth.a sum.o count.o
printf -- '-L. -lboth\n' > ld_libs.rsp
printf -- '@ld_libs.rsp\n' > ld_nested.rsp
"$POMPCC" -fopenmp main.o -Wl,--as-needed,@ld_nested.rsp -o rsp_wl_nested
check_program rsp_wl_nested ./rsp_wl_nested
"$POMPCC" -fopenmp main.o -Xlinker @ld_libs.rsp -o rsp_xl
check_program rsp_xl ./rsp_xl

# ---- -static: refused before anything is compiled, saying why ----
# (before: "cannot find -lpomp-gomp" from the linker after every compile, and
# -lpomp could find OPARI2's static libpomp.a)
for flag in -static -static-pie --static; do # (--static: gcc's spelling, passed on before)
    rc=0
    "$POMPCC" -fopenmp "$flag" sum.c count.c main.c -o static 2> static.err || rc=$?
    assert_eq "$rc" 2 "$flag: pompcc's usage status"
    assert_contains static.err "pompcc: error: '$flag': pomp cannot measure a statically linked program" \
        "$flag: the reason"
    assert_not_contains static.err "ld:|cannot find" "$flag: no linker error"
    [ ! -e static ] || fail "$flag: a program was written"
done
"$POMPCC" -fopenmp -static -c sum.c -o static_c.o || fail "-static in a compile (-c) is the linker's only"

# ---- CMake: find_package(OpenMP) and link-time optimization ----
# CMake takes "pomp-" of pomp-clang and pomp-gcc for a cross prefix and looks
# for pomp-llvm-ar and pomp-gcc-ar (before: not found, and the archive step ran
# "CMAKE_C_COMPILER_AR-NOTFOUND"). FindOpenMP's test program calls no runtime
# entry point; with -fopenmp=libomp it runs on libomp, as plainly built, so
# OpenMP's libraries are libomp's (before: the libgomp bridge too).
# The user's strictest warnings are for the user's code: pomp's generated
# include file is a system header to the compiler (before: clang's
# -Weverything warned of its handle arrays' indexing and gcc's -Wlarger-than=
# of their size, and under -Werror the file fell back to no instrumentation)
cat > strict.c <<'C'
#include <stdio.h>
int main(void)
{
    int s = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp critical
        s++;
    }
    printf("%d\n", s);
    return 0;
}
C
"$BIN/pomp-gcc" -fopenmp -Wall -Wextra -Wlarger-than=100 -Werror -c strict.c -o strict_gcc.o 2> strict_gcc.err ||
    { cat strict_gcc.err; fail "strict warnings, gcc: the compile"; }
assert_not_contains strict_gcc.err . "strict warnings, gcc: no message (no fallback)"
if [ -n "$CLANG" ]; then
    "$BIN/pomp-clang" -fopenmp -Weverything -Wno-declaration-after-statement -Werror -c strict.c -o strict_clang.o \
        2> strict_clang.err || { cat strict_clang.err; fail "strict warnings, clang: the compile"; }
    assert_not_contains strict_clang.err . "strict warnings, clang -Weverything: no message (no fallback)"
    readelf -p .pomp_constructs strict_clang.o | grep '2 2 0 strict.c' > /dev/null || fail "strict warnings, clang: both constructs instrumented"
fi
readelf -p .pomp_constructs strict_gcc.o | grep '2 2 0 strict.c' > /dev/null || fail "strict warnings, gcc: both constructs instrumented"
# An unbraced loop whose body, a loop, ends with '}' (collapse(2)): the code
# pomp puts after it read as misleading indentation to clang -Wall, and a
# -Werror build fell back to no instrumentation.
cat > strict_collapse.c <<'C'
#include <stdio.h>
int main(void)
{
    int t = 0;
#pragma omp parallel for collapse(2) reduction(+ : t)
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            t += i * j;
        }
    printf("%d\n", t);
    return 0;
}
C
for cc in pomp-gcc $([ -n "$CLANG" ] && echo pomp-clang); do
    "$BIN/$cc" -fopenmp -Wall -Wextra -Werror -c strict_collapse.c -o strict_collapse_$cc.o 2> strict_collapse_$cc.err ||
        { cat strict_collapse_$cc.err; fail "strict warnings, $cc: the collapse(2) loop's compile"; }
    assert_not_contains strict_collapse_$cc.err . "strict warnings, $cc: the collapse(2) loop: no message (no fallback)"
    readelf -p .pomp_constructs strict_collapse_$cc.o | grep '1 1 0 strict_collapse.c' > /dev/null ||
        fail "strict warnings, $cc: the collapse(2) loop instrumented"
done
# iteration events and the guards of a cancellable loop's events are two
# calls in one expression: the left one cast to void (clang's -Wcomma warned
# of each, and -Werror fell back to no instrumentation)
cat > strict_comma.c <<'C'
#include <stdio.h>
int main(void)
{
    int s = 0;
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < 100; i++) {
        s += i;
#pragma omp cancel for if (i > 1000)
    }
    printf("%d\n", s);
    return 0;
}
C
if [ -n "$CLANG" ]; then
    "$BIN/pomp-clang" --pomp-iterations -fopenmp -Weverything -Wno-declaration-after-statement -Werror -c strict_comma.c \
        -o strict_comma.o 2> strict_comma.err || { cat strict_comma.err; fail "strict warnings, clang: iterations and guards"; }
    assert_not_contains strict_comma.err . "strict warnings, clang: iterations and guards, no message (no fallback)"
fi
# A task whose block holds an atomic: the task's counter answer and the
# value kept for its end are set together, but GCC 12 (-O1 and above) lost
# that across the atomic and warned the kept value may be used uninitialized
# in pomplib.h; -Werror fell back to no instrumentation (a probe)
cat > strict_task.c <<'C'
void add_in_task(double *r)
{
#pragma omp task
    {
#pragma omp atomic
        *r += 1.0;
    }
}
C
for opt in -O1 -O2 -O3; do
    "$BIN/pomp-gcc" -fopenmp $opt -Wall -Wextra -Werror -c strict_task.c -o strict_task.o 2> strict_task.err ||
        { cat strict_task.err; fail "strict warnings, gcc $opt: a task holding an atomic"; }
    assert_not_contains strict_task.err . "strict warnings, gcc $opt: a task holding an atomic, no message (no fallback)"
    readelf -p .pomp_constructs strict_task.o | grep '2 2 0 strict_task.c' > /dev/null ||
        fail "strict warnings, gcc $opt: the task and its atomic instrumented"
done
# A _Pragma macro whose invocation a split replaces stays used: pomp tests
# for it right after its #define (-Wunused-macros -Werror fell back to no
# instrumentation: the macro was never expanded; found by a C++ probe), also
# where the file #undefs it later (GCC warns at the #undef) and where the
# last line ends in a backslash without a newline. A function-like macro
# whose body is one _Pragma of a literal is instrumented the same way (it was
# left to the runtime, and the notes said it would be instrumented; a probe).
# So does a macro a directive uses only in its clauses (SCHED), which pomp
# replaced in the split it wrote (the file fell back to no instrumentation
# under -Werror; a probe).
cat > strict_macro.c <<'C'
#include <stdio.h>
#define PAR_FOR _Pragma("omp parallel for num_threads(2)")
#define PAR_FOR_F(...) _Pragma("omp parallel for num_threads(2)")
#define SCHED schedule(static)
int main(void)
{
    int a[4] = {0, 0, 0, 0};
    PAR_FOR
    for (int i = 0; i < 4; ++i)
        a[i] = i;
    PAR_FOR_F(unused)
    for (int i = 0; i < 4; ++i)
        a[i] += i;
#pragma omp parallel for SCHED num_threads(2)
    for (int i = 0; i < 4; ++i)
        a[i] += 1;
    printf("%d\n", a[3]);
    return 0;
}
#undef PAR_FOR
C
printf '// the end \\' >> strict_macro.c
for cc in pomp-gcc ${CLANG:+pomp-clang}; do
    "$BIN/$cc" -fopenmp -Wunused-macros -Werror -c strict_macro.c -o strict_macro_$cc.o 2> strict_macro_$cc.err ||
        { cat strict_macro_$cc.err; fail "strict warnings, $cc: an unused-macros build"; }
    assert_not_contains strict_macro_$cc.err . "strict warnings, $cc -Wunused-macros: no message (no fallback)"
    readelf -p .pomp_constructs strict_macro_$cc.o | grep '3 3 0 strict_macro.c' > /dev/null ||
        fail "strict warnings, $cc -Wunused-macros: the split macros' constructs instrumented"
    "$BIN/$cc" -fopenmp strict_macro_$cc.o -o strict_macro_$cc
    assert_eq "$(POMP_OUTPUT_DIR=strict_macro_$cc.d ./strict_macro_$cc 2> /dev/null)" 7 "strict warnings, $cc: the program"
    assert_eq "$(jq '[.regions[] | select(.type == "parallel for" or .type == "parallel") | select(.init != "ompt")] | length' \
                 strict_macro_$cc.d/profile.json)" 3 "strict warnings, $cc: the macros' regions instrumented"
done

if command -v cmake > /dev/null; then
    mkdir cm
    cp sum.c count.c main.c cm/
    cat > cm/CMakeLists.txt <<'CM'
cmake_minimum_required(VERSION 3.16)
project(flags C)
find_package(OpenMP REQUIRED)
add_library(lib STATIC sum.c count.c)
target_link_libraries(lib PUBLIC OpenMP::OpenMP_C)
add_executable(app main.c)
target_link_libraries(app PRIVATE lib)
CM
    for compiler in ${CLANG:+pomp-clang} pomp-gcc; do
        cmake -S cm -B "cm_$compiler" -DCMAKE_C_COMPILER="$BIN/$compiler" -DCMAKE_BUILD_TYPE=Release \
            -DCMAKE_INTERPROCEDURAL_OPTIMIZATION=ON > "cm_$compiler.log" 2>&1 ||
            { cat "cm_$compiler.log"; fail "cmake with $compiler"; }
        cmake --build "cm_$compiler" > "cm_$compiler.build" 2>&1 ||
            { cat "cm_$compiler.build"; fail "cmake --build with $compiler"; }
        assert_contains "cm_$compiler/CMakeFiles/lib.dir/flags.make" "-flto" \
            "$compiler: CMake asked for link-time optimization"
        check_program "cm_$compiler" "./cm_$compiler/app"
    done
    [ -z "$CLANG" ] || assert_contains cm_pomp-clang/CMakeCache.txt '^OpenMP_C_LIB_NAMES:STRING=omp;pthread$' \
        "FindOpenMP with pomp-clang: libomp's libraries"
else
    echo "cmake is not installed: the CMake project is not checked"
fi
