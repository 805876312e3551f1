# The HTML report against the text report, in a real browser, where they
# parted (probes): the text's warnings and notes on the page, locations longer
# than 200 characters kept whole in --json and on the page without widening it,
# a figure rounded as the text rounds it, the profile's rows left out said.
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/lib.sh"
export POMP_OMPT=off
require_chromium "HTML report views"

# browse_probe PAGE: as browse, with a script after the page's that writes the
# page's width (scrollWidth) into <body data-width>.
browse_probe() {
    python3 - "$1" <<'PY'
import sys
s = open(sys.argv[1]).read()
i = s.rindex("</body>")
probe = '<script>document.body.setAttribute("data-width", document.documentElement.scrollWidth);</script>'
open("probe-" + sys.argv[1], "w").write(s[:i] + probe + s[i:])
PY
    browse "probe-$1"
}

# A source file deep in long directory names (its location over 250 characters),
# a serial user region, and more call paths than POMP_PROFILE_NODES holds.
dir=$(printf 'd%.0s' $(seq 60))/$(printf 'e%.0s' $(seq 60))/$(printf 'f%.0s' $(seq 60))/$(printf 'g%.0s' $(seq 60))
mkdir -p "$dir"
{
    echo '#include <stdio.h>'
    echo 'static long n;'
    echo 'static void leaf(void)'
    echo '{'
    for i in $(seq 40); do
        echo "#pragma pomp inst begin(l$i)"
        echo '    __atomic_fetch_add(&n, 1, __ATOMIC_RELAXED);'
        echo "#pragma pomp inst end(l$i)"
    done
    echo '}'
    echo 'int main(void)'
    echo '{'
    echo '#pragma pomp inst begin(serial)'
    echo '    n++;'
    echo '#pragma pomp inst end(serial)'
    echo '#pragma omp parallel num_threads(2)'
    echo '    {'
    for j in $(seq 30); do
        echo "#pragma pomp inst begin(o$j)"
        echo '        leaf();'
        echo "#pragma pomp inst end(o$j)"
    done
    echo '    }'
    echo '    printf("%ld\n", n);'
    echo '    return 0;'
    echo '}'
} > "$dir/long.c"
"$POMPCC" -fopenmp "$dir/long.c" -o long 2> build.err || { cat build.err; fail "build long.c"; }
POMP_PROFILE_NODES=64 POMP_OUTPUT_DIR=l ./long > long.out 2> /dev/null
assert_eq "$(cat long.out)" 2401 "the program"
touch l/.nesting-errors-expected
"$REPORT" l > l.txt
"$REPORT" l --json > l.json
"$REPORT" l --html l.html 2> /dev/null

# --json keeps a location whole (regions and call paths cut it at 199
# characters, the other tables at 511)
want="$dir/long.c:"
[ ${#want} -gt 250 ] || fail "the test's path is not long enough"
for q in '.regions[] | select(.type == "parallel") | .location' \
         '.callpath[] | select(.depth == 0 and .region != null) | .location' \
         '.flat[] | .location' '.waits.rows[] | select(.region != null) | .location' \
         '.efficiency.parallel_regions[] | .location'; do
    got=$(jq -r "[$q] | first" l.json)
    case "$got" in "$want"[0-9]*-[0-9]*) ;; *) fail "--json $q: '$got' is not the whole location" ;; esac
done

browse_probe l.html > ldom.html || { cat browser.err; fail "chromium failed"; }
assert_contains ldom.html '<body[^>]* data-rendered="efficiency profile waits table"' "every part rendered"
assert_not_contains ldom.html '<body[^>]*data-error-' "no script error"
# the page no wider than the window (1280 px): the long locations widened the
# call-path table's grid column, and every chart drew to that width
width=$(grep -oE 'data-width="[0-9]+"' ldom.html | grep -oE '[0-9]+')
[ "$width" -le 1280 ] || fail "the page is $width px wide in a 1280 px window"
assert_contains ldom.html "<td class=\"loc\" title=\"$dir/long.c:[0-9]+-[0-9]+\">$dir/long.c:" "the call-path table's location whole (in its title too)"
# the charts' locations clipped to their column, the whole in the tooltip
assert_not_contains ldom.html 'class="row-loc">[^<]{49,}<' "a chart's location within its column"

