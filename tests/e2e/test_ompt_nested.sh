# Nested parallel regions: the same inner region forked from two outer
# regions. Each worker's share of an inner team merges under the node where
# its own master forked that team (OMPT gives the fork point), so the inner
# region has one node under each outer region, each with both inner teams.
source "$(dirname "$0")/lib.sh"
cat > nested.c <<'C'
#include <omp.h>
#include <stdio.h>
#include <unistd.h>

static int inner(void)
{
    int n = 0;
    #pragma omp parallel num_threads(2) reduction(+: n)
    {
        usleep(2000);
        n++;
    }
    return n;
}

int main(void)
{
    omp_set_max_active_levels(2);
    int a = 0, b = 0;
    #pragma omp parallel num_threads(2) reduction(+: a)
    a += inner();
    #pragma omp parallel num_threads(2) reduction(+: b)
    b += inner();
    printf("%d %d\n", a, b);
    return 0;
}
C
L_inner=$(line_of nested.c "reduction(+: n)")
L_a=$(line_of nested.c "reduction(+: a)")
L_b=$(line_of nested.c "reduction(+: b)")

# "<parent line> <visits> <begins> <threads>" for each node of the inner region.
# Two inner teams of 2 run under each outer region: 4 threads, or 3 when libomp
# gives the second team the pool thread the first one has just given back
# (a loaded machine), which is counted as 4: the begins still say 4 shares.
inner_nodes() {
    jq -r --argjson l $L_inner '
      (.regions | map({(.id|tostring): .}) | add) as $r
      | (.callpath | map({(.id|tostring): .}) | add) as $c
      | .callpath[] | select($r[.region|tostring].type == "parallel" and $r[.region|tostring].first_line == $l)
      | "\(if .parent == 0 then 0 else $r[$c[.parent|tostring].region|tostring].first_line end) \([.per_thread[].visits] | add) \([.per_thread[].begins] | add) \(.per_thread | length | if . == 3 then 4 else . end)"' \
      "$1/profile.json" | sort
}

check() { # DIR LABEL
    inner_nodes $1 > nodes.txt
    printf '%s 2 4 4\n%s 2 4 4\n' $L_a $L_b | sort > expected.txt
    diff -u expected.txt nodes.txt || fail "$2: the inner region under each fork point (parent visits begins threads)"
    assert_eq "$(jq '[.threads[].nesting_errors] | add' $1/profile.json)" 0 "$2: nesting errors"
}

"$POMPCC" -fopenmp nested.c -o nested_gcc
assert_eq "$(POMP_OUTPUT_DIR=gcc ./nested_gcc)" "4 4" "GCC build output"
check gcc "GCC build"
[ -n "$E2E_SANITIZE" ] && exit 0 # clang's sanitizer runtime cannot join gcc's in libpomp
POMP_CC=clang-19 "$POMPCC" -fopenmp nested.c -o nested_clang
assert_eq "$(POMP_OUTPUT_DIR=clang ./nested_clang)" "4 4" "clang build output"
check clang "clang build"
# Not instrumented: the same tree from the runtime's events alone.
clang-19 -g -fopenmp nested.c -o nested_plain
POMP_OUTPUT_DIR=run "$BUILD/bin/pomprun" ./nested_plain > /dev/null
check run "pomprun"
