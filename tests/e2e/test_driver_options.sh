# pompcc takes the compiler options build systems write in every form gcc
# takes them: joined values (-ofile, -MFfile, -MTtarget), response files
# (@file), -fsyntax-only, a source on standard input; __BASE_FILE__ is the
# source's name, not that of pompcc's copy; pompcc leaves nothing in its
# temporary directory (TMPDIR), headers' instrumented copies included, and a
# killed pompcc stops the compiler it runs.
source "$(dirname "$0")/lib.sh"
mkdir tmp
export TMPDIR=$PWD/tmp
cat > m.c <<'C'
#include <stdio.h>
#include "kern.h"
int main(void)
{
    printf("%d %s\n", kern(), __BASE_FILE__);
    return 0;
}
C
cat > kern.h <<'C'
static inline int kern(void)
{
    int n = 0;
#pragma omp parallel num_threads(2) reduction(+: n)
    n++;
    return n;
}
C
cc -fopenmp m.c -o plain
assert_eq "$(./plain)" "2 m.c" "the plain build"

# -ofile
"$POMPCC" -fopenmp -c m.c -oobj_m.o
[ -f obj_m.o ] || fail "-oobj_m.o: no obj_m.o"
[ ! -f m.o ] || fail "-oobj_m.o: m.o written instead"
# -MFfile -MTtarget (joined), as -MF file -MT target
"$POMPCC" -fopenmp -MMD -MFdeps.d -MTmy_target -c m.c -o m2.o
assert_contains deps.d "^my_target: m\.c kern\.h" "-MFdeps.d -MTmy_target: the dependency file"
# dependency files of a compile-and-link, named and targeted as gcc does:
# the output's name with .d and the output as target, else a-<source>.d
mkdir -p out
"$POMPCC" -fopenmp -MMD -o out/app.x m.c
assert_contains out/app.d "^out/app\.x: m\.c kern\.h" "-MMD -o out/app.x: out/app.d"
assert_not_contains out/app.d "pompcc-" "-MMD -o out/app.x: no temporary file in it"
"$POMPCC" -fopenmp -MMD m.c
assert_contains a-m.d "^m\.o: m\.c kern\.h" "-MMD without -o: a-m.d"
# -Wp,-MMD,file and -Wp,-MD,file (the preprocessor's form: kernel-style
# builds, automake's older depcomp): the file named, the source and its
# header, the preprocessor's own target (the source's name with .o, as gcc
# writes it), no temporary file. -Wp,-MD,file lost the name's first
# character ("oo.d"), and "-Wp,-MD,.deps/k.d" failed the compile
"$POMPCC" -fopenmp -Wp,-MMD,wp.d -c m.c -o wp.o
assert_contains wp.d "^m\.o: m\.c kern\.h" "-Wp,-MMD,wp.d: the dependency file"
assert_not_contains wp.d "pompcc-" "-Wp,-MMD,wp.d: no temporary file in it"
mkdir -p .deps
"$POMPCC" -fopenmp -Wp,-MD,.deps/m.d -c m.c -o wp_md.o || fail "-Wp,-MD,.deps/m.d: the compile"
assert_contains .deps/m.d "^m\.o: m\.c " "-Wp,-MD,.deps/m.d: the dependency file"
assert_contains .deps/m.d "[ ^]kern\.h" "-Wp,-MD,.deps/m.d: the header in it"
# a target with a space is quoted for make, as gcc quotes its own
mkdir -p "obj dir"
"$POMPCC" -fopenmp -MD -c m.c -o "obj dir/m.o"
assert_contains "obj dir/m.d" '^obj\\ dir/m\.o: m\.c' "-MD -o 'obj dir/m.o': the target quoted"
# a response file holding -fopenmp and -O2, and one holding -c and -o
printf -- '-fopenmp -O2\n' > flags.rsp
printf -- '-c -o "rsp obj.o"\n' > compile.rsp
"$POMPCC" @flags.rsp m.c -o from_rsp 2> rsp.err
assert_eq "$(POMP_OUTPUT_DIR=rsp.d ./from_rsp 2> /dev/null)" "2 m.c" "@flags.rsp: output and __BASE_FILE__"
assert_eq "$(region_sum rsp.d parallel 4 visits)" 1 "@flags.rsp: -fopenmp counted, the region instrumented"
"$POMPCC" @flags.rsp @compile.rsp m.c
[ -f "rsp obj.o" ] || fail "@compile.rsp: no object where its quoted -o says"
# GCC's long spellings (--output=F, --compile, --write-dependencies,
# --include-directory D): what their short forms do. Before 2026-12-05
# --output wrote the object elsewhere, --compile linked, and
# --write-dependencies named pompcc's temporary copy in the .d (a probe)
mkdir -p long/inc && cp kern.h long/inc/ && cp m.c long/
(cd long && "$POMPCC" -fopenmp --compile m.c --output=lm.o --write-dependencies \
    --include-directory inc) || fail "long options: the compile"
[ -f long/lm.o ] && [ ! -f long/m.o ] && [ ! -f long/a.out ] || fail "--compile --output=lm.o: no lm.o, or another file"
assert_contains long/lm.d "^lm\.o: m\.c " "--write-dependencies: the dependency file's target"
assert_contains long/lm.d " inc/kern\.h" "--write-dependencies: the header found through --include-directory"
assert_not_contains long/lm.d "pompcc-" "--write-dependencies: no temporary file named"
[ "$(nm long/lm.o | grep -c POMP_Parallel)" -gt 0 ] || fail "--include-directory inc: the header's construct not instrumented"
(cd long && "$POMPCC" -fopenmp lm.o --output app) || fail "long options: the link"
assert_eq "$(cd long && ./app)" "2 m.c" "long options: the program"
# -fsyntax-only: the compiler's answer, no file
"$POMPCC" -fopenmp -fsyntax-only m.c || fail "-fsyntax-only failed"
# a source on standard input: compiled as it is, and said
"$POMPCC" -fopenmp -x c -c - -o stdin.o < m.c 2> stdin.err || fail "a source on stdin"
assert_contains stdin.err "a source read from standard input .* is compiled without instrumentation" "stdin: said"
nm stdin.o | grep " T main" > /dev/null || fail "stdin: no main in the object"
# ... and compiled and linked in one step: the link is the compiler's too, so
# nothing is measured, which is said (the warning said only the compile)
"$POMPCC" -fopenmp -x c - -o stdin_app < m.c 2> stdin_app.err || fail "a source on stdin, linked"
assert_contains stdin_app.err "linked as the compiler links it, without libpomp: nothing of it is measured" \
                "stdin, one step: said that nothing is measured"
