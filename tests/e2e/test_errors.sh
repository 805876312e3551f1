# Bad input: a malformed pragma (file:line:col, then compiled uninstrumented),
# diagnostics on the user's lines, the user's own compile errors, a bad env
# value, and a malformed profile; the compiler's exit status, and a crashing
# instrumenter that leaves the build going.
SRC="$(cd "$(dirname "$0")/programs" && pwd)"
source "$(dirname "$0")/lib.sh"

# A malformed pragma the compiler rejects too: the compiler's own error and
# status, exactly as without pomp, and nothing from pomp.
cat > bad.c <<'C'
#include <stdio.h>
int main(void)
{
    int x = 1;
    #pragma omp parallel private(x
    x = 2;
    printf("x = %d\n", x);
    return 0;
}
C
if "$POMPCC" -fopenmp bad.c -o bad 2> bad.err; then fail "cc rejects this file; so must pompcc"; fi
cc -fopenmp bad.c -o bad_plain 2> bad_plain.err && fail "cc accepted bad.c"
assert_contains bad.err "bad\.c:5:[0-9]+: error: expected" "the compiler's own error"
diff -u bad_plain.err bad.err || fail "pompcc's messages for a malformed pragma differ from cc's"
# A pragma before the first '#pragma omp section' is no implicit first section:
# the compiler rejects the file (the section is not directly in the sections
# construct), so must pompcc (it wrapped the pragma as a section, and built it)
cat > sect.c <<'C'
int g(int n)
{
    int s = 0;
#pragma omp parallel sections reduction(+ : s)
    {
#pragma GCC diagnostic push
#pragma omp section
        s++;
#pragma omp section
        s--;
    }
    return s + n;
}
C
if cc -fopenmp -c sect.c -o sect_plain.o 2> /dev/null; then
    "$POMPCC" -fopenmp -c sect.c -o sect.o 2> sect.err || { cat sect.err; fail "a pragma before the first section: pompcc"; }
else
    if "$POMPCC" -fopenmp -c sect.c -o sect.o 2> sect.err; then fail "cc rejects a pragma before the first section; so must pompcc"; fi
fi
# pomp-instrument alone says where (pompcc leaves the pragma to the compiler)
"$BUILD/bin/pomp-instrument" bad.c bad.pomp.c -- -fopenmp 2> bad_inst.err || fail "pomp-instrument"
assert_contains bad_inst.err '^bad\.c:5:33: warning: malformed pragma: unbalanced .*left to the compiler' "file:line:col of the malformed pragma"
# the output naming the input: refused, the source kept (it was replaced by its instrumented form)
cp bad.c bad_keep.c
status=0
"$BUILD/bin/pomp-instrument" bad.c ./bad.c -- -fopenmp 2> same_inst.err || status=$?
assert_eq "$status" 2 "pomp-instrument with the input as output: refused"
assert_contains same_inst.err "the output './bad.c' is the input file" "pomp-instrument with the input as output: said"
# a directory for a source, a bad value of a known option: said so (libclang
# "could not parse the file"; "unknown option"; a probe)
mkdir -p dir.c
status=0
"$BUILD/bin/pomp-instrument" dir.c dir.pomp.c 2> dir_inst.err || status=$?
assert_eq "$status" 1 "pomp-instrument of a directory: refused"
assert_contains dir_inst.err "^dir.c: error: is a directory, not a source file" "pomp-instrument of a directory: said"
status=0
"$BUILD/bin/pomp-instrument" --implicit-barriers=foo bad.c bad.pomp.c 2> ib_inst.err || status=$?
assert_eq "$status" 2 "pomp-instrument --implicit-barriers=foo: refused"
assert_contains ib_inst.err "'--implicit-barriers=foo': the value is explicit or runtime" "pomp-instrument --implicit-barriers=foo: said"
cmp -s bad.c bad_keep.c || fail "pomp-instrument with the input as output: the source kept"

# A statement whose ';' comes from a macro: the whole invocation is the
# construct's statement, and the file is instrumented.
cat > macro.c <<'C'
#include <stdio.h>
#define BUMP(v) v = v + 1;
int main(void)
{
    int s = 0;
    #pragma omp parallel num_threads(2)
    {
        #pragma omp critical
        BUMP(s)
    }
    printf("s = %d\n", s);
    return 0;
}
C
"$POMPCC" -fopenmp macro.c -o macro 2> macro.err || { cat macro.err; fail "pompcc broke a build cc accepts"; }
assert_not_contains macro.err 'warning|error' "macro.c instrumented without a message"
assert_eq "$(POMP_OUTPUT_DIR=m ./macro)" "s = 2" "program output"
assert_eq "$(region_sum m critical 8 begins)" 2 "the critical around BUMP(s), once per thread"

