# Target offloading on the host device (clang-19 -fopenmp-targets=x86_64-pc-linux-gnu,
# libomptarget's host plugin: runs here and in CI): progs/device.c moves known
# amounts of data. The OMPT bridge must report every transfer with its bytes
# under the construct that caused it, both kernels with their teams, a device
# stream beside the host thread in the profile and the traces, and say that
# the runtime offers no device tracing. Also under pomprun, uninstrumented.
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/lib.sh"
[ -z "$E2E_SANITIZE" ] || { echo "skipped under sanitizers: Clang objects cannot join gcc's sanitizer runtime"; exit 77; }
cp "$HERE/progs/device.c" .
OFFLOAD=(-fopenmp -fopenmp-targets=x86_64-pc-linux-gnu)
N=100000 M=5000

# the reference: the same program built by clang alone
clang-19 -g "${OFFLOAD[@]}" device.c -o plain -Wl,-rpath,$LIBOMP_DIR
./plain > plain.txt
assert_contains plain.txt '^sum=' "plain program runs"

# pompcc picks clang-19 for the offload flags, keeps -fopenmp at the link, links libomptarget
"$POMPCC" -g "${OFFLOAD[@]}" device.c -o app 2> build.err || { cat build.err; fail "pompcc offload build"; }
ldd app | grep "libomptarget.so.* => $LIBOMP_DIR" > /dev/null || fail "app is not linked with libomptarget from $LIBOMP_DIR"
POMP_OUTPUT_DIR=out POMP_TRACE=both ./app > app.txt
diff plain.txt app.txt || fail "the instrumented program's output differs"
P=out/profile.json

# the CTC of the target constructs: device and map clauses
DATA=$(line_of device.c "omp target data") KERNEL=$(line_of device.c "@kernel */")
UPDATE=$(line_of device.c "omp target update") ENTER=$(line_of device.c "omp target enter data")
EXIT=$(line_of device.c "omp target exit data") KERNEL2=$(line_of device.c "@kernel2")
TTDPF=$((KERNEL - 1)) TTDPF2=$((KERNEL2 - 1))
assert_eq "$(jq -r --argjson l $DATA '.regions[] | select(.type == "target data" and .first_line == $l) | .ctc | sub("^[0-9]+"; "")' $P)" \
    "*type=target data*file=device.c*slines=$DATA,$DATA*elines=$((UPDATE + 2)),$((UPDATE + 2))*device=0*map=to: a[0:N];from: b[0:N]**" \
    "target data CTC with device and map"

# devices: one device, host timing, a note that names the missing tracing entry points
assert_eq "$(jq '.devices | length' $P)" 1 "one device"
assert_eq "$(jq -r '.devices[0].timing' $P)" host "host timing"
jq -r '.devices[0].note' $P > note.txt
assert_contains note.txt 'no OMPT device tracing.*ompt_start_trace' "the note says device tracing is absent"
assert_eq "$(jq '.devices[0].modules' $P)" 1 "one device image loaded"
# the device stream: a column of its own, from thread 0
assert_eq "$(jq -c '[.threads[] | select(.device != null) | [.device, .host_thread]]' $P)" "[[0,0]]" "one device stream"

# totals: kernels and bytes per direction
total() { jq -r ".devices[0].total.$1" $P; }
assert_eq "$(total kernels.count)" 2 "kernels"
assert_eq "$(total kernels.teams_max)" 2 "teams requested"
assert_eq "$(total to_device.bytes)" $((8 * N + 8 * M)) "bytes to the device"
assert_eq "$(total from_device.bytes)" $((2 * 8 * N + 8 * M)) "bytes from the device"
assert_eq "$(total to_device.count)" 2 "transfers to the device"
assert_eq "$(total from_device.count)" 3 "transfers from the device"

