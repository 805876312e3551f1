# pomp-report's tables name a runtime region of C++ code built without -g by
# its function, shortened to its qualified name (parameters elided, and
# template arguments where the column has no room for them:
# test_cxx_template_names). The parentheses of "(anonymous namespace)", of a call
# operator and of the function a lambda is in are the name's: taken for the
# parameter list, the rows read "namespace)::in_anonymous(...)", "(...)" (a
# function template with a return type), "main::{lambda(...)" and
# "Kernel::operator()" (a probe's mini-app, its helpers in an anonymous
# namespace).
SRC="$(cd "$(dirname "$0")/programs" && pwd)"
source "$(dirname "$0")/lib.sh"
cp "$SRC"/cxx_names.cpp .

"$BUILD/bin/pompc++" -fopenmp -O2 cxx_names.cpp -o names 2> names.err || { cat names.err; fail "pompc++ cxx_names.cpp"; }
assert_eq "$(POMP_OUTPUT_DIR=out ./names)" "1 2 3 4" "the program's output"
assert_eq "$(jq -r '[.regions[] | select(.init == "ompt" and .function != null) | .function] | sort | join(";")' out/profile.json)" \
    "(anonymous namespace)::in_anonymous(int);Kernel::operator()(int) const;long (anonymous namespace)::twice<long>(long);main::{lambda(int)#1}::operator()(int) const" \
    "the runtime's regions: their functions in profile.json"
"$REPORT" out > report.txt || fail "pomp-report"
# the barrier rows of both tables (call paths, regions by self time): the location column;
# too long for it, a call path's row keeps its function (its place is the row
# above), a flat row its place (test_report_places)
rows=$(grep -E '^ *implicit_barrier implementation ' report.txt |
       sed -E 's/^ *implicit_barrier implementation +//; s/ +[0-9]+ +[0-9]+ +[0-9.]+ .*$//' | sort | uniq -c | sed -E 's/^ +//')
assert_eq "$rows" "1 (anonymous namespace)::in_anonymous(...)
1 (anonymous namespace)::twice<long>(...)
1 Kernel::operator()(...)
1 in single @ cxx_names.cpp:12-13
1 in single @ cxx_names.cpp:24-25
1 in single @ cxx_names.cpp:37-38
1 in single @ cxx_names.cpp:50-51
1 main::{lambda(...)#1}::operator()(...)" "the barriers' locations in the text tables"
echo "PASS: C++ names with parentheses of their own"
