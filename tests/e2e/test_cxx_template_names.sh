# pomp-report names a runtime region of C++ code built without -g by its
# function, its template arguments elided only as far as the column needs:
# with all of them gone, the rows of two instantiations of a class template's
# member read alike in every table ("Field<...>::transform<...>(...)" for
# Field<double>'s and Field<float>'s; a probe, pomprun on a g++ build). The
# class's arguments stay before the function's own.
SRC="$(cd "$(dirname "$0")/programs" && pwd)"
source "$(dirname "$0")/lib.sh"
cp "$SRC"/cxx_template_names.cpp .
POMPRUN="$BUILD/bin/pomprun"

g++ -fopenmp -O2 cxx_template_names.cpp -o tnames || fail "g++ cxx_template_names.cpp"
assert_eq "$(OMP_NUM_THREADS=2 POMP_SUMMARY=off POMP_OUTPUT_DIR=out "$POMPRUN" ./tnames)" "2.0 4.0" \
    "the program's output"
"$REPORT" out > report.txt || fail "pomp-report"
"$REPORT" --check out > /dev/null || fail "--check"
# the call-path table: each instantiation's parallel region and loop, with its
# own visits (1 call of Field<double>'s, 3 of Field<float>'s; a loop per thread)
paths=$(sed -n '/^Call paths/,/^Regions by self time/p' report.txt |
        grep -E '^ *(parallel|for) ' | sed -E 's/^ *//; s/ +/ /g' | cut -d' ' -f1-3 | sort)
assert_eq "$paths" "for Field<double>::transform<...>(...) 2
for Field<float>::transform<...>(...) 6
parallel Field<double>::transform<...>(...) 1
parallel Field<float>::transform<...>(...) 3" "the call paths name each instantiation's class"
# no two rows of a table alike (region, location)
for table in "Call paths" "Regions by self time" "Waits per parallel region"; do
    dups=$(sed -n "/^$table/,/^\$/p" report.txt | sed -E 's/ +[0-9.]+ .*$//' | sort | uniq -d)
    [ -z "$dups" ] || fail "$table: rows alike: $dups"
done
echo "PASS: test_cxx_template_names"
