# C++ with pompc++ (g++-12 and clang++-19): templates, member functions,
# lambdas, range-based for (what follows the loop stays outside the region),
# exceptions inside regions, try blocks as structured blocks; .c files are C++
# for pompc++ as for c++; -x c++ and the C++ driver at the link.
SRC="$(cd "$(dirname "$0")/programs" && pwd)"
source "$(dirname "$0")/lib.sh"
POMPCXX="$BUILD/bin/pompc++"
cp "$SRC"/cxx.cpp .
# every run of cxx.cpp leaves a user region by an exception: one nesting error
# each (asserted below), the only ones its profiles may have
touch "$WORK/.nesting-errors-expected"

"$POMPCXX" -fopenmp -Wall -O2 cxx.cpp -o cxx 2> cxx.err || { cat cxx.err; fail "pompc++ cxx.cpp"; }
assert_not_contains cxx.err 'cannot be instrumented|did not compile|warning' "instrumented, compiled, no warning"
g++ -fopenmp -Wno-unknown-pragmas -O2 cxx.cpp -o cxx_plain
for n in 1 4; do
    OMP_NUM_THREADS=$n ./cxx_plain > plain$n.txt
    OMP_NUM_THREADS=$n POMP_TRACE=events POMP_OUTPUT_DIR=out$n ./cxx > inst$n.txt
    diff -u plain$n.txt inst$n.txt || fail "output with $n threads differs from the plain build"
done
assert_eq "$(cat inst4.txt)" "total=12100 neg=-5050 k=3 bumps=2 errors=11" "the program's results"

L() { grep -nF -- "$1" "${3:-cxx.cpp}" | sed -n "${2:-1}p" | cut -d: -f1; }
d=out4
assert_eq "$(region_sum $d for $(L 'reduction(+:s)') visits)" 4 "template: loop"
assert_eq "$(region_sum $d critical $(L 'critical(counter)') begins)" 2 "member function: critical"
assert_eq "$(region_sum $d parallel $(L 'num_threads(2)') begins)" 2 "lambda: parallel region"
L_rf1=$(L 'reduction(+:total)' 1) L_rf2=$(L 'reduction(+:total)' 2)
assert_eq "$(region_sum $d for $L_rf1 visits) $(region_sum $d for $L_rf2 visits)" "4 4" "range-based for loops"
assert_eq "$(jq -r --argjson l $L_rf1 '.regions[] | select(.type == "for" and .first_line == $l) | .last_line' $d/profile.json)" \
    "$(L 'total += x;' 1)" "the range-based for ends with its body"
assert_eq "$(jq -r --argjson l $L_rf2 '.regions[] | select(.type == "for" and .first_line == $l) | .last_line' $d/profile.json)" \
    "$(( $(L 'total += 1000;' 2) - 1 ))" "the range-based for with a block ends with its '}'"
assert_eq "$(region_sum $d single $(L 'omp single' 1) begins)" 1 "try block as the single's structured block"
# An exception leaves the user region without its end: the region stays open
# until the enclosing single ends; that counts one nesting error, nothing else.
assert_eq "$(region_sum $d userregion $(L 'inst begin(risky)') begins)" 1 "user region begun"
assert_eq "$(jq '[.threads[].nesting_errors] | add' $d/profile.json)" 1 "the exception's skipped end"
# A region only the runtime reports (the loop's barrier in a member function
# of a class template; no -g) is named by the function written in the source,
# without the " [clone ._omp_fn.N]" of GCC's outlined body, and placed in its loop.
assert_eq "$(jq -r '[.regions[] | select(.init == "ompt" and .function != null) | .function] | unique | join(",")' $d/profile.json)" \
    "Field<double>::fill(double),main" "runtime regions: their functions"
"$BUILD/bin/pomp-report" --json $d > report.json || fail "pomp-report --json"
L_fill=$(L 'v[i] = x * T(i);')
assert_eq "$(jq -r '[.regions[] | select(.type == "implicit_barrier" and (.location | startswith("Field"))) | .location] | join(",")' report.json)" \
    "Field<double>::fill(double), in for @ cxx.cpp:$((L_fill - 2))-$L_fill" "the member function's barrier: its location"
assert_not_contains report.json 'clone|_omp_fn' "no GCC clone suffix in pomp-report"

