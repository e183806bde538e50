// A step player: play/pause, step back and forward, speed, jump to the next solution,
// keyboard (space plays or pauses, arrows step). One player per page section.
"use strict";
function readData(key) {
  return JSON.parse(document.getElementById("data-" + key).textContent);
}
function el(tag, attrs, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}
function fitCells(count, px, min) {
  // A square's size in pixels: px, or less so that count squares fit across the window
  // (a narrow window; never below min).
  const room = document.documentElement.clientWidth - 56;  // main's padding, a border
  return Math.max(min, Math.min(px, Math.floor(room / count)));
}
const SVG_NS = "http://www.w3.org/2000/svg";
function svgChart(width, height, label, shrink) {
  // An empty SVG chart and add(tag, attrs, text), which appends an element to it.
  // shrink: the chart scales down, text and all, to fit a narrower window.
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("width", width);
  svg.setAttribute("height", height);
  if (shrink) {
    svg.setAttribute("viewBox", "0 0 " + width + " " + height);
    svg.style.maxWidth = "100%";
    svg.style.height = "auto";
  }
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  const add = (tag, attrs, text) => {
    const node = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    svg.appendChild(node);
    return node;
  };
  return { svg, add };
}
function makePlayer(root, total, render, isSolution, nextLabel, nextHelp) {
  // root: the .controls element; render(i) draws step i; isSolution(i) for the jump;
  // nextLabel, nextHelp: the jump button's label and what key n does ("next solution").
  const state = { index: 0, timer: null };
  const bar = el("div", { class: "controls", role: "toolbar", "aria-label": "player" });
  const btn = (id, label, title) => {
    const b = el("button", { id: id, type: "button", title: title }, label);
    bar.appendChild(b);
    return b;
  };
  const first = btn("first", "|◀ Start", "back to the first step (Home)");
  const back = btn("back", "◀ Back", "one step back (left arrow)");
  const play = btn("play", "▶ Play", "play or pause (space)");
  const fwd = btn("forward", "Step ▶", "one step forward (right arrow)");
  const jumpTo = nextHelp || "next solution";
  const next = btn("next-solution", nextLabel || "Next solution ▶▶",
    "jump to the " + jumpTo + " (n)");
  const last = btn("last", "End ▶|", "to the last step (End)");
  const speedLabel = el("label", { for: "speed" }, "Speed");
  const speed = el("input", { id: "speed", type: "range", min: "1", max: "60", value: "8",
    "aria-label": "speed in steps per second" });
  const speedText = el("span", { id: "speed-text" }, "8 steps/s");
  speedLabel.appendChild(speed);
  speedLabel.appendChild(speedText);
  bar.appendChild(speedLabel);
  const where = el("span", { id: "step-text" });
  bar.appendChild(where);
  root.appendChild(bar);
  root.appendChild(el("div", { class: "help" },
    "Keys: space play/pause, ← → step, Home/End first/last, n " + jumpTo + "."));

  function show(i) {
    state.index = Math.max(0, Math.min(total - 1, i));
    where.textContent = "step " + (state.index + 1).toLocaleString() + " of " +
      total.toLocaleString();
    render(state.index);
    if (state.index >= total - 1) pause();
  }
  function pause() {
    if (state.timer !== null) clearInterval(state.timer);
    state.timer = null;
    play.textContent = "▶ Play";
  }
  function start() {
    if (state.index >= total - 1) show(0);
    pause();
    play.textContent = "⏸ Pause";
    state.timer = setInterval(() => show(state.index + 1), 1000 / Number(speed.value));
  }
  function toggle() { state.timer === null ? start() : pause(); }
  function nextSolution() {
    pause();
    for (let i = state.index + 1; i < total; i++) if (isSolution(i)) return show(i);
    show(total - 1);
  }
  first.onclick = () => { pause(); show(0); };
  back.onclick = () => { pause(); show(state.index - 1); };
  fwd.onclick = () => { pause(); show(state.index + 1); };
  last.onclick = () => { pause(); show(total - 1); };
  play.onclick = toggle;
  next.onclick = nextSolution;
  speed.oninput = () => {
    speedText.textContent = speed.value + " steps/s";
    if (state.timer !== null) start();
  };
  const onKey = (e) => {
    if (e.target && ["INPUT", "SELECT"].includes(e.target.tagName) && e.key !== " ") return;
    const keys = { " ": toggle, ArrowLeft: () => back.onclick(),
      ArrowRight: () => fwd.onclick(), Home: () => first.onclick(),
      End: () => last.onclick(), n: nextSolution };
    if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
  };
  document.addEventListener("keydown", onKey);
  show(0);
  // stop(): pause and let go of the keys (a page that swaps what it plays).
  const stop = () => { pause(); document.removeEventListener("keydown", onKey); };
  return { show: show, state: state, stop: stop };
}