# the text's warnings and notes, each on the page as the text says it (the
# page had the <overflow> row and no word of the paths it holds)
sed -n '2,/^$/p' l.txt | grep -E '^(warning|note): ' > text-notes.txt || true
assert_contains text-notes.txt '^warning: [0-9]+ entries into call paths that did not fit the profile' "the text warns of the overflow"
python3 - ldom.html > page-notes.txt <<'PY'
import html, re, sys
d = open(sys.argv[1]).read()
ul = re.search(r'<ul id="notes".*?</ul>', d, re.S).group(0)
for li in re.findall(r'<li[^>]*>(.*?)</li>', ul, re.S):
    print(html.unescape(re.sub(r'<[^>]+>', '', li)))
PY
assert_eq "$(cat page-notes.txt)" "$(cat text-notes.txt)" "the page's warnings and notes, as the text's"

# More rows that took time than the profile's 25 bars: said
assert_contains ldom.html 'id="profile-note">[^<]*Showing the 25 slowest of [0-9]+ that took time' "the profile's rows left out said"

# More call paths than the page shows at first (2,000, then 2,000 a click):
# a page of 70,000 took 82 s to open; the rest is said and a click adds it
{
    echo '#include <stdio.h>'
    echo 'static long n;'
    for j in $(seq 45); do
        echo "static void leaf$j(void)"
        echo '{'
        echo "#pragma pomp inst begin(leaf$j)"
        echo '    n++;'
        echo "#pragma pomp inst end(leaf$j)"
        echo '}'
    done
    echo 'int main(void)'
    echo '{'
    for i in $(seq 50); do
        echo "#pragma pomp inst begin(outer$i)"
        for j in $(seq 45); do echo "    leaf$j();"; done
        echo "#pragma pomp inst end(outer$i)"
    done
    echo '    printf("%ld\n", n);'
    echo '    return 0;'
    echo '}'
} > many.c
"$POMPCC" many.c -o many 2> build.err || { cat build.err; fail "build many.c"; }
POMP_OUTPUT_DIR=mp ./many > many.out 2> /dev/null
assert_eq "$(cat many.out)" 2250 "many paths: the program"
paths=$(jq '.callpath | length' mp/profile.json)
[ "$paths" -gt 2000 ] || fail "many paths: $paths call paths"
"$REPORT" mp --html mp.html 2> /dev/null
python3 - mp.html <<'PY'
import sys
s = open(sys.argv[1]).read()
i = s.rindex("</body>")
probe = ('<script>document.body.setAttribute("data-first", document.getElementById("callpath").getAttribute("data-rows"));'
         'document.getElementById("callpath-next").click();</script>')
open("click-" + sys.argv[1], "w").write(s[:i] + probe + s[i:])
PY
browse click-mp.html > mpdom.html || { cat browser.err; fail "chromium failed (many paths)"; }
assert_contains mpdom.html '<body[^>]* data-first="2000"' "many paths: 2,000 rows at first"
assert_contains mpdom.html "<table id=\"callpath\" data-rows=\"$paths\"" "many paths: the rest after a click"
assert_contains mpdom.html "id=\"callpath-more\" hidden" "many paths: nothing more to show after it"
browse mp.html > mpdom0.html || { cat browser.err; fail "chromium failed (many paths, no click)"; }
assert_contains mpdom0.html "Showing the first 2000 of $paths call paths, depth first" "many paths: the rows left out said"

# A figure on a tie rounds as the text's printf rounds it, to the even digit:
# the serial user region's time made 62,500 ns (0.0625 ms), the text's 0.062
# (the page read 0.063)
id=$(jq '.regions[] | select(.name == "serial") | .id' l/profile.json)
jq --argjson id "$id" '(.callpath[] | select(.region == $id) | .per_thread[]) |= (.incl_ns = 62500 | .excl_ns = 62500 | .min_ns = 62500 | .max_ns = 62500 | .body_ns = 62500)' \
    l/profile.json > t.json
mkdir -p tie && mv t.json tie/profile.json && touch tie/.nesting-errors-expected
"$REPORT" tie > tie.txt 2> /dev/null
assert_contains tie.txt '^userregion serial .* 0\.062 +0\.062 +0\.062 ' "the text rounds the tie to even"
"$REPORT" tie --html tie.html 2> /dev/null
browse tie.html > tiedom.html || { cat browser.err; fail "chromium failed (tie)"; }
assert_contains tiedom.html 'userregion serial</td><td class="loc"[^>]*>[^<]*</td><td>1</td><td>1</td><td>0\.062</td><td>0\.062</td><td>0\.062</td>' \
    "the page rounds the tie as the text"
