#!/usr/bin/env bash
# The program's descriptors are its own: libpomp reads and writes none of
# them, and none of libpomp's is at 0, 1 or 2 (docs/output.md, "The raw
# trace"; docs/sampling.md). A probe found each of these broken: the raw
# trace's files kept open between flushes, and libunwind's pipe.
source "$(dirname "$0")/lib.sh"

# A program that closes every descriptor from 3 (a daemon's start, a cleanup
# before exec) and then opens a file of its own, with a trace whose small
# buffer is written out many times after that: the program's file holds its
# own bytes only (the flushes wrote into it through the number it took:
# 30 bytes became 289,710, and pomp blamed "another run"), and the trace is
# whole.
cat > cf.c <<'C'
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
static long regions(int n)
{
    long s = 0;
    for (int k = 0; k < n; k++) {
#pragma omp parallel num_threads(2) reduction(+ : s)
        s += k;
    }
    return s;
}
int main(void)
{
    long s = regions(2000);
    for (int fd = 3; fd < 1024; fd++)
        close(fd);
    int fd = open("data.txt", O_RDWR | O_CREAT | O_TRUNC, 0644);
    const char *msg = "user data line\n";
    if (write(fd, msg, strlen(msg)) != (ssize_t)strlen(msg))
        return 2;
    s += regions(2000);
    if (write(fd, msg, strlen(msg)) != (ssize_t)strlen(msg))
        return 3;
    close(fd);
    printf("fd %d, s %ld\n", fd, s);
    return 0;
}
C
"$POMPCC" -fopenmp -O1 cf.c -o cf 2> cf_build.err || { cat cf_build.err; fail "closefrom: build"; }
plain_cc -O1 cf.c -o cf_plain
./cf_plain > cf_plain.txt
POMP_TRACE=otf2 POMP_BUFFER_SIZE=4096 POMP_OUTPUT_DIR=cf_out ./cf > cf.txt 2> cf.err ||
    { cat cf.err; fail "closefrom: the program failed"; }
assert_eq "$(cat cf.txt)" "$(cat cf_plain.txt)" "closefrom: the program's output, as the plain build's"
printf 'user data line\nuser data line\n' > data.expected
cmp -s data.txt data.expected || fail "closefrom: data.txt holds $(stat -c %s data.txt) bytes, not the program's 30"
defs=cf_out/trace-raw/defs.json
[ "$(jq '[.threads[].flushes] | add' $defs)" -gt 20 ] || fail "closefrom: the buffer was not written out after the close"
assert_eq "$(jq '[.threads[].dropped] | add' $defs)" 0 "closefrom: no trace event lost"
assert_eq "$(jq '[.threads[] | select(.error)] | length' $defs)" 0 "closefrom: no thread's trace failed"
assert_not_contains cf.err "another run|not \(only\) this run's|lost|error" "closefrom: nothing said against the trace"
[ -s cf_out/traces.otf2 ] || fail "closefrom: no OTF2 archive"
"$REPORT" --chrome cf.json cf_out 2> cf_chrome.err || { cat cf_chrome.err; fail "closefrom: the raw trace does not convert"; }
assert_not_contains cf_chrome.err "warning|error" "closefrom: the raw trace converts without a word"

# A program that removes its output's raw file and puts a file of its own
# there (a cleanup of the directory): pomp writes nothing into it, and says
# by the file's path what it could not write and that events were lost.
cat > rm.c <<'C'
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(void)
{
    long s = 0;
    for (int k = 0; k < 2000; k++) {
#pragma omp parallel num_threads(2) reduction(+ : s)
        s += k;
    }
    unlink("rm_out/trace-raw/thread-0.bin");
    int fd = open("rm_out/trace-raw/thread-0.bin", O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0 || write(fd, "mine\n", 5) != 5)
        return 2;
    close(fd);
    for (int k = 0; k < 2000; k++) {
#pragma omp parallel num_threads(2) reduction(+ : s)
        s += k;
    }
    printf("%ld\n", s);
    return 0;
}
C
"$POMPCC" -fopenmp -O1 rm.c -o rmprog 2> rm_build.err || { cat rm_build.err; fail "replaced: build"; }
POMP_TRACE=otf2 POMP_BUFFER_SIZE=4096 POMP_OUTPUT_DIR=rm_out ./rmprog > rm.txt 2> rm.err ||
    { cat rm.err; fail "replaced: the program failed"; }
