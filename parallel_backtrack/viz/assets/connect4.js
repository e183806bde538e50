// Connect-Four page: the given position, then the principal variation, stone by stone.
"use strict";
(function () {
  const data = readData("c4");
  const W = data.width, H = data.height, total = data.columns.length + 1;
  const px = fitCells(W, Math.max(36, Math.min(70, Math.floor(460 / Math.max(W, H)))), 24);
  const boardEl = document.getElementById("c4-board");
  boardEl.style.gridTemplateColumns = "repeat(" + W + ", " + px + "px)";
  const holes = [];  // holes[row][col], row 0 at the bottom
  for (let r = H - 1; r >= 0; r--) {
    holes[r] = [];
    for (let c = 0; c < W; c++) {
      const hole = el("div", { class: "hole", "data-col": c, "data-row": r });
      hole.style.width = hole.style.height = px + "px";
      boardEl.appendChild(hole);
      holes[r][c] = hole;
    }
  }
  // Where each stone lands.
  const landed = [], heights = new Array(W).fill(0);
  for (const c of data.columns) landed.push([c, heights[c]++]);
  const fourSet = new Set(data.four.map(([c, r]) => c + "," + r));
  const status = document.getElementById("c4-status");
  function render(i) {
    for (let r = 0; r < H; r++) for (let c = 0; c < W; c++) {
      holes[r][c].className = "hole";
      holes[r][c].dataset.stone = "";
    }
    for (let k = 0; k < i; k++) {
      const [c, r] = landed[k], hole = holes[r][c];
      hole.classList.add(k % 2 ? "yellow" : "red");
      hole.dataset.stone = k % 2 ? "yellow" : "red";
      if (k < data.given) hole.classList.add("given");
      if (k === i - 1) hole.classList.add("last");
      if (i - 1 === data.won && fourSet.has(c + "," + r)) hole.classList.add("four");
    }
    document.getElementById("c4-stones").textContent = i;
    const over = i - 1 === data.won || i === W * H;
    document.getElementById("c4-turn").textContent = over ? "nobody: the game is over" :
      i % 2 ? "yellow" : "red";
    const score = data.scores ? data.scores[i] : null;
    document.getElementById("c4-score").textContent =
      over ? "—" : score === null || score === undefined ? "?" : String(score);
    const who = (k) => (k % 2 ? "Yellow" : "Red");
    status.textContent = i === 0 ? "The empty board." :
      i - 1 === data.won ? who(i - 1) + " connects four and wins." :
      (i <= data.given ? "Position: " : "Principal variation: ") + who(i - 1) +
      " plays column " + (data.columns[i - 1] + 1) + "." +
      (i === total - 1 && data.won < 0 ? " End of the line." : "");
  }
  makePlayer(document.getElementById("c4-controls"), total, render,
    (i) => i === data.given || i === total - 1, "Position, end ▶▶",
    "given position, then the end of the line");
})();