# POMP_CC with a wrapper in front of the compiler (as ccache gcc)
POMP_CC="env cc" "$POMPCC" -fopenmp m.c -o wrapped 2> wrapped.err || { cat wrapped.err; fail "POMP_CC='env cc'"; }
assert_eq "$(POMP_OUTPUT_DIR=wrapped.d ./wrapped 2> /dev/null)" "2 m.c" "POMP_CC='env cc': the program"
assert_eq "$(region_sum wrapped.d parallel 4 visits)" 1 "POMP_CC='env cc': instrumented"
# a compiler that finds headers pomp's parser would not (mpicc adds its -I
# unseen; GCC's quadmath.h is in GCC's own directory): pomp-instrument's parser
# is given the compiler's include directories, so the loop that uses what the
# header declares has its statement (it was 'no statement after it', blaming
# the code; a probe). A header only the compiler's preprocessor finds
# (-Wp,-I) is named in the warning
mkdir -p wrapinc
printf '#define WRAP_N 3\nstatic inline int wrap_f(int i) { return i; }\n' > wrapinc/wrap.h
cat > wrapped_inc.c <<'C'
#include <stdio.h>
#include <wrap.h>
int main(void)
{
    int s = 0;
#pragma omp parallel for reduction(+: s)
    for (int i = 0; i < WRAP_N; i++)
        s += wrap_f(i);
    printf("%d\n", s);
    return 0;
}
C
printf '#!/bin/sh\nexec cc -I"%s/wrapinc" "$@"\n' "$PWD" > wrapcc && chmod +x wrapcc
POMP_CC=$PWD/wrapcc "$POMPCC" -fopenmp wrapped_inc.c -o wrapped_inc 2> wrapped_inc.err ||
    { cat wrapped_inc.err; fail "POMP_CC=a wrapper adding -I: the build"; }
assert_not_contains wrapped_inc.err "not instrumented" "POMP_CC=a wrapper adding -I: every construct instrumented"
assert_eq "$(POMP_OUTPUT_DIR=wrapped_inc.d ./wrapped_inc 2> /dev/null)" 3 "POMP_CC=a wrapper adding -I: the program"
assert_eq "$(region_sum wrapped_inc.d for 6 visits)" 2 "POMP_CC=a wrapper adding -I: the loop instrumented"
# a header directory given to the preprocessor itself (-Wp,-I, -Xpreprocessor
# -I): pompcc and its parser read those words too. Before 2026-12-06 the
# parser did not find the header (the loop left to the runtime, said), and a
# header's own construct, in a source with none, went unseen
for wp in "-Wp,-I$PWD/wrapinc" "-Wp,-DUNUSED=1,-I$PWD/wrapinc" "-Xpreprocessor -I$PWD/wrapinc"; do
    # shellcheck disable=SC2086 # the option's words
    "$POMPCC" -fopenmp $wp wrapped_inc.c -o wp_inc 2> wp_inc.err || { cat wp_inc.err; fail "$wp: the build"; }
    assert_not_contains wp_inc.err "not instrumented" "$wp: every construct instrumented"
    assert_eq "$(POMP_OUTPUT_DIR=wp_inc.d ./wp_inc 2> /dev/null)" 3 "$wp: the program"
    assert_eq "$(region_sum wp_inc.d for 6 visits)" 2 "$wp: the loop instrumented"
    rm -rf wp_inc.d
done
mkdir -p wpk
printf 'static double wpk_sum(int n)\n{\n    double s = 0;\n#pragma omp parallel for reduction(+ : s)\n    for (int i = 0; i < n; i++)\n        s += i;\n    return s;\n}\n' > wpk/wpk.h
printf '#include <stdio.h>\n#include "wpk.h"\nint main(void) { printf("%%.0f\\n", wpk_sum(100)); return 0; }\n' > wpk_main.c
"$POMPCC" -fopenmp -Wp,-I"$PWD/wpk" wpk_main.c -o wpk_app 2> wpk.err || { cat wpk.err; fail "-Wp,-I header construct: the build"; }
assert_eq "$(POMP_OUTPUT_DIR=wpk.d ./wpk_app 2> /dev/null)" 4950 "-Wp,-I header construct: the program"
assert_eq "$(region_sum wpk.d parallel 4 visits)" 1 "-Wp,-I: the header's parallel region instrumented (a source without a pragma)"
# a header only the compile finds, not the compiler's -v list (a wrapper adding
# its -I for the source alone): the header the parser did not find is named
printf '#!/bin/sh\ncase "$*" in *wrapped_inc*) exec cc -I"%s/wrapinc" "$@" ;; esac\nexec cc "$@"\n' "$PWD" > wrapcc_src &&
    chmod +x wrapcc_src
POMP_CC=$PWD/wrapcc_src "$POMPCC" -fopenmp wrapped_inc.c -o wp_inc 2> wp_inc.err || { cat wp_inc.err; fail "a header the parser misses: the build"; }
assert_contains wp_inc.err "not instrumented: .*did not find \(wrapped_inc\.c:2:10: 'wrap\.h' file not found" \
                "a header the parser did not find: named"
# a compiler that cannot run, or fails without a word: said once, with the
# variable that chose it (before: /bin/false failed the build in silence, and a
# missing compiler was said three times)
status=0
POMP_CC=/bin/false "$POMPCC" -fopenmp -c m.c -o false.o 2> false.err || status=$?
assert_eq "$status" 1 "POMP_CC=/bin/false: the compile fails"
assert_contains false.err "pompcc: error: the compiler '/bin/false' \(POMP_CC\) fails even on an empty file" \
                "POMP_CC=/bin/false: said"
status=0
# sources named with a quote, a backslash, a tab: instrumented (their include
# file was named in #include with C escapes, which header names do not take:
# the copy did not compile and the file fell back to a plain compile); with a
# quote and '>', the copy of kern.h (named after the source) was included by
# no header name at all, and kern.h's region went unmeasured; a newline
for f in 'dq"x.c' 'bs\x.c' 'tab	x.c' 'dq"gt>x.c' $'nl\nx.c'; do
    cp m.c "$f"
    "$POMPCC" -fopenmp "$f" -o oddname 2> oddname.err || { cat oddname.err; fail "source named '$f': build"; }
    assert_not_contains oddname.err "did not compile|cannot be instrumented" "source named '$f': instrumented as it is"
    POMP_OUTPUT_DIR=oddname.d ./oddname > /dev/null 2>&1
    assert_eq "$(jq '[.regions[] | select(.type == "parallel" and .init != "ompt")] | length' oddname.d/profile.json)" 1 \
              "source named '$f': its parallel region instrumented"
    "$REPORT" --check oddname.d > oddname.check || { cat oddname.check; fail "source named '$f': pomp-report reads the profile"; }
    rm -rf oddname.d "$f"
