// Sliding-puzzle page: the solution path animated, and IDA*'s nodes per iteration.
"use strict";
(function () {
  const data = readData("sliding");
  const size = data.size, total = data.blanks.length + 1;
  const boards = [Int32Array.from(data.start)];
  for (const b1 of data.blanks) {
    const prev = boards[boards.length - 1], next = Int32Array.from(prev);
    const b0 = prev.indexOf(0);
    next[b0] = prev[b1];
    next[b1] = 0;
    boards.push(next);
  }
  const px = fitCells(size, Math.max(24, Math.min(96, Math.floor(440 / size))), 16);
  const boardEl = document.getElementById("sliding-board");
  boardEl.style.width = boardEl.style.height = size * px + "px";
  boardEl.style.fontSize = Math.floor(px * 0.42) + "px";
  const tiles = new Map();
  for (const t of data.start) {
    if (t === 0) continue;
    const tile = el("div", { class: "tile", "data-tile": t }, String(t));
    tile.style.width = tile.style.height = px - 4 + "px";
    boardEl.appendChild(tile);
    tiles.set(t, tile);
  }
  const status = document.getElementById("sliding-status");
  // Distances to the path's last board (the goal, whichever square its blank takes).
  const home = new Map();
  boards[boards.length - 1].forEach((t, s) => home.set(t, s));
  function distances(board) {
    let misplaced = 0, manhattan = 0;
    board.forEach((t, s) => {
      const g = home.get(t);
      if (t === 0 || g === s) return;
      misplaced++;
      manhattan += Math.abs(Math.floor(g / size) - Math.floor(s / size)) +
        Math.abs((g % size) - (s % size));
    });
    return [misplaced, manhattan];
  }
  function render(i) {
    const board = boards[i];
    const moved = i > 0 ? boards[i - 1][data.blanks[i - 1]] : -1;
    board.forEach((t, s) => {
      if (t === 0) return;
      const tile = tiles.get(t);
      tile.style.transform = "translate(" + ((s % size) * px + 2) + "px," +
        (Math.floor(s / size) * px + 2) + "px)";
      tile.classList.toggle("moved", t === moved);
      tile.dataset.square = s;
    });
    const [misplaced, manhattan] = distances(board);
    document.getElementById("sliding-moves").textContent = i;
    document.getElementById("sliding-misplaced").textContent = misplaced;
    document.getElementById("sliding-manhattan").textContent = manhattan;
    status.textContent = total === 1 ? "The start board is the goal: no move needed." :
      i === 0 ? "The start board." : i === total - 1 ?
      "Goal reached in " + (total - 1) + " moves." : "Move " + i + ": tile " + moved +
      " slides into the blank.";
    status.className = "status" + (i === total - 1 ? " kind-s" : "");
  }
  makePlayer(document.getElementById("sliding-controls"), total, render,
    (i) => i === total - 1, "Goal ▶▶", "goal");
  if (!data.iterations.length) return;
  // Nodes per IDA* iteration: one bar each, on a log scale (they grow geometrically).
  const w = 560, h = 230, left = 60, bottom = 40;
  const { svg, add } = svgChart(w, h, "nodes per IDA* iteration", true);
  const top = Math.max(...data.iterations.map((r) => r[1]), 1);
  const logTop = Math.log10(top) + 0.2;
  const y = (v) => h - bottom - (v > 0 ? (Math.log10(v) + 0.2) / logTop : 0) * (h - bottom - 30);
  const bw = (w - left - 10) / data.iterations.length;
  for (let p = 0; p <= Math.ceil(Math.log10(top)); p++) {
    add("line", { x1: left, x2: w - 10, y1: y(10 ** p), y2: y(10 ** p), stroke: "#ddd" });
    add("text", { x: left - 6, y: y(10 ** p) + 4, "text-anchor": "end", "font-size": "11" },
      (10 ** p).toLocaleString());
  }
  data.iterations.forEach(([threshold, nodes], k) => {
    const bar = add("rect", { class: "iteration", x: left + k * bw + 2, y: y(nodes),
      width: Math.max(2, bw - 4), height: h - bottom - y(nodes), fill: "#3b82c4" });
    const t = document.createElementNS(SVG_NS, "title");
    t.textContent = "threshold " + threshold + ": " + nodes.toLocaleString() + " nodes";
    bar.appendChild(t);
    add("text", { x: left + k * bw + bw / 2, y: h - bottom + 14, "text-anchor": "middle",
      "font-size": "11" }, String(threshold));
  });
  add("text", { x: left, y: h - 6, "font-size": "12", fill: "#555" },
    "f threshold of each IDA* iteration; bar height: nodes expanded (log scale)");
  add("text", { x: left + 4, y: 12, "font-size": "12", fill: "#555" }, "nodes (log scale)");
  document.getElementById("sliding-chart").appendChild(svg);
})();
