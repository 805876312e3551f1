# Patterns from real applications (issue 17), with gcc and with clang-19:
# each program prints what the plain build prints, and its constructs are
# instrumented (their regions at their file:line in the profile), except the
# one that cannot be (a macro whose expansion goes on past the region's body),
# which costs only itself and says so in one warning.
PAT="$(cd "$(dirname "$0")/patterns" && pwd)"
source "$(dirname "$0")/lib.sh"
cp "$PAT"/*.c "$PAT"/*.h "$PAT"/*.inc .

# build_and_run COMPILER SRC NAME [flags]: pompcc and plain builds print the same;
# the instrumented run's profile is in NAME.dir, pompcc's messages in NAME.err
build_and_run() {
    local compiler=$1 src=$2 name=$3
    shift 3
    POMP_CC=$compiler "$POMPCC" -fopenmp "$@" "$src" -o "$name" 2> "$name.err" ||
        { cat "$name.err"; fail "pompcc ($compiler) $src"; }
    assert_not_contains "$name.err" 'error|without instrumentation' "$src ($compiler) instrumented"
    "$compiler" -fopenmp "$@" "$src" -o "$name.plain" 2> /dev/null
    OMP_NUM_THREADS=2 POMP_OUTPUT_DIR="$name.dir" "./$name" > "$name.out"
    OMP_NUM_THREADS=2 "./$name.plain" > "$name.plain.out"
    diff -u "$name.plain.out" "$name.out" || fail "$src ($compiler): output differs from the plain build"
}
# at SRC MARKER: the line of the marker comment
at() { line_of "$1" "$2"; }
# has_region DIR TYPE LINE WHAT: the instrumentation made a region of TYPE there that ran
has_region() {
    [ "$(region_sum "$1" "$2" "$3" visits)" -gt 0 ] || { jq '.regions' "$1/profile.json" >&2; fail "$4: no '$2' region at line $3"; }
}
# instrumented DIR TYPE LINE WHAT: has_region, and the region is the instrumentation's
instrumented() {
    has_region "$@"
    [ "$(jq --arg t "$2" --argjson l "$3" '[.regions[] | select(.type == $t and .first_line == $l and .init != "ompt")] | length' "$1/profile.json")" -gt 0 ] ||
        { jq '.regions' "$1/profile.json" >&2; fail "$4: the '$2' region at line $3 is the runtime's, not instrumented"; }
}
no_region() {
    local n
    n=$(jq --arg t "$2" --argjson l "$3" '[.regions[] | select(.type == $t and .first_line == $l and .init != "ompt")] | length' "$1/profile.json")
    assert_eq "$n" 0 "$4: no instrumented '$2' region at line $3"
}

# clang's sanitizer runtime cannot join gcc's in libpomp (make sanitize): gcc only there
for compiler in gcc $([ -n "$E2E_SANITIZE" ] || echo clang-19); do
    c=${compiler%-19}
    # pragmas followed by #if/#ifdef lines, a pragma chosen by #ifdef/#else
    build_and_run "$compiler" ifdef_body.c "ifdef_$c"
    d="ifdef_$c.dir"
    has_region "$d" parallel "$(at ifdef_body.c P_IF1)" "parallel followed by #if 1"
    has_region "$d" for "$(at ifdef_body.c P_LOOPHDR)" "parallel for followed by #ifdef _OPENMP loop headers"
    has_region "$d" for "$(at ifdef_body.c P_DYNAMIC)" "the pragma of the #else branch"
    no_region "$d" for "$(at ifdef_body.c P_STATIC)" "the pragma of the skipped branch"
    has_region "$d" single "$(at ifdef_body.c P_CUTOFF)" "single followed by #if defined(CUTOFF)"
    build_and_run "$compiler" ifdef_body.c "ifdef_d_$c" -DUSE_STATIC -DCUTOFF=5
    d="ifdef_d_$c.dir"
    has_region "$d" for "$(at ifdef_body.c P_STATIC)" "the pragma of the #ifdef branch"
    no_region "$d" for "$(at ifdef_body.c P_DYNAMIC)" "the pragma of the skipped #else branch"

    # a two-statement macro as a region's body: left alone, the same result
    build_and_run "$compiler" macro_stmt.c "macro_$c"
    d="macro_$c.dir"
    line=$(at macro_stmt.c P_STEP)
    assert_contains "macro_$c.err" "^macro_stmt\.c:$line:1: warning: '#pragma omp parallel' is not instrumented: the statement after it ends inside the expansion of macro 'STEP'" "one warning with file:line"
    assert_eq "$(grep 'warning' "macro_$c.err" | grep -vc 'OpenMP constructs instrumented')" 1 "only the construct that cannot be instrumented is warned about"
    assert_contains "macro_$c.err" "^macro_stmt\.c: warning: [0-9]+ of [0-9]+ OpenMP constructs instrumented; 3 left to the runtime" "the link step's count (STEP's region, HIT's two atomics)"
    no_region "$d" parallel "$line" "the parallel region around STEP"
    has_region "$d" parallel "$(at macro_stmt.c P_DO)" "the rest of the file"
    has_region "$d" atomic "$(at macro_stmt.c P_ATOMIC)" "_Pragma in a macro argument"
    assert_eq "$(region_sum "$d" critical "$(at macro_stmt.c P_BUMP)" begins)" 2 "critical around a macro that ends with its ';'"

    # function-like macros: TWO(x, y) expands to two statements, of which the
    # construct would take both (each thread's t += 1 would run once): left
    # alone and said; one statement or one block from a macro is instrumented
    build_and_run "$compiler" macro_args.c "margs_$c" -g
    d="margs_$c.dir"
    assert_eq "$(cat "margs_$c.out")" "1 4 1 4 5 1 1 1 2 1 1 5 4 5" "the program's own results"
    for m in P_TWO:single:TWO P_TWO_MORE:master:TWO_MORE; do
        IFS=: read -r marker type macro <<< "$m"
        line=$(at macro_args.c "$marker")
        assert_contains "margs_$c.err" "^macro_args\.c:$line:1: warning: '#pragma omp $type' is not instrumented: the statement after it ends inside the expansion of macro '$macro'" "$type before $macro warned"
        no_region "$d" "$type" "$line" "$type before $macro"
    done
    # the single left alone is still measured: the link tells libpomp that
    # constructs were left to the runtime, whose events it then follows
    # (gcc's debug line of the runtime call is the statement before the pragma)
    line=$(at macro_args.c P_TWO)
    assert_eq "$(($(region_sum "$d" single $((line - 1)) visits) + $(region_sum "$d" single "$line" visits) + $(region_sum "$d" single $((line + 1)) visits)))" 2 "the single left to the runtime's events, on both threads"
    assert_contains "margs_$c.err" "^macro_args\.c: warning: 12 of 14 OpenMP constructs instrumented; 2 left to the runtime's events" "the link's count (the stringized _Pragmas instrumented)"
    for m in P_PRAGMA_ATOMIC P_OMP_ATOMIC; do
        instrumented "$d" atomic "$(at macro_args.c "$m")" "$m: a stringized _Pragma, instrumented where it is invoked"
    done
    for m in P_INC:single P_BODY:single P_SWAP:critical P_EACH:for P_BLOCK:single P_FORBLOCK:for \
        P_ADD:critical P_MAX:critical; do
        has_region "$d" "${m#*:}" "$(at macro_args.c "${m%%:*}")" "${m%%:*}: a macro of one statement"
    done

    # directives made by macros (the _Pragma(STR(x)) idiom), in the file and in
    # headers, one of which names no pragma: each invocation that makes one
    # _Pragma and nothing else is instrumented where it is invoked (they were
    # left to the runtime's events: a GCC build's static loops unmeasured)
    build_and_run "$compiler" pragma_helpers.c "helpers_$c" -g
    POMP_CC=$compiler "$POMPCC" -fopenmp -g --pomp-verbose -c pragma_helpers.c -o "helpers_$c.o" \
        2> "helpers_$c.verbose" || { cat "helpers_$c.verbose"; fail "pompcc --pomp-verbose -c pragma_helpers.c"; }
    assert_eq "$(cat "helpers_$c.out")" "9900 4950 20" "the program's own results"
    assert_not_contains "helpers_$c.err" "left to the runtime" "no construct left to the runtime's events"
    for m in pragma_helpers.c:P_MAIN_PRAGMA:for pragma_helpers.c:P_MAIN_MACRO:for pragma_helpers.h:P_PH_SUM:for \
        macro_only.h:P_MO_PARALLEL:parallel macro_only.h:P_MO_ATOMIC:atomic; do
        IFS=: read -r file marker type <<< "$m"
        line=$(at "$file" "$marker")
        instrumented "helpers_$c.dir" "$type" "$line" "$marker ($file)"
        assert_eq "$(jq -r --argjson l "$line" --arg t "$type" '[.regions[] | select(.type == $t and .first_line == $l) | .file] | unique | join(",")' "helpers_$c.dir/profile.json")" "$file" "$marker: its region's file"
    done
    assert_contains "helpers_$c.verbose" "^pragma_helpers\.c:$(at pragma_helpers.c P_MAIN_MACRO):5: note: instrumented 'parallel for'" "the invocation said instrumented"

    # the program's own pomp_fc_0, pomp_task_1, ... are not hidden by the
    # instrumentation's variables (pompN_ where the file names pomp_...)
    build_and_run "$compiler" user_pomp_names.c "names_$c"
    assert_eq "$(cat "names_$c.out")" "x=19 y=54 z=2" "the program's own results"
    has_region "names_$c.dir" omp_set_lock "$(at user_pomp_names.c P_LOCK)" "a lock call on the program's pomp_l_ instrumented"
    assert_eq "$(jq -c '[.callpath[].per_thread[].values.begin // empty | .[0].max]' "names_$c.dir/profile.json")" "[42]" \
              "a user region's value named pomp_v_: the program's value"
    for m in P_CRITICAL:critical P_TASK:task P_PARALLEL:parallel; do
        has_region "names_$c.dir" "${m#*:}" "$(at user_pomp_names.c "${m%%:*}")" "${m%%:*} instrumented"
    done

    # BOM, CRLF, #line, directives after comments, a comment that is not UTF-8
    build_and_run "$compiler" odd_source.c "odd_$c"
    has_region "odd_$c.dir" parallel "$(at odd_source.c P_BOM)" "a file that starts with a BOM"
    # a directive after a comment on its line (a comment is a space by then):
    # it was skipped, silently
    has_region "odd_$c.dir" parallel "$(at odd_source.c P_COMMENT)" "a directive after a comment"
    has_region "odd_$c.dir" parallel "$(at odd_source.c P_COMMENT2)" "a directive after a comment of two lines"
    has_region "odd_$c.dir" parallel 100 "after #line 100"
    has_region "odd_$c.dir" atomic 102 "after #line 100"
    # lines ended by a lone CR (an old Mac file: both compilers take it as a
    # newline): read as one line, its two constructs went unseen ("0 of 0
    # OpenMP constructs instrumented"; a probe)
    printf '#include <stdio.h>\rint main(void)\r{\r    long s = 0;\r#pragma omp parallel for reduction(+ : s)\r    for (int i = 0; i < 10; i++)\r        s += i;\r#pragma omp critical\r    s++;\r    printf("%%ld\\n", s);\r    return 0;\r}\r' > cr_only.c
    build_and_run "$compiler" cr_only.c "cr_$c"
    assert_eq "$(cat "cr_$c.out")" 46 "CR-only lines ($compiler): the program"
    POMP_CC=$compiler "$POMPCC" -fopenmp --pomp-verbose -c cr_only.c -o "cr_$c.o" 2> "cr_$c.verbose"
    assert_contains "cr_$c.verbose" "cr_only.c: note: 2 of 2 OpenMP constructs instrumented" "CR-only lines ($compiler): both constructs seen"
    has_region "cr_$c.dir" for 5 "CR-only lines ($compiler): the loop at its line"
    has_region "cr_$c.dir" critical 8 "CR-only lines ($compiler): the critical at its line"

    # parallel for with a task reduction: no nowait beside it
    build_and_run "$compiler" task_reduction.c "taskred_$c"
    has_region "taskred_$c.dir" for "$(at task_reduction.c P_TASKRED)" "parallel for reduction(task, ...)"
    has_region "taskred_$c.dir" parallel "$(at task_reduction.c P_TASKRED)" "parallel for reduction(task, ...)"

    # directive names and clauses from macros, read as the compilers read
    # them (the macros after #pragma omp replaced)
    build_and_run "$compiler" macro_clauses.c "mclauses_$c"
    d="mclauses_$c.dir"
    assert_eq "$(cat "mclauses_$c.out")" "1023 8386560 499500" "macro clauses: the program's own results"
    assert_not_contains "mclauses_$c.err" "unknown OpenMP directive" "macro clauses: PAR_FOR is a directive"
    line=$(at macro_clauses.c P_COMBINED)
    has_region "$d" parallel "$line" "PAR_FOR's parallel region"
    has_region "$d" for "$line" "PAR_FOR's loop"
    ctc=$(jq -r --argjson l "$(at macro_clauses.c P_LOOP_NW)" '.regions[] | select(.type == "for" and .first_line == $l) | .ctc' "$d/profile.json")
    [[ $ctc == *scheduleType=dynamic*hasNowait=1* ]] || fail "LOOP_NOWAIT SCHED(dynamic, 64): the loop's CTC is '$ctc'"
    "$REPORT" --check "$d" > /dev/null || fail "macro clauses ($compiler): --check"
    POMP_CC=$compiler "$POMPCC" -fopenmp --pomp-verbose -c macro_clauses.c -o "mclauses_$c.o" \
        2> "mclauses_$c.verbose" || { cat "mclauses_$c.verbose"; fail "pompcc --pomp-verbose -c macro_clauses.c"; }
    assert_contains "mclauses_$c.verbose" "^macro_clauses\.c:$(at macro_clauses.c P_UNTIED):1: note: untied task with a task scheduling point" "TASK_FLAGS read as untied"
    # the taskwait in that untied task's body (no enter/exit: it may straddle
    # two threads) is left to the runtime's events, which measure its 511
    # waits (its wait read as the task's work)
    assert_contains "mclauses_$c.verbose" "^macro_clauses\.c:$(at macro_clauses.c P_UNTIED_WAIT):1: note: left alone: 'taskwait' in an untied task" "the untied task's taskwait left to the runtime"
    assert_eq "$(jq '[.regions[] | select(.type == "taskwait" and .init == "ompt") | .id] as $ids | [.callpath[] | select(.region as $r | $ids | index($r)) | .per_thread[].visits] | add // 0' "$d/profile.json")" 511 \
        "the untied task's taskwait measured by the runtime's events ($compiler)"
    # macros read as the compilers read them, or not at all (macro_defs.c says which)
    build_and_run "$compiler" macro_defs.c "mdefs_$c" -std=gnu2x
    assert_eq "$(cat "mdefs_$c.out")" "serial=1 teams=1,4 hits=8 entered=4 x=999" "macro definitions: the program's own results"
    for f in macro_defs_serial.h macro_defs_team.inc; do
        assert_contains "mdefs_$c.err" "^$f:[0-9]+:1: warning: '#pragma omp parallel' is not instrumented: the macros in it are not replaced \('TEAM' defined differently in this unit" "$f: TEAM not replaced, the construct left to the runtime"
    done
    assert_contains "mdefs_$c.err" "^macro_defs\.c:[0-9]+:1: warning: '#pragma omp task' is not instrumented: the macros in it are not replaced \(__VA_OPT__ is not read\)" "__VA_OPT__ said, the construct left to the runtime"
    ctc=$(jq -r --argjson l "$(at macro_defs.c P_GCOMMA)" '.regions[] | select(.type == "for" and .first_line == $l) | .ctc' "mdefs_$c.dir/profile.json")
    [[ $ctc == *hasNowait=1* ]] || fail "GCOMMA(nowait): the loop's CTC is '$ctc'"
    for m in P_LOCKNAME P_CRIT; do
        assert_eq "$(jq -r --argjson l "$(at macro_defs.c $m)" '.regions[] | select(.type == "critical" and .first_line == $l) | .name' "mdefs_$c.dir/profile.json")" accum \
            "$m: the critical named by its lock"
    done
    ctc=$(jq -r --argjson l "$(at macro_defs.c P_COMMENTED)" '.regions[] | select(.type == "for" and .first_line == $l) | .ctc' "mdefs_$c.dir/profile.json")
    [[ $ctc == *scheduleType=dynamic*hasNowait=1* ]] || fail "a comment in LOOP_OPTS: the loop's CTC is '$ctc'"
    has_region "mdefs_$c.dir" for "$(at macro_defs.c P_RESCAN)" "PAR_OPTS(2): the loop"
    ctc=$(jq -r --argjson l "$(at macro_defs.c P_RESCAN)" '.regions[] | select(.type == "parallel" and .first_line == $l) | .ctc' "mdefs_$c.dir/profile.json")
    [[ $ctc == *hasNumThreads=1* ]] || fail "PAR_OPTS(2): the parallel region's CTC is '$ctc'"
    assert_not_contains "mdefs_$c.err" "without instrumentation|malformed" "macro definitions: every construct read"
    # a macro no definition of which is in force at a directive is no macro
    # there: defined only after a header's #include (it read nowait, and GCC
    # built what plainly fails), or #undef'd before the directive (Clang
    # builds both, ignoring what it cannot read)
    if [ "$compiler" = clang-19 ]; then
        mkdir -p late && cat > late/late.h <<'C'
static inline void scale(double *x, int n)
{
#pragma omp parallel for LATE_OPTS
    for (int i = 0; i < n; i++)
        x[i] *= 2;
}
C
        cat > late/main.c <<'C'
#include <stdio.h>
#include "late.h"
#define LATE_OPTS nowait
#define NT_OPT num_threads(2)
int main(void)
{
    double x[100] = {1};
    scale(x, 100);
#pragma omp parallel for NT_OPT
    for (int i = 0; i < 100; i++)
        x[i] += 1;
#undef NT_OPT
#pragma omp parallel for NT_OPT
    for (int i = 0; i < 100; i++)
        x[i] += 1;
    printf("%g\n", x[0]);
    return 0;
}
C
        (cd late && POMP_CC=clang-19 "$POMPCC" -fopenmp --pomp-verbose -Wno-extra-tokens -Wno-source-uses-openmp main.c -o late 2> late.err) ||
            { cat late/late.err; fail "late macros: the build"; }
        assert_not_contains late/late.err "late\.h:3:1: note: its macros replaced" "LATE_OPTS, defined after the header, not replaced there"
        assert_contains late/late.err "main\.c:9:1: note: its macros replaced" "NT_OPT replaced where it is defined"
        assert_not_contains late/late.err "main\.c:13:1: note: its macros replaced" "NT_OPT not replaced after its #undef"
    fi
    # explicit barriers: the loop with LOOP_NOWAIT gets none (nor a second nowait)
    POMP_CC=$compiler "$POMPCC" -fopenmp --pomp-implicit-barriers=explicit macro_clauses.c -o "mclauses_x_$c" \
        2> "mclauses_x_$c.err" || { cat "mclauses_x_$c.err"; fail "explicit barriers: macro_clauses.c builds"; }
    OMP_NUM_THREADS=2 POMP_OUTPUT_DIR="mclauses_x_$c.dir" "./mclauses_x_$c" > "mclauses_x_$c.out"
    assert_eq "$(cat "mclauses_x_$c.out")" "1023 8386560 499500" "explicit barriers: the program's own results"
    no_region "mclauses_x_$c.dir" "implicit barrier" "$(at macro_clauses.c P_LOOP_NW)" "explicit barriers: LOOP_NOWAIT's loop"
    has_region "mclauses_x_$c.dir" "implicit barrier" "$(at macro_clauses.c P_NESTED)" "explicit barriers: the loop without nowait"
done

# --pomp-verbose counts the constructs: all but the ones left alone (STEP's
# region, and the atomic in HIT's body at each of its two invocations)
"$POMPCC" --pomp-verbose -fopenmp -c macro_stmt.c -o m.o 2> verbose.err
assert_contains verbose.err '^macro_stmt\.c: note: 3 of 6 OpenMP constructs instrumented' "N of M per file"

# A construct a function-like macro makes is left to the runtime's events,
# and so the bridges followed every construct's, the mutex events of every
# instrumented lock call and critical included (a hot lock loop elsewhere:
# 76 ms became 121). The link now knows which kinds were left: a loop, no
# critical or ordered, and the mutex events are not followed; a critical
# made so is measured as before.
for kind in loop critical; do
    cat > leftkind_$kind.c <<C
#include <omp.h>
#include <stdio.h>
#define STR_(x) #x
#define PRAGMA(x) _Pragma(STR_(x))
#define PAR_SUM(n, s) PRAGMA(omp parallel for reduction(+ : s)) for (int i = 0; i < n; i++) s += i;
#define LOCKED(x) PRAGMA(omp critical) x;
int main(void)
{
    omp_lock_t l;
    omp_init_lock(&l);
    long s = 0, c = 0;
#pragma omp parallel num_threads(2)
    for (int k = 0; k < 1000; k++) {
        omp_set_lock(&l);
        c++;
        omp_unset_lock(&l);
    }
#if KIND_CRITICAL
#pragma omp parallel num_threads(2)
    for (int k = 0; k < 100; k++) {
        LOCKED(c++)
    }
#endif
    PAR_SUM(1000, s)
    omp_destroy_lock(&l);
    printf("%ld %ld\n", s, c);
    return 0;
}
C
done
"$POMPCC" -fopenmp -O2 leftkind_loop.c -o leftkind_loop 2> leftkind_loop.err || { cat leftkind_loop.err; fail "build leftkind_loop.c"; }
"$POMPCC" -fopenmp -O2 -DKIND_CRITICAL=1 leftkind_critical.c -o leftkind_critical 2> leftkind_critical.err ||
    { cat leftkind_critical.err; fail "build leftkind_critical.c"; }
nm leftkind_loop | grep ' POMP_Constructs_left_without_mutexes$' > /dev/null ||
    fail "constructs left by a macro, a loop: the link says no mutex was left"
! nm leftkind_critical | grep ' POMP_Constructs_left_without_mutexes$' > /dev/null ||
    fail "constructs left by a macro, a critical: the link says one may be"
POMP_OUTPUT_DIR=lk_loop.d ./leftkind_loop > lk_loop.out 2> /dev/null
assert_eq "$(cat lk_loop.out)" "499500 2000" "constructs left by a macro, a loop: the program"
assert_eq "$(jq '[.regions[] | select(.type == "omp_set_lock") | .id] as $ids | [.callpath[] | select(.region as $r | $ids | index($r)) | .per_thread[].visits] | add' lk_loop.d/profile.json)" 2000 \
    "constructs left by a macro, a loop: the instrumented lock calls counted"
"$REPORT" --check lk_loop.d > /dev/null || fail "constructs left by a macro, a loop: --check"
POMP_OUTPUT_DIR=lk_crit.d ./leftkind_critical > lk_crit.out 2> /dev/null
assert_eq "$(cat lk_crit.out)" "499500 2200" "constructs left by a macro, a critical: the program"
assert_eq "$(jq '[.regions[] | select(.type == "critical") | .id] as $ids | [.callpath[] | select(.region as $r | $ids | index($r)) | .per_thread[].visits] | add // 0' lk_crit.d/profile.json)" 200 \
    "constructs left by a macro, a critical: measured from the runtime's events"

# A _Pragma three macros away (PF3 -> OMP(...) -> DO_PRAGMA(omp ...) ->
# _Pragma(#x)) is counted and said where it is invoked, as one or two away
# are: it was missing from the count, said nowhere (a probe)
cat > deep_pragma.c <<'C'
#include <stdio.h>
#define DO_PRAGMA(x) _Pragma(#x)
#define OMP(...) DO_PRAGMA(omp __VA_ARGS__)
#define PF2 DO_PRAGMA(omp parallel for reduction(+:s))
#define PF3 OMP(parallel for reduction(+:s))
#define STR(x) #x
#define PFOR_STR "omp parallel for reduction(+:s)"
#define OMP_S(x) _Pragma(STR(omp x))
#define OMP_CRIT _Pragma(STR(omp critical))
int main(void)
{
    double s = 0;
PF2
    for (int i = 0; i < 1000; i++) s += i;
PF3
    for (int i = 0; i < 1000; i++) s += i;
    OMP(parallel for reduction(+:s))
    for (int i = 0; i < 1000; i++) s += i;
    _Pragma(STR(omp parallel for reduction(+:s)))
    for (int i = 0; i < 1000; i++) s += i;
    _Pragma(PFOR_STR)
    for (int i = 0; i < 1000; i++) s += i;
    OMP_S(parallel for reduction(+:s))
    for (int i = 0; i < 1000; i++) s += i;
#pragma omp parallel num_threads(2)
    {
        OMP_CRIT
        s += 1;
    }
    printf("%g\n", s);
    return 0;
}
C
# ... each now instrumented where it is invoked or written: an invocation
# that makes one _Pragma and nothing else, through macros or of its
# arguments, and a _Pragma whose string macros make (both were left to the
# runtime's events, so a GCC build's static loops went unmeasured; a probe).
# The macros they no longer expand stay used (-Wunused-macros -Werror).
"$POMPCC" -fopenmp --pomp-verbose -Wunused-macros -Werror deep_pragma.c -o deep_pragma 2> deep_pragma.err ||
    { cat deep_pragma.err; fail "build deep_pragma.c"; }
assert_not_contains deep_pragma.err "without instrumentation|left to the runtime" "deep_pragma.c instrumented whole"
assert_contains deep_pragma.err "^deep_pragma\.c: note: 8 of 8 OpenMP constructs instrumented" "... and counted"
cc -fopenmp deep_pragma.c -o deep_pragma.plain
assert_eq "$(OMP_NUM_THREADS=2 POMP_OUTPUT_DIR=deep_pragma.d ./deep_pragma 2> /dev/null)" "$(OMP_NUM_THREADS=2 ./deep_pragma.plain)" "deep_pragma: the program's output"
for line in 13 15 17 19 21 23; do
    instrumented deep_pragma.d parallel "$line" "a macro-made parallel for at line $line"
    assert_eq "$(region_sum deep_pragma.d for "$line" visits)" 2 "the loop of the macro-made parallel for at line $line, on both threads"
done
assert_eq "$(region_sum deep_pragma.d critical 27 visits)" 2 "_Pragma(STR(omp critical)) in a macro: instrumented, once per thread"
"$BUILD/bin/pomp-report" --check deep_pragma.d > /dev/null || fail "deep_pragma: pomp-report --check"
# a macro that is a whole [[omp::directive(...)]] (C++): counted and said
cat > attr_macro.cpp <<'C'
#include <cstdio>
#define OMP_PFOR [[omp::directive(parallel for reduction(+:s))]]
int main()
{
    long s = 0;
    OMP_PFOR
    for (int i = 0; i < 100; i++) s += i;
    std::printf("%ld\n", s);
}
C
"$BUILD/bin/pompc++" -fopenmp -std=c++17 --pomp-verbose -c attr_macro.cpp -o attr_macro.o 2> attr_macro.err ||
    { cat attr_macro.err; fail "build attr_macro.cpp"; }
assert_contains attr_macro.err "^attr_macro\.cpp:6:5: note: 'OMP_PFOR' makes 1 OpenMP directive from a macro's body" "an attribute directive from a macro said"
assert_contains attr_macro.err "^attr_macro\.cpp: note: 0 of 1 OpenMP constructs instrumented" "... and counted"

# Comments around macro-made directives (a probe): a comment among an
# invocation's arguments is a blank (it read as a malformed pragma), a comment
# after a #define that goes on over lines holds no inserted line (the #if
# defined that keeps the macro used stood inside it: the file did not
# compile), and a critical's name made by macros is the name (' cs ' before,
# which POMP_FILTER_INCLUDE=name:cs left out)
cat > macro_comments.c <<'C'
#include <stdio.h>
#define PRAGMA(x) _Pragma(#x) /* a helper whose comment
                                 goes on over lines */
