# OpenMP in the program's own headers (tests/realcode/histo, tests/realcode/vlib):
# built plainly and with the wrappers, the same output; every construct of
# every header instrumented, at the header's file:line, one region per
# construct although two translation units include the header; the link step
# says per file how many constructs were instrumented. Then a header pomp
# cannot instrument costs only its own constructs.
REAL="$(cd "$(dirname "$0")/../realcode" && pwd)"
source "$(dirname "$0")/lib.sh"
cp -r "$REAL/histo" "$REAL/vlib" .

# check_headers NAME DIR HEADER...: the build's messages and the profile
check_headers() {
    local name=$1 dir=$2 h line n
    shift 2
    assert_not_contains "$name.err" ': (warning|error): |without instrumentation|did not compile' "$name: no fallback, no warning"
    for h in "$@"; do
        # at the compile (once per translation unit) and at the link (once)
        assert_contains "$name.err" "^$h: note: ([0-9]+) of \\1 OpenMP constructs instrumented" "$name: $h counted at the compile"
        n=$(grep -cE "^$h: note: ([0-9]+) of \\1 OpenMP constructs instrumented" "$name.err")
        [ "$n" -ge 2 ] || fail "$name: $h: no count from the link step"
        for line in $(grep -nE '^\s*#\s*pragma\s+omp' "$h" | cut -d: -f1); do
            n=$(jq --arg f "$h" --argjson l "$line" '[.regions[] | select(.file == $f and .first_line == $l and .init != "ompt")] | length' "$dir/profile.json")
            [ "$n" -gt 0 ] || fail "$name: no region for $h:$line"
        done
    done
    # one region per construct: no two regions of pomp's at one file, line and type
    n=$(jq '[.regions[] | select(.init != "ompt") | [.file, .first_line, .type]] | group_by(.) | map(select(length > 1)) | length' "$dir/profile.json")
    assert_eq "$n" 0 "$name: header constructs with more than one region"
    assert_eq "$(region_init "$dir")" handle "$name: regions initialized by pomp-prelink"
}

# C: histo.h holds OpenMP, included by histo_main.c and by histo_stats.c (no pragma of its own)
# clang's sanitizer runtime cannot join gcc's in libpomp (make sanitize): gcc's wrappers only there
clang_wrappers() { [ -n "$E2E_SANITIZE" ] || echo "$@"; }
for wrapper in gcc $(clang_wrappers clang); do
    plain=$([ $wrapper = gcc ] && echo gcc || echo clang-19)
    name="histo_$wrapper"
    "$BUILD/bin/pomp-$wrapper" --pomp-verbose -fopenmp -Ihisto/include histo/histo_main.c histo/histo_stats.c -o "$name" > /dev/null 2> "$name.err" ||
        { cat "$name.err"; fail "pomp-$wrapper histo"; }
    "$plain" -fopenmp -Ihisto/include histo/histo_main.c histo/histo_stats.c -o "$name.plain"
    OMP_NUM_THREADS=4 POMP_OUTPUT_DIR="$name.dir" "./$name" > "$name.out"
    OMP_NUM_THREADS=4 "./$name.plain" > "$name.plain.out"
    diff -u "$name.plain.out" "$name.out" || fail "$name: output differs from the plain build"
    check_headers "$name" "$name.dir" histo/include/histo.h
done

# C++: a header-only template library, instantiated (double, float) in two files
for wrapper in pompc++ pomp-g++ $(clang_wrappers pomp-clang++); do
    case $wrapper in pompc++) plain=c++ ;; pomp-g++) plain=g++ ;; *) plain=clang++-19 ;; esac
    name="vlib_${wrapper#pomp}"
    "$BUILD/bin/$wrapper" --pomp-verbose -fopenmp -Ivlib/include -c vlib/vlib_solve.cpp -o "$name.solve.o" > /dev/null 2> "$name.err" ||
        { cat "$name.err"; fail "$wrapper vlib_solve.cpp"; }
    "$BUILD/bin/$wrapper" --pomp-verbose -fopenmp -Ivlib/include vlib/vlib_main.cpp "$name.solve.o" -o "$name" > /dev/null 2>> "$name.err" ||
        { cat "$name.err"; fail "$wrapper vlib"; }
    "$plain" -fopenmp -Ivlib/include vlib/vlib_main.cpp vlib/vlib_solve.cpp -o "$name.plain"
    OMP_NUM_THREADS=4 POMP_OUTPUT_DIR="$name.dir" "./$name" > "$name.out"
    OMP_NUM_THREADS=4 "./$name.plain" > "$name.plain.out"
    diff -u "$name.plain.out" "$name.out" || fail "$name: output differs from the plain build"
    check_headers "$name" "$name.dir" vlib/include/vlib/vec.hpp vlib/include/vlib/detail.hpp
done