# A project's strict warnings with -Werror (g++ and clang++): the inserted code
# warns about nothing, so the file is instrumented, not compiled without (the
# casts pomp writes were old-style, pomplib.h compared a pointer with 0, and
# code after an unbraced loop body on its line read as misleading indentation)
STRICT="-Wall -Wextra -Wold-style-cast -Wzero-as-null-pointer-constant -Werror -Wno-unknown-pragmas"
for cxx in g++ $([ -n "$E2E_SANITIZE" ] || echo clang++-19); do
    $cxx -fopenmp $STRICT -O2 cxx.cpp -o strict_plain_$cxx || fail "$cxx: the program itself is clean under $STRICT"
    POMP_CXX=$cxx "$POMPCXX" -fopenmp $STRICT -O2 cxx.cpp -o strict_$cxx 2> strict_$cxx.err ||
        { cat strict_$cxx.err; fail "pompc++ ($cxx) $STRICT"; }
    assert_not_contains strict_$cxx.err 'did not compile|without instrumentation' "$cxx: instrumented under $STRICT"
    assert_eq "$(OMP_NUM_THREADS=4 POMP_OUTPUT_DIR=strict_$cxx.d ./strict_$cxx 2> /dev/null)" "$(cat plain4.txt)" "$cxx: strict build's output"
    assert_eq "$(region_sum strict_$cxx.d for $(L 'reduction(+:s)') visits)" 4 "$cxx: strict build measured"
    # a task's inserted code keeps a pointer, initialized with a null pointer
    # constant C++ does not warn of (a 0: the file fell back; a probe)
    printf 'void add_in_task(double *r)\n{\n#pragma omp task\n    *r += 1.0;\n}\n' > strict_task.cpp
    for std in -std=c++98 -std=c++17; do
        POMP_CXX=$cxx "$POMPCXX" -fopenmp $STRICT $std -O2 -c strict_task.cpp -o strict_task.o 2> strict_task_$cxx.err ||
            { cat strict_task_$cxx.err; fail "pompc++ ($cxx) $STRICT $std: a task"; }
        assert_not_contains strict_task_$cxx.err . "$cxx $std: a task instrumented under $STRICT, no message"
    done
done

# Directives in C++ attribute syntax are instrumented as pragmas are; an
# omp::sequence and a [[using omp: ...]] are left to the runtime, with a
# warning, and counted as left (before, every attribute directive was left
# out, silently; then the using form still was, and the link said the file
# was not built with pompcc; a probe)
cp "$SRC"/cxx_attr.cpp .
for cxx in g++ $([ -n "$E2E_SANITIZE" ] || echo clang++-19); do
    $cxx -fopenmp -O2 cxx_attr.cpp -o attr_plain_$cxx
    POMP_CXX=$cxx "$POMPCXX" --pomp-verbose -fopenmp -O2 cxx_attr.cpp -o attr_$cxx 2> attr_$cxx.err ||
        { cat attr_$cxx.err; fail "pompc++ ($cxx) cxx_attr.cpp"; }
    assert_contains attr_$cxx.err '^cxx_attr.cpp: note: 8 of 10 OpenMP constructs instrumented' "$cxx: attribute directives instrumented"
    assert_contains attr_$cxx.err "^cxx_attr.cpp:$(L '[[omp::sequence' 1 cxx_attr.cpp):9: warning: this C\+\+ attribute form" "$cxx: the sequence said"
    assert_contains attr_$cxx.err "^cxx_attr.cpp:$(L '[[using omp: directive' 1 cxx_attr.cpp):5: warning: this C\+\+ attribute form of an OpenMP directive \(\[\[using omp" "$cxx: the using form said"
    assert_contains attr_$cxx.err "^cxx_attr.cpp: warning: 8 of 10 OpenMP constructs instrumented; 2 left to the runtime's events" "$cxx: the link counts both"
    assert_not_contains attr_$cxx.err "not built with pompcc" "$cxx: the link does not say the file was not built with pompc++"
    assert_eq "$(OMP_NUM_THREADS=2 POMP_OUTPUT_DIR=attr_$cxx.d ./attr_$cxx 2> /dev/null)" "$(OMP_NUM_THREADS=2 ./attr_plain_$cxx)" "$cxx: attribute program's output"
    d=attr_$cxx.d
    "$BUILD/bin/pomp-report" --check $d > /dev/null || fail "$cxx: attribute program: --check"
    A() { grep -nF -- "$1" cxx_attr.cpp | head -1 | cut -d: -f1; }
    assert_eq "$(region_sum $d for $(A 'parallel for reduction') visits)" 2 "$cxx: attribute parallel for"
    assert_eq "$(region_sum $d critical $(A 'critical(name)') begins)" 2 "$cxx: attribute critical"
    assert_eq "$(region_sum $d barrier $(A 'directive(barrier)') visits)" 2 "$cxx: attribute barrier"
    assert_eq "$(region_sum $d task $(A 'directive(task ') begins)" 1 "$cxx: attribute task"
    assert_eq "$(region_sum $d taskwait $(A 'directive(taskwait)') visits)" 1 "$cxx: attribute taskwait"
    assert_eq "$(region_sum $d atomic $(A 'directive(atomic)') visits)" 4 "$cxx: attribute atomic in a sequence's loop"
