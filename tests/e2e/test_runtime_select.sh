# Runtime selection at link time (docs/gomp.md): a GCC program stays on
# libgomp, with the libgomp bridge (libpomp-gomp.so) before it; clang's
# objects run on LLVM libomp; --pomp-runtime=omp puts a GCC program on libomp,
# unless its objects use a feature libomp lacks or cannot serve for GCC code
# ('scope' with reductions, the 'error' directive, 'scan', 'detach', affinity
# display and capture, C++ tasks GCC gives a copy function): then libgomp, with
# a warning. Each such program built
# with pompcc prints what the plain gcc build prints.
source "$(dirname "$0")/lib.sh"
runtime_of() { ldd "$1" | grep -oE 'lib(g?omp|pomp-gomp)\.so[.0-9]*' | sort -u | tr '\n' ' '; }

cat > plain.c <<'C'
#include <stdio.h>
int main(void)
{
    int n = 0;
    #pragma omp parallel num_threads(2) reduction(+: n)
    n++;
    printf("%d\n", n);
    return 0;
}
C
"$POMPCC" -fopenmp plain.c -o plain 2> plain.err
assert_eq "$(runtime_of plain)" "libgomp.so.1 libpomp-gomp.so " "a GCC program stays on libgomp, with the bridge"
assert_not_contains plain.err '.' "pompcc says nothing"
assert_eq "$(POMP_OUTPUT_DIR=p ./plain 2> p.err)" 2 "output on libgomp"
assert_not_contains p.err 'no OMPT' "no run-time note on libgomp with the bridge"
assert_eq "$(region_sum p parallel 5 visits)" 1 "the POMP events"
assert_eq "$(jq '[.regions[] | select(.type == "implicit_barrier" and .init == "ompt")] | length' p/profile.json)" 1 "the bridge's implicit barrier"

"$POMPCC" --pomp-runtime=omp -fopenmp plain.c -o plain_omp 2> omp.err
assert_eq "$(runtime_of plain_omp)" "libomp.so.5 " "--pomp-runtime=omp"
assert_not_contains omp.err '.' "no message when libomp serves the program"
assert_eq "$(POMP_OUTPUT_DIR=o ./plain_omp)" 2 "output on libomp"
assert_eq "$(jq '[.regions[] | select(.type == "implicit_barrier" and .init == "ompt")] | length' o/profile.json)" 1 "OMPT's implicit barrier"

# clang's objects call libomp itself (__kmpc_*): libomp (not under make sanitize:
# a clang program cannot load the GCC-built ASan runtime of a sanitized libpomp)
if [ -z "$E2E_SANITIZE" ]; then
    POMP_CC=clang-19 "$POMPCC" -fopenmp plain.c -o plain_clang 2> clang.err
    assert_eq "$(runtime_of plain_clang)" "libomp.so.5 " "clang's objects run on libomp"
    assert_eq "$(POMP_OUTPUT_DIR=c ./plain_clang)" 2 "output of the clang build"
fi

# feature_program NAME FEATURE-TEXT [SAID]: built by pompcc by default and
# with --pomp-runtime=omp, it runs on libgomp and prints what plain gcc
# prints; pompcc says nothing but SAID (a line that must come)
feature_program() {
    local name=$1 feature=$2 said=${3:-}
    plain_cc $name.c -o ${name}_plain
    "$POMPCC" -fopenmp $name.c -o $name 2> $name.err
    if [ -n "$said" ]; then
        assert_contains $name.err "$said" "$name: pompcc says what it must"
        grep -vE "$said" $name.err > $name.rest || true
    else
        cp $name.err $name.rest
    fi
    assert_not_contains $name.rest '.' "$name: pompcc says nothing (else)"
    assert_eq "$(runtime_of $name)" "libgomp.so.1 libpomp-gomp.so " "$name: on libgomp"
    assert_eq "$(POMP_OUTPUT_DIR=$name.d ./$name 2> /dev/null)" "$(./${name}_plain)" "$name: output"
    [ -f $name.d/profile.json ] || fail "$name: no profile"
    "$POMPCC" --pomp-runtime=omp -fopenmp $name.c -o ${name}_omp 2> ${name}_omp.err
    assert_contains ${name}_omp.err "^pompcc: warning: $name.c .*$feature.*; linking GCC's libgomp instead of the LLVM libomp --pomp-runtime=omp asks for" "$name: warning names the feature"
    assert_eq "$(runtime_of ${name}_omp)" "libgomp.so.1 libpomp-gomp.so " "$name: never on libomp"
    assert_eq "$(POMP_OUTPUT_DIR=${name}_omp.d ./${name}_omp 2> /dev/null)" "$(./${name}_plain)" "$name: output, asked onto libomp"
    # compiled with -c and linked in another call, as make does: the object tells
    "$POMPCC" --pomp-runtime=omp -fopenmp -c $name.c -o $name.o 2> /dev/null
    "$POMPCC" --pomp-runtime=omp -fopenmp $name.o -o ${name}_obj 2> ${name}_obj.err
    assert_contains ${name}_obj.err "^pompcc: warning: $name.o .*$feature.*; linking GCC's libgomp instead of the LLVM libomp --pomp-runtime=omp asks for" "$name: warning names the feature, from the object"
    assert_eq "$(runtime_of ${name}_obj)" "libgomp.so.1 libpomp-gomp.so " "$name: an object never on libomp"
    assert_eq "$(POMP_OUTPUT_DIR=${name}_obj.d ./${name}_obj 2> /dev/null)" "$(./${name}_plain)" "$name: output, from an object"
}

