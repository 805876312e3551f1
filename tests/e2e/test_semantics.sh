# Instrumentation changes no semantics (constructs/semantics.c): default(none),
# private, firstprivate, lastprivate, reduction, copyin, linear, collapse,
# ordered, copyprivate and nowait on combined and plain constructs, #pragma and
# _Pragma, and cancellation (OMP_CANCELLATION=true): the same output as the
# plain build, with GCC and Clang, 1 and 4 threads; no barrier added and no
# nowait but the split worksharing leaves'. Then --pomp-implicit-barriers=explicit:
# the same output, and an explicit, measured barrier for each implicit one.
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/lib.sh"
source "$HERE/lib_constructs.sh"
cp "$HERE"/constructs/semantics.c .

run_both() { # BINARY TAG: instrumented and plain, 1 and 4 threads, cancellation on and off
    local bin=$1 tag=$2 T c
    for c in false true; do
        for T in 1 4; do
            OMP_CANCELLATION=$c OMP_NUM_THREADS=$T POMP_TRACE=events POMP_OUTPUT_DIR=$tag.$c.$T ./$bin > $tag.$c.$T.txt
            OMP_CANCELLATION=$c OMP_NUM_THREADS=$T ./sem_plain > plain.$c.$T.txt
            diff -u plain.$c.$T.txt $tag.$c.$T.txt || fail "$tag: output differs (OMP_CANCELLATION=$c, $T threads)"
            assert_eq "$(jq '[.threads[].nesting_errors] | add' $tag.$c.$T/profile.json)" 0 \
                "$tag: nesting errors (OMP_CANCELLATION=$c, $T threads)"
        done
    done
}
plain_cc semantics.c -o sem_plain 2> plain.err || { cat plain.err; fail "cc semantics.c"; }
"$POMPCC" -fopenmp semantics.c -o sem 2> sem.err || { cat sem.err; fail "pompcc semantics.c"; }
! grep -q "without instrumentation" sem.err || { cat sem.err; fail "semantics.c was not instrumented"; }
run_both sem gcc
assert_contains gcc.true.4.txt '^found 17, ran yes$' "cancellation happened"

# The generated code: the user's barriers only, and nowait on the split
# worksharing leaves (6 parallel for, 3 parallel for simd, 2 parallel sections) besides the user's
# one; not on the canceled loop (a canceled region must not be nowait).
"$BUILD/bin/pomp-instrument" --gnuc=12 semantics.c sem.pomp.c -- -fopenmp # (as pompcc runs it for GCC: clang keeps lastprivate ones whole)
assert_eq "$(grep -c 'omp barrier' sem.pomp.c)" "$(grep -c 'omp barrier' semantics.c)" "barriers in the generated code"
assert_eq "$(grep -o 'nowait' sem.pomp.c | wc -l)" $(( $(grep -o 'nowait' semantics.c | wc -l) + 11 )) "nowait in the generated code"

# GCC drops the barrier of a for or single that ends a parallel region (the
# region's own follows) unless a local may be addressable; pomp's exit call
# after the construct hid that, and the pompcc build kept a barrier the plain
# build did not have (a probe: 1.5 times the run time under passive waits).
# Barrier calls per outlined function, plain and pompcc: the same where GCC
# drops it (pomp adds the nowait), never fewer where it keeps it.
cp "$HERE"/constructs/last_worksharing.c .
plain_cc -O2 -c last_worksharing.c -o lw_plain.o 2> /dev/null || fail "cc last_worksharing.c"
"$POMPCC" -fopenmp -O2 -c last_worksharing.c -o lw_pomp.o 2> lw.err || { cat lw.err; fail "pompcc last_worksharing.c"; }
barriers() { # OBJECT FUNCTION: the GOMP calls that hold a barrier in FUNCTION._omp_fn.0
    objdump -dr --no-show-raw-insn "$1" | awk -v f="<$2._omp_fn.0>:" 'index($0, f) {p = 1; next} /^$/ {p = 0} p' |
        grep -oE 'R_X86_64_PLT32[[:space:]]+GOMP_(barrier|loop_end|sections_end|single_copy_end)\b' | wc -l
}
for f in ends_for ends_single ends_dynamic; do
    assert_eq "$(barriers lw_pomp.o $f) $(barriers lw_plain.o $f)" "0 0" "$f: no barrier, as the plain build"
