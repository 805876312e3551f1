#!/usr/bin/env python3
"""flame_dom.py: the HTML report's flame graph as Chromium's --dump-dom left it.

  flame_dom.py check DOM.html REPORT.json
      Checks the drawn boxes against the tree of `pomp-report --json` (its
      "sampling"."flame"), with the whole tree in view: one box per node at
      least 0.3 px wide, each as wide as its samples (the root as wide as the
      chart), inside its caller's box, placed at its depth, with the class
      "wait" exactly for the runtime's pseudo-frames (<OMP-...>). Prints one
      line per box: samples, a tab, and its path from the root ("all > main >
      ..."). Exits 1 with the first broken rule.
  flame_dom.py probe DOM.html
      Prints the JSON that a test's script left in <body data-test="...">.
Standard library only."""
import json
import sys
from html.parser import HTMLParser


class Dom(HTMLParser):
    def __init__(self):
        super().__init__()
        self.svg = None
        self.boxes = []
        self.body = {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "body":
            self.body = a
        elif tag == "svg" and a.get("id") == "flame-svg":
            self.svg = a
        elif tag == "rect" and "flame-node" in a.get("class", "").split():
            self.boxes.append(a)


def load(path):
    dom = Dom()
    with open(path, encoding="utf-8") as f:
        dom.feed(f.read())
    return dom


def fail(message):
    sys.exit(f"flame_dom.py: {message}")


def expected_boxes(tree, scale):
    """The nodes the page draws with the root in focus: (path, node), depth first."""
    out = []

    def walk(node, path):
        if node["samples"] * scale < 0.3:
            return
        here = path + [node["name"]]
        out.append((" > ".join(here), node))
        for child in node.get("children", []):
            walk(child, here)

    walk(tree, [])
    return out


def check(dom_path, report_path):
    dom = load(dom_path)
    if dom.svg is None:
        fail(f"{dom_path}: no flame graph (svg#flame-svg)")
    with open(report_path, encoding="utf-8") as f:
        tree = json.load(f)["sampling"]["flame"]
    width = float(dom.svg["viewbox"].split()[2])
    scale = width / tree["samples"]
    boxes = {b["data-id"]: b for b in dom.boxes}
    paths = {}
    for b in dom.boxes:
        if "ancestor" in b["class"].split():
            fail(f"box {b['data-name']}: drawn as an ancestor of the focus, with the root in focus")
        parent = b["data-parent"]
        paths[b["data-id"]] = (paths[parent] + " > " if parent else "") + b["data-name"]
        if parent and parent not in boxes:
            fail(f"box {paths[b['data-id']]}: its caller has no box")
        samples, w, x = float(b["data-samples"]), float(b["width"]), float(b["x"])
        if abs(w - samples * scale) > 0.011:
            fail(f"box {paths[b['data-id']]}: {w} px wide for {samples:g} samples, expected {samples * scale:.2f}")
        depth = int(b["data-depth"])
        if float(b["y"]) != depth * 18:
            fail(f"box {paths[b['data-id']]}: at y {b['y']}, not at its depth {depth}")
        if parent:
            p = boxes[parent]
            if int(p["data-depth"]) != depth - 1 or x < float(p["x"]) - 0.011 or \
                    x + w > float(p["x"]) + float(p["width"]) + 0.02:
                fail(f"box {paths[b['data-id']]}: not below and inside its caller's box")
        if ("wait" in b["class"].split()) != b["data-name"].startswith("<OMP-"):
            fail(f"box {paths[b['data-id']]}: class '{b['class']}'")
    want = expected_boxes(tree, scale)
    got = sorted((paths[b["data-id"]], float(b["data-samples"])) for b in dom.boxes)
    if got != sorted((p, float(n["samples"])) for p, n in want):
        fail(f"{len(got)} boxes drawn, the report's tree has {len(want)} at least 0.3 px wide, or their samples differ")
    root = [b for b in dom.boxes if b["data-depth"] == "0"]
    if len(root) != 1 or abs(float(root[0]["width"]) - width) > 0.011:
        fail("the root box does not span the chart")
    for b in dom.boxes:
        print(f"{float(b['data-samples']):g}\t{paths[b['data-id']]}")


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "check":
        check(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "probe":
        data = load(sys.argv[2]).body.get("data-test")
        if data is None:
            fail(f"{sys.argv[2]}: the test's script left no data-test on <body>")
        print(data)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