#define STR(x) #x // and one that goes on \
                     over a spliced line
#define OMP(x) _Pragma(STR(omp x))
int main(void)
{
    int s = 0, t = 0;
    PRAGMA(omp parallel for /* the hot loop */ reduction(+:s))
    for (int i = 0; i < 10; i++) s += i;
    OMP(parallel for // the second
        reduction(+:t))
    for (int i = 0; i < 10; i++) t += i;
    int line = __LINE__;
#pragma omp parallel num_threads(2)
    {
        PRAGMA(omp critical( cs ))
        s += 1;
        OMP(critical (cs))
        t += 1;
    }
    printf("%d %d %d\n", s, t, line);
    return 0;
}
C
"$POMPCC" -fopenmp -Wunused-macros -Werror --pomp-verbose macro_comments.c -o macro_comments 2> macro_comments.err ||
    { cat macro_comments.err; fail "build macro_comments.c"; }
assert_not_contains macro_comments.err "without instrumentation|malformed|left to the runtime" "macro_comments.c instrumented whole"
assert_contains macro_comments.err "^macro_comments\.c: note: 5 of 5 OpenMP constructs instrumented" "... and counted"
assert_eq "$(OMP_NUM_THREADS=2 POMP_FILTER_INCLUDE=name:cs,type:parallel,type:for POMP_OUTPUT_DIR=macro_comments.d ./macro_comments 2> /dev/null)" "47 47 15" "macro_comments: the program's output (__LINE__ after an invocation over two lines)"
for line in 10 12; do
    instrumented macro_comments.d parallel "$line" "a macro-made parallel for with a comment at line $line"
    assert_eq "$(region_sum macro_comments.d for "$line" visits)" 2 "its loop at line $line, on both threads"