assert_eq "$(cat rm.txt)" 7996000 "replaced: the program's output"
assert_eq "$(cat rm_out/trace-raw/thread-0.bin)" "mine" "replaced: the program's file holds its own bytes"
assert_contains rm.err "pomp: error: cannot write the trace of thread 0 to rm_out/trace-raw/thread-0\.bin: the file was removed or replaced while the program ran" \
    "replaced: the file and the cause said"
assert_contains rm.err "trace events were lost" "replaced: the loss said"
assert_not_contains rm.err "another run writing" "replaced: no other run blamed"
jq -e '.threads[0].error == "the file was removed or replaced while the program ran" and .threads[0].dropped > 0' \
    rm_out/trace-raw/defs.json > /dev/null || fail "replaced: defs.json names the thread's loss and cause"
touch rm_out/.broken-on-purpose

# Started with stderr or stdin closed (prog 2>&-, <&-): what the program does
# with 0-2 is what the plain build does (EBADF where it gets EBADF; its first
# file at the number the plain build's gets), under a trace that flushes and
# under sampling. The trace's file took fd 2 (the program's stderr lines went
# into thread-0.bin and broke it) and libunwind's pipe fd 0 (read(0) read a
# byte of it).
cat > std.c <<'C'
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(void)
{
    double s = 0;
    for (int k = 0; k < 400; k++) {
#pragma omp parallel for num_threads(2) reduction(+ : s)
        for (int i = 0; i < 20000; i++)
            s += i * 0.5;
    }
    char buf[16];
    ssize_t r = read(0, buf, sizeof buf);
    printf("read(0): %zd %s\n", r, r < 0 ? strerror(errno) : "");
    ssize_t w = write(2, "E\n", 2);
    printf("write(2): %zd %s\n", w, w < 0 ? strerror(errno) : "");
    int fd = open("own.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    printf("own file: fd %d, wrote %zd\n", fd, write(fd, "own\n", 4));
    close(fd);
    printf("s %s\n", s > 0 ? "ok" : "bad");
    return 0;
}
C
"$POMPCC" -fopenmp -O1 std.c -o std 2> std_build.err || { cat std_build.err; fail "std: build"; }
plain_cc -O1 std.c -o std_plain
for closed in stdin stderr both; do
    case $closed in
    stdin) run_closed() { "$@" <&- > "$out" 2> "$out.err"; } ;;
    stderr) run_closed() { "$@" 2>&- > "$out" < /dev/null; } ;;
    both) run_closed() { "$@" <&- 2>&- > "$out"; } ;;
    esac
    out=std_plain_$closed.txt run_closed ./std_plain
    for mode in trace sampling both; do
        case $mode in
        trace) env=(POMP_TRACE=otf2 POMP_BUFFER_SIZE=4096) ;;
        sampling) env=(POMP_SAMPLING=1ms) ;;
        both) env=(POMP_TRACE=otf2 POMP_BUFFER_SIZE=4096 POMP_SAMPLING=1ms) ;;
        esac
        name=std_${closed}_$mode
        rm -f own.txt
        out=$name.txt run_closed env "${env[@]}" POMP_OUTPUT_DIR=$name ./std ||
            fail "$name: the program failed"
        assert_eq "$(cat $name.txt)" "$(cat std_plain_$closed.txt)" "$name: the program's output, as the plain build's"
        assert_eq "$(cat own.txt)" "own" "$name: the program's file holds its own bytes"
        [ -s $name/profile.json ] || fail "$name: no profile"
        if [ $mode != sampling ]; then
            assert_eq "$(jq '[.threads[].dropped] | add' $name/trace-raw/defs.json)" 0 "$name: no trace event lost"
            "$REPORT" --chrome $name.json $name 2> $name.chrome.err ||
                { cat $name.chrome.err; fail "$name: the raw trace does not convert"; }
            assert_not_contains $name.chrome.err "warning|error" "$name: the raw trace converts without a word"
        fi
    done
