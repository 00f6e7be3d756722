// Page 2: which cards to keep. The address holds the form, the hand, the role and the options.
"use strict";

const $ = (id) => document.getElementById(id);
const handInput = $("hand"), cribSelect = $("crib"), pegBox = $("pegging");
const meInput = $("me"), oppInput = $("opp"), thirdInput = $("third");
const formSelect = $("variant"), placeSelect = $("position");
const picker = makePicker($("picker"), pick);
let loaded = false;  // past the address: a change of the person's clears its notice
let asked = 0;

// The forms: cards dealt and kept, the target, and who the score is of (sides in four-player;
// three players, each his own, in three-player: you, on your left, on your right).
const FORMS = {
  "six-card": { dealt: 6, kept: 4, target: 121, ways: 15, sides: false, three: false },
  "five-card": { dealt: 5, kept: 3, target: 61, ways: 10, sides: false, three: false },
  "three-player": { dealt: 5, kept: 4, target: 121, ways: 5, sides: false, three: true },
  "four-player": { dealt: 5, kept: 4, target: 121, ways: 5, sides: true, three: false },
};
// The place menu's words in four-player and in three-player (which has no "third").
const PLACES = {
  four: { first: "first (dealer's left: you lead)", second: "second (dealer's partner)" },
  three: { first: "first (dealer's left: you lead)", second: "second (dealer's right)" },
};
const NUMBER_WORDS = { 3: "three", 4: "four", 5: "five", 6: "six", 10: "10", 15: "15" };
function variant() { return FORMS[formSelect.value] ? formSelect.value : "six-card"; }
function form() { return FORMS[variant()]; }
function role() { return $("pone").checked ? "pone" : "dealer"; }
// Your place from the dealer; four-player: its side is the role's (dealer and second deal);
// three-player: only the dealer deals.
function placeFits(place, r) {
  if (form().three) return (place === "dealer") === (r === "dealer");
  return (place === "dealer" || place === "second") === (r === "dealer");
}
function placed() { return form().sides || form().three; }
// The score boxes the form reads: two, or three in three-player.
function scoreFields() {
  return form().three ? [["me", meInput], ["opp", oppInput], ["third", thirdInput]]
    : [["me", meInput], ["opp", oppInput]];
}

// The page's words and limits for the form chosen.
function showForm() {
  const f = form(), v = variant(), six = v === "six-card", n = NUMBER_WORDS[f.dealt];
  $("hand-label").textContent = n[0].toUpperCase() + n.slice(1) + " cards";
  handInput.placeholder = six ? "5H 5S 6D JC QS KH" : "5H 5S 6D JC KH";
  $("position-row").hidden = !(f.sides || f.three);
  const words = f.three ? PLACES.three : PLACES.four;
  for (const [value, text] of Object.entries(words)) {
    placeSelect.querySelector(`option[value="${value}"]`).textContent = text;
  }
  const thirdPlace = placeSelect.querySelector('option[value="third"]');
  thirdPlace.hidden = thirdPlace.disabled = f.three;
  if (f.three && placeSelect.value === "third") placeSelect.value = "first";
  if (!placeFits(placeSelect.value, role())) placeSelect.value = role() === "dealer" ? "dealer" : "first";
  $("third-row").hidden = !f.three;
  $("pegging-label").hidden = !six;
  const weighted = cribSelect.querySelector('option[value="weighted"]');
  weighted.disabled = !six;
  if (!six && cribSelect.value === "weighted") cribSelect.value = "table";
  $("dealer-label").textContent = f.sides ? "dealer's side (your side's crib)" : "dealer (your crib)";
  $("pone-label").textContent = f.sides ? "pone's side (the other side's)"
    : f.three ? "not the dealer (another player's crib)" : "pone (the opponent's)";
  $("me-label").textContent = f.sides ? "your side" : "you";
  $("opp-label").textContent = f.sides ? "the other side" : f.three ? "on your left" : "opponent";
  for (const input of [meInput, oppInput, thirdInput]) input.max = String(f.target - 1);
  const starters = 52 - f.dealt, thrown = f.dealt - f.kept;
  $("help").textContent = "Pick the " + n + " cards you were dealt and whose crib it is. The " +
    f.ways + " ways to keep " + NUMBER_WORDS[f.kept] + " are ranked by net: the kept hand's mean " +
    "over the " + starters + " starters you cannot see, plus (your crib) or minus (the " +
    (f.three ? "dealer's" : f.sides ? "other side's" : "opponent's") + ") the " + (thrown === 1 ? "card's" : "two cards'") + " crib value" +
    (six ? ", plus the keep's pegging" : "") + ". With the score before the deal" +
    (f.sides ? " (by side, and your place at the table)" : "") +
    (f.three ? " (yours, then round the table to your left, and your place)" : "") +
    ", they are ranked by the chance to win too. The address of this page holds the hand: copy " +
    "it to share the analysis.";
}

