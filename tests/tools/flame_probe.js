/* Added to a copy of an HTML report by test_sampling_html.sh, after the
 * page's own script: hovers over the flame graph's leaf box, clicks it (zoom),
 * clicks reset, and leaves what the page showed in <body data-test="JSON">. */
(function () {
  const svg = document.getElementById("flame-svg");
  const box = name => [...svg.querySelectorAll("rect.flame-node")].find(r =>
    r.getAttribute("data-name") === name && !r.classList.contains("ancestor"));
  const out = {};
  const leaf = box("leaf");
  const at = leaf.getBoundingClientRect();
  leaf.dispatchEvent(new MouseEvent("mousemove", {bubbles: true, clientX: at.left + 2, clientY: at.top + 2}));
  const tip = document.getElementById("tooltip");
  out.tip = tip.hidden ? "" : tip.innerText; // lines as shown
  leaf.dispatchEvent(new MouseEvent("click", {bubbles: true}));
  out.zoom_focus = svg.getAttribute("data-focus");
  out.zoom_leaf_width = box("leaf").getAttribute("width");
  out.zoom_nodes = Number(svg.getAttribute("data-nodes"));
  out.zoom_ancestors = [...svg.querySelectorAll("rect.ancestor")].map(r => r.getAttribute("data-name")).join(" > ");
  document.getElementById("flame-reset").click();
  out.reset_focus = svg.getAttribute("data-focus");
  out.reset_nodes = Number(svg.getAttribute("data-nodes"));
  out.height = svg.getBoundingClientRect().height;
  document.body.setAttribute("data-test", JSON.stringify(out));
})();