done
# (under pomprun: a plain build, sampled, stdin closed)
if [ -z "${E2E_SANITIZE:-}" ]; then # (a sanitized libpomp cannot be loaded into a plain program)
    POMP_SAMPLING=1ms POMP_OUTPUT_DIR=std_pr "$BUILD/bin/pomprun" ./std_plain <&- > std_pr.txt ||
        fail "pomprun, stdin closed: the program failed"
    assert_eq "$(head -1 std_pr.txt)" "$(head -1 std_plain_stdin.txt)" "pomprun, stdin closed: read(0) as in the plain run"
fi

# A sampled program that closes every descriptor from 3 and opens two files
# of its own where libunwind's pipe was: libunwind read their bytes and wrote
# bytes of the stack into them (a probe: b.txt grew, a.txt's reads came up
# short). Sampling stops there, said once; the files are the program's. The
# same with glibc's closefrom, and with a dup2 onto the pipe.
cat > cfs.c <<'C'
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
static double work(int n)
{
    double s = 0;
#pragma omp parallel for reduction(+ : s) num_threads(2)
    for (int i = 0; i < n; i++)
        s += i * 0.5;
    return s;
}
int main(void)
{
    double s = work(30000000);
    for (int fd = 3; fd < 1024; fd++)
        close(fd);
    int a = open("a.txt", O_RDWR | O_CREAT | O_TRUNC, 0644);
    int b = open("b.txt", O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (write(a, "AAAA\n", 5) != 5 || write(b, "BBBB\n", 5) != 5)
        return 2;
    lseek(a, 0, SEEK_SET);
    for (int k = 0; k < 60; k++)
        s += work(3000000);
    char buf[64];
    ssize_t n = read(a, buf, sizeof buf);
    printf("a %d, b %d, read %zd, s %s\n", a, b, n, s > 0 ? "ok" : "bad");
    return 0;
}
C
"$POMPCC" -fopenmp -O1 cfs.c -o cfs 2> cfs_build.err || { cat cfs_build.err; fail "sampled closefrom: build"; }
plain_cc -O1 cfs.c -o cfs_plain
./cfs_plain > cfs_plain.txt
POMP_SAMPLING=100us POMP_OUTPUT_DIR=cfs_out ./cfs > cfs.txt 2> cfs.err || { cat cfs.err; fail "sampled closefrom: the program failed"; }
assert_eq "$(cat cfs.txt)" "$(cat cfs_plain.txt)" "sampled closefrom: the program's output, as the plain build's"
assert_eq "$(cat a.txt)" "AAAA" "sampled closefrom: a.txt holds the program's bytes only"
assert_eq "$(cat b.txt)" "BBBB" "sampled closefrom: b.txt holds the program's bytes only"
assert_contains cfs.err "pomp: warning: the program closed the pipe libunwind keeps for pomp's sampling \(descriptors [0-9]+ and [0-9]+.*POMP_SAMPLING stopped there" \
    "sampled closefrom: the stop said"
assert_eq "$(grep -c 'closed the pipe libunwind keeps' cfs.err)" 1 "sampled closefrom: said once"
jq -e '.sampling.paths | length > 0' cfs_out/profile.json > /dev/null || fail "sampled closefrom: the samples before it are kept"
for how in closefrom dup2; do
    case $how in
    closefrom) sed 's|for (int fd = 3; fd < 1024; fd++)|closefrom(3);|; s|^        close(fd);$||' cfs.c > cfs_$how.c ;;
    dup2) sed 's|for (int fd = 3; fd < 1024; fd++)|for (int fd = 3; fd < 1024; fd++) if (fd != 3 \&\& fd != 4)|; s|^        close(fd);$|        close(fd);\n    int nul = open("/dev/null", O_RDONLY); dup2(nul, 3); dup2(nul, 4); close(nul); close(3); close(4);|' cfs.c > cfs_$how.c ;;
    esac
    "$POMPCC" -fopenmp -O1 cfs_$how.c -o cfs_$how 2> cfs_$how.build.err || { cat cfs_$how.build.err; fail "sampled $how: build"; }
    rm -f a.txt b.txt
    POMP_SAMPLING=100us POMP_OUTPUT_DIR=cfs_${how}_out ./cfs_$how > cfs_$how.txt 2> cfs_$how.err ||
        { cat cfs_$how.err; fail "sampled $how: the program failed"; }
    assert_eq "$(cat cfs_$how.txt)" "$(cat cfs_plain.txt)" "sampled $how: the program's output, as the plain build's"
    assert_eq "$(cat a.txt)$(cat b.txt)" "AAAABBBB" "sampled $how: the program's files hold its bytes only"
    assert_contains cfs_$how.err "closed the pipe libunwind keeps" "sampled $how: the stop said"