done

# A region of a template function compiled without pompcc and without -g is
# named by its function: the text report shows its qualified name, template
# arguments and parameters elided (it kept the signature's end,
# "...(std::vector<double, std::alloc", and rows of one function read alike;
# a probe)
cat > sig_kern.cpp <<'C'
#include <map>
#include <string>
#include <vector>
namespace physics { namespace detail {
template <typename T, typename Alloc, typename Key>
double accumulate_field(const std::vector<T, Alloc> &v, const std::map<Key, std::vector<T, Alloc>> &extra, int reps)
{
    double s = 0;
    for (int r = 0; r < reps; r++) {
#pragma omp parallel for reduction(+ : s)
        for (std::size_t i = 0; i < v.size(); i++)
            s += v[i] * static_cast<double>(extra.size());
    }
    return s;
}
} }
double run_kernel(int reps)
{
    std::vector<double> v(1000, 1.0);
    std::map<std::string, std::vector<double>> extra{{"a", v}};
    return physics::detail::accumulate_field(v, extra, reps);
}
C
printf '#include <cstdio>\ndouble run_kernel(int);\nint main() { std::printf("%%.0f\\n", run_kernel(3)); return 0; }\n' > sig_main.cpp
g++ -fopenmp -O2 -c sig_kern.cpp -o sig_kern.o
"$POMPCXX" -fopenmp -O2 sig_main.cpp sig_kern.o -o sig 2> sig.err || { cat sig.err; fail "a plain object's template region: build"; }
assert_eq "$(OMP_NUM_THREADS=2 POMP_OUTPUT_DIR=sig.d ./sig 2> /dev/null)" 3000 "a plain object's template region: the program"
"$BUILD/bin/pomp-report" sig.d > sig.txt || fail "a plain object's template region: pomp-report"
assert_contains sig.txt "^parallel +physics::detail::accumulate_field<\.\.\.>\(\.\.\.\) +3 +2 " "the region named by its function"
assert_contains sig.txt "^  implicit_barrier parallel in parallel @ \.\.\..*accumulate_field<\.\.\.>\(\.\.\.\) +6 +2 " "its barrier too"

# A .c file is C++ for pompc++; -x c++ makes it C++ for pompcc, and pompcc
# keeps -lstdc++ after the objects at the link.
cp cxx.cpp cxx_as_c.c
"$POMPCXX" -fopenmp cxx_as_c.c -o from_c 2> as_c.err || { cat as_c.err; fail "pompc++ on a .c file"; }
assert_eq "$(OMP_NUM_THREADS=4 POMP_OUTPUT_DIR=as_c ./from_c)" "$(cat plain4.txt)" "pompc++ x.c"
[ -f as_c/profile.json ] || fail "pompc++ x.c was not instrumented"
"$POMPCC" -fopenmp -x c++ cxx_as_c.c -x none -o x_cxx -lstdc++ 2> xcxx.err || { cat xcxx.err; fail "pompcc -x c++"; }
assert_not_contains xcxx.err 'cannot be instrumented|did not compile' "-x c++ instrumented"
assert_eq "$(OMP_NUM_THREADS=4 POMP_OUTPUT_DIR=xc ./x_cxx)" "$(cat plain4.txt)" "pompcc -x c++"
# separate compile and C++ link
"$POMPCXX" -fopenmp -c cxx.cpp -o cxx.o && "$POMPCXX" -fopenmp cxx.o -o separate
assert_eq "$(OMP_NUM_THREADS=4 POMP_OUTPUT_DIR=sep ./separate)" "$(cat plain4.txt)" "compile, then link with pompc++"
assert_eq "$(region_init sep)" "handle" "pre-initialized handles in C++"

