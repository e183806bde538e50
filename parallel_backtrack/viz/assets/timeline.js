// Timeline of a parallel run: an SVG Gantt chart, one lane per worker, one bar per task.
"use strict";
(function () {
  const data = readData("timeline");
  const s = data.summary;
  const lanes = data.lanes, bars = data.bars;
  const left = 150, width = 700, top = 8, axisH = 30;
  // Many lanes (a virtual pool of 64 workers) get thinner so the chart stays on screen.
  const laneH = Math.max(8, Math.min(26, Math.floor(600 / lanes.length)));
  let end = s.seconds;
  for (const b of bars) end = Math.max(end, b[1] + b[2]);
  end = end > 0 ? end : 1;
  const x = (t) => left + (t / end) * (width - left - 10);
  const height = top + lanes.length * laneH + axisH;
  const { svg, add } = svgChart(width, height,
    "timeline: one lane per worker, one bar per task", true);
  lanes.forEach((name, i) => {
    const y = top + i * laneH;
    add("rect", { class: "lane", x: left, y: y, width: width - left - 10, height: laneH - 4,
      fill: i % 2 ? "#f1f3f6" : "#e8ebf0", "data-lane": name });
    const label = name.length > 22 ? name.slice(0, 21) + "…" : name;
    add("text", { x: left - 6, y: y + laneH / 2 + 2, "text-anchor": "end",
      "font-size": String(Math.min(12, laneH - 1)) }, label);
  });
  const ticks = 8;
  for (let k = 0; k <= ticks; k++) {
    const t = (end * k) / ticks, xt = x(t), y = top + lanes.length * laneH;
    add("line", { x1: xt, x2: xt, y1: top, y2: y, stroke: "#bbb", "stroke-width": "0.5" });
    add("text", { x: xt, y: y + 14, "text-anchor": k === ticks ? "end" : "middle",
      "font-size": "11" },
      t < 0.1 ? (t * 1000).toFixed(1) + " ms" : t.toFixed(2) + " s");
  }
  add("text", { x: left, y: height - 2, "font-size": "11", fill: "#555" },
    "seconds since the run started");
  const tip = document.getElementById("timeline-tip");
  const pad = laneH >= 20 ? 3 : 1;
  bars.forEach((b, i) => {
    const [lane, start, secs, nodes, parent, continued, subtree] = b;
    const colour = lanes[lane] === "parent" ? "#7a8699" : parent >= 0 ? "#8e5cc4" : "#3b82c4";
    const rect = add("rect", { class: "bar", x: x(start), y: top + lane * laneH + pad,
      width: Math.max(1, x(start + secs) - x(start)), height: laneH - 4 - 2 * pad, fill: colour,
      stroke: continued.length ? "#f08c00" : "none", "stroke-width": "2",
      "data-task": i, "data-lane": lanes[lane] });
    const text = "task " + i + " on " + lanes[lane] +
      "\nsubtree " + (subtree || "?") + (parent >= 0 ? " (leftover of task " + parent + ")" : "") +
      "\nnodes " + nodes.toLocaleString() + "\nstart " + start.toFixed(4) + " s, ran " +
      (secs * 1000).toFixed(2) + " ms" + "\nhanded back leftovers: " +
      (continued.length ? "yes, continued by task " + continued.slice(0, 6).join(", ") +
        (continued.length > 6 ? ", …" : "") : "no");
    const title = document.createElementNS(SVG_NS, "title");
    title.textContent = text;
    rect.appendChild(title);
    rect.addEventListener("mousemove", (e) => {
      tip.textContent = text;
      tip.style.display = "block";
      tip.style.left = e.clientX + 14 + "px";
      tip.style.top = e.clientY + 10 + "px";
    });
    rect.addEventListener("mouseleave", () => { tip.style.display = "none"; });
  });
  document.getElementById("timeline-chart").appendChild(svg);

  const side = document.getElementById("timeline-side");
  const rows = [
    ["mode", s.mode + (s.complete ? "" : " (partial)")],
    ["workers", s.workers + " (" + s.backend + ")"],
    ["wall clock", s.seconds.toFixed(3) + " s"],
    ["tasks", s.tasks.toLocaleString() + " (frontier " + s.frontier + ", depth " + s.depth + ")"],
    ["nodes", s.nodes.toLocaleString()],
  ];
  if (s.mode === "count") {
    rows.push(["count", s.count.toLocaleString() + (s.complete ? "" : " (a lower bound)")]);
  }
  rows.push(
    ["speedup", s.speedup.toFixed(2) + "× (busy seconds / wall clock)"],
    ["efficiency", (100 * s.efficiency).toFixed(0) + "% (speedup / workers)"],
    ["parent's own search", s.parent_search.toFixed(3) + " s (probe rounds)"],
    ["parent dispatch + collect", (s.dispatch + s.collect).toFixed(3) + " s (the serial part)"],
    ["worker setup", s.setup.toFixed(3) + " s (loading kernels)"]);
  const table = el("table", { class: "stats", id: "timeline-stats" });
  for (const [k, v] of rows) {
    const tr = el("tr");
    tr.appendChild(el("th", {}, k));
    tr.appendChild(el("td", {}, v));
    table.appendChild(tr);
  }
  side.appendChild(table);
  const per = el("table", { class: "stats", id: "timeline-workers" });
  const head = el("tr");
  for (const h of ["lane", "busy s", "idle s"]) head.appendChild(el("th", {}, h));
  per.appendChild(head);
  for (const name of lanes) {
    const tr = el("tr");
    tr.appendChild(el("td", {}, name));
    tr.appendChild(el("td", {}, (s.busy[name] || 0).toFixed(3)));
    tr.appendChild(el("td", {}, name in s.idle ? s.idle[name].toFixed(3) : s.seconds.toFixed(3)));
    per.appendChild(tr);
  }
  side.appendChild(el("h3", {}, "Per lane"));
  side.appendChild(per);
})();