function pick(card) {
  let hand = readCards(handInput.value);
  $("pick-note").textContent = "";
  const dealt = form().dealt;
  if (hand.includes(card)) hand = hand.filter((c) => c !== card);
  else if (hand.length < dealt) hand.push(card);
  else {
    const n = NUMBER_WORDS[dealt];
    $("pick-note").textContent = n[0].toUpperCase() + n.slice(1) +
      " cards are chosen: click one to take it back.";
    return;
  }
  handInput.value = hand.join(" ");
  refresh(false);
}

function options() {
  const p = { hand: handInput.value.trim(), role: role() };
  if (variant() !== "six-card") p.variant = variant();
  if (cribSelect.value !== "table") p.crib = cribSelect.value;
  if (!pegBox.checked && variant() === "six-card") p.pegging = "false";
  return p;
}

// The score-aware keep's parameters besides options(): the place in three- and four-player.
function winOptions() {
  return placed() ? { position: placeSelect.value } : {};
}

function updateUrl() {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(options())) if (v) q.set(k, v);
  for (const [k, v] of Object.entries(winOptions())) q.set(k, v);
  if (meInput.value !== "") q.set("me", meInput.value);
  if (oppInput.value !== "") q.set("opp", oppInput.value);
  if (form().three && thirdInput.value !== "") q.set("third", thirdInput.value);
  history.replaceState(null, "", "/keep" + (q.toString() ? "?" + q.toString() : ""));
}

// The scores as the page reads them: {me, opp, third} (numbers or null; third in three-player)
// and the error of each box, in the page's words (none when all are empty: the score-aware view
// is optional).
function scores() {
  const out = { me: null, opp: null, third: null, errors: {} };
  const sides = form().sides, three = form().three, top = form().target - 1;
  const names = sides ? { me: "Your side's score", opp: "The other side's score" }
    : three ? { me: "Your score", opp: "The score on your left", third: "The score on your right" }
    : { me: "Your score", opp: "The opponent's score" };
  const range = (field) => names[field] + " is a whole number of points, 0 to " + top + ".";
  const fields = scoreFields();
  for (const [field, input] of fields) {
    const text = input.value.trim();
    if (text === "") continue;
    const n = Number(text);
    if (!/^\d+$/.test(text) || n > top) out.errors[field] = range(field);
    else out[field] = n;
  }
  const blank = (i) => i.value.trim() === "" && !i.validity.badInput;
  const given = fields.filter(([, i]) => !blank(i));
  if (given.length > 0 && given.length < fields.length) {
    for (const [field, input] of fields) {
      if (blank(input)) out.errors[field] = names[field] + " too, for the chance to win (or none).";
    }
  }
  for (const [field, input] of fields) {
    if (input.validity.badInput) out.errors[field] = range(field);
  }
  return out;
}

function showScoreErrors(s) {
  for (const field of ["me", "opp", "third"]) {
    $(field + "-error").textContent = s.errors[field] || "";
    if (s.errors[field]) $(field).setAttribute("aria-invalid", "true");
    else $(field).removeAttribute("aria-invalid");
  }
}

function refresh(force) {
  if (loaded) addressNotice([]);
  const hand = readCards(handInput.value);
  picker.show(hand, []);
  updateUrl();
  if (force || splitCards(handInput.value).length === form().dealt) rank();
  else {
    asked++;
    abortKind("keep");
    abortKind("win");
    showError(null);
    for (const id of ["result", "win", "chart"]) $(id).hidden = true;
  }
}

function cell(text, col, cls) {
  const td = document.createElement("td");
  if (col) td.dataset.col = col;
  if (cls) td.className = cls;
  if (text instanceof Node) td.append(text); else td.textContent = text;
  return td;
}