# An unknown directive is left to the compiler; the rest is instrumented.
cat > unknown.c <<'C'
int main(void)
{
    int s = 0;
    #pragma omp frobnicate
    #pragma omp parallel num_threads(2)
    {
        #pragma omp atomic
        s++;
    }
    return s == 2 ? 0 : 1;
}
C
"$POMPCC" -fopenmp unknown.c -o unknown 2> unknown.err || { cat unknown.err; fail "unknown directive broke the build"; }
assert_contains unknown.err "^unknown\.c:4:17: warning: unknown OpenMP directive 'frobnicate'; left alone" "warning for the unknown directive"
POMP_OUTPUT_DIR=u ./unknown || fail "program with an unknown directive"
assert_eq "$(region_sum u parallel 5 visits)" 1 "the rest of the file is instrumented"

# A construct whose body is a stand-alone directive: GCC and clang reject it
# ("may only be used in compound statements"). pomp braced the body, and the
# build went through with the next statement moved into the region, a race
# the program never had (a probe: n=2). Both left to the compiler's error.
for pair in "parallel num_threads(2)|barrier" "task|taskwait" "critical|flush"; do
    printf 'int main(void)\n{\n    int n = 0;\n#pragma omp %s\n    /* the body */\n#pragma omp %s\n    n += 1;\n    return n;\n}\n' \
        "${pair%|*}" "${pair#*|}" > sab.c
    st=0
    "$POMPCC" -fopenmp -c sab.c -o sab.o 2> sab.err || st=$?
    [ "$st" -ne 0 ] || { cat sab.err; fail "'${pair%|*}' with '${pair#*|}' as its body: compiled"; }
    assert_contains sab.err "sab\.c:6:[0-9]+: error: .#pragma omp ${pair#*|}. may only be used in compound statements" \
        "'${pair%|*}' with '${pair#*|}' as its body: the compiler's error"
done
# A construct left alone says what still measures it, by the compiler: in a
# GCC build a static loop makes no runtime call (the warning said the
# runtime's events measured it, and the loop was in no row; a probe); a
# dynamic one does, and Clang's are reported by libomp.
cat > left_loop.c <<'C'
#include <stdio.h>
#define TIMED(code) do { code; } while (0)
int main(void)
{
    double s = 0, t = 0;
#pragma omp parallel num_threads(2)
    {
        TIMED(_Pragma("omp for reduction(+ : s)") for (int i = 0; i < 1000; i++) s += i);
        TIMED(_Pragma("omp for schedule(dynamic, 4) reduction(+ : t)") for (int i = 0; i < 1000; i++) t += i);
    }
    printf("%.0f %.0f\n", s, t);
    return 0;
}
C
"$POMPCC" -fopenmp left_loop.c -o left_loop 2> left_loop.err || { cat left_loop.err; fail "left loops: build"; }
assert_contains left_loop.err "left_loop\.c:8:.*'#pragma omp for' is not instrumented: .*GCC splits a static loop itself, with no runtime call, so it is not measured" \
    "a GCC build's static loop left alone: said to be unmeasured"
assert_contains left_loop.err "left_loop\.c:9:.*'#pragma omp for' is not instrumented: .*the runtime's events still measure it" \
    "a GCC build's dynamic loop left alone: the runtime measures it"
if command -v clang-19 > /dev/null && [ -z "$E2E_SANITIZE" ]; then
    POMP_CC=clang-19 "$POMPCC" -fopenmp left_loop.c -o left_loop_clang 2> left_loop_clang.err || { cat left_loop_clang.err; fail "left loops, clang: build"; }
    assert_eq "$(grep -c "'#pragma omp for' is not instrumented: .*the runtime's events still measure it" left_loop_clang.err)" 2 \
        "a clang build's loops left alone: libomp measures both"
fi
# ... a construct's body that is another construct is one (parallel, for): instrumented
printf '#include <stdio.h>\nint main(void)\n{\n    int n = 0;\n#pragma omp parallel num_threads(2)\n#pragma omp for reduction(+ : n)\n    for (int i = 0; i < 4; i++)\n        n += i;\n    printf("%%d\\n", n);\n    return 0;\n}\n' > pf.c
"$POMPCC" -fopenmp pf.c -o pf 2> pf.err || { cat pf.err; fail "parallel, for: build"; }
assert_not_contains pf.err "warning" "parallel, for: instrumented without a word"
assert_eq "$(POMP_OUTPUT_DIR=pf.d ./pf 2> /dev/null)" 6 "parallel, for: output"
assert_eq "$(region_sum pf.d for 6 visits)" 2 "parallel, for: the loop instrumented"

# Warnings point at the original file and line.
cat > warn.c <<'C'
#include <stdio.h>
int main(void)
{
    int sum = 0;
    #pragma omp parallel
    {
        #pragma omp critical
        sum++;
        int unused_here;
    }
    printf("%d\n", sum > 0);
    return 0;
}
C
"$POMPCC" -fopenmp -Wall warn.c -o warn 2> warn.err
assert_contains warn.err '^warn\.c:9:13: warning: unused variable .unused_here' "warning at the user's line"
assert_eq "$(OMP_NUM_THREADS=2 POMP_OUTPUT_DIR=w ./warn)" 1 "program output"

