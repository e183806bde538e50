// N-Queens search page: replays the recorded walk on a board.
"use strict";
(function () {
  const data = readData("queens");
  const n = data.n, total = data.kinds.length;
  const boardEl = document.getElementById("queens-board");
  const size = fitCells(n, Math.max(26, Math.min(64, Math.floor(480 / n))), 16);
  boardEl.style.gridTemplateColumns = "repeat(" + n + ", " + size + "px)";
  boardEl.style.fontSize = Math.floor(size * 0.7) + "px";
  const cells = [];
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const cell = el("div", { class: "sq " + ((r + c) % 2 ? "dark" : "light"),
        "data-row": r, "data-col": c, role: "gridcell" });
      cell.style.width = cell.style.height = size + "px";
      boardEl.appendChild(cell);
      cells.push(cell);
    }
  }
  // The queens after every step (column per row, -1 empty), and the running counters.
  const queens = [], nodes = [], sols = [];
  let now = new Array(n).fill(-1), nodeCount = 0, solCount = 0;
  for (let i = 0; i < total; i++) {
    const kind = data.kinds[i];
    if (kind === "p") now[data.rows[i]] = data.cols[i];
    if (kind === "b") now[data.rows[i]] = -1;
    if (kind === "r" || kind === "p") nodeCount++;
    if (kind === "s") solCount++;
    queens.push(now.slice());
    nodes.push(nodeCount);
    sols.push(solCount);
  }
  const says = {
    r: () => "The empty board: row order '" + data.order + "'.",
    p: (i) => "Place a queen at row " + data.rows[i] + ", column " + data.cols[i] + ".",
    d: (i) => "Row " + data.rows[i] + " has no candidate column left: dead end.",
    s: (i) => "Solution " + sols[i].toLocaleString() + " found.",
    b: (i) => "Backtrack: take the queen off row " + data.rows[i] + ", column " +
      data.cols[i] + ".",
  };
  const status = document.getElementById("queens-status");
  function render(i) {
    const kind = data.kinds[i], q = queens[i], cand = data.cands[i];
    boardEl.classList.toggle("solved", kind === "s");
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        const cell = cells[r * n + c];
        const queen = q[r] === c;
        cell.className = "sq " + ((r + c) % 2 ? "dark" : "light");
        cell.textContent = queen ? "♛" : "";
        if (queen) cell.classList.add("queen");
        else if ((cand[r] >> c) & 1) cell.classList.add("cand");
        if (kind === "d" && r === data.rows[i]) cell.classList.add("deadrow");
        if (r === data.rows[i] && c === data.cols[i]) {
          cell.classList.add(kind === "p" ? "placed" : kind === "b" ? "removed" : "");
        }
      }
    }
    status.textContent = says[kind](i);
    status.className = "status kind-" + kind;
    document.getElementById("queens-nodes").textContent = nodes[i].toLocaleString();
    document.getElementById("queens-solutions").textContent = sols[i].toLocaleString();
    document.getElementById("queens-depth").textContent = q.filter((x) => x >= 0).length;
  }
  makePlayer(document.getElementById("queens-controls"), total, render,
    (i) => data.kinds[i] === "s");
})();