cat > scope.c <<'C'
#include <stdio.h>
int main(void)
{
    int s = 0;
    #pragma omp parallel num_threads(2)
    {
        #pragma omp scope reduction(task, +: s)
        {
            #pragma omp task in_reduction(+: s)
            s++;
        }
    }
    printf("%d\n", s);
    return 0;
}
C
feature_program scope "calls GOMP_scope_start \('scope' with reductions\), which LLVM libomp does not provide"

cat > scan.c <<'C'
#include <stdio.h>
int main(void)
{
    int a[64], b[64], s = 0;
    for (int i = 0; i < 64; i++)
        a[i] = i;
    #pragma omp parallel for reduction(inscan, +: s) num_threads(4)
    for (int i = 0; i < 64; i++) {
        s += a[i];
        #pragma omp scan inclusive(s)
        b[i] = s;
    }
    printf("%d %d\n", b[10], b[63]);
    return 0;
}
C
# (the combined loop of an inscan reduction stays whole, left to the
# runtime's events, which the compile says: below)
feature_program scan "uses 'scan'" "^scan.c: warning: 0 of 1 OpenMP constructs instrumented; 1 left to the runtime's events"
# clang: its scan runs on libomp (its own entry points), with no word about
# runtimes; the combined loop of an inscan reduction stays whole (split into
# parallel + for, clang 19 computed a wrong scan, as it does for plain code
# written so), counted as left to the runtime's events (so that the bridges
# follow it), the rest of the file is instrumented
if [ -z "$E2E_SANITIZE" ]; then
    POMP_CC=clang-19 "$POMPCC" --pomp-verbose -fopenmp scan.c -o scan_clang -lm 2> scan_clang.err ||
        { cat scan_clang.err; fail "scan: clang build"; }
    assert_not_contains scan_clang.err 'runtime.*libgomp|libgomp.*runtime' "scan, clang: no word about runtimes"
    assert_contains scan_clang.err "scan.c:7:5: note: left alone: 'parallel for' with an inscan reduction stays whole" "scan, clang: the combined loop left whole, said"
    assert_eq "$(runtime_of scan_clang)" "libomp.so.5 " "scan, clang: on libomp"
    clang-19 -fopenmp scan.c -o scan_clang_plain -lm # clang calls log2 and ceil for a scan
    for k in 1 2 3; do
        assert_eq "$(OMP_NUM_THREADS=4 POMP_OUTPUT_DIR=scan_clang.$k ./scan_clang 2> /dev/null)" "$(OMP_NUM_THREADS=4 ./scan_clang_plain)" "scan, clang: output ($k)"
    done
fi