# The user's own error: pompcc fails like cc, and the message names their line.
cat > err.c <<'C'
int main(void)
{
    #pragma omp parallel
    {
        undeclared_thing = 1;
    }
    return 0;
}
C
if "$POMPCC" -fopenmp err.c -o err 2> err.err; then fail "a broken program must not build"; fi
assert_contains err.err '^err\.c:5:9: error: .undeclared_thing. undeclared' "error at the user's line"
# exactly what cc prints, once, with nothing from pomp (also with -c, and with clang)
cc -fopenmp err.c -o err 2> err_plain.err && fail "cc accepted err.c"
diff -u err_plain.err err.err || fail "pompcc's messages for the user's error differ from cc's"
"$POMPCC" -fopenmp -c err.c -o err.o 2> errc.err && fail "pompcc -c accepted err.c"
cc -fopenmp -c err.c -o err.o 2> errc_plain.err || true
diff -u errc_plain.err errc.err || fail "pompcc -c: messages differ from cc's"
POMP_CC=clang-19 "$POMPCC" -fopenmp -c err.c -o err.o 2> errclang.err && fail "clang accepted err.c"
clang-19 -fopenmp -c err.c -o err.o 2> errclang_plain.err || true
diff -u errclang_plain.err errclang.err || fail "POMP_CC=clang-19: messages differ from clang's"

# A stand-alone directive as the whole body of an if, else, loop or label: the
# compilers reject it, so must pompcc (braces around its calls would make it
# compile, with the statement after it no longer the if's)
for head in "if (n == 0)" "else" "while (n < 0)" "for (; n < 0;)" "lbl:" "case 1:" "default:"; do
    sw_open="" sw_close="" pre=""
    case "$head" in case* | default*) sw_open="switch (n) {" sw_close="}" ;; else) pre="if (n) n++;" ;; esac
    for dir in barrier taskwait taskyield; do
        printf '#include <stdio.h>\nint main(void)\n{\n    int n = 0;\n#pragma omp parallel num_threads(2)\n    {\n        %s %s %s\n#pragma omp %s\n        n = 1; %s\n    }\n    printf("%%d\\n", n);\n    return 0;\n}\n' \
            "$sw_open" "$pre" "$head" "$dir" "$sw_close" > sub.c
        cc -fopenmp -c sub.c -o sub.o 2> sub_plain.err && fail "cc accepted '$dir' after '$head'"
        "$POMPCC" -fopenmp -c sub.c -o sub.o 2> sub.err && fail "pompcc accepted '$dir' after '$head'"
        diff -u sub_plain.err sub.err || fail "'$dir' after '$head': pompcc's messages differ from cc's"
    done
done

# A bad environment value: named with the allowed values; the program runs.
cp "$EXAMPLES/demo.c" .
"$POMPCC" -fopenmp demo.c -o demo
OMP_NUM_THREADS=2 POMP_TRACE=bogus POMP_BUFFER_SIZE=12q POMP_OUTPUT_DIR=e ./demo > demo.out 2> env.err
assert_eq "$(wc -l < demo.out)" 2 "program output despite bad values"
assert_contains env.err "POMP_TRACE='bogus' is not valid \(allowed: none, otf2, chrome, both, events, or a comma-separated list\); using none" "POMP_TRACE message"
assert_contains env.err "POMP_BUFFER_SIZE='12q' is not valid" "POMP_BUFFER_SIZE message"
[ -f e/profile.json ] || fail "profile written despite bad values"
# a POMP_* name pomp does not read (a misspelling): said, with the name meant;
# the run is as without it (it was ignored silently; a probe)
OMP_NUM_THREADS=2 POMP_LOOPS=none POMP_BARRIER=none POMP_OUTPUT_DIR=names ./demo > names.out 2> names.err
assert_eq "$(wc -l < names.out)" 2 "program output with unknown POMP_ names"
assert_contains names.err "^pomp: POMP_LOOPS is not a variable pomp reads \(did you mean POMP_LOOP\?\); ignored$" "a misspelled POMP_ name said"
assert_contains names.err "^pomp: POMP_BARRIER is not a variable pomp reads; ignored" "an unknown POMP_ name said"
assert_eq "$(jq -r '.levels.loop' names/profile.json)" "EnterExit" "the misspelled name changed nothing"
# a second run into the same POMP_OUTPUT_DIR: said
OMP_NUM_THREADS=2 POMP_OUTPUT_DIR=e ./demo > /dev/null 2> again.err
assert_contains again.err "^pomp: note: the output directory 'e' holds another run's output" "a reused output directory said"
# eight traced runs at once into one directory: each ends as the program
# does, with the clash said, never killed (a run's file, cut to nothing by the
# next run's start, killed the one reading it at its exit with SIGBUS: 2 to 6
# of 8; a probe)
cat > clash.c <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    long n = atol(argv[1]), s = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp for schedule(dynamic, 64)
        for (long i = 0; i < n; i++) {
#pragma omp critical(acc)
            s += i % 7;
        }
    }
    printf("%ld\n", s);
    return 0;
}
C
"$POMPCC" -O2 -fopenmp clash.c -o clash 2> build.err || { cat build.err; fail "build clash.c"; }
for i in 1 2 3 4 5 6 7 8; do
    (rc=0; POMP_TRACE=chrome POMP_THROTTLE=off POMP_OUTPUT_DIR=clash.dir ./clash 20000 > clash$i.out 2> clash$i.err || rc=$?
     echo $rc > clash$i.rc) &