# per target region: what each construct moved, and its device time
per() { # TYPE LINE FIELD
    jq -r --arg t "$1" --argjson l "$2" '
      ([.regions[] | select(.type == $t and .first_line == $l) | .id]) as $ids
      | [.devices[0].regions[] | select(.region as $r | $ids | index($r)) | .'"$3"' // 0] | add // 0' $P
}
assert_eq "$(per "target data" $DATA to_device.bytes)" $((8 * N)) "target data: a to the device"
assert_eq "$(per "target data" $DATA from_device.bytes)" $((8 * N)) "target data: b back at its end"
assert_eq "$(per "target update" $UPDATE from_device.bytes)" $((8 * N)) "target update: b"
assert_eq "$(per "target enter data" $ENTER to_device.bytes)" $((8 * M)) "enter data: c"
assert_eq "$(per "target exit data" $EXIT from_device.bytes)" $((8 * M)) "exit data: c"
for L in $TTDPF $TTDPF2; do
    assert_eq "$(per "target teams distribute parallel for" $L kernels.count)" 1 "one kernel at line $L"
    ns=$(per "target teams distribute parallel for" $L kernels.ns)
    [ "${ns%.*}" -gt 0 ] || fail "kernel at line $L has no device time"
done

# the call path: the kernel under its construct, on the device stream's column only
STREAM=$(jq '.threads[] | select(.device == 0) | .index' $P)
assert_eq "$(jq -r --argjson l $TTDPF --argjson s $STREAM '
    ([.regions[] | select(.type == "target teams distribute parallel for" and .first_line == $l) | .id][0]) as $t
    | ([.regions[] | select(.type == "kernel" and .first_line == $l) | .id][0]) as $k
    | ([.callpath[] | select(.region == $t) | .id]) as $tn
    | [.callpath[] | select(.region == $k and (.parent as $p | $tn | index($p))) | .per_thread[].thread] | join(",")' $P)" \
    "$STREAM" "kernel node under its target construct, on the device stream"

# the traces: the stream is an accelerator location with the kernels and transfers
otf2-print -G out/traces.otf2 > defs.txt
assert_contains defs.txt 'LOCATION_GROUP .*"device 0".*Type: ACCELERATOR' "OTF2 device location group"
assert_contains defs.txt 'LOCATION .*"device 0 from thread 0".*Type: ACCELERATOR_STREAM' "OTF2 device stream"
otf2_nesting out/traces.otf2 > /dev/null
otf2-print out/traces.otf2 | awk -v s=$STREAM '$1 == "ENTER" && $2 == s' > stream.txt
assert_eq "$(grep -c "Region: \"kernel @ device.c" stream.txt)" 2 "kernels on the device location"
assert_eq "$(grep -c "Region: \"transfer to device @ device.c" stream.txt)" 2 "transfers to the device on its location"
jq -r '.traceEvents[] | select(.name == "thread_name") | .args.name' out/trace.json > names.txt
assert_contains names.txt '^device 0 from thread 0$' "Chrome trace names the device stream"

# pomp-report: the devices section
"$REPORT" out > report.txt
assert_contains report.txt '^Devices' "report devices section"
assert_contains report.txt "^device 0 \(generic-64bit\) +2 .* 2 +$((8 * N + 8 * M)) " "report device totals"
assert_contains report.txt '1 device stream' "report counts the stream apart from the threads"
# each target region's row keeps its whole lines (cut to 14 characters,
# "device.c:40-45" lost its end, and long file names their lines; a probe)
cp device.c long_named_device.c
"$POMPCC" -g "${OFFLOAD[@]}" long_named_device.c -o long_named 2> build.err || { cat build.err; fail "pompcc offload build (long name)"; }
POMP_OUTPUT_DIR=long_out ./long_named > /dev/null
"$REPORT" long_out > long_report.txt
assert_contains long_report.txt "^target data +long_named_device\.c:$DATA-[0-9]+ dev 0 " "report: a target region's row, its lines whole"
# a location past the column's 100 characters is cut by its middle, as the
# other tables cut theirs: its first directory and its end kept (it lost its
# start, cut from the left: a review)
deep=project/kernels_for_the_accelerator_of_the_cluster/offload_variants/double_precision
mkdir -p "$deep" && cp device.c "$deep/device.c"
"$POMPCC" -g "${OFFLOAD[@]}" "$deep/device.c" -o deep_app 2> build.err || { cat build.err; fail "pompcc offload build (deep path)"; }
POMP_OUTPUT_DIR=deep_out ./deep_app > /dev/null
"$REPORT" deep_out > deep_report.txt
assert_contains deep_report.txt "^target data project/\.\.\.[a-z_/]*/device\.c:$DATA-[0-9]+ dev 0 " \
    "report: a long location cut by its middle"