done
# A dup2 from a descriptor that is not open closes nothing: sampling goes on,
# unsaid (it stopped, and blamed the program; a review)
sed 's|for (int fd = 3; fd < 1024; fd++)|dup2(999, 3); dup2(999, 4); for (int fd = 3; fd < 3; fd++)|' cfs.c > cfs_baddup.c
"$POMPCC" -fopenmp -O1 cfs_baddup.c -o cfs_baddup 2> /dev/null || fail "a failed dup2: build"
POMP_SAMPLING=100us POMP_OUTPUT_DIR=cfs_baddup_out ./cfs_baddup > /dev/null 2> cfs_baddup.err || fail "a failed dup2: the program failed"
assert_not_contains cfs_baddup.err "closed the pipe" "a failed dup2: sampling not stopped"
# A vfork child that closes every descriptor before its exec shares the
# parent's memory, not its descriptors: the parent's sampling goes on (the
# child stopped it, deleted no timer, and the warning blamed the program; a
# review)
sed 's|    for (int fd = 3; fd < 1024; fd++)|    if (vfork() == 0) { for (int fd = 3; fd < 1024; fd++) close(fd); execl("/bin/true", "true", (char *)0); _exit(127); }\n    wait(0);\n    for (int fd = 3; fd < 3; fd++)|; s|#include <unistd.h>|#include <unistd.h>\n#include <sys/wait.h>|' cfs.c > cfs_vfork.c
"$POMPCC" -fopenmp -O1 -Wno-deprecated-declarations cfs_vfork.c -o cfs_vfork 2> cfs_vfork.build.err || { cat cfs_vfork.build.err; fail "vfork: build"; }
POMP_SAMPLING=100us POMP_OUTPUT_DIR=cfs_vfork_out ./cfs_vfork > /dev/null 2> cfs_vfork.err || { cat cfs_vfork.err; fail "vfork: the program failed"; }
assert_not_contains cfs_vfork.err "closed the pipe" "vfork: the parent's sampling not stopped by the child's closes"
# A program at its descriptor limit for a moment (every descriptor taken)
# while its trace buffers fill: those flushes lose their events, counted, and
# the later ones write again (one such moment gave up the thread's whole trace
# for the rest of the run; a review)
cat > emfile.c <<'C'
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>
static long phase(int n)
{
    long s = 0;
    for (int k = 0; k < n; k++) {
#pragma omp parallel reduction(+ : s) num_threads(2)
        s++;
    }
    return s;
}
int main(void)
{
    struct rlimit rl = {64, 64};
    setrlimit(RLIMIT_NOFILE, &rl);
    long s = phase(300);
    int fds[64], n = 0;
    while (n < 64 && (fds[n] = open("/dev/null", O_RDONLY)) >= 0)
        n++;
    s += phase(300);
    while (n > 0)
        close(fds[--n]);
    s += phase(300);
#pragma omp parallel num_threads(2)
    {
#pragma omp single
        s += 1;
    }
    printf("%ld\n", s);
    return 0;
}
C
"$POMPCC" -fopenmp -O1 emfile.c -o emfile 2> /dev/null || fail "descriptor limit: build"
POMP_TRACE=events POMP_BUFFER_SIZE=4k POMP_OUTPUT_DIR=emfile.d ./emfile > emfile.txt 2> emfile.err || { cat emfile.err; fail "descriptor limit: the program failed"; }
assert_eq "$(cat emfile.txt)" 1801 "descriptor limit: the program's output"
assert_contains emfile.err "cannot write the trace of thread [01] to emfile.d/trace-raw/thread-[01].bin: Too many open files" \
    "descriptor limit: the failed flushes said"
