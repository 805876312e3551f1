# Less common libgomp entry points in small real GCC programs
# (tests/realcode/gomp_entries): schedule(runtime) under OMP_SCHEDULE, the
# nonmonotonic/monotonic/maybe_nonmonotonic forms and their _ull twins, combined
# parallel loops, ordered loops (static, runtime, guided ull), doacross of 1 and
# 2 dimensions (also ull), collapse(2), lastprivate(conditional:), sections with
# lastprivate and parallel sections, single copyprivate, scope, masked, taskloop
# (grainsize, num_tasks, reduction, ull), task/taskgroup reductions,
# mutexinoutset, taskwait depend, detach, parallel reduction(task,...), host
# teams, nested parallel, nest and test locks, omp_pause_resource_all and
# omp_display_affinity. Each program is built plain (gcc -O2 -g -fopenmp), run
# plainly, under pomprun, and built with pompcc: the output is the plain one
# (sorted: affinity lines come in thread order), and the profile holds the
# counts the programs' schedules give (chunks at POMP_LOOP=Chunks, doacross
# waits and posts, tasks, lock waits).
REAL="$(cd "$(dirname "$0")/../realcode/gomp_entries" && pwd)"
source "$(dirname "$0")/lib.sh"
POMPRUN="$BUILD/bin/pomprun"
if [ -n "$E2E_SANITIZE" ]; then # (a sanitized libpomp is not preloaded into a plain program)
    echo "skipped under the sanitizers: pomprun preloads libpomp into plain programs"
    exit 77
