# Device and league constructs (constructs/target.c): target data (with its
# host block), target, target update, target enter/exit data and a combined
# target construct get Target events on the host, nothing inside them or in a
# declare target block; host teams with distribute, teams distribute parallel
# for and teams loop (around the whole, not split); doacross ordered. Built with GCC on libgomp (GCC's target
# entry points are not in LLVM libomp, and libomp 19 crashes in GCC's doacross
# with one thread) and with Clang on libomp: the same output and events.
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/lib.sh"
source "$HERE/lib_constructs.sh"
cp "$HERE"/constructs/target.c .

check() { # PROGRAM
    local T
    for T in 1 4; do
expect_events $1.$T target.c $T <<'SPEC'
1 Target_data_enter target_data @tdata
1 Target_data_begin target_data @tdata
1 Target_data_end target_data @tdata
1 Target_data_exit target_data @tdata
1 Target_enter target @target
1 Target_exit target @target
1 Target_enter target_update @tupdate
1 Target_exit target_update @tupdate
1 Target_enter target_enter_data @tenter
1 Target_exit target_enter_data @tenter
1 Target_enter target_teams_distribute_parallel_for_simd @ttdpfs
1 Target_exit target_teams_distribute_parallel_for_simd @ttdpfs
1 Target_enter target @target2
1 Target_exit target @target2
1 Target_enter target_exit_data @texit
1 Target_exit target_exit_data @texit
# host teams: the initial thread of each of the 2 teams begins the block
1 Teams_enter teams @teams
2 Teams_begin teams @teams
2 Teams_end teams @teams
1 Teams_exit teams @teams
2 Distribute_enter distribute @distribute
2 Distribute_exit distribute @distribute
# teams distribute parallel for: teams + the composite distribute parallel for
1 Teams_enter teams @tdpf
2 Teams_begin teams @tdpf
2 Teams_end teams @tdpf
1 Teams_exit teams @tdpf
2 Distribute_enter distribute_parallel_for @tdpf
2 Distribute_exit distribute_parallel_for @tdpf
1 Teams_enter teams_loop @tloop
1 Teams_exit teams_loop @tloop
1 Parallel_enter parallel @doacross
T Parallel_begin parallel @doacross
T Parallel_end parallel @doacross
1 Parallel_exit parallel @doacross
T Loop_enter for @doacross
T Loop_exit for @doacross
63 Doacross_enter doacross @sink
63 Doacross_exit doacross @sink
63 Doacross_event doacross @source
SPEC
    done
}
build_and_compare target.c tg --pomp-runtime=gomp
check tg
# The regions the runtime names from the debug information (the parallel
# regions of the split teams distribute parallel for) are named at their
# pragma's line: the inner pragma of a split came after inserted lines with no
# #line before it, and its outlined code was named two lines down (at a
# comment after the loop; a probe).
"$POMPCC" -g -fopenmp --pomp-runtime=gomp target.c -o tg_g 2> tg_g.build || { cat tg_g.build; fail "pompcc -g target.c"; }
POMP_OMPT=on OMP_NUM_THREADS=2 POMP_OUTPUT_DIR=tg_g.out ./tg_g > /dev/null
named=$(jq -r '.regions[] | select(.init == "ompt" and .file == "target.c") | "\(.type) \(.first_line)"' tg_g.out/profile.json)
[ -n "$named" ] || fail "target.c -g: no region named by the runtime"
while read -r type line; do
    sed -n "${line}p" target.c | grep -Eq '^[[:space:]]*#[[:space:]]*pragma[[:space:]]+omp' ||
        fail "target.c -g: the runtime's $type named at line $line, no omp pragma there: $(sed -n "${line}p" target.c)"
done <<< "$named"
assert_contains <(echo "$named") "^parallel $(line_of target.c @tdpf)$" "target.c -g: the split's parallel at its pragma"
# Nothing in device code: the generated file has no POMP call inside the target
# regions and the declare target function (all of them are counted above).
"$BUILD/bin/pomp-instrument" --verbose target.c tg.pomp.c -- -fopenmp 2> notes.txt
assert_contains notes.txt "target.c:$(line_of target.c @in_target):[0-9]+: note: left alone: inside a target region" "note for device code"
assert_contains notes.txt "target.c:$(line_of target.c @in_declare_target):[0-9]+: note: left alone: in device code \(a declare target block" "note for declare target"
# ... and said without --verbose too, once per file: such a function runs on
# the host as well, where its worksharing constructs went unmeasured unsaid
"$BUILD/bin/pomp-instrument" target.c tg.pomp.c -- -fopenmp 2> quiet_notes.txt
assert_eq "$(grep -c "other OpenMP constructs of device code in this file" quiet_notes.txt)" 1 \
          "declare target: said once without --verbose"
assert_contains quiet_notes.txt "target.c:$(line_of target.c @in_declare_target):[0-9]+: note: .* where they run on the host, only the runtime's events measure them" \
                "declare target: said at its first construct"
# Directly in a teams region, no omp_get_thread_num (GCC rejects it there): thread 0.
grep -q "POMP_Teams_begin((\*pomp_h_([0-9]*)), 0)" tg.pomp.c || fail "Teams_begin with thread id 0"

[ -n "$E2E_SANITIZE" ] && exit 0 # clang's sanitizer runtime cannot join gcc's in libpomp
POMP_CC=clang-19 build_and_compare target.c tgc
check tgc