done
# the output is the source: refused as gcc refuses it (the object replaced the
# source: pompcc compiles a copy, so the compiler's own check never fired)
cp m.c same.c
status=0
"$POMPCC" -fopenmp -c same.c -o same.c 2> same.err || status=$?
assert_eq "$status" 1 "-o naming the source: refused"
assert_contains same.err "input file 'same.c' is the same as output file" "-o naming the source: said"
cmp -s m.c same.c || fail "-o naming the source: the source is kept"
# --openmp, GCC's other spelling of -fopenmp: instrumented and measured as
# -fopenmp is (it was compiled and linked as a program without OpenMP)
"$POMPCC" --openmp m.c -o longopt 2> longopt.err || { cat longopt.err; fail "--openmp: build"; }
assert_eq "$(POMP_OUTPUT_DIR=longopt.d ./longopt 2> /dev/null)" "2 m.c" "--openmp: the program"
assert_eq "$(jq '[.regions[] | select(.type == "parallel" and .init != "ompt")] | length' longopt.d/profile.json)" 1 \
          "--openmp: its parallel region instrumented"
# -c (and -S) with sources pompcc does not instrument beside one it does:
# each compiled, as cc compiles them (the assembly sources were left out
# without a word, and the build went on to a link error; a probe); -o with
# more than one file to compile: the compiler's own error and status
stack='\t.section .note.GNU-stack,"",@progbits\n' # (no executable stack: no linker warning)
printf "\t.text\n\t.globl asm_three\nasm_three:\n\tmovl \$3, %%eax\n\tret\n$stack" > three.s
printf "#define RET(n) movl \$n, %%eax\n\t.text\n\t.globl asm_four\nasm_four:\n\tRET(4)\n\tret\n$stack" > four.S
printf 'int asm_three(void); int asm_four(void); int kern_twice(void);\nint main(void) { return asm_three() + asm_four() + kern_twice() - 11; }\n' > mixed_main.c
printf '#include "kern.h"\nint kern_twice(void) { return 2 * kern(); }\n' > twice.c
"$POMPCC" -fopenmp -c three.s twice.c four.S 2> mixed.err || { cat mixed.err; fail "-c with assembly sources: compile"; }
for o in three.o twice.o four.o; do [ -f $o ] || fail "-c with assembly sources: no $o"; done
"$POMPCC" -fopenmp mixed_main.c three.o twice.o four.o -o mixed || fail "-c with assembly sources: link"
POMP_OUTPUT_DIR=mixed.d ./mixed 2> /dev/null || fail "-c with assembly sources: the program (3 + 4 + 2 * 2)"
status=0
"$POMPCC" -fopenmp -c twice.c four.S -o both.o 2> both.err || status=$?
cc -fopenmp -c twice.c four.S -o both.o 2> both_plain.err || true
assert_eq "$status" 1 "-o with two files to compile: the compiler's status"
assert_eq "$(cat both.err)" "$(cat both_plain.err)" "-o with two files to compile: the compiler's message"
# a dependency file in a directory that does not exist: the compiler's
# failure, and no object left behind, as the compiler leaves none (the
# instrumented object stayed, and the next make took it as up to date)
status=0
"$POMPCC" -fopenmp -MD -MF nodir/twice.d -c twice.c -o nodir_twice.o 2> nodir.err || status=$?
assert_eq "$status" 1 "-MF in a missing directory: the compiler's status"
[ ! -e nodir_twice.o ] || fail "-MF in a missing directory: an object was left behind"
# -### (the commands the compiler would run, none run): the compiler's answer
# alone, as for a source that does not exist (pompcc warned of it twice)
"$POMPCC" -fopenmp -### -c no_such_source.c 2> hash3.err || fail "-###: the compiler's status"
assert_not_contains hash3.err "pompcc" "-###: the compiler's answer alone"
# -fopenmp -fno-openmp: the last one wins, as in gcc: a serial program, built
# and linked as cc builds it, its pragmas ignored with the compiler's own
# warnings (it was instrumented and measured, and the split parallel for drew
# a warning of its own at the wrong line; a probe); the other order measures
cc -Wall -fopenmp -fno-openmp m.c -o nomp_plain 2> nomp_plain.err
"$POMPCC" -Wall -fopenmp -fno-openmp m.c -o nomp 2> nomp.err || { cat nomp.err; fail "-fno-openmp last: build"; }
assert_eq "$(cat nomp.err)" "$(cat nomp_plain.err)" "-fno-openmp last: the compiler's warnings alone"
assert_eq "$(POMP_OUTPUT_DIR=nomp.d ./nomp 2>&1)" "1 m.c" "-fno-openmp last: a serial program, no summary"
[ ! -e nomp.d ] || fail "-fno-openmp last: a profile was written"
! ldd nomp | grep libpomp > /dev/null || fail "-fno-openmp last: linked with libpomp"
"$POMPCC" -fno-openmp -fopenmp m.c -o omp_last 2> omp_last.err || { cat omp_last.err; fail "-fopenmp last: build"; }
assert_eq "$(POMP_OUTPUT_DIR=omp_last.d ./omp_last 2> /dev/null)" "2 m.c" "-fopenmp last: the program"
assert_eq "$(jq '[.regions[] | select(.type == "parallel" and .init != "ompt")] | length' omp_last.d/profile.json)" 1 \
          "-fopenmp last: its parallel region instrumented"
# -fopenmp=libgomp, which gcc refuses: gcc's one message, as without pompcc
# (a second one blamed the compiler: "fails even on an empty file")
if cc -fopenmp=libgomp -c -x c /dev/null -o /dev/null 2> /dev/null; then :; else
    status=0
    "$POMPCC" -fopenmp=libgomp -c m.c -o eqlib.o 2> eqlib.err || status=$?
    assert_eq "$status" 1 "-fopenmp=libgomp: refused as the compiler refuses it"
    assert_not_contains eqlib.err "pompcc: error" "-fopenmp=libgomp: the compiler's message alone"
fi
# -fopenmp-simd alone: the simd constructs the compiler applies are not
# measured (no runtime, no libpomp), and pompcc says so (it said nothing)
cat > simdonly.c <<'C'
#include <stdio.h>
int main(void)
{
    float a[64], s = 0;
    for (int i = 0; i < 64; i++)
        a[i] = (float)i;
#pragma omp simd reduction(+ : s)
    for (int i = 0; i < 64; i++)
        s += a[i];
    printf("%.0f\n", s);
    return 0;
}
C
"$POMPCC" -O2 -fopenmp-simd simdonly.c -o simdonly 2> simdonly.err || { cat simdonly.err; fail "-fopenmp-simd: build"; }
assert_eq "$(./simdonly)" 2016 "-fopenmp-simd: the program"
assert_contains simdonly.err "simdonly.c: compiled with -fopenmp-simd and without -fopenmp: its OpenMP constructs .* are not measured" \
                "-fopenmp-simd: said that its simd constructs are not measured"