# A simd loop's scan calls no runtime routine, and a scan in an #if 0 block
# is not compiled: --pomp-runtime=omp links libomp, as asked, and says
# nothing (they were linked to libgomp, said to call GOMP_loop_start: the
# source's text was read; a probe), compiled and linked in one call or not.
cat > simd_scan.c <<'C'
#include <omp.h>
#include <stdio.h>
int main(void)
{
    int a[64], b[64], s = 0, threads = 0;
    for (int i = 0; i < 64; i++)
        a[i] = i;
    #pragma omp simd reduction(inscan, +: s)
    for (int i = 0; i < 64; i++) {
        s += a[i];
        #pragma omp scan inclusive(s)
        b[i] = s;
    }
#if 0
    #pragma omp scan inclusive(s)
#endif
    #pragma omp parallel num_threads(2)
    #pragma omp atomic
    threads++;
    printf("%d %d %d\n", b[10], b[63], threads);
    return 0;
}
C
plain_cc simd_scan.c -o simd_scan_plain
"$POMPCC" --pomp-runtime=omp -fopenmp simd_scan.c -o simd_scan 2> simd_scan.err
assert_not_contains simd_scan.err '.' "simd scan: pompcc says nothing"
assert_eq "$(runtime_of simd_scan)" "libomp.so.5 " "simd scan: on libomp, as asked"
assert_eq "$(POMP_OUTPUT_DIR=simd_scan.d ./simd_scan)" "$(./simd_scan_plain)" "simd scan: output"
"$POMPCC" --pomp-runtime=omp -fopenmp -c simd_scan.c -o simd_scan.o 2> simd_scan_c.err
"$POMPCC" --pomp-runtime=omp -fopenmp simd_scan.o -o simd_scan_2 2>> simd_scan_c.err
assert_not_contains simd_scan_c.err '.' "simd scan, compiled then linked: pompcc says nothing"
assert_eq "$(runtime_of simd_scan_2)" "libomp.so.5 " "simd scan, compiled then linked: on libomp"
# while a worksharing loop's scan in the same file still takes libgomp
sed 's/omp simd reduction/omp parallel for reduction/' simd_scan.c > for_scan.c
"$POMPCC" --pomp-runtime=omp -fopenmp for_scan.c -o for_scan 2> for_scan.err
assert_contains for_scan.err "for_scan.c uses 'scan'" "a for loop's scan: said"
assert_eq "$(runtime_of for_scan)" "libgomp.so.1 libpomp-gomp.so " "a for loop's scan: on libgomp"

cat > detach.c <<'C'
#include <omp.h>
#include <stdio.h>
int main(void)
{
    int x = 0, y = 0;
    #pragma omp parallel num_threads(2)
    #pragma omp single
    {
        omp_event_handle_t ev;
        #pragma omp task detach(ev) shared(x) depend(out: x)
        x = 1;
        #pragma omp task shared(x, y) depend(in: x)
        y = x + 1;
        omp_fulfill_event(ev);
        #pragma omp taskwait
    }
    printf("%d %d\n", x, y);
    return 0;
}
C
feature_program detach "calls omp_fulfill_event \('detach' tasks\), which LLVM libomp's libgomp layer does not support"
# Clang's detach calls libomp's own omp_fulfill_event (no libgomp layer in
# between): pomp-clang links libomp and says nothing (it warned that no
# runtime serves both; not under sanitizers: clang's sanitizer runtime cannot
# join gcc's in libpomp)
if command -v clang-19 > /dev/null && [ -z "$E2E_SANITIZE" ]; then
    "$BUILD/bin/pomp-clang" -fopenmp detach.c -o detach_clang 2> detach_clang.err
    assert_not_contains detach_clang.err "warning" "detach, pomp-clang: nothing to warn about"
    assert_eq "$(runtime_of detach_clang)" "libomp.so.5 " "detach, pomp-clang: on libomp"
    assert_eq "$(POMP_OUTPUT_DIR=detach_clang.d ./detach_clang 2> /dev/null)" "$(./detach_plain)" "detach, pomp-clang: output"
fi
# where the libgomp bridge wraps tasks (pomprun, POMP_OMPT=full, sampling) a
# detachable task runs unwrapped (libgomp writes its event into the task's
# data): the program runs; where the runtime's events alone measure it
# (pomprun) the note says which task went unmeasured; where the
# instrumentation measures it, it is measured and nothing is said
ways=("POMP_OMPT=full ./detach" "POMP_SAMPLING=1ms ./detach")
# (pomprun preloads libpomp: a sanitized one cannot come before ASan's runtime in a plain program)
[ -n "$E2E_SANITIZE" ] || ways+=("$BUILD/bin/pomprun ./detach_plain")
for how in "${ways[@]}"; do
    out=$(env POMP_SUMMARY=off POMP_OUTPUT_DIR=detach.wrapped $how 2> detach.wrapped.err) ||
        { cat detach.wrapped.err; fail "detach, $how: the program failed"; }
    assert_eq "$out" "$(./detach_plain)" "detach, $how: output"
    case $how in
    *pomprun*)
        assert_contains detach.wrapped.err "^pomp: note: 1 task created on libgomp went unmeasured, and so did its run: detachable tasks" \
                        "detach, $how: the unmeasured task said" ;;
    *)
        assert_not_contains detach.wrapped.err "unmeasured" "detach, $how: no task said unmeasured"
        assert_eq "$(jq '[.callpath[] | select(.task_root) | .per_thread[].begins] | add' detach.wrapped/profile.json)" 2 \
                  "detach, $how: both tasks measured" ;;
    esac
    rm -rf detach.wrapped
