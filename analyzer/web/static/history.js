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

function drawTrend(losses) {
  const svg = $("trend-chart");
  svg.textContent = "";
  if (!losses.length) return;
  const ns = "http://www.w3.org/2000/svg";
  const top = Math.max(1, ...losses.map((r) => r.lost));
  const w = 360 / Math.max(losses.length, 10);
  losses.forEach((r, i) => {
    const h = 80 * r.lost / top;
    const rect = document.createElementNS(ns, "rect");
    rect.setAttribute("x", i * w + 1);
    rect.setAttribute("y", 85 - h);
    rect.setAttribute("width", Math.max(1, w - 2));
    rect.setAttribute("height", h);
    rect.setAttribute("fill", "#9ecae1");
    svg.append(rect);
  });
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
  for (const r of s.per_deal) {
    const tr = document.createElement("tr");
    tr.dataset.variant = r.variant;
    tr.dataset.phase = r.phase;
    if (r.phase === "total") tr.className = "phase-total";
    tr.append(cell(r.variant, "l"), cell(r.phase, "l"), cell(fmt(r.you, 2)),
              cell(fmt(r.computer, 2)), cell(signed(r.you - r.computer, 2)), cell(r.deals, "hide-narrow"));
    phases.append(tr);
  }
  $("phases-none").hidden = s.per_deal.length > 0;
  const t = s.trend;
  $("trend").textContent = t.games < 2 ?
    `${t.games} reviewed game${t.games === 1 ? "" : "s"}: the trend needs two.` :
    `${t.games} reviewed games: points lost a game ${fmt(t.first_half, 2)} in the first half, ` +
    `${fmt(t.last_half, 2)} in the last (slope ${signed(t.slope, 3)} a game).`;
  drawTrend(s.losses);
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

load();