# device code by a declare target list after the function, by a device
# variant, or by a call in a target region (leaf, through called): its
# constructs are left alone, and the program links (they were instrumented,
# and the device link failed on the handles; a probe)
cat > listed.c <<'C'
#include <stdio.h>
int helper(const int *a, int n)
{
    int s = 0;
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < n; i++)
        s += a[i];
    return s;
}
#pragma omp declare target to(helper)
#pragma omp declare target
int work(int n);
#pragma omp end declare target
#pragma omp begin declare variant match(device = {kind(nohost)})
int work(int n)
{
    int s = 0;
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < n; i++)
        s += 2;
    return s;
}
#pragma omp end declare variant
int work(int n) { return n; }
static int leaf(int n)
{
    int s = 0;
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < n; i++)
        s += 3;
    return s;
}
static int called(int n) { return leaf(n) + 1; }
int main(void)
{
    int a[64], h = 0, w = 0, c = 0;
    for (int i = 0; i < 64; i++)
        a[i] = i;
#pragma omp target map(tofrom : h, w, c) map(to : a)
    {
        h = helper(a, 64);
        w = work(10);
        c = called(5);
    }
#pragma omp parallel num_threads(2)
    ;
    printf("%d %d %d %d\n", h, w, c, helper(a, 10));
    return 0;
}
C
"$POMPCC" -g "${OFFLOAD[@]}" listed.c -o listed 2> listed.err || { cat listed.err; fail "pompcc offload build (listed device code)"; }
clang-19 -g "${OFFLOAD[@]}" listed.c -o listed_plain -Wl,-rpath,$LIBOMP_DIR
assert_eq "$(POMP_OUTPUT_DIR=listed_out ./listed)" "$(./listed_plain)" "listed device code: the output"
assert_contains listed.err "^listed.c:5:1: note: '#pragma omp parallel for' and the other OpenMP constructs of device code in this file" \
    "listed device code: said"
assert_eq "$(region_sum listed_out parallel "$(line_of listed.c 'parallel num_threads(2)')" visits)" 1 \
    "listed device code: the host's region instrumented"

# uninstrumented: the same figures from the runtime alone (pomprun)
POMP_OUTPUT_DIR=run "$BUILD/bin/pomprun" ./plain > run.txt
diff plain.txt run.txt || fail "pomprun changed the output"
assert_eq "$(jq -r '.devices[0].total.to_device.bytes' run/profile.json)" $((8 * N + 8 * M)) "pomprun: bytes to the device"
assert_eq "$(jq -r '.devices[0].total.from_device.bytes' run/profile.json)" $((2 * 8 * N + 8 * M)) "pomprun: bytes from the device"
assert_eq "$(jq -r '.devices[0].total.kernels.count' run/profile.json)" 2 "pomprun: kernels"

# POMP_TARGET=none: no device events at all
POMP_OUTPUT_DIR=none POMP_TARGET=none ./app > /dev/null
assert_eq "$(jq '.devices // [] | length' none/profile.json)" 0 "POMP_TARGET=none records no device"
# the HTML report: a Devices table with the device's total and a row per target construct
"$REPORT" out --html report.html 2> /dev/null
require_chromium "the HTML Devices table"
browse report.html > dom.html || { cat browser.err; fail "chromium failed"; }
assert_contains dom.html '<body data-rendered="[^"]*devices' "the devices table rendered"
assert_contains dom.html "<tr class=\"device-total\" data-device=\"0\"><td class=\"name\">device 0 \(generic-64bit\)</td><td class=\"loc\">host-observed times</td><td>2</td><td>[^<]*</td><td data-bytes=\"$((8 * N + 8 * M))\">" "HTML device total"
assert_eq "$(grep -o 'class="device-region"' dom.html | wc -l)" 6 "HTML rows per target construct"