# Runtime calls where a statement expression may not go: member initializers,
# constructor initializer lists, default arguments. They are left alone.
cat > outside.cpp <<'CPP'
#include <omp.h>
#include <cstdio>
struct S {
    int tid = omp_get_thread_num();
    int max;
    S() : max(omp_get_max_threads()) {}
};
static int f(int n = omp_get_max_threads()) { return n > 0 ? omp_get_thread_num() + 1 : 0; }
int main() { S s; std::printf("%d %d %d\n", f(), s.tid, s.max > 0); return 0; }
CPP
"$POMPCXX" -fopenmp outside.cpp -o outside 2> outside.err || { cat outside.err; fail "pompc++ outside.cpp"; }
assert_not_contains outside.err 'cannot be instrumented|did not compile' "calls outside bodies left alone"
assert_eq "$(POMP_RUNTIME=event POMP_OUTPUT_DIR=os ./outside)" "1 0 1" "outside.cpp output"
assert_eq "$(jq -r '[.regions[].type] | join(",")' os/profile.json)" "omp_get_thread_num" "only the call in the body"

# clang++-19 (not under make sanitize: see test_workshare.sh)
[ -n "$E2E_SANITIZE" ] && exit 0
POMP_CXX=clang++-19 "$POMPCXX" -fopenmp -Wall cxx.cpp -o cxx_clang 2> clang.err || { cat clang.err; fail "clang++ build"; }
assert_not_contains clang.err 'cannot be instrumented|did not compile' "clang++ compiles the instrumented file"
OMP_NUM_THREADS=4 POMP_OUTPUT_DIR=cl ./cxx_clang > clang.txt
diff -u plain4.txt clang.txt || fail "clang++-built output differs"
assert_eq "$(region_sum cl for $L_rf2 visits)" 4 "clang++: range-based for"

# A construct the runtime reports inside a template (single's barrier, g++):
# each instantiation's code is a function of its own at one place, one row
# (it was one identical row per instantiation, told apart by nothing shown)
cat > tmpl_barrier.cpp <<'CPP'
#include <cstdio>
template <class T>
T work(T x)
{
    T r = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp single
        r = x * 2;
    }
    return r;
}
int main()
{
    std::printf("%d %.1f\n", work<int>(3), work<double>(1.5));
    return 0;
}
CPP
"$POMPCXX" -fopenmp -O2 -g tmpl_barrier.cpp -o tmpl_barrier
POMP_OUTPUT_DIR=tb.out ./tmpl_barrier > tb.txt
assert_contains tb.txt "^6 3.0$" "template barrier: the program's output"
L=$(line_of tmpl_barrier.cpp "omp single")
assert_eq "$(jq --argjson l "$L" '[.regions[] | select(.type == "implicit_barrier" and .first_line == $l)] | length' tb.out/profile.json)" 1 \
    "template barrier: one region for both instantiations"
assert_eq "$(region_sum tb.out implicit_barrier "$L" visits)" 4 "template barrier: 2 instantiations x 2 threads"
assert_eq "$(jq --argjson l "$L" '[.regions[] | select(.type == "implicit_barrier" and .first_line == $l) | .function] | .[0]' tb.out/profile.json)" null \
    "template barrier: no one instantiation's function named"
"$REPORT" --check tb.out > /dev/null || fail "template barrier: --check"

