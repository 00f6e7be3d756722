// The history: crib stats's statistics (results by level, skunks, points a deal by phase, the
// trend of the review's losses), the last games (each with a link to its review) and the
// trainer's sittings, from the same SQLite history.
"use strict";

const $ = (id) => document.getElementById(id);

function cell(text, cls) {
  const td = document.createElement("td");
  if (cls) td.className = cls;
  td.textContent = text;
  return td;
}

function pct(x) { return x === null || x === undefined ? "\u2013" : (100 * x).toFixed(1) + "%"; }

// A step of the axis that reads well: 1, 2 or 5 times a power of ten, at least x.
function niceCeil(x) {
  const p = Math.pow(10, Math.floor(Math.log10(x)));
  return [1, 2, 5, 10].map((m) => m * p).find((v) => v >= x - 1e-9);
}

// The points lost in each reviewed game, oldest first: a bar a game on an axis of points, the
// first and last games numbered under it, each bar's figures in its tooltip, and the
// least-squares line of the trend (its slope is the summary's) dashed across them. The chart is
// drawn in the page's own pixels (its box's width), so its labels read alike on a phone and on
// a desktop; it is drawn again when the window's width changes.
let trendDrawn = null;
function drawTrend(losses, slope) {
  trendDrawn = [losses, slope];
  const svg = $("trend-chart");
  svg.textContent = "";
  if (!losses.length) return;
  const width = Math.round(Math.min(Math.max(svg.getBoundingClientRect().width, 240), 720));
  svg.setAttribute("viewBox", `0 0 ${width} 120`);
  const ns = "http://www.w3.org/2000/svg";
  const add = (name, attrs, text) => {
    const el = document.createElementNS(ns, name);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    if (text !== undefined) el.textContent = text;
    svg.append(el);
    return el;
  };
  const left = 32, right = width - 4, top = 20, bottom = 100;
  const most = niceCeil(Math.max(1, ...losses.map((r) => r.lost)));
  const y = (v) => bottom - (bottom - top) * v / most;
  const w = (right - left) / Math.max(losses.length, 10);
  for (const v of [0, most / 2, most]) {
    add("line", {x1: left, x2: right, y1: y(v), y2: y(v), stroke: v ? "#ddd" : "#888",
                 "stroke-width": 1});
    add("text", {x: left - 4, y: y(v) + 3.5, "text-anchor": "end", "font-size": 12,
                 fill: "#555"}, fmt(v, v % 1 ? 1 : 0));
  }
  add("text", {x: 0, y: 12, "font-size": 12, fill: "#555"}, "points lost");
  losses.forEach((r, i) => {
    const rect = add("rect", {x: left + i * w + 1, y: y(r.lost), width: Math.max(1, w - 2),
                              height: bottom - y(r.lost), fill: "#9ecae1"});
    rect.dataset.lost = r.lost;
    const title = document.createElementNS(ns, "title");
    title.textContent = `game ${i + 1} (${r.played_at.replace("T", " ").slice(5, 16)}): ` +
      `${fmt(r.lost, 2)} points lost`;
    rect.append(title);
  });
  const n = losses.length;
  if (n * w >= 120) {  // the first and the last game, under the ends of the bars
    add("text", {x: left, y: bottom + 15, "font-size": 12, fill: "#555"}, "game 1");
    add("text", {x: left + n * w, y: bottom + 15, "text-anchor": "end", "font-size": 12,
                 fill: "#555"}, `game ${n}`);
  } else {  // too few for both words under them (a phone): each bar's number
    losses.forEach((r, i) => add("text", {x: left + (i + 0.5) * w, y: bottom + 15,
                                          "text-anchor": "middle", "font-size": 12,
                                          fill: "#555"}, `${i + 1}`));
  }
  if (n >= 2 && slope !== null) {
    const mean = losses.reduce((a, r) => a + r.lost, 0) / n;
    const at = (i) => Math.min(bottom, Math.max(top, y(mean + slope * (i - (n - 1) / 2))));
    add("line", {id: "trend-line", x1: left + 0.5 * w, y1: at(0), x2: left + (n - 0.5) * w,
                 y2: at(n - 1), stroke: "#c0392b", "stroke-width": 1.5,
                 "stroke-dasharray": "4 3"});
  }
}