# A header pomp cannot instrument (a user region without its end) costs only
# its own constructs: a warning names it with file:line, the other header and
# the file are instrumented, and the link step warns about what was left.
mkdir -p bad
cat > bad/good.h <<'H'
static inline int good_sum(int n)
{
    int s = 0;
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < n; i++)
        s += i;
    return s;
}
H
cat > bad/broken.h <<'H'
static inline int broken_count(void)
{
    int n = 0;
#pragma pomp inst begin(unfinished)
#pragma omp parallel
    {
#pragma omp atomic
        n++;
    }
    return n > 0;
}
H
cat > bad/main.c <<'C'
#include <stdio.h>
#include "good.h"
#include "broken.h"
int main(void)
{
    int t = 0;
#pragma omp parallel
#pragma omp single
    t = good_sum(100) + broken_count();
    printf("%d\n", t);
    return 0;
}
C
"$POMPCC" -fopenmp bad/main.c -o bad_app 2> bad.err || { cat bad.err; fail "a header pomp cannot instrument broke the build"; }
assert_contains bad.err '^bad/broken.h:4:[0-9]+: warning: ' "the header's own problem, with file:line"
assert_contains bad.err '^bad/broken.h: warning: the OpenMP constructs of this header are not instrumented' "the header left to the runtime"
assert_contains bad.err '^bad/broken.h: warning: 0 of 2 OpenMP constructs instrumented; 2 left' "the link step's count"
assert_not_contains bad.err 'error:|without instrumentation' "no error, no fallback for the file"
cc -fopenmp bad/main.c -o bad_plain
OMP_NUM_THREADS=3 POMP_OUTPUT_DIR=bad.dir ./bad_app > bad.out
./bad_plain > bad.plain.out
diff -u bad.plain.out bad.out || fail "bad: output differs from the plain build"
n=$(jq '[.regions[] | select(.file == "bad/good.h" and .first_line == 4 and .init != "ompt")] | length' bad.dir/profile.json)
assert_eq "$n" 2 "good.h's parallel and for regions"
n=$(jq '[.regions[] | select(.file == "bad/main.c" and .init != "ompt")] | length' bad.dir/profile.json)
assert_eq "$n" 2 "main.c's parallel and single regions"
n=$(jq '[.regions[] | select(.file == "bad/broken.h" and .init != "ompt")] | length' bad.dir/profile.json)
assert_eq "$n" 0 "no pomp region for the header left to the runtime"
# A header whose instrumented copy does not compile (here a user region's
# value with an unparenthesized template-id, P<1, 2>::v, read as two values,
# as documented): pompc++ compiles it again with that header as it is, said
# and counted, and the file's other header keeps its instrumentation (every
# header of the file fell back to the runtime for one header's copy)
mkdir -p asis
cat > asis/vals.hpp <<'H'
template <int A, int B> struct P { static const int v = A + B; };
inline int vals_run(int n)
{
    int s = 0;
#pragma pomp userregion start(phase : P<1, 2>::v)
#pragma omp parallel for num_threads(2) reduction(+ : s)
    for (int i = 0; i < n; ++i)
        s += i;
#pragma pomp userregion stop(phase)
    return s;
}
H
cat > asis/other.hpp <<'H'
inline long other_count(int n)
{
    long c = 0;
#pragma omp parallel for num_threads(2) reduction(+ : c)
    for (int i = 0; i < n; ++i)
        c += i;
    return c;
}
H
cat > asis/main.cpp <<'C'
#include <cstdio>
#include "vals.hpp"
#include "other.hpp"
int main()
{
    std::printf("%d %ld\n", vals_run(10), other_count(10));
    std::printf("%d %ld\n", vals_run(20), other_count(20));
    return 0;
}
C
for wrapper in pompc++ $(clang_wrappers pomp-clang++); do
    plain=$([ $wrapper = pompc++ ] && echo c++ || echo clang++-19)
    name="asis_$wrapper"
    (cd asis && "$BUILD/bin/$wrapper" -fopenmp main.cpp -o "../$name" 2> "../$name.err") ||
        { cat "$name.err"; fail "$name: build"; }
    (cd asis && "$plain" -fopenmp main.cpp -o "../$name.plain")
    assert_eq "$(POMP_OUTPUT_DIR="$name.dir" "./$name")" "$("./$name.plain")" "$name: the plain build's output"
    assert_contains "$name.err" "warning: main.cpp: the instrumented copy of vals.hpp did not compile; its constructs are left to the runtime" \
                    "$name: the header whose copy did not compile, named"
    assert_not_contains "$name.err" "copies of its headers did not compile" "$name: not every header's copy given up"
    assert_contains "$name.err" "^vals.hpp: warning: 0 of 1 OpenMP constructs instrumented; 1 left to the runtime's events" \
                    "$name: its construct counted as left"
    assert_eq "$(region_sum "$name.dir" parallel 4 begins)" 4 "$name: the other header's parallel, 2 calls on 2 threads"
    assert_eq "$(region_sum "$name.dir" for 4 visits)" 4 "$name: the other header's loop"
    assert_eq "$(jq '[.regions[] | select(.file == "vals.hpp" and .init != "ompt")] | length' "$name.dir/profile.json")" 0 \
              "$name: no pomp region for the header as it is"
done

# Built in its own directory (make's usual way): the header beside the source
# is named as the compiler names it, "good.h" as "main.c", not libclang's
# "./good.h", in the warnings and in the profile
(cd bad && "$POMPCC" -fopenmp main.c -o ../bad_here 2> ../bad_here.err) ||
    { cat bad_here.err; fail "the build in the source's directory failed"; }
assert_contains bad_here.err '^broken.h:4:[0-9]+: warning: ' "the header's warning, named as the compiler names it"
assert_not_contains bad_here.err '\./' "no ./ in a file name"
(cd bad && OMP_NUM_THREADS=2 POMP_OUTPUT_DIR=../bad_here.dir ../bad_here > ../bad_here.out)
diff -u bad.plain.out bad_here.out || fail "bad (built in place): output differs from the plain build"
assert_eq "$(regions_where bad_here.dir '.file == "good.h" and .first_line == 4 and .init != "ompt"')" 2 \
          "good.h's regions at good.h:4, as main.c's at main.c"
assert_eq "$(regions_where bad_here.dir '.file | startswith("./")')" 0 "no region's file starts with ./"
# run from elsewhere, every file is named from where it runs, the
# instrumented regions' as the runtime's (before: "good.h" and "main.c" from
# the compile directory beside the runtime's "bad/main.c")
OMP_NUM_THREADS=2 POMP_OUTPUT_DIR=bad_there.dir ./bad_here > /dev/null
assert_eq "$(regions_where bad_there.dir '.file == "bad/good.h" and .first_line == 4 and .init != "ompt"')" 2 \
          "run from the parent directory: good.h's regions at bad/good.h:4"
assert_eq "$(regions_where bad_there.dir '.file != "" and (.file | startswith("bad/") | not)')" 0 \
          "run from the parent directory: every region's file named from there"