# OpenACC (-fopenacc): not measured, and said at the compile and by pomprun
# (40 ms of OpenACC kernels went without a word; a probe)
if [ "${E2E_RUNTIME:-}" != omp ] && [ -z "$E2E_SANITIZE" ]; then
    printf '#include <stdio.h>\nint main(void)\n{\n    double s = 0;\n#pragma acc parallel loop reduction(+ : s)\n    for (int i = 0; i < 64; i++)\n        s += i;\n    printf("%%.0f\\n", s);\n    return 0;\n}\n' > acc.c
    "$POMPCC" -fopenacc -fopenmp acc.c -o acc 2> acc.err || { cat acc.err; fail "OpenACC: the build"; }
    assert_contains acc.err "acc.c: its OpenACC constructs \(-fopenacc\) are not measured" "OpenACC: said at the compile"
    assert_eq "$(POMP_OUTPUT_DIR=acc.d ./acc 2> /dev/null)" 2016 "OpenACC: the program"
    gcc -fopenacc acc.c -o acc_plain
    assert_eq "$(POMP_OUTPUT_DIR=acc_run.d "$BUILD/bin/pomprun" ./acc_plain 2> acc_run.err)" 2016 "OpenACC under pomprun: the program"
    assert_contains acc_run.err "^pomprun: note: ./acc_plain calls OpenACC \(GOACC_\*\): its OpenACC constructs are not measured" \
        "OpenACC under pomprun: said"
    "$POMPCC" -fopenmp -fopenacc -fno-openacc -c acc.c -o noacc.o 2> noacc.err
    assert_not_contains noacc.err "OpenACC" "-fno-openacc last: nothing said"
fi
# A Fortran program's lock calls (not interposed) under pomprun: said
if command -v gfortran > /dev/null && [ "${E2E_RUNTIME:-}" != omp ] && [ -z "$E2E_SANITIZE" ]; then
    printf 'program locks\n  use omp_lib\n  integer(omp_lock_kind) :: l\n  integer :: n\n  n = 0\n  call omp_init_lock(l)\n  !$omp parallel num_threads(2)\n  call omp_set_lock(l)\n  n = n + 1\n  call omp_unset_lock(l)\n  !$omp end parallel\n  call omp_destroy_lock(l)\n  print *, n\nend program\n' > flock.f90
    gfortran -fopenmp flock.f90 -o flock
    assert_eq "$(POMP_OUTPUT_DIR=flock.d "$BUILD/bin/pomprun" ./flock 2> flock.err | tr -d ' ')" 2 "Fortran locks under pomprun: the program"
    assert_contains flock.err "^pomprun: note: ./flock calls Fortran's lock routines \(omp_set_lock_, ...\): their waits are not measured" \
        "Fortran locks under pomprun: said"
fi
# ... the last of -fopenmp-simd and -fno-openmp-simd wins, as for the compiler
"$POMPCC" -O2 -fopenmp-simd -fno-openmp-simd simdonly.c -o simdoff 2> simdoff.err || { cat simdoff.err; fail "-fno-openmp-simd: build"; }
assert_not_contains simdoff.err "compiled with -fopenmp-simd" "-fopenmp-simd -fno-openmp-simd: nothing said (simd is off)"
# Link-only flags stay out of the compile of a command that compiles and
# links (clang warns of each one a compile does not use, an error under
# -Werror: -static-libgcc failed a build clang alone passes; a probe)
if [ -z "$E2E_SANITIZE" ]; then
    linkonly=(-static-libgcc -fuse-ld=bfd --rtlib=libgcc -Wl,-O1 --for-linker=-O1)
    clang-19 -Werror -fopenmp "${linkonly[@]}" m.c -o linkonly_plain -L"$LIBOMP_DIR" -Wl,-rpath,"$LIBOMP_DIR" 2> linkonly_plain.err ||
        { cat linkonly_plain.err; fail "link-only flags: plain clang"; }
    POMP_CC=clang-19 "$POMPCC" -Werror -fopenmp "${linkonly[@]}" m.c -o linkonly 2> linkonly.err ||
        { cat linkonly.err; fail "link-only flags: pompcc with clang under -Werror"; }
    assert_not_contains linkonly.err "unused during compilation" "link-only flags: not given to the compile"
    assert_eq "$(POMP_OUTPUT_DIR=linkonly.d ./linkonly 2> /dev/null)" "2 m.c" "link-only flags: the program"
fi
# a TMPDIR that does not exist: /tmp, as gcc does (every compile stopped)
TMPDIR=/no/such/dir "$POMPCC" -fopenmp m.c -o tmpdir_gone 2> tmpdir.err || { cat tmpdir.err; fail "TMPDIR missing: build"; }
assert_eq "$(POMP_OUTPUT_DIR=tmpdir.d ./tmpdir_gone 2> /dev/null)" "2 m.c" "TMPDIR missing: the program"
# a Latin-1 source name (not UTF-8): its regions' file is written into the
# JSON as Latin-1 characters (the bytes as they were made profile.json no
# JSON, and pomp-report refused it)
latin1=$'caf\xe9.c'
printf '#include <stdio.h>\nint main(void)\n{\n    int s = 0;\n#pragma omp parallel reduction(+ : s)\n    s++;\n    printf("%%d\\n", s > 0);\n    return 0;\n}\n' > "$latin1"
"$POMPCC" -fopenmp "$latin1" -o latin1 2> latin1.err || { cat latin1.err; fail "a Latin-1 source name: build"; }
assert_eq "$(POMP_OUTPUT_DIR=latin1.d ./latin1 2> /dev/null)" 1 "a Latin-1 source name: the program"
"$REPORT" --check latin1.d > latin1.check || { cat latin1.check; fail "a Latin-1 source name: pomp-report reads the profile"; }
assert_eq "$(jq -r '[.regions[] | select(.type == "parallel") | .file] | .[0]' latin1.d/profile.json)" "café.c" \
          "a Latin-1 source name: read as Latin-1"