# target nowait: LLVM libomp runs the target task on its hidden helper
# threads, a team it forks for itself. That team is no region of the
# program (it read as a parallel region of 8 threads, and its barrier, open
# at exit around the target task, broke 4 invariants: 8.8e18 ns of own
# time; a probe)
cat > nowait.c <<'C'
#include <stdio.h>
int main(void)
{
    int a[64] = {0};
#pragma omp target map(tofrom : a) nowait
    for (int i = 0; i < 64; i++)
        a[i] = i;
#pragma omp taskwait
    printf("a[63]=%d\n", a[63]);
    return 0;
}
C
"$POMPCC" -g "${OFFLOAD[@]}" nowait.c -o nowait 2> build.err || { cat build.err; fail "pompcc offload build (nowait)"; }
POMP_OUTPUT_DIR=nowait_out ./nowait > nowait.txt
assert_eq "$(cat nowait.txt)" "a[63]=63" "target nowait: the program"
"$REPORT" --check nowait_out > nowait_check.txt || { cat nowait_check.txt; fail "target nowait: --check"; }
assert_eq "$(jq '[.regions[] | select(.type == "parallel" or .type == "implicit_barrier")] | length' nowait_out/profile.json)" 0 \
    "target nowait: no parallel region of the runtime's helpers"
assert_eq "$(jq '.devices[0].total.kernels.count' nowait_out/profile.json)" 1 "target nowait: its kernel"
# the helpers' master waits in a masked block of the runtime's until it shuts
# down: where the bridge follows every construct (pomprun), that was a masked
# region the program does not have, left open at the end and said so (a probe)
clang-19 -g "${OFFLOAD[@]}" nowait.c -o nowait_plain -Wl,-rpath,$LIBOMP_DIR
POMP_OUTPUT_DIR=nowait_run "$BUILD/bin/pomprun" ./nowait_plain > nowait_run.txt 2> nowait_run.err
assert_eq "$(cat nowait_run.txt)" "a[63]=63" "target nowait under pomprun: the program"
assert_eq "$(jq '[.regions[] | select(.type == "masked")] | length' nowait_run/profile.json) $(jq '[.threads[].open_at_end // 0] | add' nowait_run/profile.json)" \
    "0 0" "target nowait under pomprun: no masked region of the runtime's helpers, none open at the end"
assert_not_contains nowait_run.err "still open" "target nowait under pomprun: no open region said"
# optimized, Clang inlines the target task's body (line 0) into its task
# entry (the construct's line): the runtime's target region is named by the
# entry's line (it had no file nor line: "target nowait_O1+0x15c9"; a probe)
"$POMPCC" -g -O1 "${OFFLOAD[@]}" nowait.c -o nowait_O1 2> build.err || { cat build.err; fail "pompcc offload build (nowait, -O1)"; }
POMP_OUTPUT_DIR=nowait_O1_out ./nowait_O1 > /dev/null
assert_eq "$(jq -r '[.regions[] | select(.type == "target" and .init == "ompt") | "\(.file):\(.first_line)"] | join(" ")' nowait_O1_out/profile.json)" \
    "nowait.c:$(line_of nowait.c 'omp target map')" "target nowait, -O1: the runtime's target region at the construct's line"
# sampled: a sample of a helper thread reads the region it works in, and the
# helpers' team is none (the sampler read its marker as a team record: a
# SIGSEGV in each of 3 runs at 100 us; a review)
cat > nowait_sampled.c <<'C'
#include <stdio.h>
#include "work.h"
int main(void)
{
    int a[64] = {0};
    for (int r = 0; r < 20; r++) {
#pragma omp target map(tofrom : a) nowait
        for (int i = 0; i < 64; i++)
            a[i] = i + r;
        spin_ms(20);
#pragma omp taskwait
    }
    printf("a[63]=%d\n", a[63]);
    return 0;
}
C
"$POMPCC" -g -I"$HERE/numbers" "${OFFLOAD[@]}" nowait_sampled.c -o nowait_sampled 2> build.err ||
    { cat build.err; fail "pompcc offload build (nowait, sampled)"; }
rc=0; POMP_SAMPLING=200us POMP_OUTPUT_DIR=nowait_sampled_out ./nowait_sampled > nowait_sampled.txt 2> nowait_sampled.err || rc=$?
[ "$rc" = 0 ] || { cat nowait_sampled.err; fail "target nowait, sampled: exit status $rc"; }
assert_eq "$(cat nowait_sampled.txt)" "a[63]=82" "target nowait, sampled: the program"
"$REPORT" --check nowait_sampled_out > nowait_sampled_check.txt ||
    { cat nowait_sampled_check.txt; fail "target nowait, sampled: --check"; }

