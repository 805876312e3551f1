#!/usr/bin/env bash
# Code that tells compilers apart with the preprocessor: pomp-instrument's
# parser (libclang) must take the branches the real compiler takes. A GCC
# build instruments what GCC compiles (before: clang's branch, so the GCC
# branch's construct went unmeasured without a word, or the file fell back
# to no instrumentation), a Clang build what Clang compiles; a #if on the GCC
# version, which the parser cannot answer as GCC does, is said.
source "$(dirname "$0")/lib.sh"

cat > branches.c <<'C'
#include <stdio.h>
int main(void)
{
    int n = 0, m = 0;
#pragma omp parallel num_threads(2)
    {
#if defined(__clang__)
#pragma omp atomic
        n += 1;
#else
#pragma omp critical(gnu_path)
        n += 1;
#endif
#ifndef __clang__
#pragma omp for
        for (int i = 0; i < 8; i++)
#pragma omp atomic
            m += 1;
#endif
#if _OPENMP >= 201811
#pragma omp masked
        m += 100;
#else
#pragma omp single
        m += 1000;
#endif
    }
    printf("n=%d m=%d\n", n, m);
    return 0;
}
C
regions() { # DIR: the file's regions the instrumentation made, "type line" per line
    jq -r '.regions[] | select(.init != "ompt") | "\(.type) \(.first_line)"' "$1/profile.json" | sort
}
visits_of() { # DIR TYPE: visits of the instrumented region of TYPE
    jq --arg t "$2" '([.regions[] | select(.type == $t and .init != "ompt") | .id]) as $ids
        | [.callpath[] | select(.region as $r | $ids | index($r)) | .per_thread[].visits] | add // 0' \
        "$1/profile.json"
}

# GCC 12 (_OPENMP 201511, no __clang__): critical, for with its atomic, single
gcc -fopenmp -O2 branches.c -o plain_gcc
"$POMPCC" -fopenmp -Wall -Wextra -Werror -O2 branches.c -o gcc_build 2> gcc.err || { cat gcc.err; fail "GCC build"; }
assert_not_contains gcc.err "did not compile" "GCC build: the instrumented file compiles"
./plain_gcc > plain_gcc.txt
POMP_OUTPUT_DIR=gcc.out ./gcc_build > gcc.txt
assert_eq "$(cat gcc.txt)" "$(cat plain_gcc.txt)" "GCC build: the program's output"
regions gcc.out > gcc.regions
for want in "critical 11" "for 15" "atomic 17" "single 24" "parallel 5"; do
    assert_contains gcc.regions "^$want\$" "GCC build: the branch GCC compiles has '$want'"
done
assert_not_contains gcc.regions "^atomic 8$" "GCC build: clang's atomic is not a region"
assert_not_contains gcc.regions "^masked" "GCC build: the masked of OpenMP 5.0 is not a region"
assert_eq "$(visits_of gcc.out critical)" 2 "GCC build: the critical's visits"
assert_eq "$(visits_of gcc.out for)" 2 "GCC build: the loop's visits"
"$REPORT" --check gcc.out > /dev/null || fail "GCC build: --check"

# Clang 19 (__clang__, _OPENMP 202011): atomic, masked; no loop (not under
# sanitizers: clang's sanitizer runtime cannot join gcc's in libpomp)
if command -v clang-19 > /dev/null && [ -z "$E2E_SANITIZE" ]; then
    "$BUILD/bin/pomp-clang" -fopenmp -Wall -Wextra -Werror -O2 branches.c -o clang_build 2> clang.err ||
        { cat clang.err; fail "Clang build"; }
    POMP_OUTPUT_DIR=clang.out ./clang_build > clang.txt
    assert_contains clang.txt "^n=2 m=100$" "Clang build: the program's output"
    regions clang.out > clang.regions
    assert_contains clang.regions "^atomic 8$" "Clang build: clang's atomic"
    assert_contains clang.regions "^masked 21$" "Clang build: the masked"
    assert_not_contains clang.regions "^critical" "Clang build: no critical"
fi