done
assert_eq "$(jq -c '[.regions[] | select(.type == "critical") | .name] | unique' macro_comments.d/profile.json)" '["cs"]' "the macro-made criticals' name"
# The line that keeps a macro used goes before code inserted at the same
# place: an invocation in column 1 right after the #define (it landed after
# that code, mid-line: the file did not compile; a review)
cat > macro_col1.c <<'C'
#include <stdio.h>
int main(void)
{
    int s = 0;
#define PRAGMA(x) _Pragma(#x)
PRAGMA(omp parallel for reduction(+:s))
    for (int i = 0; i < 10; i++) s += i;
#define STR(x) #x
_Pragma(STR(omp parallel for reduction(+:s)))
    for (int i = 0; i < 10; i++) s += i;
    printf("%d\n", s);
    return 0;
}
C
"$POMPCC" -fopenmp -Wunused-macros -Werror macro_col1.c -o macro_col1 2> macro_col1.err || { cat macro_col1.err; fail "build macro_col1.c"; }
assert_not_contains macro_col1.err "without instrumentation|did not compile" "macro_col1.c instrumented"
assert_eq "$(OMP_NUM_THREADS=2 POMP_OUTPUT_DIR=macro_col1.d ./macro_col1 2> /dev/null)" 90 "macro_col1: the program"
instrumented macro_col1.d parallel 6 "an invocation in column 1 after its #define"
instrumented macro_col1.d parallel 9 "a _Pragma of a macro's string in column 1"
# A macro whose body is a _Pragma of a macro's string (#define PF
# _Pragma(PFOR_STR)): instrumented where invoked (neither instrumented nor
# counted before; a review)
printf '#include <stdio.h>\n#define PFOR_STR "omp parallel for reduction(+:s)"\n#define PF _Pragma(PFOR_STR)\nint main(void)\n{\n    int s = 0;\n    PF\n    for (int i = 0; i < 10; i++) s += i;\n    printf("%%d\\n", s);\n    return 0;\n}\n' > pf_str.c
"$POMPCC" -fopenmp -Wunused-macros -Werror --pomp-verbose pf_str.c -o pf_str 2> pf_str.err || { cat pf_str.err; fail "build pf_str.c"; }
assert_contains pf_str.err "^pf_str\.c:7:5: note: instrumented 'parallel for'" "PF instrumented where invoked"
assert_eq "$(OMP_NUM_THREADS=2 POMP_OUTPUT_DIR=pf_str.d ./pf_str 2> /dev/null)" 45 "pf_str: the program"
instrumented pf_str.d parallel 7 "PF's region"

