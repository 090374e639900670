(function () {
  "use strict";
  // Every piece of graph text reaches the page through textContent, never innerHTML.
  var data = JSON.parse(document.getElementById("kg-data").textContent);
  var DIM_NODE = "rgba(190, 190, 190, 0.25)";
  var DIM_EDGE = "rgba(200, 200, 200, 0.15)";
  var CLEAR = "rgba(0, 0, 0, 0)";
  var SAFE_URL = /^https?:\/\//i;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function evidence(parts) {
    var quote = el("blockquote", "kg-ev");
    quote.appendChild(document.createTextNode(parts[0]));
    if (parts[1]) quote.appendChild(el("mark", null, parts[1]));
    quote.appendChild(document.createTextNode(parts[2]));
    return quote;
  }

  function tipElement(tip) {
    var box = el("div", "kg-tip");
    box.appendChild(el("div", "kg-tip-h", tip.heading));
    (tip.lines || []).forEach(function (line) { box.appendChild(el("div", "kg-tip-l", line)); });
    (tip.evidence || []).forEach(function (parts) { box.appendChild(evidence(parts)); });
    return box;
  }

  data.nodes.forEach(function (n) {
    n.title = tipElement(n.tip);
    n.baseColor = n.color;
    n.fontSize = n.font.size;
  });
  data.edges.forEach(function (e) { e.title = tipElement(e.tip); e.baseColor = e.color; });
  // vis-network draws each label with its node, in list order: nodes whose labels show come last, on top.
  var threshold = data.options.nodes.scaling.label.drawThreshold;
  var labelled = function (n) { return n.font.size * data.frame.zoom >= threshold; };
  var nodes = new vis.DataSet(data.nodes.filter(function (n) { return !labelled(n); })
                              .concat(data.nodes.filter(labelled).reverse()));
  var edges = new vis.DataSet(data.edges);
  var container = document.getElementById("kg-graph");
  var network = new vis.Network(container, { nodes: nodes, edges: edges }, data.options);
  // For the browser tests and the console: the network, and a flag set once the first frame is drawn.
  window.kgNetwork = network;
  network.once("afterDrawing", function () { document.documentElement.setAttribute("data-kg-drawn", "1"); });

  // Open at the zoom kg sized the view for (node sizes, label sizes and line widths assume it), on this canvas.
  var frame = data.frame;
  var moved = false;
  function fitView() {
    var width = frame.x1 - frame.x0, height = frame.y1 - frame.y0;
    var scale = Math.min(frame.maxZoom, (container.clientWidth - 2 * frame.padX) / (width || 1e-9),
                         (container.clientHeight - 2 * frame.padY) / (height || 1e-9));
    network.moveTo({ position: { x: (frame.x0 + frame.x1) / 2, y: (frame.y0 + frame.y1) / 2 },
                     scale: Math.max(scale, 0.02) });
    fitEdges();
  }
  // Lines keep their on-screen width (edge.px) as the reader zooms, once the zooming pauses. The width is set
  // on vis-network's own edge objects: a DataSet update of thousands of edges would freeze the page.
  var edgePx = {};
  data.edges.forEach(function (e) { edgePx[e.id] = e.px; });
  var edgeScale = frame.zoom, edgeTimer = null;
  function fitEdges(always) {
    var scale = network.getScale();
    if (!always && Math.abs(scale - edgeScale) < 0.2 * edgeScale) return;
    edgeScale = scale;
    var drawn = network.body && network.body.edges;
    if (!drawn) {
      edges.update(data.edges.map(function (e) { return { id: e.id, width: e.px / scale }; }));
      return;
    }
    Object.keys(edgePx).forEach(function (id) { if (drawn[id]) drawn[id].options.width = edgePx[id] / scale; });
    network.redraw();
  }
  fitView();
  network.on("zoom", function () {
    moved = true;
    clearTimeout(edgeTimer);
    edgeTimer = setTimeout(fitEdges, 150);
  });
  network.on("dragStart", function () { moved = true; });
  window.addEventListener("resize", function () { if (!moved) fitView(); });

  // Neighbourhood highlight: the selected node and its neighbours keep their colours and show their
  // labels at the current zoom; everything else fades.
  var highlighted = null;
  function labelFont(n, size) {
    var font = { size: size, color: "#1f2328", strokeColor: "#ffffff" };
    if (n.labelLift) font.vadjust = -(n.labelLift + data.frame.lineHeight * size);  // a label kept over its node
    return font;
  }
  function highlight(id) {
    var keep = new Set(network.getConnectedNodes(id));
    keep.add(id);
    var near = new Set(network.getConnectedEdges(id));
    var readable = 12 / network.getScale();
    nodes.update(nodes.get({ fields: ["id", "baseColor", "fontSize", "labelLift"] }).map(function (n) {
      return { id: n.id, color: keep.has(n.id) ? n.baseColor : DIM_NODE,
               font: keep.has(n.id) ? labelFont(n, Math.max(n.fontSize, readable))
                                    : { size: n.fontSize, color: CLEAR, strokeColor: CLEAR } };
    }));
    edges.update(edges.get({ fields: ["id", "baseColor"] }).map(function (e) {
      return { id: e.id, color: near.has(e.id) ? e.baseColor : DIM_EDGE };
    }));
    fitEdges(true);  // an update may restore the widths kg wrote
    highlighted = id;
  }
  function unhighlight() {
    if (highlighted === null) return;
    nodes.update(nodes.get({ fields: ["id", "baseColor", "fontSize", "labelLift"] }).map(function (n) {
      return { id: n.id, color: n.baseColor, font: labelFont(n, n.fontSize) };
    }));
    edges.update(edges.get({ fields: ["id", "baseColor"] }).map(function (e) {
      return { id: e.id, color: e.baseColor };
    }));
    fitEdges(true);
    highlighted = null;
  }

  // Details panel, built from the same plain-text data as the tooltips.
  var panel = document.getElementById("kg-details");
  function closeDetails() { panel.hidden = true; network.unselectAll(); unhighlight(); }
  function link(href, text) {
    var a = el("a", null, text);
    a.href = href;
    return a;
  }
  function panelHeader(tip) {
    panel.replaceChildren();
    var close = el("button", "kg-close", "×");
    close.type = "button";
    close.setAttribute("aria-label", "Close");
    close.addEventListener("click", closeDetails);
    panel.appendChild(close);
    panel.appendChild(el("h2", null, tip.heading));
    (tip.lines || []).forEach(function (line) { panel.appendChild(el("p", "kg-line-text", line)); });
    panel.hidden = false;
  }
  function showNode(id) {
    var n = nodes.get(id);
    panelHeader(n.tip);
    var links = el("div", "kg-links");
    if (n.tip.url && SAFE_URL.test(n.tip.url)) {
      var a = link(n.tip.url, "Open paper ↗");
      a.target = "_blank";
      a.rel = "noopener noreferrer";
      links.appendChild(a);
    }
    if (data.views[id]) links.appendChild(link(data.views[id], "Focused view of this " + n.kind.toLowerCase() + " →"));
    if (links.childNodes.length) panel.appendChild(links);
    if (n.tip.detail) panel.appendChild(el("p", "kg-text", n.tip.detail));
    var groups = {};
    network.getConnectedEdges(id).forEach(function (eid) {
      var e = edges.get(eid);
      var out = e.from === id;
      var key = out ? e.rel + " →" : "← " + e.rel;
      (groups[key] = groups[key] || []).push(out ? e.to : e.from);
    });
    Object.keys(groups).sort().forEach(function (key) {
      panel.appendChild(el("h3", null, key + " · " + groups[key].length));
      var list = el("ul");
      groups[key].sort(function (a, b) { return nodes.get(a).fullName.localeCompare(nodes.get(b).fullName); });
      groups[key].forEach(function (other) {
        var item = el("li");
        var button = el("button", null, nodes.get(other).fullName);
        button.type = "button";
        button.addEventListener("click", function () { goTo(other); });
        item.appendChild(button);
        list.appendChild(item);
      });
      panel.appendChild(list);
    });
  }
  function showEdge(id) {
    var e = edges.get(id);
    panelHeader(e.tip);
    (e.tip.evidence || []).forEach(function (parts) { panel.appendChild(evidence(parts)); });
  }

  function goTo(id) {
    var n = nodes.get(id);
    if (n.hidden) {
      var box = document.querySelector('input[data-kind="' + CSS.escape(n.kind) + '"]');
      if (box) { box.checked = true; applyFilters(); }
    }
    network.selectNodes([id]);
    network.focus(id, { scale: Math.max(network.getScale(), 1), animation: { duration: 400 } });
    highlight(id);
    showNode(id);
  }

  network.on("click", function (params) {
    if (params.nodes.length) { highlight(params.nodes[0]); showNode(params.nodes[0]); }
    else if (params.edges.length) { unhighlight(); showEdge(params.edges[0]); }
    else closeDetails();
  });
  document.addEventListener("keydown", function (ev) { if (ev.key === "Escape") closeDetails(); });

  // Filters: legend checkboxes hide node types and relation types.
  var boxes = Array.prototype.slice.call(document.querySelectorAll("#kg-legend input[type=checkbox]"));
  function applyFilters() {
    var offKinds = new Set(), offRels = new Set();
    boxes.forEach(function (b) {
      if (b.checked || b.disabled) return;
      if (b.dataset.kind !== undefined) offKinds.add(b.dataset.kind); else offRels.add(b.dataset.rel);
    });
    nodes.update(nodes.get({ fields: ["id", "kind"] }).map(function (n) {
      return { id: n.id, hidden: offKinds.has(n.kind) };
    }));
    edges.update(edges.get({ fields: ["id", "rel"] }).map(function (e) {
      return { id: e.id, hidden: offRels.has(e.rel) };
    }));
  }
  boxes.forEach(function (b) { b.addEventListener("change", applyFilters); });

  // Search: tom-select over every node's full name; its renderers escape what they show.
  new TomSelect("#kg-search", {
    options: data.nodes.map(function (n) { return { value: n.id, text: n.fullName, kind: n.kind }; }),
    maxOptions: 50,
    allowEmptyOption: true,
    render: {
      option: function (item, escape) {
        var k = data.kinds[item.kind] || { color: "#888", glyph: "●" };
        return '<div><span style="color:' + escape(k.color) + '">' + escape(k.glyph) + "</span> " +
          escape(item.text) + '<span class="kg-opt-kind">' + escape(item.kind) + "</span></div>";
      },
      no_results: function () { return '<div class="no-results">No node with that name in this view</div>'; }
    },
    onChange: function (value) { if (value) goTo(value); }
  });
})();
