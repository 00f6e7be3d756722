// Page 3: the discard trainer. Deals come from the server's seeded stream; the record of this
// sitting is kept in the history on the server (the sitting's name in this browser's
// localStorage), so a reload reads it back and goes on from the next deal.
"use strict";

const $ = (id) => document.getElementById(id);
const seedInput = $("seed"), roleSelect = $("role"), closeBox = $("close");
let seed = null;      // the seed dealt from, as the server reads it (the box may hold a refused one)
let current = null;   // the deal on the table: {seed, k, hand, role}
let answered = false;
let nextK = 0;        // the stream's next deal number to ask for
let thrown = [];
let record = [];      // {k, rank, lost} per answered deal
const SITTING = "crib-trainer-sitting";
let sitting = null;   // this sitting's name in the history

function newSittingName() {
  return "s" + Date.now().toString(36) + Math.floor(Math.random() * 1e6).toString(36);
}

function sittingName() {
  let name = null;
  try { name = localStorage.getItem(SITTING); } catch (e) { name = null; }
  if (!name || !/^[A-Za-z0-9_-]{1,40}$/.test(name)) {
    name = newSittingName();
    try { localStorage.setItem(SITTING, name); } catch (e) { /* this page only */ }
  }
  return name;
}

function fromAnswers(answers) {
  record = answers.map((a) => ({ k: a.k, seed: a.seed, rank: a.rank, lost: a.lost }));
}

function updateUrl() {
  const q = new URLSearchParams({ seed });
  if (roleSelect.value !== "any") q.set("role", roleSelect.value);
  if (closeBox.checked) q.set("close", "1");
  history.replaceState(null, "", "/trainer?" + q.toString());
}

async function newDeal(fromK) {
  const result = await api("/api/trainer/deal", { seed, k: fromK,
                                                  role: roleSelect.value, close: closeBox.checked },
                           "deal");  // a filter changed again: the deal asked before is not wanted
  if (result.aborted) return;
  showError(result, $("other-error"));
  if (!result.ok) return;
  updateUrl();  // the address changes with the deal, never to a seed refused
  current = result.data;
  nextK = current.k + 1;
  answered = false;
  thrown = [];
  $("deal-title").textContent = "Deal " + (current.k + 1) + " of seed " + current.seed + ": you are the " +
    current.role + (current.role === "dealer" ? " (the crib is yours)" : " (the crib is the opponent's)") +
    ". Throw two.";
  const box = $("deal-cards");
  box.textContent = "";
  for (const c of current.hand) {
    const el = cardEl(c, "pick");
    makePickable(el, () => toggle(c, el));
    box.append(el);
  }
  $("throw").disabled = true;
  $("grade").hidden = true;
  $("rows-box").hidden = true;
}

function toggle(card, el) {
  if (answered) return;
  if (thrown.includes(card)) thrown = thrown.filter((c) => c !== card);
  else if (thrown.length < 2) thrown.push(card);
  else return;
  const on = thrown.includes(card);
  el.classList.toggle("thrown", on);
  el.setAttribute("aria-pressed", on ? "true" : "false");
  $("throw").disabled = thrown.length !== 2;
}