done
wait
for i in 1 2 3 4 5 6 7 8; do
    assert_eq "$(cat clash$i.rc) $(cat clash$i.out)" "0 59997" "eight traced runs into one directory: run $i's status and result"
done
touch clash.dir/.broken-on-purpose # (its trace and profile are any run's)
# a buffer larger than a thread's holds: cut, and said
OMP_NUM_THREADS=2 POMP_BUFFER_SIZE=1000G POMP_OUTPUT_DIR=big ./demo > /dev/null 2> big.err
assert_contains big.err "POMP_BUFFER_SIZE='1000G' is more than a thread's trace buffer holds" "POMP_BUFFER_SIZE cut, said"
# ... and so is one larger than 64 bits hold (it was "not valid", 16M used;
# a probe), while a mean under 1 ns cannot throttle anything: not valid (it
# was taken as 0)
for big in 99999999999999999999 17179869184G; do
    OMP_NUM_THREADS=2 POMP_BUFFER_SIZE=$big POMP_OUTPUT_DIR=big_$big ./demo > /dev/null 2> big.err
    assert_contains big.err "POMP_BUFFER_SIZE='$big' is more than a thread's trace buffer holds" "POMP_BUFFER_SIZE=$big cut, said"
done
OMP_NUM_THREADS=2 POMP_THROTTLE=1000,0.5ns POMP_OUTPUT_DIR=sub_ns ./demo > /dev/null 2> sub_ns.err
assert_contains sub_ns.err "^pomp: POMP_THROTTLE='1000,0.5ns' is not valid \(allowed: .*a mean of 1ns to 1s\)" "a throttle mean under 1 ns refused"
# a buffer that memory cannot hold (an address space of 3 GB for 2 GB per
# thread): a smaller one, said once (it was halved without a word; a probe)
if [ -z "$E2E_SANITIZE" ]; then # (the sanitizer's shadow memory needs more address space)
    (ulimit -v 3000000 && OMP_NUM_THREADS=2 POMP_TRACE=events POMP_BUFFER_SIZE=2G POMP_OUTPUT_DIR=short_mem \
        ./demo > short_mem.out 2> short_mem.err) || { cat short_mem.err; fail "a buffer memory cannot hold: the run"; }
    assert_contains short_mem.err "^pomp: note: memory is short: a thread's trace buffer holds [0-9]+ events, not the [0-9]+ POMP_BUFFER_SIZE asks for" \
                    "a buffer memory cannot hold: said"
fi

# A bad value is shown escaped and cut: a control byte as \xNN (an escape
# sequence reached the terminal), at most 200 bytes (a 100 KB value made a
# 100 KB line; a probe)
OMP_NUM_THREADS=2 POMP_LOOP=$'\e[2Jx' POMP_TRACE="$(head -c 5000 /dev/zero | tr '\0' a)" POMP_OUTPUT_DIR=shown-%p ./demo > /dev/null 2> shown.err
assert_contains shown.err "^pomp: POMP_LOOP='\\\\x1b\\[2Jx' is not valid" "a control byte in a bad value: escaped"
assert_contains shown.err "^pomp: POMP_TRACE='a{200}\\.\\.\\. \\(5000 bytes\\)' is not valid" "a long bad value: cut"
assert_eq "$(grep -c $'\e' shown.err)" 0 "no escape byte from a value on stderr"
rm -rf shown-*
# Settings that do nothing are said: a trace buffer without a trace, a sampling
# clock without sampling, "none" beside a trace format (each accepted without
# a word; a probe)
OMP_NUM_THREADS=2 POMP_BUFFER_SIZE=4k POMP_SAMPLING_TIMER=cpu POMP_OUTPUT_DIR=noeffect-%p ./demo > /dev/null 2> noeffect.err
assert_contains noeffect.err "^pomp: note: POMP_BUFFER_SIZE sizes the trace buffer, and no trace is written" "a trace buffer without a trace: said"
assert_contains noeffect.err "^pomp: note: POMP_SAMPLING_TIMER chooses the sampling clock, and nothing is sampled" "a sampling clock without sampling: said"
for t in none,otf2 otf2,none; do
    OMP_NUM_THREADS=2 POMP_TRACE=$t POMP_OUTPUT_DIR=noeffect-%p ./demo > /dev/null 2> noeffect.err
    assert_contains noeffect.err "^pomp: POMP_TRACE='$t' is not valid" "POMP_TRACE=$t: said"