# ... and __FILE__ and the warnings there, before and after a construct's
# inserted code, in a header beside the source and in one without OpenMP, as
# the plain build names them (after the construct the copy said ./beside.h,
# and a warning in util.h named /proc/self/cwd/util.h; a review)
mkdir -p here
printf '#include <stdio.h>\nstatic inline int util_unused(void) { int x; return 0; }\n' > here/util.h
printf '#include <stdio.h>\nstatic inline int beside(void)\n{\n    int s = 0;\n    printf("before: %%s\\n", __FILE__);\n#pragma omp parallel for num_threads(2) reduction(+ : s)\n    for (int i = 0; i < 10; i++)\n        s += i;\n    int unused_after;\n    printf("after: %%s\\n", __FILE__);\n    return s;\n}\n' > here/beside.h
printf '#include "util.h"\n#include "beside.h"\nint main(void) { printf("%%d\\n", beside()); return 0; }\n' > here/main.c
(cd here && cc -fopenmp -Wall main.c -o ../here_plain 2> ../here_plain.err) || fail "here: the plain build"
(cd here && "$POMPCC" -fopenmp -Wall main.c -o ../here_pomp 2> ../here_pomp.err) || { cat here_pomp.err; fail "here: pompcc"; }
assert_eq "$(grep -E '(warning|error):' here_pomp.err)" "$(grep -E '(warning|error):' here_plain.err)" "here: the compiler's warnings as the plain build's"
assert_not_contains here_pomp.err 'proc/self' "here: no /proc/self/cwd in a message"
assert_eq "$(./here_pomp 2> /dev/null)" "$(./here_plain)" "here: __FILE__ before and after the construct as in the plain build"
# An inline function's loop, inlined (-O2) twice into one parallel region and
# once into another: the runtime reports the loop's closing barrier from three
# code addresses, all at one place (kernels.h's loop). One region, with every
# visit: 2 threads x (2 + 1) loops; not three identical rows.
mkdir -p inl
cat > inl/kernels.h <<'H'
static inline void accumulate(double *hist, int nbins, const double *x, long n)
{
#pragma omp for schedule(static)
    for (long i = 0; i < n; i++) {
        int b = (int)(x[i] * nbins);
        if (b >= nbins)
            b = nbins - 1;
#pragma omp atomic
        hist[b] += 1.0;
    }
}
H
cat > inl/main.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include "kernels.h"
int main(void)
{
    enum { N = 100000, BINS = 16 };
    double *x = malloc(N * sizeof *x), hist[BINS] = {0};
    for (long i = 0; i < N; i++)
        x[i] = (double)((i * 7919) % N) / N;
#pragma omp parallel num_threads(2)
    {
        accumulate(hist, BINS, x, N);
        accumulate(hist, BINS, x, N / 2);
    }
#pragma omp parallel num_threads(2)
    accumulate(hist, BINS, x, N);
    double s = 0;
    for (int b = 0; b < BINS; b++)
        s += hist[b];
    printf("%.0f\n", s);
    free(x);
    return 0;
}
C
for rt in gomp omp; do
    (cd inl && "$POMPCC" --pomp-runtime=$rt -O2 -g -fopenmp main.c -o ../inl_$rt 2> ../inl_$rt.err) ||
        { cat inl_$rt.err; fail "inl ($rt): build"; }
    POMP_SUMMARY=on POMP_OUTPUT_DIR=inl_$rt.dir ./inl_$rt > inl_$rt.out 2> inl_$rt.summary
    assert_contains inl_$rt.out '^250000$' "inl ($rt): the program's result"
    "$REPORT" --check inl_$rt.dir > /dev/null || fail "inl ($rt): --check"
    barrier='.init == "ompt" and .file == "inl/kernels.h" and .type == "implicit_barrier"'
    assert_eq "$(regions_where inl_$rt.dir "$barrier")" 1 "inl ($rt): the loop's barrier, inlined three times, is one region"
    visits=$(jq "([.regions[] | select($barrier) | .id]) as \$ids
                 | [.callpath[] | select(.region as \$r | \$ids | index(\$r)) | .per_thread[].visits] | add" inl_$rt.dir/profile.json)
    assert_eq "$visits" 6 "inl ($rt): every visit of the loop's barrier"
    # the summary counts regions as the profile lists them
    n=$(jq '.regions | length' inl_$rt.dir/profile.json)
    assert_contains inl_$rt.summary "^pomp: inl_$rt: .* $n regions " "inl ($rt): the summary's region count"
done

# A generic header included twice with other macros (one kernel with a
# critical, one with an atomic): each inclusion compiles the branch the other
# skips, and every construct of both is instrumented and counted (libclang
# lists the skipped branches of the first inclusion only: the second one's
# lost its constructs, silently). A branch both skip stays left out.
mkdir -p twice
cat > twice/kern.h <<'H'
static void NAME(long *acc, int n)
{
#ifdef USE_CRITICAL
#pragma omp parallel for
    for (int i = 0; i < n; i++) {
#pragma omp critical
        *acc += i;
    }
#else
#pragma omp parallel for
    for (int i = 0; i < n; i++) {
#if 0
#pragma omp critical
#endif
#pragma omp atomic
        *acc += i;
    }
#endif
}
H
cat > twice/main.c <<'C'
#include <stdio.h>
#define NAME kern_critical
#define USE_CRITICAL
#include "kern.h"
#undef NAME
#undef USE_CRITICAL
#define NAME kern_atomic
#include "kern.h"
int main(void)
{
    long a = 0, b = 0;
    kern_critical(&a, 100);
    kern_atomic(&b, 1000);
    printf("%ld %ld\n", a, b);
    return 0;
}
C
"$POMPCC" --pomp-verbose -fopenmp twice/main.c -o twice_bin 2> twice.err || { cat twice.err; fail "twice: build"; }
assert_contains twice.err '^(twice/)?kern.h: note: 4 of 4 OpenMP constructs instrumented' "twice: both inclusions' constructs counted"
assert_not_contains twice.err ':13:[0-9]+: note: instrumented' "twice: the branch both inclusions skip is left out"
OMP_NUM_THREADS=2 POMP_OUTPUT_DIR=twice.dir ./twice_bin > twice.out
assert_contains twice.out '^4950 499500$' "twice: the program's result"
"$REPORT" --check twice.dir > /dev/null || fail "twice: --check"
assert_eq "$(region_sum twice.dir critical 6 visits)" 100 "twice: the first inclusion's critical"
assert_eq "$(region_sum twice.dir atomic 15 visits)" 1000 "twice: the second inclusion's atomic"
assert_eq "$(region_sum twice.dir for 10 visits)" 2 "twice: the second inclusion's loop, one visit per thread"
# A header included twice whose inclusions take different #if branches at a
# construct: one directive above two alternative loops (a), or two
# alternative directives above one loop (b). One copy cannot be right for
# both: that construct is left to the runtime and said, the header's other
# constructs and an unrelated header of the file stay instrumented, counted
# exactly (the copy had both inclusions' closing code after the loop, did
# not compile, and every header of the file fell back to the runtime; a probe)
mkdir -p branches
cat > branches/gen_a.hpp <<'H'
template <class T>
T KNAME(const T *a, int n)
{
    T s{};
#pragma omp parallel for num_threads(2) reduction(+ : s)
#if KMODE == 1
    for (int i = 0; i < n; ++i)
        s += a[i];
#else
    for (int i = 0; i < n; i += 2) {
        s += a[i] * 2;
    }
#endif
#if KMODE == 2
#pragma omp parallel num_threads(2)
    {
#pragma omp critical(k2)
        s += 1;
    }
#endif
    return s;
}
H
cat > branches/gen_b.hpp <<'H'
template <class T>
T KNAME(const T *a, int n)
{
    T s{};
#if KMODE == 1
#pragma omp parallel for num_threads(2) reduction(+ : s)
#else
#pragma omp parallel for simd num_threads(2) reduction(+ : s)
#endif
    for (int i = 0; i < n; ++i)
        s += a[i];
#if KMODE == 2
#pragma omp parallel num_threads(2)
    {
#pragma omp critical(k2)
        s += 1;
    }
#endif
    return s;
}
H
cat > branches/other.hpp <<'H'
#ifndef OTHER_HPP
#define OTHER_HPP
inline long other_count(int n)
{
    long c = 0;
#pragma omp parallel for num_threads(2) reduction(+ : c)
    for (int i = 0; i < n; ++i)
        c += i;
    return c;
}
#endif
H
for v in a b; do
    cat > branches/main_$v.cpp <<C
#include <cstdio>
#include "other.hpp"
#define KMODE 1
#define KNAME ksum1
#include "gen_$v.hpp"
#undef KMODE
#undef KNAME
#define KMODE 2
#define KNAME ksum2
#include "gen_$v.hpp"
int main()
{
    int a[100];
    for (int i = 0; i < 100; ++i)
        a[i] = i;
    std::printf("%d %d %ld\n", ksum1(a, 100), ksum2(a, 100), other_count(10));
    std::printf("%d %d %ld\n", ksum1(a, 50), ksum2(a, 50), other_count(20));
    return 0;
}
C
done
for wrapper in pompc++ $(clang_wrappers pomp-clang++); do
    plain=$([ $wrapper = pompc++ ] && echo c++ || echo clang++-19)
    for v in a b; do
        name="branches_${v}_$wrapper"
        (cd branches && "$BUILD/bin/$wrapper" -fopenmp main_$v.cpp -o "../$name" 2> "../$name.err") ||
            { cat "$name.err"; fail "$name: build"; }
        (cd branches && "$plain" -fopenmp main_$v.cpp -o "../$name.plain")
        assert_eq "$(POMP_OUTPUT_DIR="$name.dir" "./$name")" "$("./$name.plain")" "$name: the plain build's output"
        assert_not_contains "$name.err" "did not compile" "$name: the header copies compile"
        pline=$(line_of branches/gen_$v.hpp "pragma omp parallel for")
        assert_contains "$name.err" "^gen_$v.hpp:$pline:1: warning: '#pragma omp parallel for' is not instrumented: this header is included 2 times, and its inclusions take different #if branches" \
                        "$name: the construct whose branches differ, said"
        left=$([ $v = a ] && echo 1 || echo 2)
        assert_contains "$name.err" "^gen_$v.hpp: warning: 2 of $((2 + left)) OpenMP constructs instrumented; $left left to the runtime's events" \
                        "$name: the header's other constructs instrumented, the rest counted"
        # other.hpp: 2 calls on 2 threads; ksum2's critical: 2 calls, 2 threads
        assert_eq "$(region_sum "$name.dir" parallel 6 begins)" 4 "$name: the other header's parallel"
        assert_eq "$(region_sum "$name.dir" for 6 visits)" 4 "$name: the other header's loop"
        crit=$(line_of branches/gen_$v.hpp "critical(k2)")
        assert_eq "$(region_sum "$name.dir" critical "$crit" visits)" 4 "$name: the second inclusion's critical"
        assert_eq "$(path_counts "$name.dir" | grep -c "^parallel:$((crit - 2))/critical:$crit 4 4$")" 1 \
                  "$name: the critical inside its parallel"
    done
done
# Kernels generated by a macro whose _Pragma the instrumentation leaves to
# the runtime, expanded in a header beside the source: the runtime's regions
# are named by the debug information, which records the header as the
# compile found it through pompcc's -iquote . ("/dir/./gen.h"): the profile
# said "./gen.h" where the instrumented regions say "kern.h"
mkdir gen
cat > gen/kern.h <<'C'
#define STENCIL(K) static double stencil_##K(const double *v, int n) { double s = 0; \
    _Pragma("omp parallel for reduction(+:s)") for (int i = 0; i < n; i++) s += v[i] * K; return s; }
