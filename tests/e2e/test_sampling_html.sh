# The HTML report's flame graph of a sampled run, in headless Chromium: the
# boxes the page drew against pomp-report --json's tree (one per function on a
# path, as wide as its samples, inside its caller's), the known call paths of
# the test programs from main down, Work and Wait colours, the tooltip, zoom
# and reset (a script added to a copy of the page clicks and reports), and the
# screenshot. Skipped, with the reason, only where Chromium is not installed.
PROGRAMS="$(cd "$(dirname "$0")/programs" && pwd)"
TOOLS="$(cd "$(dirname "$0")/../tools" && pwd)"
source "$(dirname "$0")/lib.sh"
require_chromium "flame graph"

# sampled_page NAME OUTPUT: builds programs/sampling_NAME.c with pompcc, runs
# it sampled into NAME.out/ (its output must match OUTPUT), makes NAME.html and
# NAME.json, loads the page (NAME-dom.html, NAME.png) and checks every drawn
# box against the report's tree (NAME-boxes.txt: samples and path of each box).
sampled_page() {
    "$POMPCC" -fopenmp -g -O1 "$PROGRAMS/sampling_$1.c" -o "$1"
    POMP_SAMPLING=1ms POMP_OUTPUT_DIR="$1.out" "./$1" > out.txt
    assert_contains out.txt "$2" "$1: program output"
    "$REPORT" "$1.out" --html "$1.html" 2> /dev/null
    "$REPORT" "$1.out" --json > "$1.json"
    browse "$1.html" "$1.png" 2000 > "$1-dom.html" || { cat browser.err; fail "chromium failed"; }
    assert_contains "$1-dom.html" '<body data-rendered="(efficiency )?profile waits flame table"' "$1: the flame graph rendered"
    assert_not_contains "$1-dom.html" '<body[^>]*data-error-' "$1: no script error"
    python3 "$TOOLS/flame_dom.py" check "$1-dom.html" "$1.json" > "$1-boxes.txt" || fail "$1: flame graph boxes"
}

# Nested parallelism (test_sampling.sh): 4 threads x 150 ms in leaf(). Every
# box against the report's tree; then the known paths, from main down.
sampled_page nested "leaf ran 4 times"
mv nested-boxes.txt boxes.txt
total=$(jq '[.sampling.paths[] | .work + .wait] | add' nested.out/profile.json)
with_main=$(jq '.sampling as $s | [$s.paths[] | select([.frames[] | $s.frames[.].function] | index("main")) | .work + .wait] | add' nested.out/profile.json)
assert_contains boxes.txt "^$total	all\$" "the root box holds every sample"
assert_contains boxes.txt "^$with_main	all > main\$" "main right below the root, with every sample whose path has main"
leaf=$(awk -F'\t' '$2 ~ /^all > main > outer > [^>]+ > inner > [^>]+ > leaf$/ {n += $1} END {print n + 0}' boxes.txt)
echo "flame graph: $total samples, $with_main under main, $leaf in main > outer > ... > inner > ... > leaf"
[ "$leaf" -ge 450 ] || { cat boxes.txt >&2; fail "$leaf samples in leaf through outer and inner, expected about 600"; }
assert_not_contains boxes.txt '	all > .*leaf.*	' "no leaf outside main > outer > inner"

# Tooltip, zoom into leaf, reset: a script after the page's own clicks and reports.
{ sed '/<\/body>/,$d' nested.html; echo '<script>'; cat "$TOOLS/flame_probe.js"; echo '</script></body></html>'; } > probe.html
browse probe.html probe.png 2000 > probe-dom.html || { cat browser.err; fail "chromium failed"; }
python3 "$TOOLS/flame_dom.py" probe probe-dom.html > probe.json || fail "the probe script did not run"
plot=$(grep -o 'id="flame-svg"[^>]*viewBox="0 0 [0-9.]*' nested-dom.html | sed 's/.* //')
# the tooltip: function, file:lines (those of leaf's body that were sampled: one line, or a range
# such as 16-17 when samples fell on the clock call as well as on the loop), samples and share
leaf_line=$(line_of "$PROGRAMS/sampling_nested.c" "void leaf(")
jq -e --argjson first "$leaf_line" '.tip | test("[0-9]+ samples, [0-9.]+ % of all") and test("OpenMP Work [0-9]+")
        and (capture("^leaf\n(?<file>[^:]*):(?<line>[0-9]+)(-[0-9]+)?\n") | (.file | endswith("sampling_nested.c"))
             and (.line | tonumber) > $first and (.line | tonumber) <= $first + 5)' \
    probe.json > /dev/null || fail "tooltip of leaf: $(jq -r .tip probe.json)"
assert_eq "$(jq -r .zoom_focus probe.json)" leaf "a click zooms into leaf"
assert_eq "$(jq -r .zoom_leaf_width probe.json)" "$plot.00" "zoomed: leaf spans the chart"
jq -e '.zoom_ancestors | test("^all > main > outer > .* > inner > .*$")' probe.json > /dev/null ||
    fail "zoomed: the callers of leaf above it: $(jq -r .zoom_ancestors probe.json)"
jq -e '.zoom_nodes < .reset_nodes' probe.json > /dev/null || fail "zoomed: fewer boxes than the whole graph"
assert_eq "$(jq -r .reset_focus probe.json)" all "reset shows all samples"
assert_eq "$(jq -r .reset_nodes probe.json)" "$(wc -l < boxes.txt)" "reset: every box again"
jq -e '.height > 100' probe.json > /dev/null || fail "the flame graph has no height on the page"

# The screenshot: the root box's colour over the chart's width.
python3 "$TOOLS/png_colors.py" nested.png 34495e > colors.txt
read -r root_px drawn <<< "$(tr "\n" " " < colors.txt)"
[ "$root_px" -gt 10000 ] || fail "the flame graph's root box is not visible in the screenshot ($root_px px)"

# Work and Wait (test_sampling.sh's known split): the lock wait and the barrier
# are pseudo-frames under main, drawn in the wait colours.
sampled_page split "^done$"
lock=$(jq '[.sampling.paths[] | .states.lock // 0] | add' split.out/profile.json)
assert_contains split-boxes.txt "^$lock	all > main > .* > <OMP-lock_wait>\$" "split: every lock-wait sample under main, in one <OMP-lock_wait> box"
assert_contains split-boxes.txt "	all > main > .* > <OMP-(implicit|explicit)_barrier>\$" "split: the barrier wait"
assert_contains split-dom.html '<rect [^>]*fill="#b83263" class="flame-node wait"[^>]*data-name="&lt;OMP-lock_wait&gt;"' "split: lock wait in its colour, as a wait"
assert_not_contains split-dom.html '<rect [^>]*class="flame-node wait"[^>]*data-name="(main|spin)"' "split: user code is work"
assert_contains split-dom.html '</i>&lt;OMP-lock_wait&gt; \(OpenMP Wait\)</span>' "split: the legend names the lock wait"