done
rm -rf noeffect-*
# Empty sampling values are said as every other variable's (before: taken silently)
OMP_NUM_THREADS=2 POMP_SAMPLING= POMP_SAMPLING_TIMER= POMP_OUTPUT_DIR=empty_sampling ./demo > /dev/null 2> empty.err
assert_contains empty.err "^pomp: POMP_SAMPLING='' is not valid \(allowed: off, or a period" "POMP_SAMPLING='' said"
assert_contains empty.err "^pomp: POMP_SAMPLING_TIMER='' is not valid \(allowed: wall, cpu\); using wall" "POMP_SAMPLING_TIMER='' said"
# A filter with a typo that keeps nothing: the summary says how many regions it took out
OMP_NUM_THREADS=2 POMP_FILTER_INCLUDE=type:paralel POMP_SUMMARY=on POMP_OUTPUT_DIR="filter typo" ./demo > /dev/null 2> typo.err
assert_contains typo.err "^pomp: note: ([0-9]+) of the \1 regions filtered out \(POMP_FILTER_INCLUDE, POMP_FILTER_EXCLUDE\): not recorded" \
    "a filter that keeps nothing: said"
# the summary's command can be pasted: the directory quoted for the shell
assert_contains typo.err "^pomp: full tables: pomp-report 'filter typo'$" "the summary's hint quoted"
rm -r "filter typo" empty_sampling
# Exclusion rules that match nothing, whatever the summary says: ';' for ',',
# a capital, a blank after the key (each excluded nothing, unsaid; a probe)
for rule in 'type:parallel;type:task' 'type:Parallel' 'type: parallel'; do
    OMP_NUM_THREADS=2 POMP_FILTER_EXCLUDE="$rule" POMP_SUMMARY=off POMP_OUTPUT_DIR=exclude_typo-%p ./demo > /dev/null 2> exclude.err
    assert_contains exclude.err "^pomp: warning: POMP_FILTER_EXCLUDE: the rule '$rule' matched no region of this run" \
        "an exclusion rule '$rule' that matches nothing: said"
done
OMP_NUM_THREADS=2 POMP_FILTER_EXCLUDE=type:parallel POMP_SUMMARY=off POMP_OUTPUT_DIR=exclude_typo-%p ./demo > /dev/null 2> exclude.err
assert_not_contains exclude.err "matched no region" "an exclusion rule that matches: nothing said"
rm -r exclude_typo-*
# ... and a directory whose name starts with '-' is not taken for an option
OMP_NUM_THREADS=2 POMP_SUMMARY=on POMP_OUTPUT_DIR=-dash ./demo > /dev/null 2> dash.err
assert_contains dash.err "^pomp: full tables: pomp-report ./-dash$" "the summary's hint for -dash"
"$REPORT" ./-dash > /dev/null || fail "pomp-report ./-dash, as the summary says"

# A malformed profile: pomp-report names the byte offset.
mkdir broken && printf '{"format": "pomp-profile", "version": 1,\n "regions": [}\n' > broken/profile.json
touch broken/.broken-on-purpose
if "$REPORT" broken 2> report.err; then fail "pomp-report accepted a broken file"; fi
assert_contains report.err 'profile\.json: line 2, column 14 \(byte offset 54\)' "position of the JSON error: the offset of its '}'"
# a file that ends too soon: its end
mkdir -p cut && printf '{"format": "pomp-profile", "version": 1,\n "regions": [' > cut/profile.json
touch cut/.broken-on-purpose
if "$REPORT" cut 2> cut.err; then fail "pomp-report accepted a cut file"; fi
assert_contains cut.err 'profile\.json: line 2, column [0-9]+ \(byte offset 54, the end of the file\)' "a file cut short: its end"
# a program given for its profile (an output directory named as the program
# could not be made): said to be no profile, not "'[' or '{' expected near ''"
if "$REPORT" "$(command -v cc)" 2> binary.err; then fail "pomp-report accepted a program"; fi
assert_contains binary.err 'not a pomp profile: byte offset 0 is not JSON text' "a program for a profile"
mkdir nocallpath && printf '{"format": "pomp-profile", "version": 1, "regions": [], "threads": []}\n' > nocallpath/profile.json
touch nocallpath/.broken-on-purpose
if "$REPORT" nocallpath 2> nocallpath.err; then fail "pomp-report accepted a profile without call paths"; fi
assert_contains nocallpath.err '"callpath" is missing or not an array' "the missing part named"
if "$REPORT" nonexistent 2> missing.err; then fail "pomp-report accepted a missing directory"; fi
assert_contains missing.err 'nonexistent: no such file or directory' "missing directory"
# a profile named with a '/' after it: said by its reason (it was "no such file"; a probe)
mkdir -p withslash && printf '{}' > withslash/profile.json && touch withslash/.broken-on-purpose
if "$REPORT" withslash/profile.json/ 2> slash.err; then fail "pomp-report accepted profile.json/"; fi
assert_contains slash.err '^pomp-report: withslash/profile.json/: Not a directory$' "profile.json/: not a directory"
# a directory without a profile, a profile that is a FIFO: said as such (before: "line -1, column -1 ...
# unable to open", and a read that blocked forever)
mkdir noprofile fifo && mkfifo fifo/profile.json
if "$REPORT" noprofile 2> noprofile.err; then fail "pomp-report accepted a directory without a profile"; fi
assert_contains noprofile.err '^pomp-report: noprofile/profile.json: No such file or directory$' "a directory without a profile"
if timeout 10 "$REPORT" fifo 2> fifo.err; then fail "pomp-report accepted a FIFO"; fi
assert_contains fifo.err '^pomp-report: fifo/profile.json: not a regular file$' "a FIFO for a profile"
rm -r noprofile fifo
# the report's own output lost (a full disk): said, and the status says so (before: 0, nothing said)
for opt in "" --json --check; do
    if "$REPORT" $opt e > /dev/full 2> full.err; then fail "pomp-report $opt to a full disk: status 0"; fi
    assert_contains full.err '^pomp-report: cannot write the report to standard output: No space left on device' \
        "pomp-report $opt to a full disk: said"
