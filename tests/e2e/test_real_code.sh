# Real code: old K&R C and GCC extensions (clang's errors outside the
# directives do not stop instrumentation), continued pragmas, "# pragma" (with
# a // comment a backslash continues),
# macros in clauses, #if branches, threadprivate/copyin, orphaned worksharing,
# a flush busy-wait pipeline, and preprocessed input with line markers.
SRC="$(cd "$(dirname "$0")/programs" && pwd)"
source "$(dirname "$0")/lib.sh"
cp "$SRC"/kr.c "$SRC"/gnu.c "$SRC"/real.c .

build_and_compare() { # NAME [extra flags]: build with pompcc and plain cc, run with 1 and 4 threads
    local n=$1; shift
    "$POMPCC" -fopenmp -w "$@" $n.c -o $n 2> $n.err || { cat $n.err; fail "pompcc $n.c"; }
    assert_not_contains $n.err 'cannot be instrumented|did not compile' "$n.c instrumented and compiled"
    plain_cc -w "$@" $n.c -o ${n}_plain
    for t in 1 4; do
        OMP_NUM_THREADS=$t ./${n}_plain > $n.plain$t
        OMP_NUM_THREADS=$t POMP_OUTPUT_DIR=$n$t ./$n > $n.inst$t
        diff -u $n.plain$t $n.inst$t || fail "$n.c: output with $t threads differs"
    done
}

build_and_compare kr
assert_eq "$(cat kr.inst4)" "total = 9900" "K&R program result"
L_kr=$(line_of kr.c "omp parallel for")
assert_eq "$(region_sum kr4 for $L_kr visits) $(region_sum kr4 parallel $L_kr begins)" "4 4" "K&R: parallel for in implicit-int main"

build_and_compare gnu
L_pf=$(line_of gnu.c "omp parallel for")
assert_eq "$(region_sum gnu4 for $L_pf visits)" 4 "GNU C: loop after a nested function"
assert_eq "$(region_sum gnu4 critical $(line_of gnu.c "omp critical") begins)" 4 "GNU C: critical in a region with a local label"

build_and_compare real
assert_eq "$(cat real.inst4)" "s = 2080.0 got = 42 counter = 7 of thread 1 = 17 singles = 2" "real.c results"
d=real4
L_par=$(line_of real.c "num_threads(NT) copyin")
assert_eq "$(jq -r --argjson l $L_par '.regions[] | select(.type == "parallel" and .first_line == $l) | .ctc' $d/profile.json | grep -o 'slines=[0-9,]*')" \
    "slines=$L_par,$((L_par + 2))" "a pragma continued over three lines"
assert_contains <(jq -r '.regions[].ctc' $d/profile.json) 'hasCopyin=1' "copyin seen"
L_sp=$(line_of real.c "# pragma omp parallel for")
assert_eq "$(region_sum $d for $L_sp visits)" 2 "'# pragma omp' with a space (num_threads(NT) = 2), a // comment continued on the next line"
assert_contains <(jq -r '.regions[].ctc' $d/profile.json) 'scheduleType=dynamic' "schedule with a macro chunk"
L_for=$(line_of real.c "schedule(static, CHUNK)")
assert_eq "$(region_sum $d for $L_for visits)" 3 "orphaned for: 2 threads in the region, then 1 call outside"
assert_eq "$(region_sum $d single $(line_of real.c "omp single") begins)" 2 "orphaned single: once per team"
L_pipe=$(line_of real.c "shared(flag, data, got)")
assert_eq "$(region_sum $d parallel $L_pipe begins)" 2 "the flush pipeline ran"
assert_eq "$(jq '[.regions[] | select(.first_line > '"$(line_of real.c '#else')"' and .first_line < '"$(line_of real.c '#endif')"')] | length' $d/profile.json)" 0 \
    "nothing from the #else branch that is not compiled"

# Preprocessed input: instrumented, and the profile and the compiler's messages
# name the original file and lines.
plain_cc -E real.c -o real.i
"$POMPCC" -fopenmp -Wall -c real.i -o real_i.o 2> real_i.err || { cat real_i.err; fail "pompcc -c real.i"; }
assert_not_contains real_i.err 'cannot be instrumented|did not compile' "real.i instrumented"
"$POMPCC" -fopenmp real_i.o -o real_i
OMP_NUM_THREADS=4 POMP_OUTPUT_DIR=ri ./real_i > real_i.txt
diff -u real.plain4 real_i.txt || fail "output of the program built from real.i"
assert_eq "$(jq -r '[.regions[] | select(.init != "ompt") | .file] | unique | join(",")' ri/profile.json)" "real.c" "regions name real.c, not real.i"
assert_eq "$(region_sum ri for $L_for visits)" 3 "the same lines as for real.c"
sed 's/^    double s = 0;/    double s = 0; int unused_in_i;/' real.c > warn.c
plain_cc -E warn.c -o warn.i
"$POMPCC" -fopenmp -Wall -c warn.i -o warn_i.o 2> warn_i.err
assert_contains warn_i.err "^warn\.c:$(line_of warn.c 'int unused_in_i'):[0-9]+: warning: unused variable .unused_in_i." \
    "a warning on preprocessed input points at the original file and line"

