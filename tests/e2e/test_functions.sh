# Function regions (--pomp-functions): every way out of a function records its
# end (returns in nested blocks, void returns, the end of the body, a value
# computed before the end event, exceptions in C++), filters by name and file,
# "inst user none", functions from headers, and usage errors.
SRC="$(cd "$(dirname "$0")/programs" && pwd)"
source "$(dirname "$0")/lib.sh"
cp "$SRC"/functions.c "$SRC"/fhelp.h "$SRC"/cxx.cpp .

"$POMPCC" --pomp-functions -fopenmp -Wall -Wextra -std=c99 -pedantic-errors functions.c -o fn 2> fn.err \
    || { cat fn.err; fail "pompcc --pomp-functions"; }
assert_not_contains fn.err 'cannot be instrumented|did not compile|warning' "instrumented and compiled without warnings"
plain_cc functions.c -o fn_plain
for n in 1 4; do
    OMP_NUM_THREADS=$n ./fn_plain > plain$n.txt
    OMP_NUM_THREADS=$n POMP_TRACE=events POMP_OUTPUT_DIR=f$n ./fn > inst$n.txt
    diff -u plain$n.txt inst$n.txt || fail "output with $n threads differs from the plain build"
done
assert_eq "$(cat inst4.txt)" "116 5 2 5 one zero 10 2 1" "the program's results"