done
for f in ends_for_reduction ends_for_lastprivate private_address local_array array_reduction local_scalar \
         nested_task struct_firstprivate reduction_addressed outer_loop_variable; do
    plain=$(barriers lw_plain.o $f) pomp=$(barriers lw_pomp.o $f)
    [ "$pomp" -ge "$plain" ] || fail "$f: $pomp barrier calls in the pompcc build, $plain in the plain one: never fewer"
done
for f in private_address struct_firstprivate reduction_addressed outer_loop_variable; do
    assert_eq "$(barriers lw_plain.o $f) $(barriers lw_pomp.o $f)" "1 1" \
        "$f: GCC keeps the barrier (an addressable private copy), and so does pomp"
done
plain_cc -O2 last_worksharing.c -o lw_plain 2> /dev/null || fail "cc last_worksharing.c (link)"
"$POMPCC" -fopenmp -O2 last_worksharing.c -o lw 2> lw.err || { cat lw.err; fail "pompcc last_worksharing.c (link)"; }
assert_eq "$(OMP_NUM_THREADS=4 POMP_OUTPUT_DIR=lw.d ./lw 2> /dev/null)" "$(OMP_NUM_THREADS=4 ./lw_plain)" \
    "last worksharing constructs: the output of the plain build"
assert_eq "$(jq '[.threads[].nesting_errors] | add' lw.d/profile.json)" 0 "last worksharing constructs: no nesting errors"

# --pomp-implicit-barriers=explicit
"$POMPCC" -fopenmp --pomp-implicit-barriers=explicit semantics.c -o semx 2> semx.err || { cat semx.err; fail "pompcc explicit"; }
! grep -q "without instrumentation" semx.err || { cat semx.err; fail "semantics.c was not instrumented (explicit)"; }
run_both semx explicit
events explicit.false.4 > ex.txt
ib() { awk -v l=$(line_of semantics.c "$1") '$2 == "Implicit_barrier_enter" && $4 == l' ex.txt | wc -l; }
for construct in "parallel for default(none) shared(a, n)" "parallel copyin" "parallel for linear" \
                 "parallel for collapse" "parallel for ordered" "parallel for reduction" \
                 "parallel sections" "parallel default(none) shared(first" "parallel for shared(found)" \
                 "parallel shared(ran)"; do
    assert_eq "$(ib "$construct")" 4 "explicit barrier at the end of '$construct', one per thread"
done
assert_eq "$(ib "single copyprivate")" 0 "single copyprivate cannot take nowait: its barrier stays implicit"
assert_eq "$(ib "for nowait")" 0 "the user's nowait: no barrier"
"$BUILD/bin/pomp-instrument" --implicit-barriers=explicit semantics.c semx.pomp.c -- -fopenmp
# (the leaf's pragma after the outer one's begin code and a #line back to the pragma's line)
assert_eq "$(grep -A3 'omp parallel shared(found)' semx.pomp.c | grep -c '^#pragma omp for$')" 1 \
    "a canceled loop keeps its own barrier (no nowait)"
assert_eq "$(ib @single_plain)" 4 "single: nowait and an explicit barrier"
assert_eq "$(awk '$2 == "Implicit_barrier_enter"' ex.txt | wc -l)" "$(awk '$2 == "Implicit_barrier_exit"' ex.txt | wc -l)" "barrier enter/exit pairs"

[ -n "$E2E_SANITIZE" ] && exit 0 # clang's sanitizer runtime cannot join gcc's in libpomp
POMP_CC=clang-19 "$POMPCC" -fopenmp semantics.c -o semc 2> semc.err || { cat semc.err; fail "pompcc (clang) semantics.c"; }
! grep -q "without instrumentation" semc.err || { cat semc.err; fail "semantics.c was not instrumented (clang)"; }
run_both semc clang