# __FILE__ in a project header the source includes, compiled in the source's
# directory: "logname.h" as in a plain build (pompcc's -iquote . made it
# "./logname.h": the program printed another name)
printf 'static const char *log_file(void) { return __FILE__; }\n' > logname.h
printf '#include <stdio.h>\n#include "logname.h"\nint main(void)\n{\n    int n = 0;\n#pragma omp parallel reduction(+ : n)\n    n++;\n    printf("%%s %%d\\n", log_file(), n > 0);\n    return 0;\n}\n' > logmain.c
cc -fopenmp logmain.c -o logmain_plain
"$POMPCC" -fopenmp -g logmain.c -o logmain 2> logmain.err || { cat logmain.err; fail "__FILE__ in a header: build"; }
assert_eq "$(POMP_OUTPUT_DIR=logmain.d ./logmain 2> /dev/null)" "$(./logmain_plain)" "__FILE__ in a header: as in a plain build"
# ... and in one that a header with a construct includes (that header's copy
# named it by its absolute path: found by a C++ probe)
cat > logkern.h <<'C'
static int log_kern(void)
{
    int n = 0;
#pragma omp parallel reduction(+ : n)
    n++;
    return n > 0;
}
#include "logname.h"
C
cat > kernmain.c <<'C'
#include <stdio.h>
#include "logkern.h"
int main(void)
{
    printf("%s %d\n", log_file(), log_kern());
    return 0;
}
C
cc -fopenmp kernmain.c -o kernmain_plain
"$POMPCC" -fopenmp kernmain.c -o kernmain 2> kernmain.err || { cat kernmain.err; fail "__FILE__ in a header's header: build"; }
assert_eq "$(POMP_OUTPUT_DIR=kernmain.d ./kernmain 2> /dev/null)" "$(./kernmain_plain)" "__FILE__ in a header's header: as in a plain build"
assert_eq "$(jq '[.regions[] | select(.type == "parallel" and .file == "logkern.h")] | length' kernmain.d/profile.json)" 1 \
          "__FILE__ in a header's header: the header's construct instrumented"
# blanks only name no compiler: the default, as an empty value (the next word,
# pompcc's own option or the user's first, was run as the compiler)
POMP_CC='  ' "$POMPCC" -fopenmp m.c -o blank 2> blank.err || { cat blank.err; fail "POMP_CC=blanks: the default compiler"; }
assert_eq "$(POMP_OUTPUT_DIR=blank.d ./blank 2> /dev/null)" "2 m.c" "POMP_CC=blanks: the program"
POMP_CC=/no/such/cc "$POMPCC" -fopenmp -c m.c -o none.o 2> none.err || status=$?
assert_eq "$status" 127 "POMP_CC=/no/such/cc: the compile fails as a missing command does"
# one line: what, which variable named it, and why (two lines said it: the
# failed spawn, then the compiler)
assert_eq "$(wc -l < none.err)" 1 "POMP_CC=/no/such/cc: said once, in one line"
assert_contains none.err "the compiler '/no/such/cc' \(POMP_CC\) cannot be run: No such file or directory" \
                "POMP_CC=/no/such/cc: the variable named, and why"

# GCC options whose value is the next word, in their short and long
# spellings: the value stays with its option (it was lost, and the option took
# pompcc's -D_POMP as its value: a failed compile, or _POMP undefined)
mkdir -p inc_pre
echo '#define FROM_PREFIX 3' > inc_pre/pre.h
cat > sep.c <<'C'
#include <stdio.h>
#include <pre.h>
#if !#machine(mybox) || !defined(_POMP) || FROM_MACRO != 2
#error "an option lost its value"
#endif
int main(void)
{
    int n = 0;
#pragma omp parallel num_threads(2) reduction(+ : n)
    n += FROM_PREFIX;
    printf("%d\n", n);
    return 0;
}
C
"$POMPCC" -fopenmp -Wno-deprecated -A machine=mybox -iprefix "$PWD/" -iwithprefixbefore inc_pre \
    --define-macro FROM_MACRO=2 --language c sep.c -o sep 2> sep.err || { cat sep.err; fail "options with a separate value"; }
assert_eq "$(POMP_OUTPUT_DIR=sep.d ./sep 2> /dev/null)" 6 "options with a separate value: the program"
assert_eq "$(region_sum sep.d parallel $(line_of sep.c "omp parallel") visits)" 1 "options with a separate value: instrumented"

# The source's own directory comes first for its quoted includes, as in a
# plain build, before a -iquote directory of the user's (its config.h was
# taken from there)
mkdir -p q_src q_other
echo '#define WHERE "src"' > q_src/config.h
echo '#define WHERE "other"' > q_other/config.h
printf '#include <stdio.h>\n#include "config.h"\nint main(void)\n{\n#pragma omp parallel num_threads(1)\n    puts(WHERE);\n    return 0;\n}\n' > q_src/q.c
"$POMPCC" -fopenmp -iquote q_other q_src/q.c -o q 2> q.err || { cat q.err; fail "-iquote"; }
assert_eq "$(POMP_OUTPUT_DIR=q.d ./q 2> /dev/null)" src "-iquote of the user's: the source's own config.h first"

# An #include <...> found only where angle brackets do not search (a -iquote
# directory, the includer's own) fails under pompcc as it does with the
# compiler, with the compiler's error: the parser pomp uses finds such a
# header all the same (after an error), and the #include pointed at its
# instrumented copy compiled (a program the compiler rejects was built)
mkdir -p ang_q ang_src
printf 'static inline int ang(void)\n{\n    int n = 0;\n#pragma omp parallel num_threads(2) reduction(+ : n)\n    n++;\n    return n;\n}\n' > ang_q/ang.h
printf '#include <ang.h>\nint main(void) { return ang() == 2 ? 0 : 1; }\n' > ang.c
cp ang_q/ang.h ang.c ang_src/
for how in "-iquote ang_q ang.c" "ang_src/ang.c"; do
    rc_plain=0; plain_cc $how -c -o ang_plain.o 2> ang_plain.err || rc_plain=$?
    [ "$rc_plain" -ne 0 ] || fail "#include <ang.h> ($how): the compiler accepts it (the test's premise)"
    rc=0; "$POMPCC" -fopenmp $how -c -o ang.o 2> ang.err || rc=$?
    assert_eq "$rc" "$rc_plain" "#include <ang.h> ($how): pompcc's exit status, the compiler's"
    grep -qxF -- "$(head -1 ang_plain.err)" ang.err ||
        { cat ang_plain.err ang.err; fail "#include <ang.h> ($how): not the compiler's error"; }
done

# Macros named as attributes (unused, weak, cold, cleanup): the inserted code
# spells its attributes __unused__, ... (the file was compiled without
# instrumentation: "the instrumented file did not compile")
cat > attrs.c <<'C'
#include <stdio.h>
#define unused not_used_here
#define weak 1
#define cold 2
#define cleanup 3
int main(void)
{
    int n = 0;
#pragma omp parallel num_threads(2) reduction(+ : n)
    {
#pragma omp critical
        n++;
    }
    printf("%d\n", n);
    return 0;
}
C
"$POMPCC" -fopenmp attrs.c -o attrs 2> attrs.err || { cat attrs.err; fail "attribute macros"; }
assert_not_contains attrs.err "without instrumentation" "macros named as attributes: instrumented"
assert_eq "$(POMP_OUTPUT_DIR=attrs.d ./attrs 2> /dev/null)" 2 "macros named as attributes: the program"
assert_eq "$(region_sum attrs.d critical $(line_of attrs.c "omp critical") visits)" 2 "macros named as attributes: the critical measured"