d=f4
fbegins() { jq --arg n "$1" '([.regions[] | select(.type == "function" and .name == $n) | .id]) as $ids
    | [.callpath[] | select(.region as $r | $ids | index($r)) | .per_thread[].begins] | add // 0' $d/profile.json; }
assert_eq "$(fbegins classify)" 16 "classify: once per loop iteration, every return path"
assert_eq "$(fbegins fill)" 2 "fill: the early return and the normal one"
assert_eq "$(fbegins name)" 2 "name: two returns"
assert_eq "$(fbegins main) $(fbegins add) $(fbegins mk) $(fbegins pick) $(fbegins pick_raw)" "1 3 1 1 1" "other functions"
assert_eq "$(fbegins util_sum)" 0 "'#pragma pomp inst user none' before a function"
assert_eq "$(fbegins guarded)" 2 "'inst user none' over a return inside the function: still a region"
assert_eq "$(fbegins from_header)" 0 "a function from a header"
assert_eq "$(jq '[.threads[].nesting_errors] | add' $d/profile.json)" 0 "every return ends its function"
for t in $(awk '!/^#/ { print $1 }' $d/events.log | sort -u); do
    b=$(awk -v t=$t '$1 == t && $3 == "Function_begin"' $d/events.log | wc -l)
    e=$(awk -v t=$t '$1 == t && $3 == "Function_end"' $d/events.log | wc -l)
    assert_eq "$e" "$b" "thread $t: as many function ends as begins"
done
# The value of "return add(x, x)" is computed before twice_add's end: add's
# begin and end come between twice_add's begin and end.
id() { jq --arg n "$1" '.regions[] | select(.type == "function" and .name == $n) | .id' $d/profile.json; }
awk -v tw=$(id twice_add) -v ad=$(id add) '$1 == 0 && ($4 == tw || $4 == ad) && $3 ~ /^Function_/ { printf "%s:%s ", $3, ($4 == tw ? "twice_add" : "add") }' $d/events.log > order.txt
assert_contains order.txt 'Function_begin:twice_add Function_begin:add Function_end:add Function_end:twice_add' "end after the return value"

# A function whose result type is a typedef of void, returning a void call
# (GNU C): no value to keep before the end (it declared `nothing_t
# pomp_ret_`, and the file fell back to no instrumentation; a probe)
cat > tvoid.c <<'C'
#include <stdio.h>
typedef void (*cb_t)(int);
typedef void nothing_t;
static int cnt;
static nothing_t bump(int k) { cnt += k; }
static nothing_t run_cb(cb_t f, int k) { return f(k); }
int main(void)
{
    run_cb(bump, 3);
    printf("%d\n", cnt);
    return 0;
}
C
"$POMPCC" --pomp-functions -O2 tvoid.c -o tvoid 2> tvoid.err || { cat tvoid.err; fail "typedef void: build"; }
assert_not_contains tvoid.err "did not compile" "typedef void: instrumented"
assert_eq "$(POMP_OUTPUT_DIR=tvoid.d ./tvoid 2> /dev/null)" 3 "typedef void: the program"
d=tvoid.d
assert_eq "$(fbegins run_cb) $(fbegins bump)" "1 1" "typedef void: both functions' regions"
d=f4

# Filters.
"$POMPCC" --pomp-functions=include:c*,include:fill,exclude:main -fopenmp functions.c -o fn_inc
OMP_NUM_THREADS=2 POMP_OUTPUT_DIR=inc ./fn_inc > /dev/null
assert_eq "$(jq -r '[.regions[] | select(.type == "function") | .name] | sort | join(",")' inc/profile.json)" "classify,fill" "include and exclude by name"
"$POMPCC" --pomp-functions=exclude:file:functions.c -fopenmp functions.c -o fn_exf
OMP_NUM_THREADS=2 POMP_OUTPUT_DIR=exf ./fn_exf > /dev/null
assert_eq "$(jq '[.regions[] | select(.type == "function")] | length' exf/profile.json)" 0 "exclude by file"
"$POMPCC" --pomp-functions=include:file:*.c --pomp-functions=exclude:add,exclude:pick* -fopenmp functions.c -o fn_two
OMP_NUM_THREADS=2 POMP_OUTPUT_DIR=two ./fn_two > /dev/null
assert_eq "$(jq -r '[.regions[] | select(.type == "function") | .name] | sort | join(",")' two/profile.json)" \
    "classify,fill,guarded,main,mk,name,twice_add" "file include, two options"
# Preprocessed input: the header's function is still not a function region.
plain_cc -E functions.c -o functions.i
"$POMPCC" --pomp-functions -fopenmp functions.i -o fn_i
OMP_NUM_THREADS=2 POMP_OUTPUT_DIR=fi ./fn_i > /dev/null
assert_eq "$(jq '[.regions[] | select(.type == "function" and .name == "from_header")] | length' fi/profile.json)" 0 "header function in .i"
assert_eq "$(jq '[.regions[] | select(.type == "function")] | length' fi/profile.json)" 10 "the file's own functions in .i"
# Usage errors stop the build with the rule named.
if "$POMPCC" --pomp-functions=include:,exclude:x -c functions.c 2> use.err; then fail "a bad rule must be an error"; fi
assert_contains use.err "^pompcc: error: --pomp-functions=include:,exclude:x: 'include:' has no pattern" "usage error"
# a misspelled kind of rule is an error, not a pattern that matches nothing
# (no function got a region, without a word; a probe); a C++ name's "ns::" is
# a pattern
if "$POMPCC" --pomp-functions='exlude:tiny_*' -c functions.c 2> misspelled.err; then fail "a misspelled rule must be an error"; fi
assert_contains misspelled.err "no kind of rule 'exlude:'" "misspelled rule: said"
"$POMPCC" --pomp-functions='exclude:ns::f*' -c functions.c -o ns.o 2> ns.err || { cat ns.err; fail "a C++ name's ns:: is a pattern"; }

# C++: a guard object ends the function on every way out, exceptions included.
"$BUILD/bin/pompc++" --pomp-functions -fopenmp -Wall cxx.cpp -o cxxf 2> cxxf.err || { cat cxxf.err; fail "pompc++ --pomp-functions"; }
assert_not_contains cxxf.err 'cannot be instrumented|did not compile' "C++ function regions compile"
g++ -fopenmp -Wno-unknown-pragmas cxx.cpp -o cxx_plain
assert_eq "$(OMP_NUM_THREADS=4 POMP_OUTPUT_DIR=cf ./cxxf)" "$(OMP_NUM_THREADS=4 ./cxx_plain)" "C++ output"
d=cf
assert_eq "$(fbegins may_throw) $(fbegins Counter::bump) $(fbegins parallel_sum) $(fbegins main)" "1 2 1 1" "C++ functions and methods"
assert_eq "$(jq '[.regions[] | select(.type == "function" and (.name | test("lambda")))] | length' cf/profile.json)" 0 "lambdas are no function regions"
assert_eq "$(jq '[.threads[].nesting_errors] | add' cf/profile.json)" 1 "only the user region the exception left (test_cxx.sh); may_throw itself ended"
touch cf/.nesting-errors-expected

# A class template's constructor and destructor are named as its other
# members are, without the template's arguments ("Box::Box", not "Box::Box<T>")
cat > tmpl.cpp <<'CPP'
#include <cstdio>
template <class T> struct Box {
    T v;
    explicit Box(T x) : v(x) {}
    ~Box() { std::printf("%d\n", static_cast<int>(v)); }
    T get() const { return v; }
};
int main() { Box<int> b(3); return b.get() == 3 ? 0 : 1; }
CPP
"$BUILD/bin/pompc++" --pomp-functions tmpl.cpp -o tmpl 2> tmpl.err || { cat tmpl.err; fail "pompc++ tmpl.cpp"; }
assert_eq "$(POMP_OUTPUT_DIR=tm ./tmpl)" 3 "tmpl.cpp output"
assert_eq "$(jq -r '[.regions[] | select(.type == "function") | .name] | sort | join(",")' tm/profile.json)" \
    "Box::Box,Box::get,Box::~Box,main" "class template members' names"

# A C++ main that falls off its end: its region ends before POMP_Finalize.
printf '#include <cstdio>\nstatic int g(int x) { return x * 2; }\nint main() { std::printf("%%d\\n", g(2)); }\n' > offend.cpp
"$BUILD/bin/pompc++" --pomp-functions offend.cpp -o offend
assert_eq "$(POMP_OUTPUT_DIR=oe ./offend)" 4 "offend.cpp output"
d=oe
assert_eq "$(fbegins main) $(fbegins g)" "1 1" "main and g"
assert_eq "$(jq '[.callpath[] | select(.parent == 0) | .per_thread[].incl_ns > 0] | all' oe/profile.json)" true "main's region was closed (its time counted)"

# clang-19 (not under make sanitize: see test_workshare.sh)
[ -n "$E2E_SANITIZE" ] && exit 0
POMP_CC=clang-19 "$POMPCC" --pomp-functions -fopenmp -std=c99 -pedantic-errors functions.c -o fn_clang 2> clang.err || { cat clang.err; fail "clang build"; }
assert_not_contains clang.err 'cannot be instrumented|did not compile' "clang compiles function regions"
OMP_NUM_THREADS=4 POMP_OUTPUT_DIR=fc ./fn_clang > clang.txt
diff -u plain4.txt clang.txt || fail "clang-built output differs"
d=fc
assert_eq "$(fbegins classify)" 16 "clang build: classify"

# A function-try-block is not instrumented (its handlers would need an end
# too), and --pomp-verbose says so (it was skipped without a word); the
# program is unchanged
cat > ftb.cpp <<'CPP'
#include <cstdio>
#include <stdexcept>
int risky(int n)
try {
    if (n > 2)
        throw std::runtime_error("too big");
    return n;
} catch (...) {
    return -1;
}
int main()
{
    int s = 0;
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < 4; i++)
        s += risky(i);
    std::printf("%d\n", s);
    return 0;
}
CPP
"$BUILD/bin/pompc++" --pomp-functions --pomp-verbose -fopenmp ftb.cpp -o ftb 2> ftb.err || { cat ftb.err; fail "function-try-block: build"; }
assert_contains ftb.err "ftb.cpp:3:1: note: function 'risky' not instrumented: its body is a function-try-block" "function-try-block: said"
assert_eq "$(POMP_OUTPUT_DIR=ftb.d ./ftb 2> /dev/null)" 2 "function-try-block: the program"

# function regions named as written: a conversion operator template is
# "Wrap::operator T" (libclang's "operator type-parameter-0-0"), a function in
# an anonymous namespace "(anonymous namespace)::helper" (it read "::helper")
cat > names.cpp <<'CPP'
#include <cstdio>
struct Wrap {
    int v;
    template <class T> operator T() const { return static_cast<T>(v); }
};
namespace {
int helper(int n) { return n + 1; }
}
int main()
{
    Wrap w{41};
    long l = w;
    std::printf("%ld %d\n", l, helper(1));
    return 0;
}
CPP
"$BUILD/bin/pompc++" --pomp-functions -fopenmp names.cpp -o names 2> names.err || { cat names.err; fail "function names: build"; }
assert_eq "$(POMP_OUTPUT_DIR=names.d ./names 2> /dev/null)" "41 2" "function names: the program"
assert_eq "$(jq -r '[.regions[] | select(.type == "function") | .name] | sort | join(" / ")' names.d/profile.json)" \
          "(anonymous namespace)::helper / Wrap::operator T / main" "function names: as written"