# The program's own functions named as OpenMP routines (in a namespace, a
# member, a dependent call in a template) stay the program's: rewritten as the
# runtime call, the object and namespace were dropped (the member call set the
# team size). The file-scope routine next to them is still the measured one.
cat > api_names.cpp <<'CPP'
#include <cstdio>
#include <omp.h>
namespace compat {
inline int omp_get_thread_num() { return 42; }
}
struct Pool {
    int n = 0;
    void omp_set_num_threads(int k) { n = k; }
    int omp_get_max_threads() const { return n; }
    static int omp_get_num_procs() { return 7; }
};
template <class P> int through(P &p)
{
    p.omp_set_num_threads(5);
    return p.omp_get_max_threads() + P::omp_get_num_procs();
}
int main()
{
    Pool p;
    p.omp_set_num_threads(3);
    std::printf("compat %d pool %d template %d\n", compat::omp_get_thread_num(), p.omp_get_max_threads(),
                through(p));
    omp_lock_t l;
    omp_init_lock(&l);
    int nt = 0;
#pragma omp parallel num_threads(2)
    {
        omp_set_lock(&l);
        nt++;
        omp_unset_lock(&l);
    }
    omp_destroy_lock(&l);
    std::printf("team %d max %d\n", nt, omp_get_max_threads());
    return 0;
}
CPP
g++ -fopenmp -O2 api_names.cpp -o api_names_plain
"$POMPCXX" -fopenmp -O2 api_names.cpp -o api_names 2> api_names.err || { cat api_names.err; fail "program functions named as OpenMP routines: build"; }
OMP_NUM_THREADS=2 ./api_names_plain > api_plain.txt
OMP_NUM_THREADS=2 POMP_OUTPUT_DIR=api.out ./api_names > api_pomp.txt
diff -u api_plain.txt api_pomp.txt || fail "program functions named as OpenMP routines: the program's output differs"
assert_eq "$(region_sum api.out omp_set_lock "$(line_of api_names.cpp "omp_set_lock(&l)")" visits)" 2 \
          "program functions named as OpenMP routines: the runtime's lock call still measured"

# num_threads of a size_t, a long, an unsigned: the runtime converts them
# silently, and so does pomp's copy of the clause (it warned under
# -Wconversion/-Wsign-conversion, clang's -Wshorten-64-to-32, and with -Werror
# the file fell back to a plain compile); no cast either (-Wuseless-cast)
cat > nthreads.cpp <<'CPP'
#include <cstdio>
#include <vector>
int main()
{
    std::vector<int> v(2);
    long l = 2;
    unsigned u = 2;
    int s = 0, i = 2;
#pragma omp parallel num_threads(v.size()) reduction(+ : s)
    s += 1;
#pragma omp parallel num_threads(l) reduction(+ : s)
    s += 1;
#pragma omp parallel num_threads(u) reduction(+ : s)
    s += 1;
#pragma omp parallel num_threads(i) reduction(+ : s)
    s += 1;
    std::printf("%d\n", s);
    return 0;
}
CPP
for cxx in g++ $([ -n "$E2E_SANITIZE" ] || echo clang++-19); do
    warn="-Wall -Wextra -Wconversion -Wsign-conversion -Werror"
    [ $cxx = g++ ] && warn="$warn -Wuseless-cast" || warn="$warn -Wshorten-64-to-32"
    $cxx -fopenmp $warn nthreads.cpp -o nthreads_plain_$cxx || fail "$cxx: num_threads program clean under $warn"
    POMP_CXX=$cxx "$POMPCXX" -fopenmp $warn nthreads.cpp -o nthreads_$cxx 2> nthreads_$cxx.err ||
        { cat nthreads_$cxx.err; fail "pompc++ ($cxx) num_threads of other types under $warn"; }
    assert_not_contains nthreads_$cxx.err 'did not compile|without instrumentation|warning' "$cxx: num_threads of other types instrumented, no warning"
    assert_eq "$(POMP_OUTPUT_DIR=nthreads_$cxx.d ./nthreads_$cxx 2> /dev/null)" 8 "$cxx: num_threads of other types: the program"
done

# pomprun names a lambda's region as addr2line -C does, {lambda(int)#1} and
# {lambda(int)#2}, whichever symbolizer named it (LLVM's wrote 'lambda'(int)
# and 'lambda0'(int))
# C-style C++ that the plain compiler gives no exception tables: no POMP call
# throws, and the header says so, so the instrumented object needs no
# unwinding path either (it referenced __gxx_personality_v0, and a link by the
# C driver, without libstdc++, failed; a probe)
cat > cstyle.C <<'CPP'
#include <stdio.h>
int main(void)
{
    long s = 0;
#pragma omp parallel for reduction(+ : s) num_threads(2)
    for (int i = 0; i < 1000; i++)
        s += i;
#pragma omp parallel num_threads(2)
    {
#pragma omp critical(upd)
        s++;
    }
    printf("%ld\n", s);
    return 0;
}
CPP
g++ -O2 -fopenmp -c cstyle.C -o cstyle_plain.o
assert_not_contains <(nm cstyle_plain.o) "__gxx_personality_v0" "C-style C++: the plain object has no exception tables"
for cxx in g++ clang++-19; do
    POMP_CXX=$cxx "$POMPCXX" -O2 -fopenmp -c cstyle.C -o cstyle_$cxx.o 2> cstyle.err || { cat cstyle.err; fail "$cxx: pompc++ -c cstyle.C"; }
    assert_not_contains <(nm cstyle_$cxx.o) "__gxx_personality_v0" "C-style C++ ($cxx): the instrumented object has none either"