# a #if on the GCC version near OpenMP pragmas: said, at its line and column
cat > version.c <<'C'
#include <stdio.h>
int main(void)
{
    int n = 0;
#if defined(__GNUC__) && __GNUC__ >= 9
#pragma omp parallel for reduction(+ : n)
    for (int i = 0; i < 4; i++)
        n += i;
#endif
    printf("%d\n", n);
    return 0;
}
C
"$POMPCC" -fopenmp -O2 version.c -o version 2> version.err || { cat version.err; fail "version build"; }
assert_contains version.err "^version.c:5:26: warning: this #if tests the GCC version \(__GNUC__\)" \
    "a #if on the GCC version is said"
assert_eq "$(grep -c 'tests the GCC version' version.err)" 1 "once"
assert_not_contains version.err "defined\(__GNUC__\)" "defined(__GNUC__) alone is no version test"
# ... or through a macro, or over two lines: GCC compiles a branch the parser
# (clang's __GNUC__ 4) skipped. GCC says, where it compiles it, that the
# directive there is not instrumented (it was lost without a word; a probe);
# a branch GCC skips says nothing.
cat > version_macro.c <<'C'
#include <stdio.h>
#define GCC_VERSION (__GNUC__ * 10000 + __GNUC_MINOR__ * 100 + __GNUC_PATCHLEVEL__)
int main(void)
{
    int n = 0;
#if GCC_VERSION >= 40700
#pragma omp parallel for reduction(+ : n)
    for (int i = 0; i < 4; i++)
        n += i;
#endif
#if defined(__GNUC__) && \
    __GNUC__ >= 9
#pragma omp parallel for reduction(+ : n)
    for (int i = 0; i < 4; i++)
        n += i;
#endif
#if GCC_VERSION < 40000
#pragma omp parallel for reduction(+ : n)
    for (int i = 0; i < 4; i++)
        n += 100;
#endif
#ifdef NEVER_DEFINED
#pragma omp parallel for reduction(+ : n)
#endif
    for (int i = 0; i < 4; i++)
        n += 1;
    printf("%d\n", n);
    printf("line %d\n", __LINE__);
    return 0;
}
C
"$POMPCC" -fopenmp -O2 -Wall -Werror version_macro.c -o version_macro 2> version_macro.err ||
    { cat version_macro.err; fail "version (macro) build"; }
assert_eq "$(./version_macro | head -1)" 16 "version (macro): the output"
# the lines after a branch both skip are the source's (two lines inserted
# there, with a #line GCC skips too, moved every later line by 2; a probe)
assert_eq "$(./version_macro | tail -1)" "line $(line_of version_macro.c '__LINE__')" \
    "version (macro): the lines after the branches kept"
for line in 7 13; do
    assert_contains version_macro.err "^version_macro.c:$line:[0-9]+: note: .#pragma message: pomp: this OpenMP directive is not instrumented" \
        "version (macro): GCC says the directive at line $line is not instrumented"
done
assert_eq "$(grep -c 'pragma message: pomp' version_macro.err)" 2 "version (macro): not the branches GCC skips"
# the version test on a #if's second line is said too, at its line (only a
# directive's first line was read)
assert_contains version_macro.err "^version_macro.c:12:5: warning: this #if tests the GCC version \(__GNUC__\)" \
    "version (macro): the test on the #if's continuation line is said"
# defined(...) over a continued line is no version test; the test after it is
printf '#include <stdio.h>\nint main(void)\n{\n    int n = 0;\n#if defined(\\\n    __GNUC__)\n#pragma omp parallel for reduction(+ : n)\n    for (int i = 0; i < 4; i++)\n        n += i;\n#endif\n#if defined \\\n __GNUC__ && \\\n __GNUC__ > 7\n#pragma omp parallel for reduction(+ : n)\n    for (int i = 0; i < 4; i++)\n        n += i;\n#endif\n    printf("%%d\\n", n);\n    return 0;\n}\n' > defined.c
"$POMPCC" -fopenmp -O2 defined.c -o defined 2> defined.err || { cat defined.err; fail "defined: build"; }
assert_eq "$(grep -o '^defined\.c:[0-9]*:[0-9]*: warning: this #if tests the GCC version' defined.err)" \
    "defined.c:13:2: warning: this #if tests the GCC version" "defined() over continued lines: only the version test said, at its line"
echo "compiler branches: GCC's branches instrumented in a GCC build, Clang's in a Clang build, a GCC version test said, GCC's branches the parser skipped said by GCC"