done

# sections with lastprivate(conditional:): GCC calls GOMP_sections2_start,
# in which libomp's libgomp layer aborts (OMP: Error #277; a probe)
cat > sections2.c <<'C'
#include <stdio.h>
int main(int argc, char **argv)
{
    int last = 0;
    (void)argv;
    #pragma omp parallel sections num_threads(2) lastprivate(conditional: last)
    {
        #pragma omp section
        last = 3;
        #pragma omp section
        if (argc > 1000)
            last = 4;
    }
    printf("%d\n", last);
    return 0;
}
C
feature_program sections2 "calls GOMP_sections2_start \('sections' with lastprivate\(conditional:\) or a task reduction\), which LLVM libomp's libgomp layer does not support"
if [ -z "$E2E_SANITIZE" ]; then # pomprun: the plain binary's import tells
    POMP_SUMMARY=off POMP_OUTPUT_DIR=sections2_run "$BUILD/bin/pomprun" --pomp-runtime=omp ./sections2_plain \
        > sections2_run.out 2> sections2_run.err || { cat sections2_run.err; fail "sections2, pomprun: the program failed"; }
    assert_eq "$(cat sections2_run.out)" 3 "sections2, pomprun --pomp-runtime=omp: output"
    assert_contains sections2_run.err "calls GOMP_sections2_start .*, which LLVM libomp's libgomp layer does not support: it runs on GCC's libgomp" \
                    "sections2, pomprun: the warning names the entry point (libomp provides it, and aborts in it)"
fi

cat > affinity.c <<'C'
#include <omp.h>
#include <stdio.h>
int main(void)
{
    char buf[256];
    size_t n = 0;
    #pragma omp parallel num_threads(2)
    if (omp_get_thread_num() == 0) {
        omp_display_affinity("team of %N");
        n = omp_capture_affinity(buf, sizeof buf, "thread %n of %N");
    }
    printf("%s (%zu)\n", buf, n);
    return 0;
}
C
feature_program affinity "calls omp_(capture|display)_affinity \(affinity (capture|display)\), which LLVM libomp's libgomp layer does not support"

# C++ tasks whose data GCC copies with a function (a firstprivate reference):
# libomp's libgomp layer runs such a task wrongly when it is undeferred (the
# if(0) below; plain g++ objects on libomp 19 abort in std::accumulate)
cat > cpyfn.cpp <<'C'
#include <cstdio>
#include <numeric>
#include <vector>
static long tree_sum(const std::vector<long> &v, std::size_t lo, std::size_t hi, int depth)
{
    if (hi - lo < 1000)
        return std::accumulate(v.begin() + lo, v.begin() + hi, 0L);
    long a = 0, b = 0;
    std::size_t mid = lo + (hi - lo) / 2;
#pragma omp task shared(a) if (depth < 6)
    a = tree_sum(v, lo, mid, depth + 1);
#pragma omp task shared(b) if (depth < 6)
    b = tree_sum(v, mid, hi, depth + 1);
#pragma omp taskwait
    return a + b;
}
int main()
{
    std::vector<long> v(200000);
    std::iota(v.begin(), v.end(), 1L);
    long total = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
    total = tree_sum(v, 0, v.size(), 0);
    std::printf("%ld\n", total);
}
C
"$BUILD/bin/pompc++" --pomp-runtime=omp -fopenmp -O2 cpyfn.cpp -o cpyfn_omp 2> cpyfn_omp.err
assert_contains cpyfn_omp.err "^pompc\+\+: warning: cpyfn.cpp has a task whose data GCC copies with a function \(tree_sum\(std::vector<long.*\) \[clone \._omp_cpyfn\.[0-9]+\]: .*\), which LLVM libomp's libgomp layer breaks .*; linking GCC's libgomp instead of the LLVM libomp --pomp-runtime=omp asks for" "a task copy function: the warning names it, demangled"
assert_eq "$(runtime_of cpyfn_omp)" "libgomp.so.1 libpomp-gomp.so " "a task copy function: never on libomp"
assert_eq "$(POMP_OUTPUT_DIR=cpyfn.d ./cpyfn_omp 2> /dev/null)" 20000100000 "a task copy function: output, asked onto libomp"

cat > err.c <<'C'
#include <stdio.h>
int main(void)
{
    #pragma omp error at(execution) severity(warning) message("careful")
    puts("after");
    return 0;
}
C
"$POMPCC" -fopenmp -c err.c -o err.o 2> /dev/null
"$POMPCC" --pomp-runtime=omp -fopenmp err.o -o err 2> err.err
assert_contains err.err "err.o calls GOMP_(error|warning) \(the 'error' directive\)" "the error directive, from an object"
assert_eq "$(runtime_of err)" "libgomp.so.1 libpomp-gomp.so " "the error directive stays on libgomp"
assert_eq "$(POMP_SUMMARY=off ./err 2> /dev/null)" "after" "runs on libgomp"