done
"$POMPCC" -O2 -fopenmp cstyle.C -o cstyle 2> cstyle.err || { cat cstyle.err; fail "pompcc cstyle.C (the C driver links, without libstdc++)"; }
assert_eq "$(POMP_SUMMARY=off POMP_OUTPUT_DIR=cstyle.d ./cstyle)" 499502 "C-style C++ linked by the C driver: the program's result"

# Preprocessed C++ (.ii) whose system headers hold more than 20 things
# libclang takes for errors (GCC's own syntax: glibc's __malloc__(fclose, 1),
# __float80, __integer_pack): libclang stopped at its limit of 20 and parsed
# no more, so a member template's constructs after the headers were left to
# the runtime ("pomp finds no statement after it"; a probe)
cat > pre.cpp <<'CPP'
#include <cstdio>
#include <vector>
#include <cstddef>
#include <type_traits>
#include <utility>
#include <map>
#include <omp.h>

template <typename T> class Vec {
public:
    explicit Vec(std::size_t n, T v) : d_(n, v) {}
    T dot(const Vec &o) const
    {
        T s = 0;
        const long n = static_cast<long>(d_.size());
        #pragma omp parallel for reduction(+ : s) num_threads(2)
        for (long i = 0; i < n; ++i)
            s += d_[i] * o.d_[i];
        return s;
    }
private:
    std::vector<T> d_;
};

int main()
{
    Vec<double> a(1000, 2.0), b(1000, 0.5);
    std::map<int, long> h;
    #pragma omp parallel num_threads(2)
    {
        #pragma omp critical
        h[omp_get_thread_num()]++;
    }
    std::printf("%.1f %zu\n", a.dot(b), h.size());
    return 0;
}
CPP
g++ -std=c++20 -fopenmp -E pre.cpp -o pre.ii
"$POMPCXX" -std=c++20 -O2 -fopenmp -c pre.ii -o pre.o 2> pre.err || { cat pre.err; fail "pompc++ -c pre.ii"; }
assert_not_contains pre.err "not instrumented|did not compile" "preprocessed C++: every construct instrumented"
"$POMPCXX" -fopenmp pre.o -o pre 2> pre_link.err || { cat pre_link.err; fail "link pre.o"; }
assert_not_contains pre_link.err "left to the runtime" "preprocessed C++: nothing left to the runtime"
assert_eq "$(POMP_OUTPUT_DIR=pre.d ./pre 2> /dev/null)" "1000.0 2" "preprocessed C++: the program's result"
assert_eq "$(region_sum pre.d for "$(line_of pre.cpp "parallel for reduction")" visits)" 2 \
    "preprocessed C++: the member template's loop, at pre.cpp's line"

if [ -z "$E2E_SANITIZE" ]; then
    cat > lambdas.cpp <<'CPP'
#include <cstdio>
int main()
{
    auto first = [](int n) {
        int s = 0;
#pragma omp parallel for reduction(+ : s)
        for (int i = 0; i < n; ++i)
            s += i;
        return s;
    };
    auto second = [](int n) {
        int s = 0;
#pragma omp parallel for reduction(+ : s)
        for (int i = 0; i < n; ++i)
            s += 2 * i;
        return s;
    };
    std::printf("%d %d\n", first(10), second(10));
    return 0;
}
CPP
    g++ -fopenmp -O2 -g lambdas.cpp -o lambdas
    OMP_NUM_THREADS=2 POMP_OUTPUT_DIR=lambdas.d "$BUILD/bin/pomprun" ./lambdas > lambdas.txt 2> /dev/null
    assert_eq "$(cat lambdas.txt)" "45 90" "lambdas under pomprun: the program"
    assert_eq "$(jq -r '[.regions[] | select(.type == "parallel") | .function] | sort | join(" / ")' lambdas.d/profile.json)" \
              "main::{lambda(int)#1}::operator()(int) const / main::{lambda(int)#2}::operator()(int) const" \
              "lambdas under pomprun: named as addr2line -C names them"