# Pragma macros defined on the command line (-D'OMP(x)=PRAGMA(omp x)', a
# build system's compile definitions): their definitions are in no file, so
# they were neither instrumented nor counted. Read by their tokens: an
# invocation that makes one _Pragma is instrumented, one that makes more (the
# loop header too) is counted and said, as for a macro of the file
cat > cmdline.c <<'C'
#include <stdio.h>
#define PRAGMA(x) _Pragma(#x)
int main(void)
{
    long s = 0, t = 0;
#pragma omp parallel num_threads(2)
    {
        OMP(for reduction(+:s))
        for (int i = 0; i < 1000; i++) s += i;
        OMP_FOR(1000) t += i;
        CL_PRAGMA(omp critical)
        t += 1;
    }
    printf("%ld %ld\n", s, t);
    return 0;
}
C
cl_defs=('-DOMP(x)=PRAGMA(omp x)' '-DCL_PRAGMA(x)=_Pragma(#x)'
         '-DOMP_FOR(n)=_Pragma("omp for reduction(+:t)") for (int i = 0; i < (n); i++)')
"$POMPCC" -fopenmp --pomp-verbose "${cl_defs[@]}" cmdline.c -o cmdline 2> cmdline.err || { cat cmdline.err; fail "build cmdline.c"; }
assert_contains cmdline.err "^cmdline\.c:8:9: note: instrumented 'for'" "a command-line OMP(x) instrumented"
assert_contains cmdline.err "^cmdline\.c:11:9: note: instrumented 'critical'" "a command-line PRAGMA(x) instrumented"
assert_contains cmdline.err "^cmdline\.c: warning: 3 of 4 OpenMP constructs instrumented; 1 left to the runtime's events" \
    "a command-line macro that makes more than the _Pragma: counted and said"