done

# The master switch and profile on/off.
OMP_NUM_THREADS=2 POMP_ENABLE=off POMP_SUMMARY=on POMP_OUTPUT_DIR=disabled ./demo > off.out 2> off.err
assert_eq "$(wc -l < off.out)" 2 "program output with POMP_ENABLE=off"
[ ! -e disabled ] || fail "POMP_ENABLE=off wrote an output directory"
[ ! -s off.err ] || { cat off.err; fail "POMP_ENABLE=off printed something"; }
# ... bad values and misspelt names of the other variables included (eleven
# were said, four others not; a probe)
OMP_NUM_THREADS=2 POMP_ENABLE=off POMP_TRACE=x POMP_LOOP=x POMP_THROTTLE=x POMP_BUFFER_SIZE=x POMP_OMPT=x \
    POMP_SAMPLING=x POMP_TRACES=otf2 POMP_OUTPUT_DIR=disabled ./demo > off2.out 2> off2.err
assert_eq "$(wc -l < off2.out)" 2 "program output with POMP_ENABLE=off and bad values"
[ ! -s off2.err ] || { cat off2.err; fail "POMP_ENABLE=off said the other variables' bad values"; }
OMP_NUM_THREADS=2 POMP_PROFILE=no POMP_TRACE=events POMP_SUMMARY=on POMP_OUTPUT_DIR=noprof ./demo > /dev/null 2> noprof.err
[ -f noprof/events.log ] && [ ! -e noprof/profile.json ] || fail "POMP_PROFILE=no: events.log only"
# asked for, not an error: said so (it said "no profile written (above)", above nothing)
assert_contains noprof.err "; no profile \(POMP_PROFILE=off\); output in noprof/" "POMP_PROFILE=no: the summary says why"
assert_not_contains noprof.err "\(above\)" "POMP_PROFILE=no: no error pointed at"
# ... and without a trace, nothing to write: no directory (an empty one was left)
OMP_NUM_THREADS=2 POMP_PROFILE=off POMP_SUMMARY=on POMP_OUTPUT_DIR=noprof2 ./demo > /dev/null 2> noprof2.err
[ ! -e noprof2 ] || fail "POMP_PROFILE=off without a trace: no output directory"
assert_contains noprof2.err "; no profile \(POMP_PROFILE=off\)$" "POMP_PROFILE=off without a trace: said, no directory named"
OMP_NUM_THREADS=2 POMP_ENABLE=maybe POMP_OUTPUT_DIR=maybe ./demo > /dev/null 2> maybe.err
assert_contains maybe.err "POMP_ENABLE='maybe' is not valid \(allowed: on, off, yes, no, true, false, 1, 0\); using on" "POMP_ENABLE message"
[ -f maybe/profile.json ] || fail "a bad POMP_ENABLE falls back to on"

# Every warning of an instrumented file names the user's file and line, the
# same as in the plain build (POMP directives, continued pragmas, split
# combined constructs and rewritten API calls included).
cp "$SRC/diagnostics.c" .
warnings() { grep -E ': warning: ' "$1" | sed -E 's/^([^:]+:[0-9]+):[0-9]+: warning: (.*)$/\1: \2/' | sort; }
cc -fopenmp -Wall -Wextra -Wno-unknown-pragmas -c diagnostics.c -o /dev/null 2> diag_plain.err
"$POMPCC" -fopenmp -Wall -Wextra -Wno-unknown-pragmas -c diagnostics.c -o diag.o 2> diag_pomp.err
assert_not_contains diag_pomp.err 'cannot be instrumented|did not compile' "diagnostics.c instrumented"
warnings diag_plain.err > w_plain.txt
warnings diag_pomp.err > w_pomp.txt
[ "$(wc -l < w_plain.txt)" -ge 10 ] || fail "the plain build should warn at least 10 times: $(cat w_plain.txt)"
diff -u w_plain.txt w_pomp.txt || fail "warnings of the instrumented file differ in file, line or text"