async function rank() {
  const mine = ++asked;
  const params = options();
  const result = await api("/api/keep", params, "keep");
  if (mine !== asked || result.aborted) return;
  showError(result, $("other-error"));
  const s = scores();
  showScoreErrors(s);
  if (!result.ok) { for (const id of ["result", "win", "chart"]) $(id).hidden = true; return; }
  const d = result.data;
  const shown = $("shown");
  shown.textContent = "";
  const best = d.rows[0];
  for (const c of d.hand) shown.append(cardEl(c, best.keep.includes(c) ? "" : "dim"));
  $("summary").innerHTML = "";
  $("summary").append("Best: keep ", cardsEl(best.keep, "small"), " throw ",
                      cardsEl(best.discard, "small"), " (net " + fmt(best.net) + ")");
  const sign = d.role === "dealer" ? "+" : "\u2212";
  const six = d.variant === "six-card";
  $("basis").textContent = "As " + d.role + (six ? "" : ", " + d.variant) + "; crib: " +
    d.crib_mode + "; net = hand " + sign + " crib" +
    (d.pegging ? " + peg" : six ? " (peg shown, not counted)" : "") + ".";
  $("keeps").classList.toggle("no-peg", !six);  // the pegging table is the six-card game's
  const body = $("keeps").querySelector("tbody");
  body.textContent = "";
  for (const r of d.rows) {  // keeps that tie share a rank: 1, 1, 3
    const tr = document.createElement("tr");
    tr.dataset.keep = r.keep.join(" ");
    if (r.rank === 1) tr.className = "best";
    tr.append(cell(String(r.rank), "rank", "hide-narrow"), cell(cardsEl(r.keep, "small"), "keep", "l"),
              cell(cardsEl(r.discard, "small"), "discard", "l"), cell(fmt(r.hand_mean), "hand_mean"),
              cell(String(r.hand_min), "hand_min", "hide-narrow"),
              cell(String(r.hand_max), "hand_max", "hide-narrow"),
              cell(fmt(r.hand_std, 2), "hand_std", "hide-narrow"), cell(fmt(r.crib_mean), "crib_mean"),
              cell(signed(r.peg_mean), "peg_mean", "peg"), cell(fmt(r.net), "net"));
    body.append(tr);
  }
  $("result").hidden = false;
  $("chart-link").href = "/api/keep/chart.svg?" + new URLSearchParams(params).toString();
  $("chart").hidden = false;
  shownKeep = d;
  drawChart(d);
  if (s.me !== null && s.opp !== null && (s.third !== null || !form().three) &&
      !Object.keys(s.errors).length) {
    win(mine, { ...params, ...winOptions() }, s);
  }
  else { abortKind("win"); $("win").hidden = true; }
}

// The chart of `crib plot keep`, drawn in the page from the keep answer as inline SVG at the
// width of its box (so its words are the page's size on a phone): the net of each keep (a bar,
// the best green, the hand's mean marked), then the kept hand over the 46 starters (minimum to
// maximum, mean +- standard deviation, mean) beside the crib's expectation.
const SVGNS = "http://www.w3.org/2000/svg";
function svgEl(name, attrs, text) {
  const el = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, typeof v === "number" ? +v.toFixed(1) : v);
  if (text !== undefined) el.textContent = text;
  return el;
}

function ticks(lo, hi, n) {
  const raw = (hi - lo) / n, mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw);
  const out = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + 1e-9; t += step) out.push(+t.toFixed(6));
  return out;
}

function keepLabel(svg, x, y, r) {
  const t = svgEl("text", { x, y, "text-anchor": "end", class: "lbl" });
  r.keep.forEach((c, i) => {
    const span = svgEl("tspan", { class: isRed(c) ? "red" : "" }, (i ? " " : "") + rankLabel(c) + SUIT_SYMBOLS[c[1]]);
    t.append(span);
  });
  svg.append(t);
}

// The width of TEXT in the chart's font (bold: the keeps' labels), in pixels.
const measure = document.createElement("canvas").getContext("2d");
function textWidth(text, bold) {
  measure.font = (bold ? "700 " : "") + "12px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
  return measure.measureText(text).width;
}

// TEXT as lines of at most WIDTH pixels, as <text> elements from y = TOP; returns the y below.
function wrapped(svg, text, top, width, cls) {
  const lines = [];
  for (const word of text.split(" ")) {
    const last = lines.length ? lines[lines.length - 1] + " " + word : word;
    if (lines.length && textWidth(last, true) * (cls.includes("big") ? 14 / 12 : 1) <= width) lines[lines.length - 1] = last;
    else lines.push(word);
  }
  lines.forEach((line, i) => svg.append(svgEl("text", { x: 0, y: top + 14 + i * 17, class: cls }, line)));
  return top + lines.length * 17;
}