async function load() {
  const result = await api("/api/history", {});
  showError(result, $("other-error"));
  if (!result.ok) return;
  const d = result.data, s = d.stats;
  $("games-summary").textContent = `${s.games} games (${s.unfinished} unfinished); win rates ` +
    `with their ${s.interval} interval.`;
  const levels = $("levels").querySelector("tbody");
  levels.textContent = "";
  for (const r of s.levels) {
    const tr = document.createElement("tr");
    tr.dataset.label = r.label;
    tr.dataset.variant = r.variant;
    tr.append(cell(r.variant, "l"), cell(r.label, "l"), cell(r.games), cell(r.won), cell(r.lost),
              cell(pct(r.win_rate)),
              cell(r.win_low === null ? "\u2013" : `${pct(r.win_low)} to ${pct(r.win_high)}`, "hide-narrow"));
    levels.append(tr);
  }
  const given = Object.entries(s.skunks.given).filter(([, n]) => n).map(([t, n]) => `${n} ${t}`);
  const taken = Object.entries(s.skunks.taken).filter(([, n]) => n).map(([t, n]) => `${n} ${t}`);
  $("skunks").textContent = `Skunks given: ${given.join(", ") || "none"}; taken: ${taken.join(", ") || "none"}.`;
  const phases = $("phases").querySelector("tbody");
  phases.textContent = "";
  const perDeal = s.per_deal.filter((r) => r.deals > 0);  // as crib stats: no whole deal, no row
  for (const r of perDeal) {
    const tr = document.createElement("tr");
    tr.dataset.variant = r.variant;
    tr.dataset.phase = r.phase;
    if (r.phase === "total") tr.className = "phase-total";
    tr.append(cell(r.variant, "l"), cell(r.phase, "l"), cell(fmt(r.you, 2)),
              cell(fmt(r.computer, 2)), cell(signed(r.you - r.computer, 2)), cell(r.deals, "hide-narrow"));
    phases.append(tr);
  }
  $("phases-none").hidden = perDeal.length > 0;
  // as crib stats says it, when a game was played with muggins (null: never)
  const missed = s.muggins_given;
  $("muggins").hidden = missed === null;
  $("muggins").textContent = missed === null ? "" :
    `Muggins: your own counts gave the other side ${missed} point${missed === 1 ? "" : "s"}.`;
  const t = s.trend;
  $("trend").textContent = t.games < 2 ?
    `${t.games} reviewed game${t.games === 1 ? "" : "s"}: the trend needs two.` :
    `${t.games} reviewed games: points lost a game ${fmt(t.first_half, 2)} in the first half, ` +
    `${fmt(t.last_half, 2)} in the last (slope ${signed(t.slope, 3)} a game).`;
  drawTrend(s.losses, t.slope);
  const sittings = $("sittings").querySelector("tbody");
  sittings.textContent = "";
  for (const r of d.sittings) {
    const tr = document.createElement("tr");
    tr.dataset.sitting = r.sitting;
    tr.append(cell(r.started.replace("T", " ").slice(5, 16), "l"), cell(r.deals), cell(r.best),
              cell(fmt(r.lost, 2)), cell(fmt(r.per_deal, 2)));
    sittings.append(tr);
  }
  $("sittings-none").hidden = d.sittings.length > 0;
  const games = $("games").querySelector("tbody");
  games.textContent = "";
  for (const r of d.games) {
    const tr = document.createElement("tr");
    tr.dataset.id = r.id;
    tr.append(cell(r.played_at.replace("T", " ").slice(5, 16), "l"), cell(r.variant, "l"),
              cell(r.level || r.opponent, "l"), cell(r.result, "l"),
              cell(`${r.your_score}\u2013${r.computer_score}`));
    const review = document.createElement("td");
    const link = document.createElement("a");
    link.href = `/review?game=${r.id}`;
    link.textContent = "review";
    link.setAttribute("aria-label", `review the game of ${r.played_at.replace("T", " ").slice(0, 16)}`);
    review.append(link);
    tr.append(review);
    games.append(tr);
  }
  $("path").textContent = "The history is " + d.path + ".";
  document.body.dataset.loaded = "1";
}

window.addEventListener("resize", () => { if (trendDrawn) drawTrend(...trendDrawn); });
load();