# The real compiler's exit status and output are the user's: a compiler that
# fails with status 3 makes pompcc fail with 3, with the compiler's message.
cat > cc3 <<'SH'
#!/bin/sh
cc "$@" || exit 3
SH
chmod +x cc3
if POMP_CC=./cc3 "$POMPCC" -fopenmp -c err.c -o err.o 2> cc3.err; then fail "a failing compile must fail"; fi
POMP_CC=./cc3 "$POMPCC" -fopenmp -c err.c -o err.o 2> /dev/null || status=$?
assert_eq "$status" 3 "pompcc exits with the compiler's status"
assert_contains cc3.err "^err\.c:5:9: error: .undeclared_thing. undeclared" "the compiler's message"

# pomp-instrument crashing: the file is compiled as it is, and the build goes on.
mkdir -p fake/bin
cp "$BUILD/bin/pompcc" fake/bin/ && cp "$BUILD/bin/pomp-prelink" fake/bin/
ln -s "$BUILD/include" fake/include && ln -s "$BUILD/lib" fake/lib
printf '#!/bin/sh\nkill -SEGV $$\n' > fake/bin/pomp-instrument && chmod +x fake/bin/pomp-instrument
fake/bin/pompcc -fopenmp warn.c -o warn_crash 2> crash.err || { cat crash.err; fail "a crashing instrumenter broke the build"; }
assert_contains crash.err 'warn\.c: pomp-instrument was killed by signal 11 \(please report this\); compiling it without instrumentation' "crash message"
assert_eq "$(OMP_NUM_THREADS=2 POMP_OUTPUT_DIR=crash ./warn_crash)" 1 "the program built without instrumentation runs"

# POMP_OUTPUT_DIR naming a file that is not a directory: the error that the
# directory cannot be made, the summary and its warnings all the same, and
# nothing in it that says the output is there
# (before: "cannot write out/profile.json", then "output in out/" and
# "full tables: pomp-report out" for a run that wrote nothing).
: > notadir
POMP_SUMMARY=on POMP_OUTPUT_DIR=notadir ./warn_crash >/dev/null 2> notadir.err
assert_contains notadir.err "^pomp: error: cannot create output directory 'notadir' in '$(pwd)': Not a directory \(POMP_OUTPUT_DIR names another\)" "a file as the output directory, with the directory it is in"
assert_not_contains notadir.err "output in|full tables" "no summary pointing at a directory that is not one"
assert_contains notadir.err "^pomp: warn_crash: .*; no profile written \(above\)" "the summary all the same: all the run leaves"
[ -f notadir ] && [ ! -s notadir ] || fail "the file named by POMP_OUTPUT_DIR changed"
# a directory where profile.json should go: said, and the summary names no
# file to read (before: "output in pj/", "full tables: pomp-report pj")
mkdir -p pj/profile.json
POMP_SUMMARY=on POMP_OUTPUT_DIR=pj ./warn_crash >/dev/null 2> pj.err
assert_contains pj.err "^pomp: error: cannot write pj/profile.json: Is a directory" "profile.json not writable"
assert_contains pj.err "; no profile written \\(above\\)" "the summary says no profile was written"
assert_not_contains pj.err "output in|full tables" "no summary pointing at a profile that is not there"
rm -r pj # (the checks at the end read every profile.json)

# C has no declaration statement: a construct followed by a declaration is
# the compiler's error with pompcc as without it (before: wrapped in a block,
# it compiled), at the user's line and column. C++ takes it (a declaration
# statement), with pompc++ as without.
for d in "parallel" "single" "critical(n)" "task" "taskgroup"; do
    printf 'int main(void)\n{\n    int s = 0;\n    #pragma omp %s\n    int y = 1;\n    return s;\n}\n' "$d" > decl.c
    set +e
    cc -fopenmp -c decl.c -o decl_plain.o 2> decl_plain.err; plain=$?
    "$POMPCC" -fopenmp -c decl.c -o decl.o 2> decl.err; st=$?
    set -e
    assert_eq "$st" "$plain" "'omp $d' before a declaration: pompcc's status is cc's"
    assert_contains decl.err '^decl.c:5:5: error: ' "'omp $d' before a declaration: the compiler's error at the user's line"
