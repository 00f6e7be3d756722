// Page 2: which four to keep. The address holds the hand, the role and the options.
"use strict";

const $ = (id) => document.getElementById(id);
const handInput = $("hand"), cribSelect = $("crib"), pegBox = $("pegging");
const meInput = $("me"), oppInput = $("opp");
const picker = makePicker($("picker"), pick);
let asked = 0;

function role() { return $("pone").checked ? "pone" : "dealer"; }

function pick(card) {
  let hand = readCards(handInput.value);
  $("pick-note").textContent = "";
  if (hand.includes(card)) hand = hand.filter((c) => c !== card);
  else if (hand.length < 6) hand.push(card);
  else {
    $("pick-note").textContent = "Six cards are chosen: click one to take it back.";
    return;
  }
  handInput.value = hand.join(" ");
  refresh(false);
}

function options() {
  const p = { hand: handInput.value.trim(), role: role() };
  if (cribSelect.value !== "table") p.crib = cribSelect.value;
  if (!pegBox.checked) p.pegging = "false";
  return p;
}

function updateUrl() {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(options())) if (v) q.set(k, v);
  if (meInput.value !== "") q.set("me", meInput.value);
  if (oppInput.value !== "") q.set("opp", oppInput.value);
  history.replaceState(null, "", "/keep" + (q.toString() ? "?" + q.toString() : ""));
}

// The scores as the page reads them: {me, opp} (numbers or null) and the error of each box, in
// the page's words (none when both are empty: the score-aware view is optional).
const SCORE_NAMES = { me: "Your score", opp: "The opponent's score" };
function scores() {
  const out = { me: null, opp: null, errors: {} };
  for (const [field, input] of [["me", meInput], ["opp", oppInput]]) {
    const text = input.value.trim();
    if (text === "") continue;
    const n = Number(text);
    if (!/^\d+$/.test(text) || n > 120) {
      out.errors[field] = SCORE_NAMES[field] + " is a whole number of points, 0 to 120.";
    } else out[field] = n;
  }
  const given = [meInput, oppInput].filter((i) => i.value.trim() !== "" || i.validity.badInput);
  if (given.length === 1) {
    const missing = meInput.value.trim() === "" && !meInput.validity.badInput ? "me" : "opp";
    out.errors[missing] = missing === "me" ? "Your score too, for the chance to win (or neither)."
      : "The opponent's score too, for the chance to win (or neither).";
  }
  for (const [field, input] of [["me", meInput], ["opp", oppInput]]) {
    if (input.validity.badInput) out.errors[field] = SCORE_NAMES[field] + " is a whole number of points, 0 to 120.";
  }
  return out;
}

function showScoreErrors(s) {
  for (const field of ["me", "opp"]) {
    $(field + "-error").textContent = s.errors[field] || "";
    if (s.errors[field]) $(field).setAttribute("aria-invalid", "true");
    else $(field).removeAttribute("aria-invalid");
  }
}

function refresh(force) {
  const hand = readCards(handInput.value);
  picker.show(hand, []);
  updateUrl();
  if (force || splitCards(handInput.value).length === 6) rank();
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
  $("basis").textContent = "As " + d.role + "; crib: " + d.crib_mode + "; net = hand " + sign +
    " crib" + (d.pegging ? " + peg" : " (peg shown, not counted)") + ".";
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
              cell(signed(r.peg_mean), "peg_mean"), cell(fmt(r.net), "net"));
    body.append(tr);
  }
  $("result").hidden = false;
  const q = new URLSearchParams(params);
  $("chart-img").src = "/api/keep/chart.svg?" + q.toString();
  $("chart-link").href = $("chart-img").src;
  $("chart").hidden = false;
  if (s.me !== null && s.opp !== null && !Object.keys(s.errors).length) win(mine, params, s);
  else { abortKind("win"); $("win").hidden = true; }
}

async function win(mine, params, s) {
  $("win").hidden = false;
  $("win-title").textContent = "Keeping to win from " + s.me + " to " + s.opp;
  $("wins").querySelector("tbody").textContent = "";
  const done = showBusy($("win-summary"), "Simulating the rest of the deal\u2026");
  const result = await api("/api/keep/win", { ...params, me: s.me, opp: s.opp }, "win");
  done();
  if (mine !== asked || result.aborted) return;
  if (!result.ok) {
    $("win-summary").textContent = "";
    showError(result, $("win-error"));
    return;
  }
  const d = result.data;
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
handInput.addEventListener("keydown", (e) => { if (e.key === "Enter") { typed.cancel(); refresh(true); } });
for (const el of [$("dealer"), $("pone"), cribSelect, pegBox]) {
  el.addEventListener("change", () => refresh(false));
}
for (const el of [meInput, oppInput]) {
  el.addEventListener("change", () => refresh(false));
  el.addEventListener("keydown", (e) => { if (e.key === "Enter") { typed.cancel(); refresh(true); } });
}
$("rank").addEventListener("click", () => { typed.cancel(); refresh(true); });
$("clear").addEventListener("click", () => {
  handInput.value = ""; meInput.value = ""; oppInput.value = ""; $("pick-note").textContent = "";
  refresh(false);
});

const given = new URLSearchParams(location.search);
handInput.value = given.get("hand") || "";
if (given.get("role") === "pone") $("pone").checked = true;
if (["uniform", "weighted"].includes(given.get("crib"))) cribSelect.value = given.get("crib");
if (["0", "false", "no", "off"].includes((given.get("pegging") || "").toLowerCase())) pegBox.checked = false;
meInput.value = given.get("me") || "";
oppInput.value = given.get("opp") || "";
refresh(false);