jq -e '[.threads[].dropped] | add > 0' emfile.d/trace-raw/defs.json > /dev/null || fail "descriptor limit: the lost events counted"
grep -q "Single_begin" emfile.d/events.log || fail "descriptor limit: the trace goes on after the limit (the last single is in it)"
# The program's standard output and pomp's messages in one log (prog > log
# 2>&1): the program's stdout, a file, goes out in 4 KiB blocks, and its last
# block waits for the exit; pomp's summary, written before it, landed in the
# middle of one of its lines (a probe: "result row 159: vpomp: ... alue 318").
# And a summary line was written in pieces (stderr is unbuffered: five
# write()s for the first line), which another thread's lines broke into.
cat > log.c <<'C'
#include <stdio.h>
int main(void)
{
    long s = 0;
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < 1000; i++)
        s += i;
    for (int r = 0; r < 400; r++)
        printf("result row %d: value %ld\n", r, s + r);
    return 0;
}
C
"$POMPCC" -fopenmp -O1 log.c -o logprog 2> /dev/null || fail "log: build"
POMP_SUMMARY=on POMP_OUTPUT_DIR=log.d ./logprog > log.txt 2>&1 || fail "log: the program failed"
assert_eq "$(grep -c '^result row [0-9]*: value [0-9]*$' log.txt)" 400 "prog > log 2>&1: every line of the program whole"
assert_eq "$(grep -v '^result row [0-9]*: value [0-9]*$' log.txt | grep -vc '^pomp: ')" 0 \
    "prog > log 2>&1: every other line pomp's, whole"
if [ -z "${E2E_SANITIZE:-}" ] && strace -f -qq -o /dev/null true 2> /dev/null; then # (LeakSanitizer stops under ptrace)
    POMP_SUMMARY=on POMP_OUTPUT_DIR=log_st.d strace -f -qq -s 100000 -e trace=write -o log.strace ./logprog > /dev/null 2>&1
    grep 'write(2, "pomp: logprog: ' log.strace | grep "output in log_st.d/.*full tables: pomp-report" > /dev/null ||
        { cat log.strace; fail "the summary: not written at once"; }
else
    echo "note: strace cannot trace here (or under a sanitizer); the summary's writes not counted"
fi

# Under pomprun (a plain GCC build: libpomp comes after libc, the libgomp
# bridge before it, which forwards the closes): as with pompcc
[ -n "$E2E_SANITIZE" ] && { echo "descriptors: the program's files are its own; none of pomp's at 0-2"; exit 0; }
rm -f a.txt b.txt
POMP_SAMPLING=100us POMP_OUTPUT_DIR=cfs_pr "$BUILD/bin/pomprun" ./cfs_plain > cfs_pr.txt 2> cfs_pr.err || { cat cfs_pr.err; fail "pomprun closefrom: the program failed"; }
assert_eq "$(cat cfs_pr.txt)" "$(cat cfs_plain.txt)" "pomprun closefrom: the program's output, as the plain build's"
assert_eq "$(cat a.txt)$(cat b.txt)" "AAAABBBB" "pomprun closefrom: the program's files hold its bytes only"
assert_contains cfs_pr.err "closed the pipe libunwind keeps" "pomprun closefrom: the stop said"
echo "descriptors: the program's files are its own; none of pomp's at 0-2"