# Continued lines as real code has them (a probe): a backslash followed by
# blanks before the newline (GCC and clang splice it, GCC with a warning: the
# construct was left out as "malformed"), a backslash-newline inside a
# _Pragma string (the same), and a clause on a continuation line whose
# expression the instrumentation evaluates before the pragma: __LINE__ in it
# is its own line (the program printed the pragma's first line), and a
# warning in it points at its line and column.
{
    printf '#include <stdio.h>\n'
    printf 'static int ln(int l) { printf("clause line %%d\\n", l); return 1; }\n'
    printf 'int main(void)\n{\n    unsigned u = 3; int s = 0, c = 0, e = 0;\n'
    printf '    #pragma omp parallel for \\  \t\n        reduction(+:s)\n'
    printf '    for (int i = 0; i < 10; i++) s += i;\n'
    printf '    _Pragma("omp parallel \\\nreduction(+:e)")\n    e++;\n'
    printf '    #pragma omp parallel reduction(+:c) \\\n        if (ln(__LINE__) && u >= 0)\n    c++;\n'
    printf '    printf("s=%%d c>0=%%d e>0=%%d line=%%d\\n", s, c > 0, e > 0, __LINE__);\n    return 0;\n}\n'
} > continued.c
"$POMPCC" -fopenmp -Wall -Wextra continued.c -o continued 2> continued.err || { cat continued.err; fail "continued.c: build"; }
plain_cc -Wall -Wextra continued.c -o continued_plain 2> continued_plain.err
assert_not_contains continued.err "malformed|left to the runtime" "continued lines: every construct instrumented"
OMP_NUM_THREADS=2 ./continued_plain > continued.plain
OMP_NUM_THREADS=2 POMP_OUTPUT_DIR=continued.d ./continued > continued.inst
diff -u continued.plain continued.inst || fail "continued lines: the program's output (__LINE__ in a continued clause)"
assert_contains continued.inst "^clause line $(line_of continued.c 'if (ln(__LINE__)')$" "continued lines: __LINE__ in a clause is its line"
for l in $(line_of continued.c "parallel for") $(line_of continued.c '_Pragma("omp parallel') $(line_of continued.c "reduction(+:c)"); do
    assert_eq "$(region_sum continued.d parallel $l visits)" 1 "continued lines: the parallel region at line $l measured"
done
where=$(grep -o '^continued\.c:[0-9]*:[0-9]*: warning: comparison of unsigned' continued_plain.err)
[ -n "$where" ] || fail "continued lines: gcc's warning in the clause (plain build)"
assert_contains continued.err "^$where" "continued lines: the warning in the continued clause at the plain build's line and column"
# ... and #pragma as compilers also read it: split by a splice inside the
# word, or written with the digraph %: (both were left to the runtime, and
# only the prelinker's note of "OpenMP not built with pompcc" hinted at it)
printf '%%:include <stdio.h>\nint main(void)\n{\n    int c = 0, n = 2;\n    %%:pragma omp parallel if(n > 1) num_threads(n) reduction(+:c)\n    c++;\n    #pra\\\ngma omp parallel for if(n > 1) reduction(+:c)\n    for (int i = 0; i < 4; i++) c += i;\n    printf("c=%%d line=%%d\\n", c, __LINE__);\n    return 0;\n}\n' > spelled.c
"$POMPCC" -fopenmp -Wall spelled.c -o spelled 2> spelled.err || { cat spelled.err; fail "spelled.c: build"; }
assert_not_contains spelled.err "not built with pompcc|left to the runtime" "spelled pragmas: instrumented"
assert_eq "$(POMP_OUTPUT_DIR=spelled.d ./spelled 2> /dev/null)" "c=8 line=10" "spelled pragmas: the program's output"
for l in 5 7; do
    assert_eq "$(region_sum spelled.d parallel $l visits)" 1 "spelled pragmas: the parallel region at line $l measured"
done
# ... and a copied clause expression on the pragma's own line keeps its
# column (warnings were at column 179, behind the copy's own code; a probe)
printf '#include <stdio.h>\nint main(void)\n{\n    unsigned u = 3; int c = 0;\n    #pragma omp parallel num_threads(u >= 0 ? 2 : 1) if(u >= 0) reduction(+:c)\n    c++;\n    printf("%%d\\n", c > 0);\n    return 0;\n}\n' > samecol.c
"$POMPCC" -fopenmp -Wall -Wextra samecol.c -o samecol 2> samecol.err || { cat samecol.err; fail "samecol.c: build"; }
plain_cc -Wall -Wextra samecol.c -o samecol_plain 2> samecol_plain.err
assert_eq "$(grep -o '^samecol\.c:[0-9]*:[0-9]*: warning' samecol.err | sort)" \
    "$(grep -o '^samecol\.c:[0-9]*:[0-9]*: warning' samecol_plain.err | sort)" \
    "copied clause expressions: the warnings at the plain build's lines and columns"
[ "$(grep -c '^samecol\.c:5:[0-9]*: warning' samecol_plain.err)" -ge 2 ] || fail "samecol.c: gcc's two warnings (plain build)"