done
printf 'int main()\n{\n    #pragma omp parallel\n    int y = 1;\n    return 0;\n}\n' > decl.cpp
"$BUILD/bin/pompc++" -fopenmp -c decl.cpp -o decl_cpp.o || fail "C++: a declaration statement after a directive"
# Output that cannot be written never kills the program: a file-size limit
# (ulimit -f: SIGXFSZ killed it with 153 while profile.json was written, its
# own output lost, and at its start with a trace), and a standard error whose
# reader has gone (SIGPIPE killed with 141 a program that exits 0); probes.
printf '#include <stdio.h>\nstatic long fib(int n)\n{\n    if (n < 2)\n        return n;\n    long a, b;\n#pragma omp task shared(a)\n    a = fib(n - 1);\n#pragma omp task shared(b)\n    b = fib(n - 2);\n#pragma omp taskwait\n    return a + b;\n}\nint main(void)\n{\n    long r = 0;\n#pragma omp parallel num_threads(2)\n#pragma omp single\n    r = fib(16);\n    printf("%%ld\\n", r);\n    return 0;\n}\n' > fsize.c
"$POMPCC" -fopenmp fsize.c -o fsize 2> fsize_build.err || { cat fsize_build.err; fail "fsize: build"; }
rc=0; (ulimit -f 1; POMP_OUTPUT_DIR=fsize1 ./fsize > fsize1.txt 2> fsize1.err) || rc=$?
assert_eq "$rc $(cat fsize1.txt)" "0 987" "ulimit -f 1: the program ends as without pomp, its output kept"
assert_contains fsize1.err "error: cannot write fsize1/profile.json: File too large" "ulimit -f 1: the profile's error said"
rc=0; (ulimit -f 16; POMP_THROTTLE=off POMP_BUFFER_SIZE=4k POMP_TRACE=otf2 POMP_OUTPUT_DIR=fsize2 ./fsize > fsize2.txt 2> fsize2.err) || rc=$?
assert_eq "$rc $(cat fsize2.txt)" "0 987" "ulimit -f 16 with a trace: the program ends as without pomp"
assert_contains fsize2.err "trace events were lost" "ulimit -f 16 with a trace: the trace's losses said"
"$REPORT" --check fsize2 > fsize2.check || { cat fsize2.check; fail "ulimit -f 16 with a trace: the profile is whole"; }
# ... and with the default buffer, which the run never flushes: the last
# write at the end fails, said with its cause as a flush's failure is (before:
# only "trace events were lost", the cause in defs.json alone; a probe)
rc=0; (ulimit -f 16; POMP_THROTTLE=off POMP_TRACE=events POMP_OUTPUT_DIR=fsize3 ./fsize > fsize3.txt 2> fsize3.err) || rc=$?
assert_eq "$rc $(cat fsize3.txt)" "0 987" "ulimit -f 16, no flush: the program ends as without pomp"
assert_eq "$(jq '[.threads[].flushes] | add' fsize3/trace-raw/defs.json)" 0 "ulimit -f 16, no flush: the premise"
assert_contains fsize3.err "pomp: error: cannot write the trace of thread [01] to fsize3/trace-raw/thread-[01]\.bin: File too large; its events are dropped and counted" \
    "ulimit -f 16, no flush: the last write's failure said with its cause"
assert_eq "$(grep -c 'cannot write the trace of thread' fsize3.err)" 1 "ulimit -f 16, no flush: said once"
assert_contains fsize3.err "trace events were lost" "ulimit -f 16, no flush: the losses said"
rc=0; bash -c 'POMP_OUTPUT_DIR=epipe2 ./fsize 2>&1 >epipe2.txt | head -c 0; exit ${PIPESTATUS[0]}' || rc=$?
assert_eq "$rc $(cat epipe2.txt)" "0 987" "standard error to a pipe whose reader has gone: the program ends as without pomp"
# A umask that takes the owner's write or read bits (0222, 0777) made an
# output directory pomp could not write into, and under 0777 trace files it
# could not read back (a probe): the owner keeps read and write (and search)
# on everything pomp and OTF2 make; group and others keep what the umask gives.
for m in 0222 0777; do
    rm -rf "umask$m"
    (umask $m; POMP_TRACE=otf2 POMP_OUTPUT_DIR="umask$m" exec ./fsize) > "umask$m.txt" 2> "umask$m.err"
    assert_eq "$(cat "umask$m.txt")" "987" "umask $m: the program's output"
    assert_not_contains "umask$m.err" "error" "umask $m: pomp writes its output"
    assert_eq "$(find "umask$m" -type d ! -perm -u=rwx | wc -l) $(find "umask$m" -type f ! -perm -u=rw | wc -l)" "0 0" \
        "umask $m: every directory and file pomp made is the owner's to read and write"
    assert_eq "$(find "umask$m" -perm /go=w | wc -l)" "0" "umask $m: no write bit for group or others"
    "$REPORT" --check "umask$m" > "umask$m.check" || { cat "umask$m.check"; fail "umask $m: the profile"; }
    otf2-print "umask$m/traces.otf2" > /dev/null || fail "umask $m: the OTF2 trace reads"
done
# (root reads and writes whatever the modes say: as a user without that, the same run)
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null && id nobody > /dev/null 2>&1; then
    shared=$(mktemp -d) && chmod 1777 "$shared" && cp fsize "$shared/"
    (cd "$shared" && setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
        bash -c 'umask 0777; POMP_TRACE=otf2 POMP_OUTPUT_DIR=out ./fsize > out.txt 2> out.err;
                 pomp_report=$1; "$pomp_report" --check out > check.txt 2>&1 && otf2-print out/traces.otf2 > /dev/null' \
        _ "$REPORT") || { cat "$shared"/out.err "$shared"/check.txt 2>/dev/null; fail "umask 0777, not root: pomp's output written and read back"; }
    assert_eq "$(cat "$shared/out.txt")" "987" "umask 0777, not root: the program's output"
    rm -rf "$shared"
fi
echo "PASS"
