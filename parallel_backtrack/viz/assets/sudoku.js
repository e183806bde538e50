// Sudoku propagation page: every square's candidates, step by step, each removed
// candidate coloured by the rule that removed it.
"use strict";
(function () {
  const data = readData("sudoku");
  const box = data.box, n = box * box, total = data.kinds.length;
  const COLOURS = ["#9e9e9e", "#e57373", "#64b5f6", "#ba68c8", "#ffb74d", "#4db6ac", "#000"];
  const sym = (v) => (v <= 9 ? String(v) : String.fromCharCode(55 + v));
  const D = "0123456789abcdefghijklmnopqrstuvwxyz";
  const decode = (text) => {
    const out = [];
    for (let i = 0; i + 3 < text.length; i += 4) {
      out.push([D.indexOf(text[i]) * 36 + D.indexOf(text[i + 1]),
        D.indexOf(text[i + 2]) + 1, D.indexOf(text[i + 3])]);
    }
    return out;
  };
  // The candidates after every step: replay the removals, jump back on a backtrack.
  const states = [], elims = [], counts = [];
  let masks = Int32Array.from(data.start), guesses = 0, deads = 0, backs = 0;
  for (let i = 0; i < total; i++) {
    const kind = data.kinds[i];
    if (kind === "back") masks = Int32Array.from(states[data.extra[i][0]]);
    else masks = Int32Array.from(masks);
    const list = decode(data.elims[i]);
    for (const [s, v] of list) masks[s] &= ~(1 << (v - 1));
    if (kind === "guess") guesses++;
    if (kind === "dead") deads++;
    if (kind === "back") backs++;
    states.push(masks);
    elims.push(list);
    counts.push([guesses, deads, backs]);
  }
  const boardEl = document.getElementById("sudoku-board");
  const boxEl = document.getElementById("sudoku-box");
  const cells = [];
  for (let s = 0; s < n * n; s++) {
    const r = Math.floor(s / n), c = s % n;
    const cell = el("div", { class: "cell", "data-square": s, role: "gridcell" });
    if (c % box === box - 1 && c < n - 1) cell.classList.add("box-right");
    if (r % box === box - 1 && r < n - 1) cell.classList.add("box-bottom");
    boardEl.appendChild(cell);
    cells.push(cell);
  }
  // 9x9 in 540 pixels; 16x16 and 25x25 take what a wide window leaves beside the
  // controls (up to 1,000 pixels). A square is never smaller than its candidates need
  // at MIN_FONT pixels (box rows of them): a board that does not fit the window at
  // that size scrolls inside its own box instead of shrinking (25x25 on a phone).
  // layout() sizes it all for the window's width, at load and after a resize.
  const MIN_FONT = 7;
  const minCell = Math.ceil(box * MIN_FONT * 1.1) + 2;
  let cellPx = 0, scrolls = false, fs = MIN_FONT;
  function layout() {
    const room = document.documentElement.clientWidth - 660;
    const across = n <= 9 ? 540 : Math.max(540, Math.min(1000, room));
    cellPx = fitCells(n, Math.max(minCell, Math.min(62, Math.floor(across / n))), minCell);
    boardEl.style.gridTemplateColumns = "repeat(" + n + ", " + cellPx + "px)";
    for (const cell of cells) cell.style.width = cell.style.height = cellPx + "px";
    fs = Math.max(MIN_FONT, Math.floor((cellPx / box) * 0.82));
    const main = document.documentElement.clientWidth - 40;  // main's padding
    const wide = n * cellPx + 6, side = 400;  // the board and its borders; controls, gap
    // Too wide to sit beside the controls: a wide window keeps them beside a scrolling
    // box; a narrow one puts them below, and the box scrolls if the board is wider still.
    const boxWidth = wide + side <= main ? 0 : main - side >= 540 ? main - side :
      wide > main ? main : 0;
    scrolls = boxWidth > 0;
    document.getElementById("sudoku-wrap").style.maxWidth = scrolls ? boxWidth + "px" : "";
    boxEl.classList.toggle("scrolls", scrolls);
    for (const [name, value] of [["tabindex", "0"], ["role", "region"],
      ["aria-label", "the board; it scrolls"]]) {
      if (scrolls) boxEl.setAttribute(name, value);
      else boxEl.removeAttribute(name);
    }
    document.getElementById("sudoku-scroll-help").hidden = !scrolls;
  }
  layout();
  function follow(s) {
    // Bring square s into the box's view (the box only: the page stays where it is).
    if (!scrolls || s < 0) return;
    const x = cells[s].offsetLeft, y = cells[s].offsetTop;
    if (x < boxEl.scrollLeft || x + cellPx > boxEl.scrollLeft + boxEl.clientWidth) {
      boxEl.scrollLeft = x - (boxEl.clientWidth - cellPx) / 2;
    }
    if (y < boxEl.scrollTop || y + cellPx > boxEl.scrollTop + boxEl.clientHeight) {
      boxEl.scrollTop = y - (boxEl.clientHeight - cellPx) / 2;
    }
  }
  const name = (s) => {
    const r = Math.floor(s / n);
    return (r < 26 ? String.fromCharCode(65 + r) : "R" + r) + ((s % n) + 1);
  };
  const says = {
    start: () => "The givens, before anything is propagated.",
    propagate: (i) => "Propagate the givens (" + data.propagation + "): " +
      elims[i].length + " candidates removed.",
    guess: (i) => "Guess " + name(data.squares[i]) + " = " + sym(data.values[i]) +
      " (candidate " + data.extra[i][0] + " of " + data.extra[i][1] + "): " +
      elims[i].length + " candidates removed.",
    dead: (i) => data.squares[i] >= 0 ? "Dead end: " + name(data.squares[i]) +
      " has no candidate left." : "Dead end: propagation met a contradiction.",
    back: (i) => "Backtrack to the state of step " + (data.extra[i][0] + 1) + ".",
    solved: () => "Solved: every square holds one value.",
    unsolvable: () => "No solution: every branch ended in a dead end.",
  };
  const status = document.getElementById("sudoku-status");
  function render(i) {
    const m = states[i], kind = data.kinds[i], gone = new Map();
    for (const [s, v, rule] of elims[i]) {
      if (!gone.has(s)) gone.set(s, new Map());
      gone.get(s).set(v, rule);
    }
    boardEl.classList.toggle("solved", kind === "solved");
    for (let s = 0; s < n * n; s++) {
      const cell = cells[s], mask = m[s], single = mask && !(mask & (mask - 1));
      cell.classList.toggle("chosen", (kind === "guess" || kind === "dead") &&
        data.squares[i] === s);
      cell.classList.toggle("empty", mask === 0);
      cell.classList.toggle("given", data.givens[s] === 1);
      cell.replaceChildren();
      const removed = gone.get(s);
      if (single && !removed) {
        const v = 32 - Math.clz32(mask);
        cell.dataset.value = v;
        cell.appendChild(el("span", { class: "big" }, sym(v)));
        continue;
      }
      cell.dataset.value = single ? 32 - Math.clz32(mask) : 0;
      const mini = el("div", { class: "mini" });
      mini.style.gridTemplateColumns = "repeat(" + box + ", 1fr)";
      mini.style.fontSize = fs + "px";
      for (let v = 1; v <= n; v++) {
        const here = (mask >> (v - 1)) & 1, rule = removed ? removed.get(v) : undefined;
        const span = el("span", {}, here || rule !== undefined ? sym(v) : "");
        if (rule !== undefined) {
          span.className = "gone";
          span.style.background = COLOURS[rule];
          span.title = sym(v) + " removed by " + data.rules[rule];
        }
        mini.appendChild(span);
      }
      cell.appendChild(mini);
    }
    if (kind === "guess" || kind === "dead") follow(data.squares[i]);
    status.textContent = says[kind](i);
    status.className = "status kind-" + kind;
    const byRule = new Array(data.rules.length).fill(0);
    for (const e of elims[i]) byRule[e[2]]++;
    const c = counts[i];
    document.getElementById("sudoku-nodes").textContent = (1 + c[0]).toLocaleString();
    document.getElementById("sudoku-guesses").textContent = c[0].toLocaleString();
    document.getElementById("sudoku-dead").textContent = c[1].toLocaleString();
    document.getElementById("sudoku-backs").textContent = c[2].toLocaleString();
    let left = 0;
    for (const x of m) left += popcount(x);
    document.getElementById("sudoku-left").textContent = left.toLocaleString();
    document.getElementById("sudoku-rules").textContent = data.rules
      .map((r, k) => (byRule[k] ? r + " " + byRule[k] : "")).filter(Boolean).join(", ") || "—";
  }
  function popcount(x) { let k = 0; while (x) { x &= x - 1; k++; } return k; }
  const player = makePlayer(document.getElementById("sudoku-controls"), total, render,
    (i) => data.kinds[i] === "solved");
  // A resized window (a phone turned, a window dragged) lays the board out again, once
  // the resizing has paused, and redraws the step shown at the new sizes.
  let resized = null;
  window.addEventListener("resize", () => {
    clearTimeout(resized);
    resized = setTimeout(() => { layout(); player.show(player.state.index); }, 150);
  });
})();