fi

# A template-id's comma in a copied clause expression: schedule(guided,
# P<1, 1>::v)'s chunk was cut at its last comma, to " 1>::v", and the file
# compiled without pomp's instrumentation (a probe).
cat > tchunk.cpp <<'CPP'
#include <cstdio>
template <int A, int B> struct P { static constexpr int v = A + B; };
template <int N, int M> struct Dims { static constexpr int chunk = N * M; };
int main()
{
    long s = 0;
#pragma omp parallel for schedule(guided, P<1, 1>::v) reduction(+ : s) num_threads(2)
    for (int i = 0; i < 64; ++i)
        s += i;
#pragma omp parallel for schedule(static, Dims<4, 2>::chunk) reduction(+ : s) num_threads(2)
    for (int i = 0; i < 64; ++i)
        s += i;
    std::printf("%ld\n", s);
    return 0;
}
CPP
"$POMPCXX" -std=c++17 -fopenmp tchunk.cpp -o tchunk 2> tchunk.err || { cat tchunk.err; fail "tchunk.cpp: build"; }
assert_not_contains tchunk.err "did not compile" "a template-id's comma in a schedule chunk: the file instrumented"
assert_eq "$(POMP_OUTPUT_DIR=tchunk.d ./tchunk 2> /dev/null)" 4032 "a template-id's comma in a schedule chunk: the program"
assert_eq "$(jq '[.regions[] | select(.type == "for" and .init == "handle")] | length' tchunk.d/profile.json)" 2 \
    "a template-id's comma in a schedule chunk: both loops instrumented"
# C++20 module units: not instrumented (the instrumented copy's header would
# come before the module declaration), said, built as the compiler builds
# them; the program's output and its regions, through the runtime's events.
# Before: g++ rejected the copy ("please report this"), clang's .cppm went
# uninstrumented unsaid, and --precompile was taken for a link (probes).
cat > kern.cc <<'C'
module;
#include <cstddef>
export module kern;
export double kdot(const double *a, const double *b, std::size_t n)
{
    double s = 0;
#pragma omp parallel for reduction(+ : s)
    for (std::size_t i = 0; i < n; ++i)
        s += a[i] * b[i];
    return s;
}
C
cat > kmain.cc <<'C'
#include <cstdio>
#include <vector>
import kern;
int main()
{
    std::vector<double> a(10, 2.0);
    std::printf("%.1f\n", kdot(a.data(), a.data(), a.size()));
}
C
"$POMPCXX" -std=c++20 -fmodules-ts -O2 -fopenmp -c kern.cc -o kern.o 2> kern.err || { cat kern.err; fail "g++ module unit: build"; }
assert_contains kern.err "^pompc\+\+: warning: kern.cc: a C\+\+20 module unit is not instrumented" "g++ module unit: said"
assert_not_contains kern.err "did not compile|please report" "g++ module unit: no failed copy"
"$POMPCXX" -std=c++20 -fmodules-ts -O2 -fopenmp kmain.cc kern.o -o kmod 2> kmod.err || { cat kmod.err; fail "g++ modules: link"; }
assert_eq "$(POMP_OUTPUT_DIR=kmod.d ./kmod 2> /dev/null)" 40.0 "g++ modules: the program"
assert_eq "$(jq '[.regions[] | select(.type == "parallel")] | length' kmod.d/profile.json)" 1 \
    "g++ modules: the module's region, through the runtime"
cp kern.cc kern.cppm
"$BUILD/bin/pomp-clang++" -Werror -std=c++20 -fopenmp -O2 --precompile kern.cppm -o kern.pcm 2> pcm.err ||
    { cat pcm.err; fail "clang --precompile: built as clang builds it"; }
[ -s kern.pcm ] || fail "clang --precompile: the .pcm written"
"$BUILD/bin/pomp-clang++" -std=c++20 -fopenmp -O2 -c kern.cppm -fmodule-output=kern2.pcm -o kern_clang.o 2> cppm.err ||
    { cat cppm.err; fail "clang .cppm: build"; }
assert_contains cppm.err "^pomp-clang\+\+: warning: kern.cppm: a C\+\+20 module unit is not instrumented" "clang .cppm: said"