# A target region's data movement, sampled: libomptarget's code is the
# runtime's (its samples read main > <OpenMP runtime>), not seven blank frames
# of the offloading library above memmove in the program's path (a probe)
cat > moved.c <<'C'
#include <stdio.h>
#define N 4000000
static double a[N];
int main(void)
{
    double s = 0;
    for (int r = 0; r < 10; r++) {
#pragma omp target map(tofrom : a) map(tofrom : s)
        s += a[r];
    }
    printf("%d\n", s == 0);
    return 0;
}
C
"$POMPCC" -g "${OFFLOAD[@]}" moved.c -o moved 2> build.err || { cat build.err; fail "pompcc offload build (moved)"; }
POMP_SAMPLING=1ms POMP_OUTPUT_DIR=moved_out ./moved > moved.txt 2> moved.err || { cat moved.err; fail "moved: run"; }
assert_eq "$(cat moved.txt)" 1 "moved: the program"
jq -r '.sampling as $s | $s.paths[] | [(.work + .wait), ([.frames[] | $s.frames[.].function] | join(" > "))] | @tsv' \
    moved_out/profile.json > moved_paths.txt
runtime=$(awk -F'\t' '$2 ~ /(^| )main > <OpenMP runtime>$/ {n += $1} END {print n + 0}' moved_paths.txt)
echo "moved: $runtime samples of main > <OpenMP runtime>"
[ "$runtime" -ge 5 ] || { cat moved_paths.txt >&2; fail "moved: the data movement's samples as the runtime's code under main"; }
# (under main: the process's exit runs libLLVM's destructors, whose frames are
# no target region's; the offloading library's start-up calls libstdc++,
# whose frames are no runtime's: a sample or two; a kernel's own frames have
# no names yet, a known limit)
! grep -E 'main > .*__tgt_' moved_paths.txt || fail "moved: the offloading library's frames in a path"
copies=$(awk -F'\t' '$2 ~ /main > .*(memmove|memcpy)/ {n += $1} END {print n + 0}' moved_paths.txt)
[ "$copies" -le 3 ] || { cat moved_paths.txt >&2; fail "moved: $copies samples of the copies under the offloading library's frames"; }

# A plain target region's kernel, run on the host by the encountering thread
# after a teams kernel: its samples go below the function that ran the
# construct (they ended there, as that function's own work: 110 of 117; a
# probe; the task's frame then says it called into the runtime)
cat > kernel.c <<'C'
#include <stdio.h>
#define N 1000000
static double a[N];
__attribute__((noinline)) static void teams_first(void)
{
#pragma omp target teams distribute parallel for map(tofrom : a[0:N])
    for (int i = 0; i < N; i++)
        a[i] = i * 0.5;
}
__attribute__((noinline)) static void runs_target(void)
{
#pragma omp target map(tofrom : a[0:N])
    for (int r = 0; r < 100; r++)
        for (int i = 0; i < N; i++)
            a[i] = a[i] * 0.5 + r;
}
int main(void)
{
    teams_first();
    runs_target();
    printf("%d\n", a[N - 1] > 0);
    return 0;
}
C
"$POMPCC" -g -O1 "${OFFLOAD[@]}" kernel.c -o kernel 2> build.err || { cat build.err; fail "pompcc offload build (kernel)"; }
POMP_SAMPLING=1ms POMP_OUTPUT_DIR=kernel_out ./kernel > kernel.txt 2> kernel.err || { cat kernel.err; fail "kernel: run"; }
assert_eq "$(cat kernel.txt)" 1 "kernel: the program"
jq -r '.sampling as $s | $s.paths[] | [(.work + .wait), ([.frames[] | $s.frames[.].function] | join(" > "))] | @tsv' \
    kernel_out/profile.json > kernel_paths.txt
read -r below at <<< "$(awk -F'\t' '$2 ~ /main > runs_target > / {b += $1} $2 ~ /main > runs_target$/ {a += $1} END {print b + 0, a + 0}' kernel_paths.txt)"
echo "kernel: $below samples below runs_target, $at in it"
[ "$below" -ge 20 ] && [ "$at" -le $((below / 10)) ] || { cat kernel_paths.txt >&2; fail "kernel: the kernel's samples below the function that ran it"; }