C
printf 'STENCIL(1)\nSTENCIL(2)\nSTENCIL(3)\n' > gen/gen.h
cat > gen/main.c <<'C'
#include <stdio.h>
#include "kern.h"
#include "gen.h"
int main(void)
{
    double v[100];
    for (int i = 0; i < 100; i++)
        v[i] = i;
    printf("%.0f\n", stencil_1(v, 100) + stencil_2(v, 100) + stencil_3(v, 100));
    return 0;
}
C
(cd gen && "$POMPCC" -g -fopenmp main.c -o ../gen_app 2> ../gen.err) || { cat gen.err; fail "gen: build"; }
POMP_OUTPUT_DIR=gen.dir ./gen_app > gen.txt
assert_contains gen.txt "^29700$" "gen: the program computes the same"
assert_eq "$(jq -c '[.regions[] | select(.type == "parallel") | .file] | unique' gen.dir/profile.json)" '["gen/gen.h"]' \
          "gen: the generated kernels named by their file as the compiler names it"
# A loop in a C++ lambda over a std::vector: GCC gives the runtime call that
# closes the loop the line of the vector's size() it inlined last, so the
# loop's barrier was named "@ /usr/include/c++/12/bits/stl_vector.h:988".
# A barrier made inside an instrumented loop takes the line of the innermost
# inlined frame that lies within the loop (here the lambda's).
mkdir lam
cat > lam/lam.cpp <<'C'
#include <cstdio>
#include <vector>
template <class F> void each(std::vector<double> &v, F f)
{
#pragma omp for
    for (size_t i = 0; i < v.size(); i++)
        v[i] = f(v[i]);
}
int main()
{
    std::vector<double> v(1000, 1.0);
#pragma omp parallel
    {
        auto twice = [&](std::vector<double> &w) {
#pragma omp for
            for (size_t i = 0; i < w.size(); i++)
                w[i] *= 2;
        };
        twice(v);
        each(v, [](double x) { return x + 1; });
    }
    double t = 0;
    for (double x : v)
        t += x;
    std::printf("%g\n", t);
}
C
for rt in gomp omp; do
    (cd lam && "$BUILD/bin/pompc++" --pomp-runtime=$rt -O2 -g -fopenmp lam.cpp -o ../lam_$rt 2> ../lam_$rt.err) ||
        { cat lam_$rt.err; fail "lam ($rt): build"; }
    OMP_NUM_THREADS=2 POMP_OUTPUT_DIR=lam_$rt.dir ./lam_$rt > lam_$rt.out
    assert_contains lam_$rt.out '^3000$' "lam ($rt): the program's result"
    "$REPORT" --check lam_$rt.dir > /dev/null || fail "lam ($rt): --check"
    barrier='.init == "ompt" and .type == "implicit_barrier" and .name == "implementation"'
    assert_eq "$(regions_where lam_$rt.dir "$barrier")" 2 "lam ($rt): each loop's barrier"
    outside=$(jq "[.regions[] | select(.type == \"for\" and .init != \"ompt\") | [.first_line, .last_line]] as \$loops
                  | [.regions[] | select($barrier) | select(.file != \"lam/lam.cpp\" or
                     (.first_line as \$l | [\$loops[] | select(.[0] <= \$l and \$l <= .[1])] | length) == 0)
                     | \"\(.file):\(.first_line)\"]" lam_$rt.dir/profile.json)
    assert_eq "$outside" "[]" "lam ($rt): the barriers at a line inside their loops"
done
# One header reached by two include paths ("vec.h" through -Ihdr, and
# "../hdr/vec.h" from a source in sub/): one file, so one region per construct
# and one count at the link (before: "hdr/vec.h" and "sub/../hdr/vec.h", two
# regions of one visit each, and the header counted twice). A name through a
# symbolic link is another path to the compiler and stays as it is written.
mkdir -p two/hdr two/sub
cat > two/hdr/vec.h <<'C'
#ifndef VEC_H
#define VEC_H
static inline double vsum(int n, const double *x)
{
    double s = 0.0;
#pragma omp parallel for reduction(+:s)
    for (int i = 0; i < n; i++)
        s += x[i];
    return s;
}
double other(int n, const double *x);
#endif
C
cat > two/a.c <<'C'
#include <stdio.h>
#include "vec.h"
int main(void)
{
    double x[100];
    for (int i = 0; i < 100; i++)
        x[i] = i;
    printf("%.0f %.0f\n", vsum(100, x), other(100, x));
    return 0;
}
C
cat > two/sub/b.c <<'C'
#include "../hdr/vec.h"
double other(int n, const double *x) { return vsum(n, x); }
C
(cd two && "$POMPCC" -fopenmp -O2 -Ihdr -c a.c -o a.o && "$POMPCC" -fopenmp -O2 -c sub/b.c -o b.o &&
    "$POMPCC" -fopenmp --pomp-verbose a.o b.o -o ../two_app 2> ../two.err) || { cat two.err; fail "two paths: build"; }
assert_eq "$(grep -c 'vec.h: note: 1 of 1 OpenMP constructs instrumented' two.err)" 1 "two paths: the header counted once at the link"
(cd two && OMP_NUM_THREADS=2 POMP_OUTPUT_DIR=../two.dir ../two_app > ../two.out)
assert_contains two.out '^4950 4950$' "two paths: the program's result"
assert_eq "$(jq -c '[.regions[] | select(.type == "parallel") | .file]' two.dir/profile.json)" '["hdr/vec.h"]' \
    "two paths: one region, named by the shorter path"
assert_eq "$(region_sum two.dir parallel 6 begins)" 4 "two paths: both calls' visits in it"
# the same header through -Ihdr and through -I$PWD/hdr (an absolute include
# directory below the working directory): one region too (before: "hdr/vec.h"
# and "/.../hdr/vec.h", two regions)
printf '#include "vec.h"\ndouble other(int n, const double *x) { return vsum(n, x); }\n' > two/sub/c.c
(cd two && "$POMPCC" -fopenmp -O2 -I"$PWD/hdr" -c sub/c.c -o b_abs.o &&
    "$POMPCC" -fopenmp a.o b_abs.o -o ../two_abs 2> ../two_abs.err) || { cat two_abs.err; fail "absolute path: build"; }
(cd two && OMP_NUM_THREADS=2 POMP_OUTPUT_DIR=../two_abs.dir ../two_abs > /dev/null)
assert_eq "$(jq -c '[.regions[] | select(.type == "parallel") | .file]' two_abs.dir/profile.json)" '["hdr/vec.h"]' \
    "absolute include path: one region, named relative to the directory"
assert_eq "$(region_sum two_abs.dir parallel 6 begins)" 4 "absolute include path: both calls' visits in it"
# Built without -g: the closing barrier of a single in a header's inline
# function, which two translation units compiled, is the runtime's from two
# code addresses with no file or line; both were made inside the same
# instrumented single: one region (before: one identical row per file)
mkdir -p nog
cat > nog/h.h <<'H'
static inline int cnt(void)
{
    int t = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp single
        t++;
        __asm__ volatile(""); /* not the region's last statement: the single keeps its barrier */
    }
    return t;
}
H
printf '#include "h.h"\nint x1(void) { return cnt(); }\n' > nog/x1.c
printf '#include "h.h"\nint x2(void) { return cnt(); }\n' > nog/x2.c
printf '#include <stdio.h>\nint x1(void);\nint x2(void);\nint main(void) { printf("%%d\\n", x1() + x2()); return 0; }\n' > nog/main.c
(cd nog && "$POMPCC" -O2 -fopenmp x1.c x2.c main.c -o app && POMP_OUTPUT_DIR=out ./app > out.txt) || fail "no -g: build and run"
assert_contains nog/out.txt '^2$' "no -g: the program's result"
assert_eq "$(jq -c '[.regions[] | select(.type == "implicit_barrier" and .name == "implementation") | .id] | length' nog/out/profile.json)" 1 \
    "no -g: the single's closing barrier is one region"
