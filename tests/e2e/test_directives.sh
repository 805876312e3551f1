# Every OpenMP 5.2 directive for C, with pomp and with OPARI2 2.0.7 (Debian's
# opari2): the claims of the table in docs/directives.md, checked on one snippet
# per directive (directives/snippets.txt), compiled with GCC 12, or Clang 19
# where GCC does not know the directive. For each row the table says what pomp
# does (instrumented / passed through) and what OPARI2 does: instrumented (POMP2
# calls added, the result compiles), ignored (no POMP2 call for it), breaks the
# build (its output does not compile where the original does), or rejected
# (opari2 stops with an error). pomp's output always compiles. Every directive
# name pomp knows (instrumenter/directive.c) must have a row.
# With DIRECTIVES_REPORT=1 it prints what it finds instead of checking.
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/lib.sh"
TABLE="$HERE/../../docs/directives.md"
command -v opari2 > /dev/null || fail "opari2 is not installed (make deps)"

# Splits the snippets: snippet_N.c for opari2, and for pomp one file per
# compiler with every in-main snippet as a function of its own (pomp has one
# run per file) plus the file-scope snippets alone. names.txt: N, name,
# compiler, the file pomp reads, the line of the directive there.
awk -v dir="$PWD" '
    function header(f) { print "#include <omp.h>\nint f(int);" > f }
    function body(f, fn, b) {
        print "int " fn "(void)\n{\n    int i, j, x = 0, a[16] = {0}, b[16] = {0};\n    (void)j;" > f
        print b > f
        print "    return x + a[0] + b[0];\n}" > f
    }
    function finish(    f, g) {
        if (!name) return
        f = dir "/snippet_" n ".c"
        header(f)
        print file_part > f
        body(f, "main", body_part)
        close(f)
        if (scope == "file") {
            g = f
        } else {
            g = dir "/all_" compiler ".c"
            if (!(compiler in started)) { header(g); started[compiler] = 1 }
            tagged = body_part
            sub(/\/\/T\n/, "//T" n "\n", tagged)
            body(g, "snippet_" n, tagged)
        }
        print n "\t" name "\t" compiler "\t" g > (dir "/names.txt")
    }
    /^#/ && !name { next }
    /^=== / {
        finish(); n++; name = substr($0, 5); scope = "main"; compiler = "gcc"
        if (name ~ / clang$/) { compiler = "clang-19"; sub(/ clang$/, "", name) }
        if (name ~ / file$/) { scope = "file"; sub(/ file$/, "", name) }
        file_part = ""; body_part = ""; next
    }
    { if (scope == "file") file_part = file_part $0 "\n"; else body_part = body_part $0 "\n" }
    END {
        finish()
        for (c in started) print "int main(void) { return 0; }" > (dir "/all_" c ".c")
    }' "$HERE/directives/snippets.txt"

# pomp: one run per file, the output compiled by the file's compiler.
cut -f3,4 names.txt | sort -u | while IFS=$'\t' read -r cc_for file; do
    # (--gnuc=12 for GCC's files, as pompcc passes it: a clang build keeps
    # some combined taskloops whole, docs/instrumentation.md)
    gnuc=; [ "$cc_for" = gcc ] && gnuc=--gnuc=12
    "$BUILD/bin/pomp-instrument" --verbose $gnuc "$file" "$file.pomp.c" -- -fopenmp 2> "$file.notes" \
        || { cat "$file.notes"; fail "pomp-instrument $file failed"; }
    $cc_for -fopenmp -c -o /dev/null -w -I"$BUILD/include" "$file.pomp.c" 2> "$file.cc" \
        || { cat "$file.cc"; fail "pomp's output of $file does not compile with $cc_for"; }
done

# The pomp and OPARI2 claims of a directive's row in the table: "pomp|opari2".
claims() {
    awk -F'|' -v d="\`$1\`" '
        { n = $2; gsub(/^ +| +$/, "", n) }
        n == d {
            p = $3; o = $4
            gsub(/^ +/, "", p); gsub(/^ +/, "", o)
            sub(/\*\*/, "", p); sub(/\*\*.*/, "", p)
            sub(/\*\*/, "", o); sub(/\*\*.*/, "", o)
            print p "|" o; exit
        }' "$TABLE"
}

count_pomp2() { grep -o 'POMP2_[A-Za-z_]*(' "$1" 2> /dev/null | grep -vc 'POMP2_DLIST' || true; }