fi
cp "$REAL"/*.c .
export OMP_NUM_THREADS=2 POMP_LOOP=Chunks OMP_MAX_ACTIVE_LEVELS=2

# go NAME [ENV=VAL...]: builds NAME plain and with pompcc, runs the three; the
# profiles land in NAME.run and NAME.cc
go() {
    local n=$1
    shift
    cc -O2 -g -fopenmp "$n.c" -o "$n"
    "$POMPCC" -O2 -g -fopenmp "$n.c" -o "$n.pompcc" 2> "$n.build" || { cat "$n.build"; fail "pompcc $n.c"; }
    env "$@" timeout 60 ./"$n" > "$n.plain" 2> "$n.plain.err" || fail "$n: the plain build failed"
    env "$@" POMP_OUTPUT_DIR=$n.run timeout 60 "$POMPRUN" ./"$n" > "$n.run.txt" 2> "$n.run.err" || fail "$n: pomprun failed"
    env "$@" POMP_OUTPUT_DIR=$n.cc timeout 60 ./"$n.pompcc" > "$n.cc.txt" 2> "$n.cc.err" || fail "$n: the pompcc build failed"
    diff <(sort "$n.plain") <(sort "$n.run.txt") || fail "$n: pomprun's output differs from the plain run"
    diff <(sort "$n.plain") <(sort "$n.cc.txt") || fail "$n: the pompcc build's output differs from the plain run"
    ldd "$n.pompcc" > "$n.ldd"
    grep -q 'libgomp\.so' "$n.ldd" || fail "$n: the pompcc build is not on libgomp"
    ! grep -q 'libomp\.so' "$n.ldd" || fail "$n: the pompcc build loads libomp"
}
# sums DIR TYPE FIELD: the sorted list of FIELD's totals of every region of TYPE
sums() {
    jq -r --arg t "$2" --arg f "$3" '.regions[] as $r | select($r.type == $t)
      | [.callpath[] | select(.region == $r.id) | .per_thread[][$f]] | add // 0' "$1/profile.json" | sort -n | paste -sd' '
}
total() { # DIR TYPE FIELD
    jq -r --arg t "$2" --arg f "$3" '([.regions[] | select(.type == $t) | .id]) as $ids
      | [.callpath[] | select(.region as $r | $ids | index($r)) | .per_thread[][$f]] | add // 0' "$1/profile.json"
}

# loops.c: chunks of the runtime (dynamic,13), nonmonotonic dynamic,7,
# monotonic guided,3, ull dynamic,10, long long guided, collapse(2) dynamic,16,
# ordered dynamic,5, doacross static,1 and ull doacross dynamic,3
go loops OMP_SCHEDULE=dynamic,13
for d in loops.run loops.cc; do
    assert_eq "$(sums $d for begins)" "9 10 33 39 40 77 100 143 256" "$d: chunks per loop"
    assert_eq "$(total $d ordered visits)" 200 "$d: ordered visits"
done
# doacross: pomprun counts each wait libgomp is asked for and each post
# (1482+1482 waits and 1521 posts; 98 and 99), pompcc each construct executed
assert_eq "$(total loops.run task_dependences visits)" 4682 "loops.run: doacross waits and posts"
assert_eq "$(sums loops.cc doacross visits)" "99 99 1521 1521" "loops.cc: doacross constructs"

# loops2.c: combined and generic forms under four OMP_SCHEDULE values; the
# expected chunks are libgomp's (1000 iterations, or 100/99 for the ordered and
# doacross loops, on 2 threads)
for s in "dynamic,13:2 6 7 8 8 9 25 77 77 77 77 77 125" "static:2 2 2 2 2 2 2 2 6 7 9 25 125" \
         "static,50:2 2 2 6 7 9 20 20 20 20 20 25 125" "guided,7:2 5 5 6 7 8 8 8 8 8 9 25 125"; do
    sched=${s%%:*} want=${s#*:}
    rm -rf loops2.run loops2.cc
    go loops2 OMP_SCHEDULE=$sched
    for d in loops2.run loops2.cc; do
        assert_eq "$(sums $d for begins)" "$want" "$d (OMP_SCHEDULE=$sched): chunks per loop"
        assert_eq "$(total $d ordered visits)" 500 "$d: ordered visits"
    done
done

# tasks.c: 10+7+20 taskloop tasks, 10 in_reduction, 6 mutexinoutset, 1 depend,
# 1 detach, 8 in a parallel reduction(task), 20 in a for reduction(task)
go tasks
assert_eq "$(total tasks.run task_create visits)" 83 "tasks.run: tasks created"
assert_eq "$(total tasks.run task begins)" 82 "tasks.run: tasks run (the detachable one unmeasured, said)"
assert_contains tasks.run.err "note: 1 task created on libgomp went unmeasured.*detachable" "tasks.run: the detachable task is said"
assert_eq "$(total tasks.cc task begins)" 83 "tasks.cc: tasks run"

# ws.c: 3 sections x 3, 3+4+1 singles, copyprivate's barriers (5 per single)
go ws
assert_eq "$(total ws.run sections visits)" 6 "ws.run: sections"
assert_eq "$(total ws.run single visits)" 16 "ws.run: singles"
assert_eq "$(total ws.cc sections visits)" 6 "ws.cc: sections"
assert_eq "$(total ws.cc single visits)" 16 "ws.cc: singles"
assert_eq "$(total ws.cc masked begins)" 1 "ws.cc: masked filter(1)"

# misc.c: host teams, nested parallel, nest and test locks, pauses, affinity
go misc
assert_eq "$(jq '[.regions[] as $r | select($r.type == "wait" and $r.name == "nest_lock")
  | .callpath[] | select(.region == $r.id) | .per_thread[].visits] | add' misc.run/profile.json)" 400 "misc.run: nest lock waits"
assert_eq "$(total misc.cc omp_set_nest_lock visits)" 400 "misc.cc: omp_set_nest_lock"
assert_eq "$(total misc.cc omp_test_lock visits)" 100 "misc.cc: omp_test_lock"
assert_eq "$(total misc.cc teams visits)" 1 "misc.cc: teams"
echo "realcode gomp entries: rarer libgomp entry points under pomprun and pompcc: the plain output, libgomp kept, chunks, doacross, ordered, tasks, worksharing and lock counts as the schedules give them"