async function answer() {
  if (!current || answered || thrown.length !== 2) return;
  const result = await api("/api/trainer/answer", { seed: current.seed, k: current.k,
                                                    throw: thrown.join(" ") });
  showError(result, $("throw-error"));
  if (!result.ok) return;
  const d = result.data;
  answered = true;
  $("throw").disabled = true;
  const kept = await apiPost("/api/trainer/record", { sitting, seed: d.seed, k: d.k,
                                                     throw: d.throw.join(" ") });
  if (kept.ok) fromAnswers(kept.data.answers);
  else {
    record.push({ k: d.k, seed: d.seed, rank: d.rank, lost: d.lost });
    $("other-error").textContent = kept.data.error + " (this answer is kept in the page only)";
  }
  const g = $("grade");
  g.textContent = "";
  g.dataset.rank = d.rank;
  g.dataset.lost = d.lost;
  const verdict = document.createElement("span");
  if (d.rank === 1) {
    verdict.className = "good";
    verdict.textContent = "The best keep.";
  } else {
    verdict.className = "bad";
    verdict.textContent = "Rank " + d.rank + " of " + d.of + ": " + fmt(d.lost) + " points lost.";
  }
  const best = document.createElement("div");
  best.append("Best: keep ", cardsEl(d.best.keep, "small"), " throw ", cardsEl(d.best.discard, "small"),
              " (net " + fmt(d.best.net) + "); yours: net " + fmt(d.net) + ".");
  const close = document.createElement("div");
  close.className = "note";
  close.textContent = (d.close ? "A close decision" : "Not a close decision") +
    ": the best net is " + fmt(d.gap) + " points above the next different one.";
  g.append(verdict, best, close);
  g.hidden = false;
  const body = $("rows").querySelector("tbody");
  body.textContent = "";
  for (const r of d.rows) {  // keeps that tie share a rank, as the verdict counts it
    const tr = document.createElement("tr");
    const mine = r.discard.join(" ") === d.throw.join(" ");
    tr.className = (r.rank === 1 ? "best" : "") + (mine ? " mine" : "");
    const td = (x, cls) => { const t = document.createElement("td"); if (cls) t.className = cls;
                             if (x instanceof Node) t.append(x); else t.textContent = x; return t; };
    tr.append(td(String(r.rank) + (mine ? " \u2190" : ""), "hide-narrow"), td(cardsEl(r.keep, "small"), "l"),
              td(cardsEl(r.discard, "small"), "l"), td(fmt(r.hand_mean)),
              td(signed(d.role === "dealer" ? r.crib_mean : -r.crib_mean)),  // as in the net
              td(signed(r.peg_mean)), td(fmt(r.net)));
    body.append(tr);
  }
  $("rows-box").hidden = false;
  drawRecord();
}

function drawRecord() {
  const n = record.length;
  const best = record.filter((r) => r.rank === 1).length;
  const lost = record.reduce((s, r) => s + r.lost, 0);
  $("record-n").textContent = n;
  $("record-best").textContent = best;
  $("record-pct").textContent = n ? "(" + Math.round((100 * best) / n) + "%)" : "";
  $("record-lost").textContent = fmt(lost);
  $("record-mean").textContent = n ? fmt(lost / n) : "\u2013";
  const svg = $("spark");
  const NS = "http://www.w3.org/2000/svg";
  svg.textContent = "";
  const W = 360, H = 90, top = 6, base = H - 4;
  const shown = record.slice(-40);
  const step = (W - 130) / Math.max(shown.length, 10);  // the right 130 units for the labels
  const scale = Math.max(1, ...shown.map((r) => r.lost));
  const axis = document.createElementNS(NS, "line");
  axis.setAttribute("x1", 0); axis.setAttribute("x2", W - 125);
  axis.setAttribute("y1", base); axis.setAttribute("y2", base);
  axis.setAttribute("stroke", "#9aa3b2");
  svg.append(axis);
  let hits = record.length - shown.length ? record.slice(0, -40).filter((r) => r.rank === 1).length : 0;
  let points = "";
  shown.forEach((r, i) => {
    const h = r.rank === 1 ? 3 : Math.max(3, ((base - top) * r.lost) / scale);
    const bar = document.createElementNS(NS, "rect");
    bar.setAttribute("x", i * step + step * 0.15);
    bar.setAttribute("width", step * 0.7);
    bar.setAttribute("y", base - h);
    bar.setAttribute("height", h);
    bar.setAttribute("fill", r.rank === 1 ? "#2a8a3e" : "#c0262d");
    const tip = document.createElementNS(NS, "title");
    tip.textContent = "deal " + (r.k + 1) + ": rank " + r.rank + ", lost " + fmt(r.lost);
    bar.append(tip);
    svg.append(bar);
    hits += r.rank === 1 ? 1 : 0;
    const done = record.length - shown.length + i + 1;
    points += (i * step + step / 2) + "," + (base - ((base - top) * hits) / done) + " ";
  });
  const label = (x, y, text, anchor) => {
    const t = document.createElementNS(NS, "text");
    t.setAttribute("x", x); t.setAttribute("y", y);
    t.setAttribute("font-size", 10); t.setAttribute("fill", "#5b6475");
    t.setAttribute("text-anchor", anchor);
    t.textContent = text;
    svg.append(t);
  };
  if (shown.length) {
    label(W - 2, top + 8, "bars up to " + fmt(scale, 2) + " points lost", "end");
    label(W - 2, top + 20, "line: " + Math.round((100 * hits) / record.length) + "% best", "end");
    const line = document.createElementNS(NS, "polyline");
    line.setAttribute("points", points.trim());
    line.setAttribute("fill", "none");
    line.setAttribute("stroke", "#1f5fbf");
    line.setAttribute("stroke-width", 2);
    svg.append(line);
  }
}