// One panel: a row per keep, its label on the left, DRAW(g, row, i, X, y) for the marks; the x
// axis from XS[0] to XS[1] with PADS pixels of room left and right (for the values written).
function panel(svg, rows, top, width, labelW, title, xs, draw, xlabel, pads) {
  const rowH = 22, [padL, padR] = pads || [0, 10];
  const left = labelW + 8 + padL, right = width - padR, plotH = rows.length * rowH;
  const [lo, hi] = xs;
  const X = (v) => left + ((v - lo) / (hi - lo)) * (right - left);
  const y0 = wrapped(svg, title, top, width, "ttl") + 8;
  for (const t of ticks(lo, hi, width < 500 ? 4 : 8)) {
    svg.append(svgEl("line", { x1: X(t), x2: X(t), y1: y0, y2: y0 + plotH, class: "grid" }));
    svg.append(svgEl("text", { x: X(t), y: y0 + plotH + 14, "text-anchor": "middle", class: "tick" },
                     fmt(t, Number.isInteger(t) ? 0 : 1)));
  }
  svg.append(svgEl("text", { x: (left + right) / 2, y: y0 + plotH + 30, "text-anchor": "middle",
                             class: "tick" }, xlabel));
  rows.forEach((r, i) => {
    const y = y0 + i * rowH + rowH / 2;
    const g = svgEl("g", { class: "row", "data-keep": r.keep.join(" ") });
    g.append(svgEl("title", {}, "keep " + r.keep.join(" ") + ", throw " + r.discard.join(" ")));
    svg.append(g);
    keepLabel(g, labelW, y + 4, r);
    draw(g, r, i, X, y);
  });
  return y0 + plotH + 40;
}

function drawChart(d) {
  const box = $("chart-box");
  const width = Math.max(300, box.clientWidth);
  chartWidth = box.clientWidth;
  const rows = d.rows, dealer = d.role === "dealer";
  const labelW = Math.ceil(Math.max(...rows.map((r) => textWidth(
    r.keep.map((c) => rankLabel(c) + SUIT_SYMBOLS[c[1]]).join(" "), true))));
  const svg = svgEl("svg", { width, viewBox: `0 0 ${width} 100`, class: "keepchart" });
  const f = FORMS[d.variant] || FORMS["six-card"];
  const title = "Which " + NUMBER_WORDS[f.kept] + " to keep: " + d.hand.join(" ") + " as " + d.role +
    (d.variant === "six-card" ? "" : ", " + d.variant) + " (crib: " + d.crib_mode + ")";
  const below = wrapped(svg, title, 0, width, "ttl big") + 6;
  const nets = rows.map((r) => r.net), means = rows.map((r) => r.hand_mean);
  const lo = Math.min(0, ...nets), hi = Math.max(...nets, ...means);
  let y = panel(svg, rows, below, width, labelW,
    "net = hand " + (dealer ? "+" : "−") + " crib" + (d.pegging ? " + peg" : "") +
    " (the bar; best in green), hand mean alone (|)", [lo, hi],
    (g, r, i, X, yc) => {
      const a = X(Math.min(0, r.net)), b = X(Math.max(0, r.net));
      g.append(svgEl("rect", { x: a, y: yc - 7, width: Math.max(1, b - a), height: 14,
                               class: r.rank === 1 ? "bar best" : "bar" }));
      g.append(svgEl("line", { x1: X(r.hand_mean), x2: X(r.hand_mean), y1: yc - 9, y2: yc + 9, class: "mean" }));
      const right = r.net >= 0;
      g.append(svgEl("text", { x: X(r.net) + (right ? 4 : -4), y: yc + 4, class: "val",
                               "text-anchor": right ? "start" : "end" }, fmt(r.net, 2)));
    }, "expected points", [lo < 0 ? 44 : 0, 44]);
  const top = Math.max(...rows.map((r) => Math.max(r.hand_max, r.crib_mean)));
  y = panel(svg, rows, y, width, labelW,
    "the kept hand over the " + (52 - f.dealt) + " starters, and the crib (" +
    (dealer ? (f.sides ? "your side's" : "yours")
      : f.sides ? "the other side's" : f.three ? "the dealer's" : "the opponent's") + ")",
    [0, Math.ceil(top + 1)], (g, r, i, X, yc) => {
      g.append(svgEl("line", { x1: X(r.hand_min), x2: X(r.hand_max), y1: yc, y2: yc, class: "range" }));
      g.append(svgEl("rect", { x: X(r.hand_mean - r.hand_std), y: yc - 4,
                               width: X(r.hand_mean + r.hand_std) - X(r.hand_mean - r.hand_std),
                               height: 8, class: "sd" }));
      g.append(svgEl("circle", { cx: X(r.hand_mean), cy: yc, r: 4, class: "dot" }));
      const c = X(r.crib_mean);
      g.append(svgEl("path", { d: `M${c.toFixed(1)} ${yc - 6}l6 6-6 6-6-6z`, class: "crib" }));
    }, "points");
  y += 14;
  const legend = [["range", "hand: minimum to maximum"], ["sd", "hand: mean ± standard deviation"],
                  ["dot", "hand: mean"],
                  ["crib", "crib: expected value of the " + (f.dealt - f.kept === 1 ? "card" : "two") + " thrown"]];
  legend.forEach(([cls, text], i) => {
    const col = width < 500 ? 0 : (i % 2) * (width / 2), ly = y + (width < 500 ? i : Math.floor(i / 2)) * 18;
    if (cls === "range") svg.append(svgEl("line", { x1: col, x2: col + 16, y1: ly - 4, y2: ly - 4, class: cls }));
    else if (cls === "sd") svg.append(svgEl("rect", { x: col, y: ly - 8, width: 16, height: 8, class: cls }));
    else if (cls === "dot") svg.append(svgEl("circle", { cx: col + 8, cy: ly - 4, r: 4, class: cls }));
    else svg.append(svgEl("path", { d: `M${col + 8} ${ly - 10}l6 6-6 6-6-6z`, class: cls }));
    svg.append(svgEl("text", { x: col + 22, y: ly, class: "tick" }, text));
  });
  const height = y + (width < 500 ? 4 : 2) * 18;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("height", height);
  box.textContent = "";
  box.append(svg);
}

