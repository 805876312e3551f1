# OpenMP runtimes that are not the system's plain libgomp.so.1 (docs/gomp.md):
# - a Python wheel's libgomp, a copy under another name ("libgomp-a34b3233.so.1"
#   beside the extension, found by RPATH $ORIGIN), loaded by dlopen into a host
#   without OpenMP: the plugin's calls reach the bridge pomprun preloads (the
#   symbol versions match, not the file), which found nothing to forward to
#   and called a null pointer (a segfault). Now: forwarded to the copy, the
#   plain output, said unmeasured; two wheels with a copy each: said that one
#   copy took the calls of both.
# - LLVM libomp under libgomp's name (conda's llvm-openmp: libgomp.so.1 ->
#   libomp.so): the bridge took it for libgomp and said that a second runtime
#   ran unmeasured (false: libomp's OMPT measured all), and under pomprun every
#   region was named at the bridge's own code (gomp_team.c). Now: pomprun
#   measures it through OMPT alone, regions at the pragma's line, no note.
source "$(dirname "$0")/lib.sh"
POMPRUN="$BUILD/bin/pomprun"
[ -n "$E2E_SANITIZE" ] && exit 0 # (a sanitized libpomp cannot be loaded into a plain program)
export OMP_NUM_THREADS=2
GOMP=$(cc -print-file-name=libgomp.so.1)
[ -f "$GOMP" ] || { echo "SKIP: no libgomp.so.1"; exit 0; }

# copy_renamed SONAME DIR: libgomp.so.1 copied to DIR/SONAME, its DT_SONAME
# rewritten in place (a name of the same length: no patchelf needed)
copy_renamed() {
    mkdir -p "$2"
    python3 - "$GOMP" "$2/$1" "$1" <<'PY'
import sys
src, dst, name = sys.argv[1], sys.argv[2], sys.argv[3].encode()
data = open(src, 'rb').read()
old = b'libgomp.so.1\0'
assert len(name) + 1 == len(old) and data.count(old) == 1, 'soname not found once'
open(dst, 'wb').write(data.replace(old, name + b'\0'))
PY
}

cat > plug.c <<'SRC'
#include <omp.h>
int plugin_run(void)
{
    int tids = 0, crit = 0;
    for (int r = 0; r < 4; r++) {
#pragma omp parallel num_threads(2)
        {
#pragma omp atomic
            tids += omp_get_thread_num();
#pragma omp critical
            crit++;
        }
    }
    return crit * 100 + tids; /* 804 */
}
SRC
cat > host.c <<'SRC'
#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        void *h = dlopen(argv[i], RTLD_NOW | RTLD_LOCAL);
        if (!h) { fprintf(stderr, "dlopen: %s\n", dlerror()); return 3; }
        int (*run)(void) = (int (*)(void))dlsym(h, "plugin_run");
        printf("plugin %d: %d\n", i, run());
    }
    return 0;
}
SRC
cc -O2 host.c -o host -ldl
cc -g -O2 -fPIC -fopenmp -c plug.c -o plug.o
for w in a3 b7; do
    copy_renamed "libgomp-$w.1" "wheel_$w/lib"
    # as auditwheel leaves it: the extension needs the copy, by RPATH $ORIGIN
    cc -shared plug.o -o "wheel_$w/plug.so" -L"wheel_$w/lib" -l:"libgomp-$w.1" -Wl,-rpath,'$ORIGIN/lib'
    readelf -d "wheel_$w/plug.so" | grep "NEEDED.*\[libgomp-$w.1\]" > /dev/null || fail "the wheel's plugin does not need its copy (the case is not tested)"
done
./host ./wheel_a3/plug.so > plain.txt
assert_eq "$(cat plain.txt)" "plugin 1: 804" "the plain run"

set +e
POMP_OUTPUT_DIR=out_wheel "$POMPRUN" ./host ./wheel_a3/plug.so > wheel.txt 2> wheel.err
rc=$?
set -e
assert_eq "$rc" 0 "pomprun of a host that dlopens a wheel with its own renamed libgomp: exit status (139: a segfault)"
diff -u plain.txt wheel.txt || fail "a wheel's renamed libgomp: the output differs from the plain run"
assert_contains wheel.err "pomp: note: GCC OpenMP code that a dlopened library brought \(with its own libgomp\) ran unmeasured" \
                "a wheel's renamed libgomp: said unmeasured"
assert_not_contains wheel.err "copies of libgomp" "one wheel: no word of several copies"

