// Game-tree page: an alpha-beta (or minimax) search replayed step by step on its tree.
"use strict";
(function () {
  const all = readData("gametree").graphs;
  const KINDS = ["enter", "leaf", "leave", "cut", "table"];
  const STATE = ["unseen", "open", "done", "leaf", "cut", "table"];
  const treeEl = document.getElementById("gt-tree");
  const controls = document.getElementById("gt-controls");
  const status = document.getElementById("gt-status");
  const nodeInfo = document.getElementById("gt-node");
  let player = null;

  function fmt(v) {
    if (v === null || v === undefined) return "?";
    if (v === "+inf") return "+∞";
    if (v === "-inf") return "−∞";
    return String(v);
  }
  const win = (a, b) => "α = " + fmt(a) + ", β = " + fmt(b);

  function layout(g) {
    const n = g.parents.length, kids = [], depth = new Array(n).fill(0);
    for (let i = 0; i < n; i++) kids.push([]);
    for (let i = 1; i < n; i++) { kids[g.parents[i]].push(i); depth[i] = depth[g.parents[i]] + 1; }
    const x = new Array(n).fill(0);
    let slots = 0;
    const order = [];  // depth-first, children left to right
    const stack = [0];
    while (stack.length) {
      const v = stack.pop();
      order.push(v);
      for (let k = kids[v].length - 1; k >= 0; k--) stack.push(kids[v][k]);
    }
    for (const v of order) if (!kids[v].length) x[v] = slots++;
    for (let k = order.length - 1; k >= 0; k--) {
      const v = order[k];
      if (kids[v].length) x[v] = (x[kids[v][0]] + x[kids[v][kids[v].length - 1]]) / 2;
    }
    return { kids, depth, x, slots, levels: Math.max(...depth) + 1 };
  }

  function shape(kind, cx, cy, r) {
    if (kind === "L") return ["rect", { x: cx - r, y: cy - r, width: 2 * r, height: 2 * r, rx: 2 }];
    const up = kind === "M" ? -1 : 1, h = r * 1.25;
    const pts = [[cx, cy + up * h], [cx - h, cy - up * h * 0.7], [cx + h, cy - up * h * 0.7]];
    return ["polygon", { points: pts.map((p) => p.join(",")).join(" ") }];
  }

  function draw(g, lay) {
    const dx = Math.max(14, Math.min(120, Math.floor(1180 / Math.max(1, lay.slots))));
    const dy = g.parents.length <= 80 ? 78 : 56, r = Math.max(5, Math.min(15, dx * 0.34));
    const roomy = dx >= 44, crowded = dx < 30;
    const width = lay.slots * dx + 140, height = lay.levels * dy + 30;
    const { svg, add } = svgChart(width, height, "game tree: " + g.title);
    const X = (v) => 20 + lay.x[v] * dx + dx / 2, Y = (v) => 26 + lay.depth[v] * dy;
    const edges = [], shapes = [], texts = [], marks = [];
    for (let v = 1; v < g.parents.length; v++) {
      const p = g.parents[v];
      edges[v] = add("line", { x1: X(p), y1: Y(p), x2: X(v), y2: Y(v), class: "edge" });
    }
    for (let v = 0; v < g.parents.length; v++) {
      const [tag, attrs] = shape(g.kinds[v], X(v), Y(v), r);
      const node = add(tag, Object.assign(attrs, { class: "gnode unseen", "data-id": v,
        "data-kind": g.kinds[v], "data-label": g.labels[v] }));
      const tip = document.createElementNS(SVG_NS, "title");
      node.appendChild(tip);
      shapes[v] = node;
      if (r >= 9 || (g.kinds[v] === "L" && dx >= 22)) {
        add("text", { x: X(v), y: Y(v) + 4, class: "glabel", "font-size": r >= 9 ? 12 : 8 },
          g.labels[v].length > 6 ? g.labels[v].slice(0, 5) + "…" : g.labels[v]);
      }
      if (g.below[v] && !crowded) {
        add("text", { x: X(v), y: Y(v) + r + 14, class: "gmore" }, "+" + g.below[v]);
      }
      texts[v] = roomy ? add("text", { x: X(v) + r + 4, y: Y(v) - 4, class: "gwin" }) : null;
      marks[v] = crowded ? null : add("text", { x: X(v) - r - 3, y: Y(v) + r + 12,
        class: "gno" });
    }
    treeEl.innerHTML = "";
    treeEl.appendChild(svg);
    return { edges, shapes, texts, marks, X, dx };
  }

  function replay(g, lay, upto) {
    // The state of every node after the first ``upto`` steps.
    const n = g.parents.length, st = new Array(n).fill(0), val = new Array(n).fill(null);
    const wins = new Array(n).fill(null), leafNo = new Array(n).fill(0);
    const entered = new Array(n).fill(null);
    const cutBy = new Array(n).fill(-1), cutAt = new Set();
    let cuts = 0, hits = 0, leaves = 0;
    for (let i = 0; i < upto; i++) {
      const [k, v, value, a, b, , , extra, sofar] = g.steps[i];
      const kind = KINDS[k];
      leaves = sofar;
      if (kind === "enter") { st[v] = 1; wins[v] = entered[v] = [a, b]; if (extra) hits++; }
      if (kind === "leaf") { st[v] = 3; val[v] = value; leafNo[v] = sofar; }
      if (kind === "leave") { st[v] = 2; val[v] = value; wins[v] = [a, b]; }
      if (kind === "table") { st[v] = 5; val[v] = value; hits++; }
      if (kind === "cut") {
        cuts++;
        cutAt.add(v);
        wins[v] = [a, b];
        const todo = lay.kids[v].slice(extra);
        while (todo.length) {
          const w = todo.pop();
          st[w] = 4;
          cutBy[w] = v;
          todo.push(...lay.kids[w]);
        }
      }
    }
    return { st, val, wins, entered, leafNo, cutBy, cutAt, cuts, hits, leaves };
  }

  function says(g, i) {
    const total = g.steps.length;
    if (i === 0) return "Nothing searched yet: the root is entered with α = −∞, β = +∞.";
    if (i > total) {
      const line = g.pv.map((v) => g.labels[v]).join(" → ");
      return "Done: value " + fmt(g.value) + " for " + g.view + "; " +
        g.leaves.toLocaleString() + (g.leaves === 1 ? " leaf" : " leaves") +
        " examined; principal variation " + line + ".";
    }
    const [k, v, value, a, b, pa, pb, extra] = g.steps[i - 1];
    const name = g.labels[v], p = g.parents[v], pname = p >= 0 ? g.labels[p] : "";
    const up = p >= 0 ? " " + pname + " now has " + win(pa, pb) + "." : "";
    switch (KINDS[k]) {
      case "enter": return "Enter " + name + " (" + (g.kinds[v] === "M" ? "MAX" : "MIN") +
        ") with " + win(a, b) + "." + (extra ? " The table narrowed the window." : "");
      case "leaf": return "Leaf " + g.steps[i - 1][8] + ": " + name + " under " + pname +
        " (value " + fmt(value) + ")." + up;
      case "leave": return "Leave " + name + " with value " + fmt(value) + " (" + win(a, b) +
        ")." + up;
      case "cut": return "Cut-off at " + name + ": α = " + fmt(a) + " ≥ β = " + fmt(b) +
        ", so its remaining children are not examined.";
      default: return "The table answers " + name + ": value " + fmt(value) + " (" + extra +
        ")." + up;
    }
  }

  function build(g) {
    if (player) player.stop();
    controls.innerHTML = "";
    const lay = layout(g), pic = draw(g, lay), total = g.steps.length + 2;
    const pvEdges = new Set(g.pv.slice(1));
    const summary = document.getElementById("gt-summary");
    const capped = g.capped ? ["The tree has " + g.nodes.toLocaleString() + " nodes, more than " +
      "the page draws whole: it shows the top " + (g.capped.depth + 1) + " levels (" +
      g.capped.nodes.toLocaleString() + " nodes); +k under a node counts the nodes below it. " +
      "The counters count every step, drawn or not."] : [];
    const lines = capped.concat(g.notes);
    summary.hidden = !lines.length;
    summary.textContent = lines.join(" ");
    document.getElementById("gt-total").textContent = g.leaves.toLocaleString();
    function render(i) {
      const s = replay(g, lay, Math.min(i, g.steps.length)), done = i > g.steps.length;
      const now = i >= 1 && !done ? g.steps[i - 1][1] : -1;
      for (let v = 0; v < g.parents.length; v++) {
        let cls = "gnode " + STATE[s.st[v]];
        if (v === now) cls += " now";
        if (done && g.pv.includes(v)) cls += " pv";
        if (s.cutAt.has(v)) cls += " cutat";
        const shape = pic.shapes[v];
        if (shape.getAttribute("class") !== cls) shape.setAttribute("class", cls);
        shape.dataset.leaf = s.leafNo[v] || "";
        shape.dataset.cutBy = s.cutBy[v] >= 0 ? g.labels[s.cutBy[v]] : "";
        shape.dataset.value = s.val[v] === null ? "" : fmt(s.val[v]);
        const w = s.wins[v];
        const e = s.entered[v], left = s.st[v] === 2;
        shape.firstChild.textContent = g.labels[v] + (s.val[v] === null ? "" : ": value " +
          fmt(s.val[v])) + (e ? "; entered with " + win(e[0], e[1]) : "") +
          (w && w !== e ? (left ? "; left with " : "; now ") + win(w[0], w[1]) : "") +
          (s.cutBy[v] >= 0 ? ", cut off at " + g.labels[s.cutBy[v]] : "") +
          (g.below[v] ? ", " + g.below[v] + " nodes below not drawn" : "");
        if (pic.texts[v]) {
          pic.texts[v].textContent = (s.val[v] !== null && g.kinds[v] !== "L" ?
            "= " + fmt(s.val[v]) + " " : "") + (w && g.kinds[v] !== "L" ?
            "[" + fmt(w[0]) + ", " + fmt(w[1]) + "]" : "");
        }
        if (pic.marks[v]) {
          pic.marks[v].textContent = s.leafNo[v] ? "#" + s.leafNo[v] :
            s.cutAt.has(v) ? "α≥β" : "";
          pic.marks[v].setAttribute("class", s.cutAt.has(v) ? "gno cutmark" : "gno");
        }
        if (v) {
          const e = pic.edges[v];
          e.setAttribute("class", "edge" + (s.st[v] === 4 ? " cut" : "") +
            (done && pvEdges.has(v) ? " pv" : ""));
        }
      }
      document.getElementById("gt-leaves").textContent = s.leaves.toLocaleString();
      document.getElementById("gt-cuts").textContent = s.cuts;
      document.getElementById("gt-hits").textContent = s.hits;
      document.getElementById("gt-value").textContent = done || s.st[0] === 2 ?
        fmt(g.value) : "?";
      status.textContent = says(g, i);
      status.className = "status" + (i >= 1 && !done && KINDS[g.steps[i - 1][0]] === "cut" ?
        " kind-d" : done ? " kind-s" : "");
      nodeInfo.textContent = now >= 0 ? pic.shapes[now].firstChild.textContent : "";
      if (treeEl.scrollWidth > treeEl.clientWidth) {  // keep the step's node (or the root) in view
        const x = pic.X(Math.max(now, 0));
        if (x < treeEl.scrollLeft + 40 || x > treeEl.scrollLeft + treeEl.clientWidth - 40) {
          treeEl.scrollLeft = x - treeEl.clientWidth / 2;
        }
      }
    }
    const cut = (i) => i >= 1 && i <= g.steps.length && KINDS[g.steps[i - 1][0]] === "cut";
    const leaf = (i) => i >= 1 && i <= g.steps.length && KINDS[g.steps[i - 1][0]] === "leaf";
    player = makePlayer(controls, total, render, g.pruned ? cut : leaf,
      g.pruned ? "Next cut-off ▶▶" : "Next leaf ▶▶", g.pruned ? "next cut-off" : "next leaf");
  }

  if (all.length > 1) {
    const label = el("label", { for: "gt-graph" }, "Graph ");
    const pick = el("select", { id: "gt-graph", "aria-label": "graph" });
    all.forEach((g, k) => pick.appendChild(el("option", { value: k },
      g.title + ": value " + fmt(g.value) + ", " + g.leaves.toLocaleString() +
      (g.leaves === 1 ? " leaf" : " leaves") + " examined, " +
      g.nodes + " nodes")));
    pick.onchange = () => { build(all[Number(pick.value)]); pick.blur(); };
    label.appendChild(pick);
    document.getElementById("gt-chooser").appendChild(label);
  }
  build(all[0]);
})();