assert_eq "$(POMP_OUTPUT_DIR=cmdline.d ./cmdline 2> /dev/null)" "499500 499502" "cmdline: the program"
instrumented cmdline.d for 8 "the command-line OMP(for)"
assert_eq "$(region_sum cmdline.d critical 11 visits)" 2 "the command-line PRAGMA(omp critical), once per thread"
# a file whose only directive comes from such a macro (no pragma, no omp_, no
# main of its own): the quick look before instrumenting compiled it as it was
printf 'void work(long *s)\n{\n    CL_PRAGMA(omp parallel for reduction(+:s[0]))\n    for (int i = 0; i < 100; i++) s[0] += i;\n}\n' > cl_lib.c
printf '#include <stdio.h>\nvoid work(long *s);\nint main(void) { long s = 0; work(&s); printf("%%ld\\n", s); return 0; }\n' > cl_main.c
"$POMPCC" -fopenmp --pomp-verbose "${cl_defs[@]}" cl_lib.c cl_main.c -o cl_lib 2> cl_lib.err || { cat cl_lib.err; fail "build cl_lib.c"; }
assert_contains cl_lib.err "^cl_lib\.c:3:5: note: instrumented 'parallel for'" "a file with a command-line pragma macro only"
assert_eq "$(POMP_OUTPUT_DIR=cl_lib.d ./cl_lib 2> /dev/null)" 4950 "cl_lib: the program"
instrumented cl_lib.d parallel 3 "cl_lib's parallel for"

