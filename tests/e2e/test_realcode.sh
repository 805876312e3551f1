# The real-code set (tests/realcode/): programs in the style of real
# applications. Each is built plainly and with pompcc, with gcc and with
# clang-19; both print the same, pompcc --pomp-verbose says every construct is
# instrumented, and every directive line has its region in the profile.
REAL="$(cd "$(dirname "$0")/../realcode" && pwd)"
source "$(dirname "$0")/lib.sh"
cp "$REAL"/*.c .

# directive_lines SRC: the lines with an omp directive (#pragma, _Pragma, or an
# invocation of a macro that is one), #define lines left out
directive_lines() {
    grep -nE '^\s*(#\s*pragma\s+omp|_Pragma\("omp|OMP_[A-Z]+\s*$)' "$1" | cut -d: -f1
}

# clang's sanitizer runtime cannot join gcc's in libpomp (make sanitize): gcc only there
for compiler in gcc $([ -n "$E2E_SANITIZE" ] || echo clang-19); do
    for prog in cg sort stencil; do
        name="${prog}_${compiler%-19}"
        POMP_CC=$compiler "$POMPCC" --pomp-verbose -fopenmp "$prog.c" -o "$name" -lm > /dev/null 2> "$name.err" ||
            { cat "$name.err"; fail "pompcc ($compiler) $prog.c"; }
        assert_not_contains "$name.err" ': (warning|error): |without instrumentation' "$prog.c ($compiler): no fallback, no warning"
        counts=$(sed -nE "s/^$prog\.c: note: ([0-9]+) of ([0-9]+) OpenMP constructs instrumented.*/\1 \2/p" "$name.err")
        read -r done total <<< "$counts"
        [ -n "$total" ] && [ "$total" -gt 0 ] || { cat "$name.err"; fail "$prog.c ($compiler): no construct count"; }
        assert_eq "$done" "$total" "$prog.c ($compiler): constructs instrumented"
        "$compiler" -fopenmp "$prog.c" -o "$name.plain" -lm
        OMP_NUM_THREADS=4 POMP_OUTPUT_DIR="$name.dir" "./$name" > "$name.out"
        OMP_NUM_THREADS=4 "./$name.plain" > "$name.plain.out"
        diff -u "$name.plain.out" "$name.out" || fail "$prog.c ($compiler): output differs from the plain build"
        for line in $(directive_lines "$prog.c"); do
            n=$(jq --argjson l "$line" '[.regions[] | select(.first_line == $l and .init != "ompt")] | length' "$name.dir/profile.json")
            [ "$n" -gt 0 ] || fail "$prog.c ($compiler): no region for the directive at line $line"
        done
    done
done
echo "real code: cg, sort, stencil with gcc and clang-19"