# __TIMESTAMP__ is the source's time, as in a plain build (the copy's: the
# time of the build)
printf '#include <stdio.h>\nint main(void)\n{\n#pragma omp parallel num_threads(1)\n    puts(__TIMESTAMP__);\n    return 0;\n}\n' > stamp.c
touch -d '2020-01-01 12:00:00' stamp.c
cc -fopenmp stamp.c -o stamp_plain
"$POMPCC" -fopenmp stamp.c -o stamp 2> stamp.err || { cat stamp.err; fail "__TIMESTAMP__ build"; }
assert_eq "$(POMP_OUTPUT_DIR=stamp.d ./stamp 2> /dev/null)" "$(./stamp_plain)" "__TIMESTAMP__: the source's"

# a killed pompcc stops its compiler: no object after it ended (the compiler
# here, when it compiles the instrumented file, says so and takes 5 s first;
# it ran with the signals blocked, and wrote its object after pompcc ended)
cat > slowcc <<SH
#!/bin/bash
case " \$* " in *" -c "*) touch "$PWD/slowcc.started"; sleep 5;; esac
exec cc "\$@"
SH
chmod +x slowcc
POMP_CC=$PWD/slowcc "$POMPCC" -fopenmp -c m.c -o killed.o &
pid=$!
for _ in $(seq 100); do [ -f slowcc.started ] && break; sleep 0.1; done
[ -f slowcc.started ] || fail "the slow compiler never started"
killed_at=$(date +%s%N)
kill -TERM $pid
status=0
wait $pid || status=$?
ended_ms=$((($(date +%s%N) - killed_at) / 1000000))
assert_eq "$status" 143 "a pompcc killed by SIGTERM ends by it"
[ "$ended_ms" -lt 3000 ] || fail "a killed pompcc ends at once, its compiler stopped (it took $ended_ms ms: the compile ran on)"
sleep 5
[ ! -f killed.o ] || fail "the compiler of a killed pompcc went on and wrote its object"
# nothing left behind
assert_eq "$(ls -A tmp | wc -l)" 0 "pompcc's temporary directories all removed"

# A header given with -include holds OpenMP: pomp cannot point it at an
# instrumented copy, so pompcc says so (before: silently left to the runtime),
# and the program still builds and runs; -include of a header without OpenMP
# says nothing
cat > forced.h <<'H'
static int forced_sum(int n)
{
    int s = 0;
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < n; i++)
        s += i;
    return s;
}
H
printf '#include <stdio.h>\nint main(void) { printf("%%d\\n", forced_sum(100)); return 0; }\n' > forced_main.c
printf '#define QUIET 1\n' > quiet.h
"$POMPCC" -fopenmp -include forced.h -include quiet.h forced_main.c -o forced 2> forced.err || { cat forced.err; fail "-include: build"; }
assert_contains forced.err "^pompcc: warning: forced.h \\(given with -include\\) is not instrumented" "-include: said"
assert_not_contains forced.err "quiet.h" "-include of a header without OpenMP: nothing said"
assert_eq "$(OMP_NUM_THREADS=2 POMP_OUTPUT_DIR=forced.d ./forced 2> /dev/null)" 4950 "-include: the program runs"
# ... found through -I, as the compiler searches for it (the working
# directory first, then the "..." chain): said too (it said nothing; a probe)
mkdir -p finc/lib && cp forced.h finc/lib/
"$POMPCC" -fopenmp -Ifinc -include lib/forced.h forced_main.c -o forced_i 2> forced_i.err || { cat forced_i.err; fail "-include through -I: build"; }
assert_contains forced_i.err "^pompcc: warning: finc/lib/forced.h \\(given with -include\\) is not instrumented" "-include through -I: said"
assert_eq "$(OMP_NUM_THREADS=2 POMP_OUTPUT_DIR=forced_i.d ./forced_i 2> /dev/null)" 4950 "-include through -I: the program runs"
# ... but a forced header that only defines a macro holding a _Pragma makes
# no construct of its own: the source that expands the macro has it, and
# pomp instruments it there (it was said to be left to the runtime; a probe);
# one that expands its macro itself is said
printf '#define PSUM _Pragma("omp parallel for reduction(+ : s)")\n' > pmacro.h
printf '#include <stdio.h>\nint main(void)\n{\n    int s = 0;\n    PSUM\n    for (int i = 0; i < 100; i++)\n        s += i;\n    printf("%%d\\n", s);\n    return 0;\n}\n' > pmacro_main.c
"$POMPCC" -fopenmp -include pmacro.h pmacro_main.c -o pmacro 2> pmacro.err || { cat pmacro.err; fail "-include of a _Pragma macro: build"; }
assert_not_contains pmacro.err "pmacro.h" "-include of a header that only defines a _Pragma macro: nothing said"
assert_eq "$(OMP_NUM_THREADS=2 POMP_OUTPUT_DIR=pmacro.d ./pmacro 2> /dev/null)" 4950 "-include of a _Pragma macro: the program runs"
assert_eq "$(region_sum pmacro.d parallel 5 visits)" 1 "-include of a _Pragma macro: the construct it makes in the source measured"
{ cat pmacro.h; printf 'static int psum(void)\n{\n    int s = 0;\n    PSUM\n    for (int i = 0; i < 10; i++)\n        s += i;\n    return s;\n}\n'; } > pmacro2.h
"$POMPCC" -fopenmp -include pmacro2.h forced_main.c -o pmacro2 -Dforced_sum\(n\)=psum\(\) 2> pmacro2.err || { cat pmacro2.err; fail "-include of a header that expands its _Pragma macro: build"; }
assert_contains pmacro2.err "^pompcc: warning: pmacro2.h \\(given with -include\\) is not instrumented" "-include of a header that expands its _Pragma macro: said"
# ... counted as an instrumented copy counts them: not its declare reduction,
# nor its sections' section lines (they made 5 of the 2; a probe)
cat > forced2.h <<'H'
typedef struct { int v; } box;
#pragma omp declare reduction(boxadd : box : omp_out.v += omp_in.v) initializer(omp_priv = (box){0})
static int forced_sum(int n)
{
    box b = {0};
    int x = 0, y = 0;
#pragma omp parallel for reduction(boxadd : b)
    for (int i = 0; i < n; i++)
        b.v += i;
#pragma omp parallel sections
    {
#pragma omp section
        x = 1;
#pragma omp section
        y = 2;
    }
    return b.v + x + y;
}
H
printf '#include "forced2.h"\n' | cat - forced_main.c > forced2_main.c
"$POMPCC" --pomp-verbose -fopenmp forced2_main.c -o forced2_inc 2> forced2_inc.err || { cat forced2_inc.err; fail "forced2.h #included: build"; }
assert_contains forced2_inc.err "^forced2\\.h: note: 2 of 2 OpenMP constructs instrumented" "forced2.h #included: 2 constructs"
"$POMPCC" -fopenmp -include forced2.h forced_main.c -o forced2 2> forced2.err || { cat forced2.err; fail "forced2.h given with -include: build"; }
assert_contains forced2.err "^forced2\\.h: warning: 0 of 2 OpenMP constructs instrumented; 2 left" "forced2.h given with -include: the same 2 constructs left"
assert_eq "$(OMP_NUM_THREADS=2 POMP_OUTPUT_DIR=forced2.d ./forced2 2> /dev/null)" 4953 "forced2.h given with -include: the program runs"
# The same header reached through a forced include that #includes it (CMake's
# precompiled header, cmake_pch.h, names the target's headers so): said too
# (before: nothing, the constructs silently left to the runtime); the header's
# own compile as a precompiled header (-x c-header) says nothing
mkdir -p pch
printf '#pragma GCC system_header\n#include "%s/forced.h"\n' "$PWD" > pch/cmake_pch.h
"$POMPCC" -fopenmp -x c-header pch/cmake_pch.h -o pch/cmake_pch.h.gch 2> pch.err || { cat pch.err; fail "pch: the header's compile"; }
assert_not_contains pch.err "pompcc: warning" "pch: its own compile: pompcc says nothing"
"$POMPCC" -fopenmp -Winvalid-pch -include "$PWD/pch/cmake_pch.h" forced_main.c -o forced_pch 2> pch.err ||
    { cat pch.err; fail "pch: build"; }