assert_eq "$(($(region_sum macro_comments.d critical 18 visits) + $(region_sum macro_comments.d critical 20 visits)))" 4 \
    "both criticals recorded under POMP_FILTER_INCLUDE=name:cs, once per thread each"

# Waits in an untied task that may resume on another thread (untied_waits.c
# says why): no unmatched event, the taskgroup's wait the runtime's, and with
# a taskloop there the run is not rated
cp "$PAT/untied_waits.c" .
for compiler in gcc $([ -n "$E2E_SANITIZE" ] || echo clang-19); do
    c=${compiler%-19}
    build_and_run "$compiler" untied_waits.c "uwaits_$c" -O2
    assert_eq "$(cat "uwaits_$c.out")" "done=1 iterations=0" "untied waits ($compiler): the program"
    assert_eq "$(jq '[.threads[].nesting_errors // 0] | add' "uwaits_$c.dir/profile.json")" 0 \
        "untied waits ($compiler): no unmatched event"
    no_region "uwaits_$c.dir" taskgroup "$(at untied_waits.c P_UNTIED_TASKGROUP)" "untied waits ($compiler): the taskgroup has no events"
    wait_ms=$(jq '[.regions[] | select(.type == "taskgroup" or (.type == "wait" and .name == "taskgroup")) | .id] as $ids
                  | [.callpath[] | select(.region as $r | $ids | index($r)) | .per_thread[].incl_ns] | add // 0 | . / 1e6 | floor' "uwaits_$c.dir/profile.json")
    [ "$wait_ms" -ge 10 ] || { "$REPORT" "uwaits_$c.dir"; fail "untied waits ($compiler): the taskgroup's wait is $wait_ms ms (the child spins 30 ms, the block 10)"; }
    "$REPORT" --check "uwaits_$c.dir" > /dev/null || fail "untied waits ($compiler): --check"
    build_and_run "$compiler" untied_waits.c "uloop_$c" -O2 -DWITH_TASKLOOP
    assert_eq "$(cat "uloop_$c.out")" "done=1 iterations=4" "untied taskloop ($compiler): the program"
    "$REPORT" "uloop_$c.dir" > "uloop_$c.report"
    assert_contains "uloop_$c.report" "^\(the run\) .*not rated: the tasks of a taskloop in an untied task are not measured" \
        "untied taskloop ($compiler): not rated"
done

# A #pragma written inside a macro invocation's arguments (a timing macro
# around a block): GCC moves the directive before the whole expansion, so code
# put at the directive ran inside the construct: the single read 1 visit for
# 2 threads' encounters (a probe). Left to the runtime's events, said; gcc
# only (clang rejects such a directive).
cat > pragma_in_args.c <<'C'
#include <stdio.h>
#include <omp.h>
#define TIMED(block) do { double t0 = omp_get_wtime(); block; \
    if (omp_get_wtime() < t0) printf("clock went back\n"); } while (0)