failures=0
while IFS=$'\t' read -r n name cc_for file; do
    src=snippet_$n.c
    # OPARI2. Its output is compiled unless it only added its include and #line
    # (then it compiles as the original does).
    if ! opari2 "$src" mod_$n.c > opari_$n.err 2>&1 || grep -q ERROR opari_$n.err; then
        o=rejected
    elif [ "$(count_pomp2 mod_$n.c)" -gt 0 ] && ! $cc_for -fopenmp -c -o /dev/null -w mod_$n.c 2> /dev/null; then
        o="breaks the build"
    else
        sed 's|.*//T$||' "$src" > base_$n.c
        opari2 base_$n.c basemod_$n.c > /dev/null 2>&1 || true
        if [ "$(count_pomp2 mod_$n.c)" -gt "$(count_pomp2 basemod_$n.c)" ]; then o=instrumented; else o=ignored; fi
    fi
    # pomp: what it says it did with the directive's line.
    line=$(grep -n "//T$n\$\|//T\$" "$file" | head -1 | cut -d: -f1)
    base=$(basename "$file")
    if grep -q "$base:$line:[0-9]*: note: instrumented" "$file.notes"; then
        p=instrumented
    elif grep -q "$base:$line:[0-9]*: note: .*\(passed through\|left alone\)" "$file.notes"; then
        p="passed through"
    else
        cat "$file.notes"; fail "$name: no note for $base:$line"
    fi
    if [ -n "${DIRECTIVES_REPORT:-}" ]; then
        printf '%-45s pomp: %-15s opari2: %s (%s)\n' "$name" "$p" "$o" "$cc_for"
        continue
    fi
    c=$(claims "$name")
    [ -n "$c" ] || { echo "no row for \`$name\` in docs/directives.md" >&2; failures=$((failures + 1)); continue; }
    [ "$c" = "$p|$o" ] || { echo "\`$name\`: the table says '$c', found '$p|$o'" >&2; failures=$((failures + 1)); }
done < names.txt
[ -n "${DIRECTIVES_REPORT:-}" ] && exit 0
[ "$failures" -eq 0 ] || fail "$failures rows of docs/directives.md do not match"

# Every directive name pomp knows has a row.
names=$(sed -n '/omp_directive_names\[\] = {/,/NULL};/p' "$HERE/../../instrumenter/directive.c" |
        grep -o '"[a-z ]*"' | tr -d '"')
while read -r d; do
    [ -n "$(claims "$d")" ] || fail "no row for \`$d\` in docs/directives.md"
done <<< "$names"

# The claims of the table's preamble about OPARI2's side effects, which pomp
# does not have by default: explicit barriers with nowait, num_threads on every
# parallel, untied removed.
mod_of() { echo "mod_$(awk -F'\t' -v x="$1" '$2 == x { print $1 }' names.txt).c"; }
grep -q 'omp for.*nowait' "$(mod_of for)" && grep -q '^#pragma omp barrier' "$(mod_of for)" \
    || fail "OPARI2 adds nowait and an explicit barrier to for"
grep -q 'num_threads(pomp2_num_threads)' "$(mod_of parallel)" || fail "OPARI2 adds num_threads to parallel"
printf 'int main(void)\n{\n    int x = 0;\n#pragma omp task untied\n    x++;\n    return x;\n}\n' > untied.c
opari2 untied.c untied.mod.c 2> untied.err
! grep -q 'omp task.*untied' untied.mod.c || fail "OPARI2 removes untied"
assert_contains untied.err "untied tasks are now made tied" "OPARI2's warning"
"$BUILD/bin/pomp-instrument" untied.c untied.pomp.c -- -fopenmp
grep -q '#pragma omp task untied' untied.pomp.c || fail "pomp keeps untied"
for f in all_gcc.c; do
    assert_eq "$(grep -c 'omp barrier' $f.pomp.c)" "$(grep -c 'omp barrier' $f)" "pomp adds no barrier"
done

# A loop transformation under a worksharing loop (tile, unroll: OpenMP 5.1,
# clang-19): the loop directive above it is instrumented, as the table says;
# it was said to have a stand-alone directive for its body and left alone
# (a probe). Built and run: each loop's executions counted on each thread.
cat > tiled.c <<'C'
#include <stdio.h>
int main(void)
{
    long s = 0, t = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp for reduction(+ : s)
#pragma omp tile sizes(4)
        for (int i = 0; i < 100; i++)
            s += i;
#pragma omp for reduction(+ : t)
#pragma omp unroll partial(4)
        for (int i = 0; i < 100; i++)
            t += i;
    }
    printf("%ld %ld\n", s, t);
    return 0;
}
C
"$BUILD/bin/pomp-clang" -fopenmp -O2 --pomp-verbose -c tiled.c -o tiled.o 2> tiled.notes ||
    { cat tiled.notes; fail "tiled.c: compile"; }
assert_not_contains tiled.notes "stand-alone|not instrumented" "tile, unroll: no construct left alone"
assert_eq "$(grep -c "note: instrumented 'for'" tiled.notes)" 2 "tile, unroll: the loops above them instrumented"
[ -n "$E2E_SANITIZE" ] && exit 0 # (clang's sanitizer runtime cannot join gcc's in libpomp)
"$BUILD/bin/pomp-clang" -fopenmp -O2 tiled.c -o tiled 2> tiled.err || { cat tiled.err; fail "tiled.c: build"; }
assert_eq "$(POMP_OUTPUT_DIR=tiled.d ./tiled 2> /dev/null)" "4950 4950" "tile, unroll: the program"
for pat in "tile sizes" "unroll partial"; do
    assert_eq "$(region_sum tiled.d for "$(($(line_of tiled.c "$pat") - 1))" visits)" 2 "$pat: the loop above it, once per thread"
done
