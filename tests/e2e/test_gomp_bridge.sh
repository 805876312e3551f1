# The libgomp bridge (docs/gomp.md) on a GCC task program in the style of a
# real application (recursive tasks with a cutoff, an imbalanced
# schedule(dynamic) loop, critical, a lock, nested teams), run by pomprun on
# libgomp and on LLVM libomp (--pomp-runtime=omp): the program computes what
# the plain build computes, and the two profiles describe the same run: the
# same regions at the same lines, the same counts of tasks, chunks, critical
# entries and lock waits, every team member's share. Also: tasks whose
# argument block the bridge extends keep their data, alignment and semantics
# (firstprivate arrays, aligned data, a copy constructor in C++ terms: GCC's
# cpyfn for a VLA, if(0), depend, priority, final, untied, mergeable).
source "$(dirname "$0")/lib.sh"
POMPRUN="$BUILD/bin/pomprun"
[ -n "$E2E_SANITIZE" ] && exit 0 # (a sanitized libpomp cannot be loaded into a plain program)

cat > app.c <<'C'
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static long fib_serial(int n) { return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2); }

static long fib(int n)
{
    if (n < 14) /* the cutoff */
        return fib_serial(n);
    long a, b;
    #pragma omp task shared(a) firstprivate(n)
    a = fib(n - 1);
    #pragma omp task shared(b) firstprivate(n)
    b = fib(n - 2);
    #pragma omp taskwait
    return a + b;
}

static double work(int i)
{
    double x = 0;
    for (int k = 0; k < (i % 7 + 1) * 20000; k++)
        x += 1.0 / (k + 1);
    return x;
}

int main(void)
{
    omp_lock_t lock;
    omp_init_lock(&lock);
    long f = 0, crit = 0, locked = 0;
    double sum = 0;
    #pragma omp parallel num_threads(4)
    {
        #pragma omp for schedule(dynamic, 1) reduction(+: sum)
        for (int i = 0; i < 40; i++)
            sum += work(i);
        #pragma omp critical
        crit++;
        omp_set_lock(&lock);
        locked++;
        omp_unset_lock(&lock);
        #pragma omp single
        f = fib(20);
    }
    int inner = 0;
    #pragma omp parallel num_threads(2) reduction(+: inner)
    {
        #pragma omp parallel num_threads(2) reduction(+: inner)
        inner++;
    }
    printf("%ld %ld %ld %.6f %d\n", f, crit, locked, sum, inner);
    return 0;
}
C
L_par=$(line_of app.c "#pragma omp parallel num_threads(4)")
L_task=$(line_of app.c "a = fib(n - 1);")
L_for=$(line_of app.c "#pragma omp for schedule(dynamic, 1)")

export OMP_MAX_ACTIVE_LEVELS=2 POMP_LOOP=Chunks
cc -g -O2 -fopenmp app.c -o app
./app > plain.txt
POMP_OUTPUT_DIR=gomp "$POMPRUN" ./app > gomp.txt
POMP_OUTPUT_DIR=omp "$POMPRUN" --pomp-runtime=omp ./app > omp.txt
diff -u plain.txt gomp.txt || fail "output on libgomp differs from the plain build"
diff -u plain.txt omp.txt || fail "output on libomp differs from the plain build"

# count DIR TYPE [NAME]: begins + visits over the regions of a type (and name)
count() {
    jq --arg t "$2" --arg n "${3:-}" '
      ([.regions[] | select(.type == $t and ($n == "" or .name == $n)) | .id]) as $ids
      | [.callpath[] | select(.region as $r | $ids | index($r)) | .per_thread[] | .visits + .begins] | add // 0' \
      "$1/profile.json"
}
# places DIR: the regions as "type name line", sorted (implicit barriers have
# no line; libomp reports some lock waits without a code address: left out)
places() {
    jq -r '.regions[] | select(.init == "ompt" and (.first_line > 0 or .type == "implicit_barrier"))
           | "\(.type) \(.name) \(.first_line)"' "$1/profile.json" | sort -u
}
for d in gomp omp; do
    [ -f $d/profile.json ] || fail "$d: no profile"
    # (libomp reports the begin of GCC's single on its executor and never its
    # end: the OMPT bridge's frame is left open there, one nesting error)
    [ $d = omp ] || assert_eq "$(jq '[.threads[].nesting_errors] | add' $d/profile.json)" 0 "$d: nesting errors"
    assert_eq "$(region_sum $d parallel $L_par begins)" 4 "$d: the team's 4 shares"
    # (GCC's code address of a loop's start is the parallel's line, on both runtimes)
    assert_eq "$(count $d for)" 44 "$d: the loop on each of the 4 threads, one begin per chunk of 40"
    # fib(22) with tasks above the cutoff: tasks created = tasks run
    created=$(count $d task_create) ran=$(region_sum $d task $L_task begins)
    [ "$created" -gt 20 ] || fail "$d: only $created tasks created"
    assert_eq "$(count $d task)" "$created" "$d: every task created ran"
    assert_eq "$(count $d critical)" 8 "$d: critical, entered and begun once per thread"
    assert_eq "$(count $d wait lock)" 4 "$d: lock waits, once per thread"
    assert_eq "$(jq '[.regions[] | select(.type == "parallel")] | length' $d/profile.json)" 3 "$d: three parallel regions"