assert_contains pch.err "^pompcc: warning: $PWD/forced.h \\(reached through -include $PWD/pch/cmake_pch.h" "pch: the header it reaches said"
assert_eq "$(OMP_NUM_THREADS=2 POMP_OUTPUT_DIR=forced_pch.d ./forced_pch 2> /dev/null)" 4950 "pch: the program runs"

# An option without its value at the end ("-o", "-I"): the compiler's own
# error and status (before: "-c x.c -o" wrote x.o, or a file named after
# the macro pompcc appends, with status 0; a link took pompcc's next argument)
for tail in "-c m.c -o" "m.c -o" "-c m.c -I"; do
    rm -f m.o -- -D*
    if "$POMPCC" -fopenmp $tail 2> tail.err; then fail "pompcc $tail: status 0"; fi
    assert_contains tail.err "missing (filename|path) after" "pompcc $tail: the compiler's message"
    [ ! -e m.o ] && ! ls -- -D* > /dev/null 2>&1 || fail "pompcc $tail: wrote a file"
done
# Links as build systems write them.
# A program without OpenMP and without POMP directives is cc's program: no
# libpomp, nothing printed at its exit (before: libpomp linked in, and "no
# OpenMP construct ran" at every exit). With POMP user regions it is measured.
printf '#include <stdio.h>\nint main(void) { puts("hi"); return 0; }\n' > hello.c
"$POMPCC" hello.c -o hello_pomp
assert_eq "$(readelf -d hello_pomp | grep -c 'libpomp')" 0 "no OpenMP: no libpomp"
assert_eq "$(./hello_pomp 2>&1)" "hi" "no OpenMP: the program's output, nothing else"
printf '#include <stdio.h>\nint main(void)\n{\n#pragma pomp inst begin(phase)\n    puts("hi");\n#pragma pomp inst end(phase)\n    return 0;\n}\n' > user.c
"$POMPCC" user.c -o user_pomp
POMP_OUTPUT_DIR=user.dir ./user_pomp > /dev/null 2>&1
assert_eq "$(jq -c '[.regions[] | .type + " " + .name]' user.dir/profile.json)" '["userregion phase"]' \
    "no OpenMP, a POMP user region: measured"
# A partial link (-r) makes an object again: no pomp-prelink, no libraries
# (before: "cannot find -lpomp-gomp" with -fopenmp, and without it a
# POMP_Init_Handles that made the program's link fail)
cat > part_lib.c <<'C'
double part_sum(int n)
{
    double s = 0;
#pragma omp parallel for reduction(+:s) num_threads(2)
    for (int i = 0; i < n; i++)
        s += i;
    return s;
}
C
printf '#include <stdio.h>\ndouble part_sum(int);\nint main(void) { printf("%%.0f\\n", part_sum(100)); return 0; }\n' > part_main.c
"$POMPCC" -fopenmp -c part_lib.c part_main.c
"$POMPCC" -fopenmp -r part_lib.o -o part_omp.o || fail "-r with -fopenmp: the partial link"
"$POMPCC" -r part_lib.o -o part.o || fail "-r: the partial link"
assert_eq "$(nm part.o part_omp.o | grep -c 'POMP_Init_Handles')" 0 "-r: no pre-link in the partial link"
"$POMPCC" -fopenmp part_main.o part.o -o part_app || fail "-r: the program's link"
POMP_OUTPUT_DIR=part.dir ./part_app > part.out 2> /dev/null
assert_eq "$(cat part.out)" 4950 "-r: the program's output"
assert_eq "$(jq '[.regions[] | select(.type == "parallel" and .init != "ompt")] | length' part.dir/profile.json)" 1 \
    "-r: the parallel region measured"
# GNU make's rule with LDLIBS=-lgomp and no -fopenmp at the link: the libgomp
# bridge is linked before libgomp all the same (before: no bridge, the run
# said that implicit barriers and waits were not measured)
"$POMPCC" part_main.o part_lib.o -lgomp -o lgomp_app 2> lgomp.err || { cat lgomp.err; fail "-lgomp: the link"; }
needed=$(readelf -d lgomp_app | sed -n 's/.*Shared library: \[\(lib[a-z-]*\)\..*/\1/p' | tr '\n' ' ')
case "$needed" in
    *libpomp-gomp*libgomp*) ;;
    *) fail "-lgomp: the libgomp bridge before libgomp ($needed)" ;;
esac
POMP_OUTPUT_DIR=lgomp.dir ./lgomp_app > lgomp.out 2> lgomp.run.err
assert_eq "$(cat lgomp.out)" 4950 "-lgomp: the program's output"
assert_not_contains lgomp.run.err 'without the libgomp bridge' "-lgomp: the bridge at work"
assert_eq "$(jq '[.regions[] | select(.type == "implicit_barrier")] | length > 0' lgomp.dir/profile.json)" true \
    "-lgomp: the implicit barriers measured (the bridge's)"