async function win(mine, params, s) {
  $("win").hidden = false;
  $("win-title").textContent = "Keeping to win from " + s.me + " to " + s.opp +
    (form().three ? " and " + s.third : "");
  $("win-basis").textContent = "";
  $("wins").querySelector("tbody").textContent = "";
  const done = showBusy($("win-summary"), "Simulating the rest of the deal\u2026");
  const asked3 = form().three ? { third: s.third } : {};
  const result = await api("/api/keep/win", { ...params, me: s.me, opp: s.opp, ...asked3 }, "win");
  done();
  if (mine !== asked || result.aborted) return;
  $("wins").hidden = !result.ok;
  if (!result.ok) {  // the API says why, as crib keep does
    $("win-summary").textContent = "";
    showError(result, $("win-error"));
    return;
  }
  const d = result.data;
  if (d.variant === "four-player") {
    $("win-basis").textContent = "Four-player, your side " + d.score[0] + " to the other side's " +
      d.score[1] + ", you " + (d.position === "dealer" ? "deal" : "sit " + d.position +
      " from the dealer") + "; the others keep by points and everyone pegs greedily in the samples.";
  } else if (d.variant === "three-player") {
    $("win-basis").textContent = "Three-player, you " + d.score[0] + ", on your left " +
      d.score[1] + ", on your right " + d.score[2] + ", you " + (d.position === "dealer" ? "deal" :
      "sit " + d.position + " from the dealer") + "; the others keep by points and everyone " +
      "pegs greedily in the samples.";
  } else if (d.variant === "five-card") {
    $("win-basis").textContent = "Five-card, to 61; the opponent keeps by points and both peg " +
      "greedily in the samples.";
  }
  const same = d.win_keep.join(" ") === d.points_keep.join(" ");
  $("win-summary").textContent = "P(win) from " + d.samples.toLocaleString("en") +
    " samples of the rest of the deal (seed " + d.seed + "). " +
    (same ? "The score-aware keep is the points keep, " + d.points_keep.join(" ") +
            " (the next best differs by " + signed(d.gain, 4) + " \u00b1 " + fmt(d.gain_se, 4) + ")."
          : "Keep " + d.win_keep.join(" ") + " to win: P(win) " + signed(d.gain, 4) + " \u00b1 " +
            fmt(d.gain_se, 4) + " over the points keep, " + d.points_keep.join(" ") + ".");
  const body = $("wins").querySelector("tbody");
  for (const r of d.rows) {
    const tr = document.createElement("tr");
    tr.dataset.keep = r.keep.join(" ");
    if (r.keep.join(" ") === d.win_keep.join(" ")) tr.className = "best win";
    tr.append(cell(cardsEl(r.keep, "small"), "keep", "l"), cell(cardsEl(r.discard, "small"), "discard", "l"),
              cell(fmt(r.net), "net"), cell(fmt(r.p_win, 4), "p_win"), cell(fmt(r.p_win_se, 4), "p_win_se"));
    body.append(tr);
  }
}