assert_eq "$(jq '[.regions[] | select(.type == "implicit_barrier" and .name == "implementation") | .id] as $ids
                 | [.callpath[] | select(.region as $r | $ids | index($r)) | .per_thread[].visits] | add' nog/out/profile.json)" 4 \
    "no -g: its visits, both calls on both threads"
# An orphaned single and loop in a header's inline function that two units
# inline into their own functions, called in a parallel region: each closing
# barrier is one region, folded over the two copies (two functions: it names
# none), and the summary names each by the construct it closes, as
# pomp-report does (it named both by module and offset, each the other's
# twin: "implicit_barrier implementation @ app+0x14b0, in for @ h.h:16"; a
# probe)
mkdir -p nog2
cat > nog2/h.h <<'H'
#include <time.h>
static inline void busy(double ms)
{
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    do
        clock_gettime(CLOCK_MONOTONIC, &b);
    while ((b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6 < ms);
}
static inline int cnt(void)
{
    static int t;
#pragma omp single
    { t++; busy(20); }
#pragma omp for schedule(static)
    for (int i = 0; i < 2; i++)
        if (i == 0) busy(20);
    return t;
}
H
cp nog/x1.c nog/x2.c nog2/
cat > nog2/main.c <<'C'
#include <stdio.h>
int x1(void);
int x2(void);
int main(void)
{
    int a = 0, b = 0;
#pragma omp parallel num_threads(2)
    {
        a = x1();
        b = x2();
    }
    printf("%d\n", a + b);
    return 0;
}
C
(cd nog2 && "$POMPCC" -O2 -fopenmp x1.c x2.c main.c -o app && POMP_SUMMARY=on POMP_OUTPUT_DIR=out ./app > out.txt 2> summary.txt) ||
    fail "no -g, two barriers: build and run"
assert_contains nog2/out.txt '^2$' "no -g, two barriers: the program's result (a static counter in each unit's copy)"
assert_eq "$(jq -c '[.regions[] | select(.type == "implicit_barrier" and .name == "implementation") | .id] | length' nog2/out/profile.json)" 2 \
    "no -g, two barriers: one region each"
grep "implicit_barrier implementation" nog2/summary.txt > nog2/barriers.txt || true
cat nog2/barriers.txt
assert_eq "$(grep -c . nog2/barriers.txt)" 2 "no -g, two barriers: both in the summary"
assert_not_contains nog2/barriers.txt '\+0x|\[0x' "no -g, two barriers: not named by an offset"
assert_contains nog2/barriers.txt 'implicit_barrier implementation in single @ h.h:13$' "no -g: the single's barrier"
assert_contains nog2/barriers.txt 'implicit_barrier implementation in for @ h.h:15$' "no -g: the loop's barrier"
"$REPORT" nog2/out > nog2/report.txt
assert_contains nog2/report.txt '^ +implicit_barrier implementation in single @ h.h:13-14 ' "no -g: pomp-report's name of it"

# Built -O2 -g, a header's single inlined into a parallel region's function:
# GCC puts its closing GOMP_barrier on two code paths, whose lines the debug
# information gives as the single's two lines. Both are the single's barrier
# (made while the instrumented single was open): one region, every visit in
# it (before: two rows, "kern.h:19-19" and "kern.h:20-20", 3 visits each; a
# probe).
mkdir -p gsplit
cat > gsplit/kern.h <<'H'
#include <omp.h>
#include <time.h>
static inline double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}
static inline void spin_ms(double ms)
{
    double e = now_s() + ms * 1e-3;
    while (now_s() < e) {
    }
}
#define OMP_FOR _Pragma("omp for schedule(static) nowait")
static long hdr_s;
static inline long hdr_sum(const int *a, int n)
{
#pragma omp single
    hdr_s = 0;
#pragma omp for reduction(+ : hdr_s) schedule(static)
    for (int i = 0; i < n; i++)
        hdr_s += a[i];
    return hdr_s;
}
H
cat > gsplit/main.c <<'C'
#include <stdio.h>
#include "kern.h"
#define N 1000
static int a[N];
static long total;
static int iters[2];
static void fill(int n)
{
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
    for (int i = 0; i < n; i++) {
        a[i] = i;
        iters[omp_get_thread_num()]++;
    }
}
int main(void)
{
    int cnt = 0;
    for (int rep = 0; rep < 3; rep++) {
#pragma omp parallel num_threads(2)
        {
            fill(N);
            long s = hdr_sum(a, N);
#pragma omp single
            total += s;
            if (omp_get_thread_num() == 0)
                spin_ms(2);
#pragma omp barrier
            OMP_FOR
            for (int i = 0; i < 10; i++)
                spin_ms(0.1);
#pragma omp atomic
            cnt++;
        }
    }
    printf("total=%ld cnt=%d\n", total, cnt);
    return 0;
}
C
(cd gsplit && "$POMPCC" -O2 -g -fopenmp main.c -o app && POMP_OUTPUT_DIR=out ./app > out.txt) || fail "-g, a header's single: build and run"
assert_contains gsplit/out.txt '^total=1498500 cnt=6$' "-g, a header's single: the program's result"
assert_eq "$(jq '([.regions[] | select(.type == "single" and .file == "kern.h") | .id]) as $s
    | ([.callpath[] | select(.region as $r | $s | index($r)) | .id]) as $n
    | [.callpath[] | select(.parent as $p | $n | index($p))] | length' gsplit/out/profile.json)" 1 \
    "-g, a header's single: one closing barrier under it"
