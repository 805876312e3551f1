# omp_control_tool() drives the measurement (seed 000 §8): pause and start are
# POMP_Off and POMP_On, flush has nothing to write early, end finalizes (the
# profile is written at that point), other commands are ignored. For a
# pompcc-built program and, through pomprun, for one built without pomp.
source "$(dirname "$0")/lib.sh"
[ -n "$E2E_SANITIZE" ] && exit 0 # clang's sanitizer runtime cannot join gcc's in libpomp
cat > ctl.c <<'C'
#include <omp.h>
#include <stdio.h>

static int region(void)
{
    int n = 0;
    #pragma omp parallel num_threads(2) reduction(+: n)
    n++;
    return n;
}

int main(void)
{
    int n = region();                                           /* measured */
    int paused = omp_control_tool(omp_control_tool_pause, 0, NULL);
    #pragma omp parallel num_threads(2) reduction(+: n)
    n++;                                                        /* paused: not measured */
    int started = omp_control_tool(omp_control_tool_start, 0, NULL);
    #pragma omp parallel num_threads(2) reduction(+: n)
    n++;                                                        /* measured */
    int flushed = omp_control_tool(omp_control_tool_flush, 0, NULL);
    int unknown = omp_control_tool(64, 0, NULL);
    int ended = omp_control_tool(omp_control_tool_end, 0, NULL);
    #pragma omp parallel num_threads(2) reduction(+: n)
    n++;                                                        /* after the end: not measured */
    int again = omp_control_tool(omp_control_tool_start, 0, NULL);
    printf("%d pause=%d start=%d flush=%d unknown=%d end=%d start_after_end=%d\n", n, paused,
           started, flushed, unknown, ended, again);
    return 0;
}
C
lines=($(grep -n '#pragma omp parallel' ctl.c | cut -d: -f1)) # region(), paused, started, ended
expected="8 pause=0 start=0 flush=0 unknown=1 end=0 start_after_end=1"

check() { # DIR LABEL
    local d=$1 what=$2
    [ -f $d/profile.json ] || fail "$what: omp_control_tool_end wrote no profile"
    for i in 0 2; do
        assert_eq "$(region_sum $d parallel ${lines[$i]} visits)" 1 "$what: region at line ${lines[$i]} measured"
    done
    for i in 1 3; do
        assert_eq "$(region_sum $d parallel ${lines[$i]} visits)" 0 "$what: region at line ${lines[$i]} not measured"
    done
    assert_eq "$(jq '[.threads[].nesting_errors] | add' $d/profile.json)" 0 "$what: nesting errors"
}

POMP_CC=clang-19 "$POMPCC" -g -fopenmp ctl.c -o ctl
assert_eq "$(POMP_OUTPUT_DIR=inst ./ctl)" "$expected" "pompcc build: the program's output and the commands' results"
check inst "pompcc build"

clang-19 -g -fopenmp ctl.c -o ctl_plain
assert_eq "$(POMP_OUTPUT_DIR=run "$BUILD/bin/pomprun" ./ctl_plain)" "$expected" "pomprun: the commands' results"
check run "pomprun"

# No tool: the runtime answers omp_control_tool_notool (-2).
assert_eq "$(POMP_OMPT=off POMP_OUTPUT_DIR=off ./ctl | cut -d' ' -f2)" "pause=-2" "POMP_OMPT=off: no tool"

# OMP_TOOL=disabled: LLVM libomp starts no tool, and the runtime's events are
# lost as under POMP_OMPT=off; the profile and the report say so (both read
# as fully measured: synchronisation 100 %, no word; a probe)
assert_eq "$(OMP_TOOL=disabled POMP_OUTPUT_DIR=disabled ./ctl | cut -d' ' -f2)" "pause=-2" "OMP_TOOL=disabled: no tool"
assert_eq "$(jq -r '.runtime_events_off_by' disabled/profile.json)" OMP_TOOL=disabled \
    "OMP_TOOL=disabled: the profile names the setting"
"$REPORT" disabled > disabled.txt
assert_contains disabled.txt "! waits not measured: OMP_TOOL=disabled turns the runtime's reports off.*OMP_TOOL unset \(or enabled\) measures them" \
    "OMP_TOOL=disabled: the report says what it lost and what measures it"
assert_eq "$(jq -r '.runtime_events_off_by // "none"' inst/profile.json)" none "the tool on: nothing said"

# Another OMPT tool in OMP_TOOL_LIBRARIES: libomp starts one tool, pomp's
# (found in the program, or first in pomprun's list); the other is not
# started, and that is said (it went without a word; a probe). With
# POMP_OMPT=off it is the runtime's tool again.
cat > othertool.c <<'C'
#include <omp-tools.h>
#include <stdio.h>
ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version)
{
    (void)omp_version;
    (void)runtime_version;
    printf("other tool started\n");
    return NULL;
}
C
clang-19 -shared -fPIC -O2 othertool.c -o libothertool.so
for how in pompcc pomprun; do
    case $how in pompcc) cmd=./ctl ;; pomprun) cmd="$BUILD/bin/pomprun ./ctl_plain" ;; esac
    OMP_TOOL_LIBRARIES=$PWD/libothertool.so POMP_OUTPUT_DIR=other_$how $cmd > other.out 2> other.err
    assert_not_contains other.out "other tool started" "$how: the other tool is not started (one tool per program)"
    assert_contains other.err "^pomp: warning: OMP_TOOL_LIBRARIES names another OMPT tool \($PWD/libothertool.so\): the runtime starts one tool per program, and started pomp's" \
        "$how: said"
done
OMP_TOOL_LIBRARIES=$PWD/libothertool.so POMP_OMPT=off POMP_OUTPUT_DIR=other_off ./ctl > other.out 2> other.err
assert_contains other.out "^other tool started$" "POMP_OMPT=off: the other tool is the runtime's"
assert_not_contains other.err "names another OMPT tool" "POMP_OMPT=off: nothing to say"
OMP_TOOL_LIBRARIES=$BUILD/lib/libpomp.so POMP_OUTPUT_DIR=own ./ctl > /dev/null 2> own.err
assert_not_contains own.err "names another OMPT tool" "libpomp itself in the list: nothing to say"
echo "omp_control_tool: pause, start, flush and end drive the measurement; OMP_TOOL=disabled and another tool said"