const typed = debounce(() => refresh(false), 300);
handInput.addEventListener("input", typed);
let shownKeep = null;  // the keep answer the chart shows: drawn again at a new width
let chartWidth = 0;
window.addEventListener("resize", debounce(() => {
  if (shownKeep && $("chart-box").clientWidth !== chartWidth) drawChart(shownKeep);
}, 150));
handInput.addEventListener("keydown", (e) => { if (e.key === "Enter") { typed.cancel(); refresh(true); } });
for (const el of [$("dealer"), $("pone")]) {
  el.addEventListener("change", () => {  // the place follows the role
    if (!placeFits(placeSelect.value, role())) placeSelect.value = role() === "dealer" ? "dealer" : "first";
    refresh(false);
  });
}
placeSelect.addEventListener("change", () => {  // and the side the place
  $(placeFits(placeSelect.value, "dealer") ? "dealer" : "pone").checked = true;
  refresh(false);
});
formSelect.addEventListener("change", () => {
  const dealt = form().dealt;
  const hand = readCards(handInput.value);
  if (hand.length > dealt) handInput.value = hand.slice(0, dealt).join(" ");
  showForm();
  refresh(false);
});
for (const el of [cribSelect, pegBox]) {
  el.addEventListener("change", () => refresh(false));
}
for (const el of [meInput, oppInput, thirdInput]) {
  el.addEventListener("change", () => refresh(false));
  el.addEventListener("keydown", (e) => { if (e.key === "Enter") { typed.cancel(); refresh(true); } });
}
$("rank").addEventListener("click", () => { typed.cancel(); refresh(true); });
$("clear").addEventListener("click", () => {
  handInput.value = ""; meInput.value = ""; oppInput.value = ""; thirdInput.value = "";
  $("pick-note").textContent = "";
  refresh(false);
});

// The address: what it asks for that the page cannot show is said (and replaced by the
// default); a hand it gives is ranked at once, or what is wrong with it said.
const given = addressParams(location.search);
const notes = [];
const wanted = (key) => (given.get(key) ?? "").trim().toLowerCase();
if (FORMS[wanted("variant")]) formSelect.value = wanted("variant");
else if (given.has("variant")) {
  notes.push(`no form '${given.get("variant")}' here: six-card instead`);
}
handInput.value = given.get("hand") || "";
if (wanted("role") === "pone") $("pone").checked = true;
else if (given.has("role") && wanted("role") !== "dealer") {
  notes.push(`no role '${given.get("role")}' here (dealer or pone): dealer instead`);
}
placeSelect.value = role() === "dealer" ? "dealer" : "first";
const places = form().three ? ["dealer", "first", "second"] : ["dealer", "first", "second", "third"];
if (given.has("position") && !placed()) {
  notes.push(`a place '${given.get("position")}' in ${variant()}, a game of two: left out`);
} else if (given.has("position")) {
  if (places.includes(wanted("position"))) {
    const asked = role();
    placeSelect.value = wanted("position");
    $(placeFits(placeSelect.value, "dealer") ? "dealer" : "pone").checked = true;
    if (given.has("role") && ["dealer", "pone"].includes(wanted("role")) && role() !== asked) {
      notes.push(`the role ${asked} and the place ${placeSelect.value} disagree: ${role()}, ` +
                 "as the place is");
    }
  } else notes.push(`no place '${given.get("position")}' here: ${placeSelect.value} instead`);
}
showForm();
if (["uniform", "weighted", "table"].includes(wanted("crib"))) {
  if (wanted("crib") === "weighted" && variant() !== "six-card") {
    notes.push("the weighted crib is six-card's: the self-play table instead");
  } else cribSelect.value = wanted("crib");
} else if (given.has("crib")) {
  notes.push(`no crib values '${given.get("crib")}' here (table, uniform or weighted): ` +
             "the self-play table instead");
}
const pegging = given.has("pegging") ? readYesNo(wanted("pegging")) : true;  // none: counted
if (pegging === null) notes.push(`pegging '${given.get("pegging")}' is not yes or no: counted`);
pegBox.checked = pegging !== false;
meInput.value = given.get("me") || "";
oppInput.value = given.get("opp") || "";
thirdInput.value = given.get("third") || "";
addressNotice(notes);
refresh(Boolean(handInput.value.trim()));
loaded = true;