assert_eq "$(jq '([.regions[] | select(.type == "single" and .file == "kern.h") | .id]) as $s
    | ([.callpath[] | select(.region as $r | $s | index($r)) | .id]) as $n
    | [.callpath[] | select(.parent as $p | $n | index($p)) | .per_thread[].visits] | add' gsplit/out/profile.json)" 6 \
    "-g, a header's single: its barrier's visits, three on each thread"

# the same header from a source compiled in its own directory (recursive
# make: sub/b.c names it ../hdr/vec.h there): one region too, named from where
# the program runs (before: "../hdr/vec.h" and "hdr/vec.h", two regions)
(cd two/sub && "$POMPCC" -fopenmp -O2 -c b.c -o b_here.o) || fail "two directories: compile in sub/"
(cd two && "$POMPCC" -fopenmp a.o sub/b_here.o -o ../two_dirs) || fail "two directories: link"
(cd two && OMP_NUM_THREADS=2 POMP_OUTPUT_DIR=../two_dirs.dir ../two_dirs > /dev/null)
assert_eq "$(jq -c '[.regions[] | select(.type == "parallel") | .file]' two_dirs.dir/profile.json)" '["hdr/vec.h"]' \
    "two compile directories: one region, named from where the program runs"
assert_eq "$(region_sum two_dirs.dir parallel 6 begins)" 4 "two compile directories: both calls' visits in it"
# the source named "./sub/c.c", "$PWD/sub/c.c" (CMake names its sources so),
# and a unity file that includes sources by absolute path (CMake's
# UNITY_BUILD): the header still instrumented (before: the main file's
# includes were matched by the name as spelled, not as its regions name it,
# so its header copy was never included and its constructs went to the
# runtime, with no word)
(cd two && for src in ./sub/c.c "$PWD/sub/c.c"; do
     "$POMPCC" -fopenmp -O2 -Ihdr -c "$src" -o spelled.o 2> ../spelled.err || { cat ../spelled.err; exit 1; }
     readelf -p .pomp_constructs spelled.o | grep ' hdr/vec.h' > /dev/null || { echo "$src: vec.h not instrumented"; exit 1; }
 done) || fail "a source named ./sub/c.c or by its absolute path: its header instrumented"
mkdir -p unity/CMakeFiles
printf '#include "%s/two/a.c"\n#include "%s/two/sub/c.c"\n' "$PWD" "$PWD" > unity/CMakeFiles/unity_0_c.c
(cd unity && "$POMPCC" -fopenmp -O2 -I"$PWD/../two/hdr" -c "$PWD/CMakeFiles/unity_0_c.c" -o u.o &&
    "$POMPCC" -fopenmp u.o -o app 2> ../unity.err) || { cat unity.err; fail "unity: build"; }
assert_not_contains unity.err 'not built with pompcc' "unity: every construct instrumented (no note at the link)"
(cd unity && OMP_NUM_THREADS=2 POMP_OUTPUT_DIR=out ./app > out.txt)
assert_contains unity/out.txt '^4950 4950$' "unity: the program's result"
assert_eq "$(jq '[.regions[] | select(.init != "ompt" and .type == "parallel")] | length' unity/out/profile.json)" 1 \
    "unity: the header's parallel region is pomp's"