# Host code's own device calls, outside every target construct
# (omp_target_alloc, omp_target_memcpy, omp_target_free; one inside a
# parallel region's masked block): in the device's total, and in a row of
# their own (they were in no row, unsaid); the rows add up to the total.
cat > hostops.c <<'C'
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
    int dev = omp_get_default_device(), host = omp_get_initial_device();
    size_t n = 1000;
    double *h = malloc(n * sizeof *h);
    for (size_t i = 0; i < n; i++)
        h[i] = i;
    double *d = omp_target_alloc(n * sizeof *h, dev);
    omp_target_memcpy(d, h, n * sizeof *h, 0, 0, dev, host);
#pragma omp parallel num_threads(2)
    {
#pragma omp masked
        omp_target_memcpy(h, d, n * sizeof *h, 0, 0, host, dev);
    }
#pragma omp target is_device_ptr(d)
    for (size_t i = 0; i < n; i++)
        d[i] *= 2;
    omp_target_memcpy(h, d, n * sizeof *h, 0, 0, host, dev);
    omp_target_free(d, dev);
    printf("%.0f\n", h[n - 1]);
    return 0;
}
C
"$POMPCC" -g "${OFFLOAD[@]}" hostops.c -o hostops 2> build.err || { cat build.err; fail "pompcc offload build (hostops)"; }
POMP_OUTPUT_DIR=hostops_out ./hostops > hostops.txt 2> /dev/null || fail "hostops: run"
assert_eq "$(cat hostops.txt)" 1998 "hostops: the program"
assert_eq "$(jq -c '.devices[0].outside_targets | [.to_device.count, .to_device.bytes, .from_device.count, .from_device.bytes, .alloc.count, .delete.count]' hostops_out/profile.json)" \
    "[1,8000,2,16000,1,1]" "hostops: the host code's operations outside target constructs"
assert_eq "$(jq -c '[.devices[0].regions[] | .kernels.count // 0] | add' hostops_out/profile.json)" 1 "hostops: the kernel under its target construct"
"$REPORT" hostops_out > hostops_report.txt
assert_contains hostops_report.txt '^\(outside target constructs\) dev 0 +0 +0.000 +1 +8000 .* 2 +16000 .*alloc 1 \(8000 bytes\)  delete 1$' \
    "hostops: the report's row outside target constructs"
"$REPORT" --check hostops_out > /dev/null || fail "hostops: --check"
# a profile whose rows miss operations is caught (one from before the row)
mkdir -p hostops_old && touch hostops_old/.broken-on-purpose
jq 'del(.devices[0].outside_targets)' hostops_out/profile.json > hostops_old/profile.json
"$REPORT" --check hostops_old > check.txt 2>&1 && fail "hostops: --check passes rows that miss operations"
assert_contains check.txt "devices\[0\]: 1 to_device operations in total, 0 in the rows per target construct and outside them" \
    "hostops: --check says which operations the rows miss"

# A user region inside a target region: no call in device code (its handle
# was undefined in the device link: the build failed where clang's links; a
# probe), said where it is; the one around the target construct is measured.
cat > tgtregion.c <<'C'
#include <stdio.h>
int main(void)
{
    long n = 0;
#pragma pomp inst begin(host_side)
#pragma omp target map(tofrom : n)
    {
#pragma pomp inst begin(on_device)
        n++;
#pragma pomp inst end(on_device)
    }
#pragma pomp inst end(host_side)
    printf("n=%ld\n", n);
    return 0;
}
C
"$POMPCC" -g "${OFFLOAD[@]}" tgtregion.c -o tgtregion 2> tgtregion.err || { cat tgtregion.err; fail "a user region in a target region: the build"; }
assert_contains tgtregion.err "^tgtregion\.c:8:1: note: '#pragma pomp inst begin' left alone, not measured: inside a target region \(device code\)" \
    "a user region in a target region: said"
assert_eq "$(POMP_OUTPUT_DIR=tgtregion_out ./tgtregion)" "n=1" "a user region in a target region: the program"
assert_eq "$(jq -r '. as $p | [.regions[] | select(.type == "userregion") | .id as $id | "\(.name):\([$p.callpath[] | select(.region == $id) | .per_thread[].begins] | add // 0)"] | sort | join(",")' tgtregion_out/profile.json)" \
    "host_side:1,on_device:0" "a user region in a target region: the host's measured, the device's never begun"

echo "device: OK"
