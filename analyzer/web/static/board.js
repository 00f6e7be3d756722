// The peg board, drawn in SVG: a track of holes for each side, in rows of 40 (30 in the 61-point
// game) in streets of five, the front peg in the hole of the score and the back peg in the hole
// of the score before the side's last points, the skunk line and the game hole, as crib play's
// board in the terminal draws it.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";

function svgEl(name, attrs, text) {
  const el = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
  if (text !== undefined) el.textContent = text;
  return el;
}

// SIDES: [{name, front, back, cls, id}], one a side; TARGET 121 or 61; LINE the skunk line.
function drawBoard(container, sides, target, line) {
  // a phone's screen: rows of 30 (15), four rows a side, so the holes and the words stay
  // legible and three sides leave the hand on the first screen
  const narrow = (container.clientWidth || 800) < 560;
  const perRow = narrow ? (target > 61 ? 30 : 15) : (target > 61 ? 40 : 30);
  const pitch = 8, street = 5, rowH = 9, head = 15, left = 5;
  const holes = target - 1;
  const rows = Math.ceil(holes / perRow);
  const x = (k) => left + ((k - 1) % perRow) * pitch + Math.floor(((k - 1) % perRow) / 5) * street + 3;
  const y = (k) => Math.floor((k - 1) / perRow) * rowH;
  const width = Math.max(left + perRow * pitch + (perRow / 5 - 1) * street + 20, 120);
  const trackH = head + rows * rowH + 6;
  const svg = svgEl("svg", { viewBox: `0 0 ${width} ${trackH * sides.length}`,
                             class: "pegboard" + (narrow ? " narrow" : ""), role: "img" });
  const words = sides.map((s) => `${s.name} ${s.front}` + (s.front !== s.back ? ` (was ${s.back})` : ""));
  svg.setAttribute("aria-label", `the board, to ${target}: ` + words.join("; "));
  sides.forEach((side, i) => {
    const g = svgEl("g", { transform: `translate(0 ${i * trackH})`, class: "side " + side.cls });
    g.append(svgEl("text", { x: left, y: 11, class: "side-name" }, side.name));
    const score = svgEl("text", { x: left + 62, y: 11, class: "side-score", id: side.id }, String(side.front));
    g.append(score);
    if (side.front !== side.back) {
      g.append(svgEl("text", { x: left + 88, y: 11, class: "side-gain" }, `+${side.front - side.back}`));
    }
    const top = head + 4;
    for (let k = 1; k <= holes; k++) {
      g.append(svgEl("circle", { cx: x(k), cy: top + y(k), r: 1.7, class: "hole" }));
    }
    // the skunk line: between holes line - 1 and line
    const col = (line - 1) % perRow;  // a row's first hole has no street before it
    const sx = x(line) - (col !== 0 && col % 5 === 0 ? (street + pitch) / 2 : pitch / 2);
    g.append(svgEl("line", { x1: sx, x2: sx, y1: top + y(line) - 4.5, y2: top + y(line) + 4.5,
                             class: "skunk-line" }));
    const gx = x(holes) + 12, gy = top + y(holes);
    g.append(svgEl("circle", { cx: gx, cy: gy, r: 3.2, class: "game-hole" }));
    for (const [kind, hole] of [["back", side.back], ["front", side.front]]) {
      if (hole <= 0) continue;
      const at = Math.min(hole, target);
      const cx = at >= target ? gx : x(at), cy = at >= target ? gy : top + y(at);
      g.append(svgEl("circle", { cx, cy, r: 3.4, class: "peg " + kind, "data-hole": hole,
                                 "data-side": i }));
    }
    svg.append(g);
  });
  container.textContent = "";
  container.append(svg);
  const note = document.createElement("div");
  note.className = "note";
  note.textContent = `The game is to ${target}. The front peg (filled) stands in the score, ` +
    `the back peg (ringed) in the score before the last points; the bar is the skunk line ` +
    `(${line}).`;
  container.append(note);
}