# two wheels, a copy each: the bridge forwards both plugins' calls to one copy
# (the second plugin's omp_get_thread_num answers from its own: 800, not 804)
set +e
POMP_OUTPUT_DIR=out_wheels "$POMPRUN" ./host ./wheel_a3/plug.so ./wheel_b7/plug.so > wheels.txt 2> wheels.err
rc=$?
set -e
assert_eq "$rc" 0 "pomprun of two wheels: exit status"
assert_contains wheels.txt "^plugin 1: 804$" "two wheels: the first plugin's answer"
assert_contains wheels.err "pomp: warning: 2 copies of libgomp were loaded by dlopened libraries.*forwarded the calls of all of them to one, .*wheel_a3/lib/libgomp-a3.1" \
                "two wheels: said that one copy took the calls of both"

# LLVM libomp as libgomp.so.1 (conda's llvm-openmp)
if [ -f "$LIBOMP_DIR/libomp.so.5" ]; then
    mkdir -p conda/lib
    cp "$LIBOMP_DIR/libomp.so.5" conda/lib/libomp.so
    ln -sf libomp.so conda/lib/libgomp.so.1
    cat > prog.c <<'SRC'
#include <omp.h>
#include <stdio.h>
int main(void)
{
    int crit = 0;
    for (int r = 0; r < 3; r++) {
#pragma omp parallel num_threads(2)
        {
#pragma omp critical
            crit++;
        }
    }
    printf("crit=%d\n", crit);
    return 0;
}
SRC
    line=$(line_of prog.c "#pragma omp parallel")
    cc -g -O2 -fopenmp prog.c -o prog
    LD_LIBRARY_PATH=$PWD/conda/lib ./prog > conda_plain.txt
    assert_eq "$(cat conda_plain.txt)" "crit=6" "the plain run on libomp as libgomp.so.1"
    LD_LIBRARY_PATH=$PWD/conda/lib POMP_OUTPUT_DIR=out_conda "$POMPRUN" ./prog > conda_run.txt 2> conda_run.err
    diff -u conda_plain.txt conda_run.txt || fail "pomprun, libomp as libgomp.so.1: the output differs"
    assert_not_contains conda_run.err "second OpenMP runtime" "pomprun, libomp as libgomp.so.1: no second runtime said (there is one)"
    assert_eq "$(jq -r '[.regions[] | select(.type == "parallel") | "\(.file):\(.first_line)"] | join(" ")' out_conda/profile.json)" \
              "prog.c:$line" "pomprun, libomp as libgomp.so.1: the parallel region at the pragma's line (not in the bridge)"
    "$POMPCC" -g -O2 -fopenmp prog.c -o prog.pomp
    LD_LIBRARY_PATH=$PWD/conda/lib POMP_OUTPUT_DIR=out_conda_pomp ./prog.pomp > conda_pomp.txt 2> conda_pomp.err
    diff -u conda_plain.txt conda_pomp.txt || fail "pompcc build, libomp as libgomp.so.1: the output differs"
    assert_not_contains conda_pomp.err "second OpenMP runtime" "pompcc build, libomp as libgomp.so.1: no second runtime said (there is one)"
fi
# libgomp asked for as an archive (-Wl,-Bstatic -lgomp, -l:libgomp.a, a
# libgomp.a path): the bridge needs the shared library. A libgomp.a path or
# -l:libgomp.a put libgomp's members into the program before the bridge: two
# libgomps, the program's calls on the static one, its parallel region
# unmeasured (a profile with the loop's region alone), unsaid. Now the archive
# is left out of the link, and the link says so.
GOMP_A=$(cc -print-file-name=libgomp.a)
if [ -f "$GOMP_A" ]; then
    cat > arch.c <<'C'
#include <stdio.h>
#include <omp.h>
int main(void)
{
    long sum = 0;
#pragma omp parallel for reduction(+ : sum) num_threads(2)
    for (int i = 0; i < 100; i++)
        sum += i + omp_get_num_threads();
    printf("%ld\n", sum);
    return 0;
}
C
    n=0
    for how in "-Wl,-Bstatic -lgomp -Wl,-Bdynamic" "-l:libgomp.a" "$GOMP_A"; do
        n=$((n + 1))
        "$POMPCC" -O2 -fopenmp arch.c -o arch$n $how 2> arch$n.err || { cat arch$n.err; fail "$how: build"; }
        assert_contains arch$n.err "^pompcc: note: '[^']*(-lgomp|libgomp\.a)': libgomp is linked as the shared library under pomp" \
                        "$how: the link says libgomp is the shared library"
        [ "$(nm arch$n | grep -c ' T GOMP_')" = 0 ] || fail "$how: libgomp's members linked into the program"
        POMP_OUTPUT_DIR=arch$n.d ./arch$n > arch$n.txt
        assert_eq "$(cat arch$n.txt)" 5150 "$how: the program's result"
        assert_eq "$(jq '[.regions[] | select(.type == "parallel") | .id] as $p
                         | [.callpath[] | select(.region as $r | $p | index($r)) | .per_thread[].begins] | add' arch$n.d/profile.json)" \
                  2 "$how: the parallel region's two shares"
    done
fi
echo "PASS: test_gomp_runtime_copies"