$("throw").addEventListener("click", answer);
$("next").addEventListener("click", () => newDeal(answered || !current ? nextK : current.k + 1));
// A seed typed: a blank box deals a random seed (shown in the box); a seed the server cannot
// take (or text the number box cannot read) is refused next to the box, and the deal, its
// address and the box stay as they were.
seedInput.addEventListener("change", () => {
  const typed = seedInput.validity.badInput ? null : seedInput.value.trim();
  const read = typed === "" ? { seed: randomSeed() } : readSeed(typed || "");
  if (read.problem) {
    $("seed-error").textContent =
      `The seed ${typed ? typed + " " : ""}${read.problem}: leave it blank for a random one.`;
    seedInput.setAttribute("aria-invalid", "true");
    seedInput.value = seed;
    return;
  }
  seed = seedInput.value = read.seed;
  nextK = 0;
  newDeal(0);
});
for (const el of [roleSelect, closeBox]) {
  el.addEventListener("change", () => {
    addressNotice([]);  // the address's notice was about what the person has now changed
    newDeal(answered || !current ? nextK : current.k);
  });
}

$("new-sitting").addEventListener("click", () => {
  sitting = newSittingName();
  try { localStorage.setItem(SITTING, sitting); } catch (e) { /* this page only */ }
  record = [];
  drawRecord();
});

async function start() {
  const given = addressParams(location.search);  // a blank value as if not given
  // no seed: a random seed; one the server cannot take: a random one, said
  const asked = (given.get("seed") || "").trim();
  const read = asked === "" ? { seed: randomSeed() } : readSeed(asked);
  seed = seedInput.value = read.seed || randomSeed();
  // the role and "only close" in any case, as the API reads them; what it cannot read is said
  const notes = [];
  const role = (given.get("role") || "").trim().toLowerCase();
  if (["any", "dealer", "pone"].includes(role)) roleSelect.value = role;
  else if (given.has("role")) {
    notes.push(`no role '${given.get("role")}' here (any, dealer or pone): either instead`);
  }
  const close = readYesNo(given.get("close"));
  if (close === null) notes.push(`close '${given.get("close")}' is not yes or no: every deal`);
  closeBox.checked = close === true;
  addressNotice(notes);
  sitting = sittingName();
  const kept = await api("/api/trainer/sitting", { sitting });
  if (kept.ok) fromAnswers(kept.data.answers);
  drawRecord();
  // a reload goes on after the last deal answered of this seed
  const mine = record.filter((r) => String(r.seed) === seed);
  await newDeal(mine.length ? Math.max(...mine.map((r) => r.k)) + 1 : 0);
  if (read.problem) {
    $("seed-error").textContent = `The seed '${asked}' ${read.problem}: a random seed instead.`;
  }
}

start();