int main(void)
{
    int e = 0;
#pragma omp parallel num_threads(2)
    {
        TIMED({
#pragma omp single
            e++;
        });
    }
    printf("e=%d\n", e);
    return 0;
}
C
"$POMPCC" -fopenmp -O2 pragma_in_args.c -o pia 2> pia.err || { cat pia.err; fail "a pragma in macro arguments: build"; }
assert_contains pia.err "^pragma_in_args\.c:$(at pragma_in_args.c 'omp single'):[0-9]+: warning: '#pragma omp single' is not instrumented: it is written inside the arguments of macro 'TIMED'" \
    "a pragma in macro arguments: left to the runtime, said with file:line:col"
assert_eq "$(OMP_NUM_THREADS=2 POMP_OUTPUT_DIR=pia.d ./pia 2> /dev/null)" "e=1" "a pragma in macro arguments: the program"
no_region pia.d single "$(at pragma_in_args.c 'omp single')" "a pragma in macro arguments"
assert_eq "$(jq '[.regions[] | select(.type == "single") | .id] as $s
                 | [.callpath[] | select(.region as $r | $s | index($r)) | .per_thread[].visits] | add' pia.d/profile.json)" 2 \
    "a pragma in macro arguments: the single's two encounters, from the runtime's events"
"$REPORT" --check pia.d > /dev/null || fail "a pragma in macro arguments: --check"
# A construct written inside a macro invocation's argument (a _Pragma there is
# compiled in place): its lines are where it is written, not the invocation's
# (libclang presumes such a line at the invocation: "mac.c:8-7", an end before
# the start; a probe)
cat > loop_in_args.c <<'C'
#include <stdio.h>
#define RUN(x) x
int main(void)
{
    int total = 0;
    RUN(
    _Pragma("omp parallel for num_threads(2) reduction(+ : total)")
    for (int i = 0; i < 10; i++)
        total += 1;   /* END */
    )
    printf("%d\n", total);
    return 0;
}
C
"$POMPCC" -fopenmp -O2 loop_in_args.c -o lia 2> lia.err || { cat lia.err; fail "a loop in a macro argument: build"; }
assert_eq "$(POMP_OUTPUT_DIR=lia.d ./lia 2> /dev/null)" 10 "a loop in a macro argument: the program"
assert_eq "$(jq -r '[.regions[] | select(.type == "parallel" or .type == "for") | "\(.type) \(.first_line)-\(.last_line)"] | sort | join(", ")' lia.d/profile.json)" \
    "for $(at loop_in_args.c '_Pragma')-$(at loop_in_args.c 'END'), parallel $(at loop_in_args.c '_Pragma')-$(at loop_in_args.c 'END')" \
    "a loop in a macro argument: its lines where it is written"
echo "real patterns: gcc and clang-19, a pragma in macro arguments, a loop in one"