# An unknown runtime is a usage error that names the allowed ones.
set +e
"$POMPCC" --pomp-runtime=bogus -fopenmp plain.c -o bogus > /dev/null 2> bogus.err
assert_eq "$?" 2 "unknown runtime: usage error"
set -e
assert_contains bogus.err "unknown runtime in '--pomp-runtime=bogus' \(allowed: omp, gomp\)" "names the allowed runtimes"

# omp_pause_resource_all(omp_pause_hard): libomp 19 crashes in omp_get_thread_num()
# until the next parallel region; the inserted code must not be the one calling it.
cat > pause.c <<'C'
#include <omp.h>
#include <stdio.h>
int main(void)
{
    int n = 0;
    #pragma omp parallel num_threads(3) reduction(+: n)
    n++;
    if (omp_pause_resource_all(omp_pause_hard) != 0)
        puts("pause refused");
    int m = 0;
    #pragma omp parallel for num_threads(2) reduction(+: m)
    for (int i = 0; i < 10; i++)
        m += i;
    printf("%d %d\n", n, m);
    return 0;
}
C
plain_cc pause.c -o pause_plain
for rt in libomp gomp; do
    "$POMPCC" --pomp-runtime=$rt -fopenmp pause.c -o pause_$rt
    assert_eq "$(POMP_OUTPUT_DIR=pause_$rt.d ./pause_$rt 2> pause_$rt.err)" "$(./pause_plain)" "omp_pause_resource_all on $rt"
    # measurement goes on after the pause: libomp ends its OMPT tool there for
    # good, which pomp says, and the instrumentation's events still count
    assert_eq "$(region_sum pause_$rt.d parallel 11 visits)" 1 "$rt: the region after the pause is measured"
    assert_eq "$(region_sum pause_$rt.d for 11 visits)" 2 "$rt: its loop on both threads"
    assert_eq "$(region_sum pause_$rt.d parallel 6 visits)" 1 "$rt: the region before it"
done
assert_contains pause_libomp.err "^pomp: warning: omp_pause_resource_all .* ended LLVM libomp's tool interface for the rest of the run" "libomp: the end of its tool is said"
assert_not_contains pause_gomp.err "ended" "libgomp: nothing ends"
# ... and said in the profile and by pomp-report, which rates nothing (under
# pomprun the rest of the run read as serial: load balance 35 % for 99)
assert_contains <(jq -r '.unmeasured[]' pause_libomp.d/profile.json) "^omp_pause_resource_all .* ended LLVM libomp's tool interface [0-9.]+ ms after the runtime started it" "libomp: the profile says what went unmeasured"
assert_eq "$(jq '.unmeasured | length' pause_gomp.d/profile.json)" 0 "libgomp: nothing unmeasured"
"$BUILD/bin/pomp-report" pause_libomp.d > pause_report.txt
assert_contains pause_report.txt "^warning: not measured: omp_pause_resource_all" "pomp-report says what went unmeasured"
assert_contains pause_report.txt "^\(the run\) .* not rated: part of the run went unmeasured" "pomp-report rates nothing then"

# A file pompcc cannot instrument, built for LLVM libomp: the program keeps
# libpomp (no object calls it), whose OMPT tool measures what the runtime
# reports (it was dropped by the linker: nothing measured, nothing said)
cat > uninst.c <<'C'
#include <stdio.h>
int main(void)
{
    long s = 0;
#pragma omp parallel reduction(+ : s)
#pragma omp single
#pragma pomp inst on
    s += 1;
    printf("s=%ld\n", s);
    return 0;
}
C
"$POMPCC" --pomp-runtime=omp -fopenmp -O2 $E2E_SANITIZE uninst.c -o uninst 2> uninst.err
assert_contains uninst.err "cannot be instrumented" "a file pompcc cannot instrument: said"
ldd uninst | grep 'libpomp\.so' > /dev/null || fail "a file pompcc cannot instrument, on libomp: libpomp not linked"
assert_eq "$(OMP_NUM_THREADS=2 POMP_OUTPUT_DIR=uninst.out ./uninst)" "s=1" "a file pompcc cannot instrument: output"
assert_eq "$(regions_where uninst.out '.type == "parallel" and .init == "ompt"')" 1 \
          "a file pompcc cannot instrument, on libomp: its parallel region measured through the runtime"