# A wrapper header that uses #include_next (its own <stdlib.h> around the
# system's) and one that tests __has_include of a neighbour: a copy of them
# in pompcc's directory would resolve those from there (the wrapper never
# reached the real <stdlib.h>: strtod undeclared, 0.00 printed; the neighbour
# not found: the other branch compiled). They stay as they are, their
# constructs left to the runtime's events, and the link step says so.
mkdir -p stay/compat stay/lib
cat > stay/compat/stdlib.h <<'H'
#ifndef STAY_COMPAT_STDLIB_H
#define STAY_COMPAT_STDLIB_H
#include_next <stdlib.h>
static inline double stay_sum(int n)
{
    double s = 0;
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < n; i++)
        s += 0.5;
    return s;
}
#endif
H
echo '#define BLOCKS 64' > stay/lib/sizes.h
cat > stay/lib/k.h <<'H'
#if __has_include("sizes.h")
#include "sizes.h"
#else
#define BLOCKS 1024
#endif
static inline int stay_blocks(void)
{
    int n = 0;
#pragma omp parallel reduction(+ : n)
    n += 1;
    return n > 0 ? BLOCKS : -1;
}
H
cat > stay/main.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include "lib/k.h"
int main(void)
{
    printf("%.2f %.2f blocks=%d\n", strtod("2.5", NULL), stay_sum(4), stay_blocks());
    return 0;
}
C
(cd stay && cc -fopenmp -Icompat main.c -o plain && "$POMPCC" -fopenmp -Icompat main.c -o app 2> build.err) ||
    { cat stay/build.err; fail "headers that stay: build"; }
assert_eq "$(cd stay && POMP_OUTPUT_DIR=out ./app 2> /dev/null)" "$(cd stay && ./plain)" "headers that stay: the plain build's output"
assert_contains stay/build.err "compat/stdlib.h: warning: 0 of 1 OpenMP constructs instrumented; 1 left to the runtime's events" \
                "#include_next: its construct left to the runtime, said at the link"
assert_contains stay/build.err "lib/k.h: warning: 0 of 1 OpenMP constructs instrumented; 1 left to the runtime's events" \
                "__has_include: its construct left to the runtime, said at the link"
assert_eq "$(jq '[.regions[] | select(.type == "parallel")] | length' stay/out/profile.json)" 2 \
          "headers that stay: both regions measured by the runtime's events"
# A header found only through CPATH, or through a computed #include, by a
# source with no pragma and no main of its own: instrumented (the quick look
# before instrumenting followed neither, and compiled such a source as it is)
mkdir -p found/kern
cat > found/kern/avx.h <<'H'
static inline double found_sum(int n)
{
    double s = 0;
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < n; i++)
        s += 1;
    return s;
}
H
printf '#include "avx.h"\ndouble via_cpath(int n) { return found_sum(n); }\n' > found/cpath.c
printf '#define KERNEL "kern/avx.h"\n#include KERNEL\ndouble via_macro(int n) { return found_sum(n); }\n' > found/computed.c
(cd found && CPATH="$PWD/kern" "$POMPCC" -fopenmp -c cpath.c -o cpath.o && "$POMPCC" -fopenmp -c computed.c -o computed.o) ||
    fail "CPATH and computed includes: build"
for o in cpath computed; do
    readelf -p .pomp_constructs found/$o.o 2> /dev/null | grep 'avx.h' > /dev/null || fail "$o.c: the header's construct instrumented"
done

# A project file included inside a function's body (a kernel body spliced in
# with #include, X-macro style): it stays as it is, its construct left to the
# runtime and said; the file's other headers keep their instrumentation (the
# copy brought its include file into the function, did not compile, and every
# header of the file fell back)
mkdir -p inbody && cd inbody
cat > body.inc <<'C'
#pragma omp parallel for reduction(+ : acc)
    for (int i = 0; i < n; ++i)
        acc += KERNEL(i);
C
cat > kern.h <<'C'
static inline int kcount(int n)
{
    int c = 0;
#pragma omp parallel for reduction(+ : c)
    for (int i = 0; i < n; ++i)
        c += 1;
    return c;
}
C
cat > main.c <<'C'
#include <stdio.h>
#include "kern.h"
static long sq(int n)
{
    long acc = 0;
#define KERNEL(i) ((long)(i) * (i))
#include "body.inc"
#undef KERNEL
    return acc;
}
int main(void)
{
    printf("%ld %d\n", sq(10), kcount(7));
    return 0;
}
C
"$POMPCC" -fopenmp -O2 main.c -o inbody 2> inbody.err || { cat inbody.err; fail "a file included in a function body: build"; }
assert_not_contains inbody.err "did not compile" "a file included in a function body: the other headers' copies compile"
assert_contains inbody.err "body.inc: warning: 0 of 1 OpenMP constructs instrumented; 1 left to the runtime's events" \
                "a file included in a function body: its construct left to the runtime, said"
assert_eq "$(POMP_OUTPUT_DIR=inbody.d ./inbody 2> /dev/null)" "285 7" "a file included in a function body: the program"
assert_eq "$(jq '[.regions[] | select(.file == "kern.h" and .init != "ompt")] | length' inbody.d/profile.json)" 2 \
          "a file included in a function body: the other header's parallel for instrumented"
cd ..
# A pragma whose block is the file the #include after it brings in: the
# compiler takes the included block, so the code after the #include is not the
# construct's. pomp took it for the block: the parallel region was timed
# around the serial sleep after it (300 ms, where it runs microseconds), a
# region stayed open at exit where that was a return, and a declaration there
# read as "followed by a declaration" (a probe). Left to the runtime, said.
mkdir -p incblock && cd incblock
printf '{\n    n += 1;\n}\n' > blk.inc
cat > main.c <<'C'
#include <stdio.h>
#include <unistd.h>
static int region(void)
{
    int n = 0;
#pragma omp parallel num_threads(2) reduction(+ : n)
#include "blk.inc"
    usleep(200000); /* serial work after the region */
    return n;
}
static int last(void)
{
    int n = 0;
#pragma omp parallel num_threads(2) reduction(+ : n)
#include "blk.inc"
    return n;
}
int main(void)
{
    int a = region(), b = last();
    int twice = a * 2;
    printf("%d %d %d\n", a, b, twice);
    return 0;
}
C
"$POMPCC" -fopenmp -O2 -g main.c -o incblock 2> incblock.err || { cat incblock.err; fail "a block from an #include: build"; }
assert_eq "$(grep -c "is not instrumented: its block is in the file the #include after it brings in" incblock.err)" 2 \
          "a block from an #include: both constructs left to the runtime, said"
assert_eq "$(POMP_OUTPUT_DIR=incblock.d ./incblock 2> incblock.run)" "2 2 4" "a block from an #include: the program"
assert_not_contains incblock.run "still open" "a block from an #include: no region open at the end"
assert_eq "$(jq '[.regions[] | select(.type == "parallel") | .id] as $p
                 | [.callpath[] | select(.region as $r | $p | index($r)) | .per_thread[].visits] | add' incblock.d/profile.json)" 2 \
          "a block from an #include: both parallel regions measured by the runtime's events, once each"