# libgomp named otherwise: by its path (CMake's link line for OpenMP::OpenMP_C
# given OpenMP_gomp_LIBRARY), -Wl,-lgomp, -Xlinker -lgomp: the same link
# (before: no bridge, libgomp first, nothing of the runtime measured; a probe)
if [ "${E2E_RUNTIME:-}" != omp ]; then
    k=0
    for how in "$(gcc -print-file-name=libgomp.so)" -Wl,-lgomp "-Xlinker -lgomp"; do
        k=$((k + 1))
        # shellcheck disable=SC2086
        "$POMPCC" part_main.o part_lib.o $how -o lgomp_app$k 2> lgomp$k.err || { cat lgomp$k.err; fail "$how: the link"; }
        needed=$(readelf -d lgomp_app$k | sed -n 's/.*Shared library: \[\(lib[a-z-]*\)\..*/\1/p' | tr '\n' ' ')
        case "$needed" in
            *libpomp-gomp*libgomp*) ;;
            *) fail "$how: the libgomp bridge before libgomp ($needed)" ;;
        esac
        POMP_OUTPUT_DIR=lgomp$k.dir ./lgomp_app$k > lgomp$k.out 2> lgomp$k.run.err
        assert_eq "$(cat lgomp$k.out)" 4950 "$how: the program's output"
        assert_not_contains lgomp$k.run.err 'without the libgomp bridge' "$how: the bridge at work"
        assert_eq "$(jq '[.regions[] | select(.type == "implicit_barrier")] | length > 0' lgomp$k.dir/profile.json)" true \
            "$how: the implicit barriers measured (the bridge's)"
    done
fi
# A link of libraries alone: main in an archive of pompcc objects, -L. -lname
# (gcc links it; pompcc gave it to cc as it was: undefined POMP_ calls; a probe)
ar rcs libpartmain.a part_main.o part_lib.o
"$POMPCC" -fopenmp -L. -lpartmain -o libs_only_app 2> libs_only.err || { cat libs_only.err; fail "-l alone: the link"; }
POMP_OUTPUT_DIR=libs_only.dir ./libs_only_app > libs_only.out 2> /dev/null
assert_eq "$(cat libs_only.out)" 4950 "-l alone: the program's output"
assert_eq "$(jq '[.regions[] | select(.type == "parallel" and .init != "ompt")] | length' libs_only.dir/profile.json)" 1 \
    "-l alone: the parallel region measured, its handle set up by the pre-link"
# GCC's automatic parallelization without -fopenmp (the driver links libgomp
# itself): the bridge goes before it, and the loop's parallel region is
# measured (nothing was, after a note that it would be; a probe)
if [ "${E2E_RUNTIME:-}" != omp ] && [ -z "$E2E_SANITIZE" ]; then
    printf '#include <stdio.h>\nstatic double a[4000000];\nint main(void)\n{\n    for (int i = 0; i < 4000000; i++)\n        a[i] = i * 0.5;\n    printf("%%g\\n", a[3999999]);\n    return 0;\n}\n' > autopar.c
    "$POMPCC" -O2 -ftree-parallelize-loops=2 autopar.c -o autopar 2> autopar.err || { cat autopar.err; fail "autopar: the build"; }
    gcc -O2 -ftree-parallelize-loops=2 autopar.c -o autopar_plain
    assert_eq "$(POMP_OUTPUT_DIR=autopar.d ./autopar 2> /dev/null)" "$(./autopar_plain)" "autopar: the program's output"
    assert_eq "$(jq '[.regions[] | select(.type == "parallel")] | length' autopar.d/profile.json)" 1 \
        "autopar: GCC's parallel region of the loop measured"
fi
# A header alone is precompiled, as gcc does it (before: pompcc linked it, "undefined reference to main")
printf 'static inline int pch_one(void) { return 1; }\n' > pch.h
"$POMPCC" -fopenmp pch.h || fail "a header alone: pompcc failed"
[ -f pch.h.gch ] || fail "a header alone: no pch.h.gch"
# pompcc as the cc first on PATH (a directory of compiler links, as ccache's):
# it runs the next cc on PATH, never itself (it ran itself without end: 700
# processes in 3 s; a probe); POMP_CC naming pompcc is an error that says so
mkdir -p links && ln -sf "$BUILD/bin/pompcc" links/cc && ln -sf "$BUILD/bin/pompcc" links/c++
printf '#include <stdio.h>\nint main(void)\n{\n    int n = 0;\n#pragma omp parallel num_threads(2) reduction(+ : n)\n    n++;\n    printf("%%d\\n", n);\n    return 0;\n}\n' > linked.c
PATH="$PWD/links:$PATH" timeout 60 cc -fopenmp linked.c -o linked 2> linked.err || { cat linked.err; fail "pompcc as cc on PATH: the build"; }
POMP_OUTPUT_DIR=linked.dir ./linked > linked.out 2> /dev/null
assert_eq "$(cat linked.out)" 2 "pompcc as cc on PATH: the program's output"
assert_eq "$(jq '[.regions[] | select(.type == "parallel" and .init != "ompt")] | length' linked.dir/profile.json)" 1 \
    "pompcc as cc on PATH: instrumented"
PATH="$PWD/links:$PATH" timeout 60 c++ -fopenmp -x c++ linked.c -o linked_cxx 2> linked_cxx.err ||
    { cat linked_cxx.err; fail "pompc++ as c++ on PATH: the build"; }
rc=0; POMP_CC="$BUILD/bin/pompcc" timeout 60 "$POMPCC" -fopenmp -c linked.c -o self.o 2> self.err || rc=$?
assert_eq "$rc" 2 "POMP_CC naming pompcc: an error"
assert_contains self.err "^pompcc: error: the compiler '.*pompcc' \(POMP_CC\) is pompcc itself" "POMP_CC naming pompcc: said"
# each wrapper's messages start with its own name (pompc++ said "pompcc:"; a
# probe), and a link to pompcc named as a compiler (c++) says pompc++
rc=0; "$BUILD/bin/pompc++" --pomp-bogus linked.c 2> cxx_bad.err || rc=$?
assert_eq "$rc" 2 "pompc++ --pomp-bogus: an error"
assert_contains cxx_bad.err "^pompc\+\+: error: unknown option '--pomp-bogus'" "pompc++: its own name"
rc=0; PATH="$PWD/links" "$(command -v timeout)" 60 c++ -fopenmp linked.c -o x 2> cxx_self.err || rc=$?
assert_eq "$rc" 2 "c++ a link to pompc++ alone on PATH: an error"
assert_contains cxx_self.err "^pompc\+\+: error: the compiler 'c\+\+' .* is pompcc itself" \
    "c++ a link to pompc++ alone on PATH: said by pompc++"
echo "driver options"