done
diff -u <(places omp) <(places gomp) || fail "the regions differ between libomp and libgomp"
assert_eq "$(count gomp task_create)" "$(count omp task_create)" "tasks created on both runtimes"
assert_eq "$(count gomp implicit_barrier parallel)" "$(count omp implicit_barrier parallel)" "closing barriers on both runtimes"

# Semantics of the tasks the bridge wraps: their data, alignment and clauses.
cat > tasks.c <<'C'
#include <omp.h>
#include <stdalign.h>
#include <stdint.h>
#include <stdio.h>

struct big { double v[40]; };

int main(void)
{
    int n = 5, misaligned = 0, deps = 0, order[3] = {0, 0, 0}, pos = 0;
    long sum = 0;
    struct big b;
    for (int i = 0; i < 40; i++)
        b.v[i] = i;
    #pragma omp parallel num_threads(3)
    #pragma omp single
    {
        alignas(64) double aligned[8] = {1, 2, 3, 4, 5, 6, 7, 8};
        int vla[n];
        for (int i = 0; i < n; i++)
            vla[i] = i * i;
        for (int t = 0; t < 8; t++) {
            #pragma omp task firstprivate(b, aligned, vla, t) shared(sum, misaligned)
            {
                if ((uintptr_t)aligned % 64)
                    __atomic_add_fetch(&misaligned, 1, __ATOMIC_RELAXED);
                long s = t;
                for (int i = 0; i < 40; i++)
                    s += (long)b.v[i];
                for (int i = 0; i < 8; i++)
                    s += (long)aligned[i];
                for (int i = 0; i < n; i++)
                    s += vla[i];
                __atomic_add_fetch(&sum, s, __ATOMIC_RELAXED);
            }
            b.v[0] += 1000; /* the task's copy was taken before */
        }
        #pragma omp taskwait
        int x = 0;
        #pragma omp task shared(x, order, pos) depend(out: x)
        { x = 1; order[pos++] = 1; }
        #pragma omp task shared(x, order, pos) depend(inout: x) priority(3) untied
        { x *= 10; order[pos++] = 2; }
        #pragma omp task shared(x, deps, order, pos) depend(in: x) final(1) mergeable
        { deps = x; order[pos++] = 3; }
        #pragma omp task if(0) shared(sum)
        sum += 1;
        #pragma omp taskwait
    }
    printf("%ld %d %d %d%d%d\n", sum, misaligned, deps, order[0], order[1], order[2]);
    return 0;
}
C
cc -O2 -fopenmp tasks.c -o tasks
./tasks > tasks_plain.txt
POMP_OUTPUT_DIR=tasks_gomp "$POMPRUN" ./tasks > tasks_gomp.txt
diff -u tasks_plain.txt tasks_gomp.txt || fail "tasks: output on libgomp differs from the plain build"
assert_contains tasks_gomp.txt ' 0 10 123$' "no misaligned copy, dependences in order"
assert_eq "$(count tasks_gomp task)" 12 "tasks: every task measured (8 + 3 + the if(0) one)"

# Built with pompcc: the default build stays on libgomp and measures the same.
"$POMPCC" -g -O2 -fopenmp app.c -o app_pomp
assert_contains <(ldd app_pomp) 'libpomp-gomp\.so' "pompcc's GCC build has the bridge"
POMP_OUTPUT_DIR=pomp ./app_pomp > pomp.txt
diff -u plain.txt pomp.txt || fail "output of the pompcc build differs from the plain build"
assert_eq "$(region_sum pomp for $L_for begins)" 40 "pompcc build: chunks from the bridge"
assert_eq "$(count pomp implicit_barrier parallel)" "$(count gomp implicit_barrier parallel)" "pompcc build: closing barriers"