# the region itself is short: the sleep after it is not in it
assert_eq "$(jq '[.regions[] | select(.type == "parallel") | .id] as $p
                 | [.callpath[] | select(.region as $r | $p | index($r)) | .per_thread[].incl_ns] | max < 100000000' incblock.d/profile.json)" true \
          "a block from an #include: the serial sleep after it is no part of the region"
"$REPORT" --check incblock.d > /dev/null || fail "a block from an #include: --check"
cd ..
# One header reached through symbolic links and as itself (src/inc -> ../real,
# alias -> real): one region per construct, not one per name, 3 visits in
# one row (1 in each of three before; a probe).
mkdir -p links/real links/src && ln -sfn ../real links/src/inc && ln -sfn real links/alias
cd links
printf '#ifndef K_H\n#define K_H\nextern long k_total;\nstatic inline void k_kern(int n)\n{\n#pragma omp parallel for num_threads(2) reduction(+ : k_total)\n    for (int i = 0; i < n; i++)\n        k_total += i;\n}\n#endif\n' > real/k.h
printf '#include "inc/k.h"\nvoid a_run(void) { k_kern(10); }\n' > src/a.c
printf '#include "k.h"\nvoid b_run(void) { k_kern(20); }\n' > src/b.c
printf '#include "k.h"\nvoid c_run(void) { k_kern(30); }\n' > src/c.c
printf '#include <stdio.h>\nlong k_total;\nvoid a_run(void);\nvoid b_run(void);\nvoid c_run(void);\nint main(void)\n{\n    a_run();\n    b_run();\n    c_run();\n    printf("%%ld\\n", k_total);\n    return 0;\n}\n' > src/main.c
"$POMPCC" -fopenmp -c src/a.c -o a.o && "$POMPCC" -fopenmp -Ireal -c src/b.c -o b.o &&
    "$POMPCC" -fopenmp -Ialias -c src/c.c -o c.o && "$POMPCC" -fopenmp -c src/main.c -o main.o &&
    "$POMPCC" -fopenmp a.o b.o c.o main.o -o links || fail "a header through symbolic links: build"
assert_eq "$(POMP_OUTPUT_DIR=links.d ./links 2> /dev/null)" 670 "a header through symbolic links: the program"
assert_eq "$(jq -c '[.regions[] | select(.type == "parallel") | .file]' links.d/profile.json)" '["real/k.h"]' \
    "a header through symbolic links: one region, by its shortest name"
visits=$(jq '([.regions[] | select(.type == "parallel") | .id]) as $p | [.callpath[] | select(.region as $r | $p | index($r)) | .per_thread[].visits] | add' links.d/profile.json)
assert_eq "$visits" 3 "a header through symbolic links: its three visits in one region"
cd ..
# __FILE__ in headers reads as in the plain build where the compiler's name
# for a header is not normalized (inc/../other/x.hpp, an absolute -I path as
# CMake gives it): the copies' #line directives spell it as the compiler does
# (they said other/x.hpp and inc/k.hpp, and the program printed that; a probe).
# Also after the code inserted for a construct (the #line after it) and in a
# header copied only for its #include (mid.hpp: no pragma of its own).
mkdir -p fm/inc fm/other && cd fm
printf '#pragma once\n#include <cstdio>\ninline void x()\n{\n#pragma omp parallel num_threads(2)\n#pragma omp single\n    std::printf("x: %%s\\n", __FILE__);\n    std::printf("x after: %%s\\n", __FILE__);\n}\n' > other/x.hpp
printf '#pragma once\n#include <cstdio>\n#include "../other/x.hpp"\ninline void mid() { std::printf("mid: %%s\\n", __FILE__); }\n' > inc/mid.hpp
printf '#pragma once\n#include <cstdio>\n#include "mid.hpp"\ninline void k()\n{\n#pragma omp parallel num_threads(2)\n#pragma omp single\n    std::printf("k: %%s\\n", __FILE__);\n}\n' > inc/k.hpp
# With -I., GCC names <dot.hpp> ./dot.hpp, and a #line the user wrote keeps
# its ./ (a source named without its directory had every ./ mapped away; a
# review).
printf '#pragma once\n#include <cstdio>\ninline void dot()\n{\n#pragma omp parallel num_threads(2)\n#pragma omp single\n    std::printf("dot: %%s\\n", __FILE__);\n}\n' > dot.hpp
printf '#include "k.hpp"\n#include <dot.hpp>\nint main()\n{\n    k();\n    mid();\n    x();\n    dot();\n#pragma omp parallel num_threads(2)\n#pragma omp single\n    std::printf("main: %%s\\n", __FILE__);\n    std::printf("main after: %%s\\n", __FILE__);\n#line 300 "./lexer.l"\n    std::printf("main line: %%s\\n", __FILE__);\n    return 0;\n}\n' > main.cpp
for inc in -Iinc "-I$PWD/inc"; do
    # (the source named ./main.cpp once: __FILE__ keeps the ./ there)
    src=main.cpp
    [ "$inc" = -Iinc ] && src=./main.cpp
    c++ -fopenmp "$inc" -I. $src -o fm_plain && ./fm_plain > fm_plain.out
    grep -q "x: .*inc/\.\./other/x.hpp" fm_plain.out || fail "__FILE__ ($inc): the plain build names x.hpp through inc/..: $(cat fm_plain.out)"
    grep -q "^dot: \./dot.hpp$" fm_plain.out && grep -q "^main line: \./lexer.l$" fm_plain.out ||
        fail "__FILE__ ($inc): the plain build keeps ./: $(cat fm_plain.out)"
    "$BUILD/bin/pompc++" --pomp-verbose -fopenmp "$inc" -I. $src -o fm_pomp 2> fm_pomp.err || { cat fm_pomp.err; fail "__FILE__ ($inc): pompc++"; }
    assert_contains fm_pomp.err "^inc/k\.hpp: note: 2 of 2 OpenMP constructs instrumented" "__FILE__ ($inc): k.hpp instrumented"
    assert_eq "$(POMP_OUTPUT_DIR=fm.d ./fm_pomp 2> /dev/null)" "$(cat fm_plain.out)" "__FILE__ ($inc): the program's output"
    assert_eq "$(jq -r '[.regions[] | select(.type == "parallel") | .file] | sort | join(" ")' fm.d/profile.json)" \
        "dot.hpp inc/k.hpp main.cpp other/x.hpp" "__FILE__ ($inc): the regions' files, normalized"
    rm -rf fm.d
done
cd ..
echo "real code in headers: histo (C: gcc, clang), vlib (C++: c++, g++, clang++), a broken header, a header copy that does not compile, a build in place, a loop inlined three times, a header included twice with other macros, one whose inclusions take different #if branches at a construct, loops in a lambda and a template over a vector, a header reached by two paths, sources named ./x.c, by absolute path and in a unity file, headers with #include_next and __has_include, a file included in a function body, a header through symbolic links, __FILE__ in headers named through .. and absolute -I"
