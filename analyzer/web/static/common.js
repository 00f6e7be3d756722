// Shared by the analyzer's pages: cards drawn with Unicode suits, the card picker, the API call.
"use strict";

const RANKS = "A23456789TJQK";
const SUITS = "CDHS";
const SUIT_SYMBOLS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
const SYMBOL_SUITS = { "\u2663": "C", "\u2666": "D", "\u2665": "H", "\u2660": "S",
                       "\u2667": "C", "\u2662": "D", "\u2661": "H", "\u2664": "S" };

// "10h", "th", "T♥" -> "TH"; null if it is not a card (the server says why).
function normCard(token) {
  let t = token.trim();
  if (t.length < 2) return null;
  let suit = t.slice(-1);
  suit = SYMBOL_SUITS[suit] || suit.toUpperCase();
  let rank = t.slice(0, -1).toUpperCase();
  if (rank === "10") rank = "T";
  if (rank.length !== 1 || !RANKS.includes(rank) || !SUITS.includes(suit)) return null;
  return rank + suit;
}

function splitCards(text) {
  return text.split(/[\s,]+/).filter((t) => t.length > 0);
}

// The cards of a text that can be read, in order, without repeats.
function readCards(text) {
  const out = [];
  for (const t of splitCards(text)) {
    const c = normCard(t);
    if (c && !out.includes(c)) out.push(c);
  }
  return out;
}

function rankLabel(card) { return card[0] === "T" ? "10" : card[0]; }

// A card in words, as a screen reader says it: "5H" -> "five of hearts".
const RANK_NAMES = { A: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
                     8: "eight", 9: "nine", T: "ten", J: "jack", Q: "queen", K: "king" };
const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
function cardName(card) { return RANK_NAMES[card[0]] + " of " + SUIT_NAMES[card[1]]; }
function isRed(card) { return card[1] === "D" || card[1] === "H"; }

// A card as an element: <span class="card red" data-card="5H"><span>5</span><span class="s">♥</span>
function cardEl(card, extra) {
  const el = document.createElement("span");
  el.className = "card " + (isRed(card) ? "red" : "black") + (extra ? " " + extra : "");
  el.dataset.card = card;
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", cardName(card));
  const r = document.createElement("span");
  r.textContent = rankLabel(card);
  const s = document.createElement("span");
  s.className = "s";
  s.textContent = SUIT_SYMBOLS[card[1]];
  el.append(r, s);
  return el;
}

function cardsEl(cards, extra) {
  const span = document.createElement("span");
  for (const c of cards) span.append(cardEl(c, extra));
  return span;
}

// The picker: 52 buttons, a row per suit; onPick(card) is called on a click.
function makePicker(container, onPick) {
  container.textContent = "";
  container.setAttribute("role", "group");
  container.setAttribute("aria-label", "pick cards");
  for (const s of SUITS) {
    for (const r of RANKS) {
      const card = r + s;
      const b = document.createElement("button");
      b.type = "button";
      b.className = isRed(card) ? "red" : "black";
      b.dataset.card = card;
      b.setAttribute("aria-pressed", "false");
      b.setAttribute("aria-label", cardName(card));
      b.title = card;
      if (r === "A") b.classList.add("suit-start");
      const rank = document.createElement("span");
      rank.textContent = r === "T" ? "10" : r;
      const suit = document.createElement("span");
      suit.textContent = SUIT_SYMBOLS[s];
      b.append(rank, suit);
      b.addEventListener("click", () => onPick(card));
      container.append(b);
    }
  }
  return {
    show(chosen, starters) {
      for (const b of container.querySelectorAll("button")) {
        const on = chosen.includes(b.dataset.card);
        b.setAttribute("aria-pressed", on ? "true" : "false");
        b.classList.toggle("is-starter", (starters || []).includes(b.dataset.card));
      }
    },
  };
}

// A card the player picks (a role=button span): clicked, or Enter or Space from the keyboard;
// aria-pressed says whether it is selected.
function makePickable(el, act) {
  el.tabIndex = 0;
  el.setAttribute("role", "button");
  el.setAttribute("aria-pressed", "false");
  el.addEventListener("click", act);
  el.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); act(); }
  });
}

// POST to an API path with parameters (in the query); resolves as api() does.
async function apiPost(path, params) {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {})) {
    if (v !== undefined && v !== null && v !== "") query.set(k, v);
  }
  try {
    const response = await fetch(path + "?" + query.toString(), { method: "POST" });
    const data = await response.json();
    return { ok: response.ok, status: response.status, data };
  } catch (err) {
    return { ok: false, status: 0, data: { error: "no answer from the server (" + err + ")" } };
  }
}

// GET an API path with parameters; resolves to {ok, status, data}. A network failure is shown
// as an error too, so a page never waits forever. With a KIND, a new request of that kind aborts
// the one before it, whose answer is no longer wanted (the server drops it): it resolves to
// {ok: false, aborted: true}, which the page ignores.
const pendingRequests = {};
function abortKind(kind) {
  if (pendingRequests[kind]) { pendingRequests[kind].abort(); delete pendingRequests[kind]; }
}

async function api(path, params, kind) {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {})) {
    if (v !== undefined && v !== null && v !== "") query.set(k, v);
  }
  let controller = null;
  if (kind) {
    abortKind(kind);
    controller = new AbortController();
    pendingRequests[kind] = controller;
  }
  try {
    const response = await fetch(path + "?" + query.toString(),
                                 controller ? { signal: controller.signal } : {});
    const data = await response.json();
    return { ok: response.ok, status: response.status, data };
  } catch (err) {
    if (err && err.name === "AbortError") return { ok: false, status: 0, aborted: true, data: {} };
    return { ok: false, status: 0, data: { error: "no answer from the server (" + err + ")" } };
  } finally {
    if (kind && pendingRequests[kind] === controller) delete pendingRequests[kind];
  }
}

// Show that ELEMENT waits for a long answer: a spinner and the seconds so far, after TEXT.
// Returns a function that stops it.
function showBusy(element, text) {
  const start = Date.now();
  element.classList.add("busy");
  element.setAttribute("aria-busy", "true");
  const tick = () => {
    const s = Math.floor((Date.now() - start) / 1000);
    element.textContent = text + (s >= 1 ? " " + s + " s" : "");
  };
  tick();
  const timer = setInterval(tick, 500);
  return () => {
    clearInterval(timer);
    element.classList.remove("busy");
    element.removeAttribute("aria-busy");
  };
}

// A page's address as its parameters, each blank value (or one of spaces) left out as if not
// given: the page's default, with no notice (a form sends its empty boxes so).
function addressParams(search) {
  return new URLSearchParams([...new URLSearchParams(search)].filter(([, v]) => v.trim()));
}

// What an address asked for that the page cannot show (NOTES: a phrase each), said in the
// page's #notice; no notes: none said. The pages clear it once the person changes what they show.
function addressNotice(notes) {
  const el = document.getElementById("notice");
  el.textContent = notes.length
    ? "The address asked for what this page cannot show (" + notes.join("; ") + ")." : "";
  el.hidden = !notes.length;
}

// A yes or no of an address as the API reads it, in any case: true (1, true, on, yes), false
// (0, false, off, no, blank or not given), or null for anything else.
function readYesNo(text) {
  const t = (text ?? "").trim().toLowerCase();
  if (["1", "true", "on", "yes"].includes(t)) return true;
  if (["0", "false", "off", "no", ""].includes(t)) return false;
  return null;
}

// A random seed, for a page given none (the game, the trainer).
function randomSeed() { return String(Math.floor(Math.random() * 1e9)); }

// A seed as the server takes it, a whole number from 0 to 2**63 - 1 (BigInt: past 2**53 a
// Number is not exact): {seed} as the server reads it ("007" is 7), or {problem} in words.
const MAX_SEED = 9223372036854775807n;
function readSeed(text) {
  if (!/^[+-]?\d+$/.test(text)) return { problem: "is not a whole number" };
  const n = BigInt(text);
  if (n < 0n) return { problem: "is below 0, the smallest seed" };
  if (n > MAX_SEED) return { problem: `is above ${MAX_SEED}, the largest seed` };
  return { seed: String(n) };
}

// Show an API error next to the input it names (the element with id FIELD-error), or in the
// fallback element; clear every other error of the page.
function showError(result, fallback) {
  for (const el of document.querySelectorAll(".error")) el.textContent = "";
  for (const el of document.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
  if (!result || result.ok) return;
  const field = result.data && result.data.field;
  const target = (field && document.getElementById(field + "-error")) || fallback;
  target.textContent = (result.data && result.data.error) || "error " + result.status;
  const input = field && document.getElementById(field);
  if (input) input.setAttribute("aria-invalid", "true");
}

// A number to a few places, negative with a minus sign (U+2212), as the tables print it.
function fmt(x, places) {
  return Number(x).toFixed(places === undefined ? 3 : places).replace("-", "\u2212");
}
function signed(x, places) { const t = fmt(x, places); return x >= 0 ? "+" + t : t; }

// FN called MS after the last call; .cancel() drops a call still waiting (Enter pressed while
// typing asks at once, and the typing's late call must not undo what Enter showed).
function debounce(fn, ms) {
  let timer = null;
  const call = (...args) => { clearTimeout(timer); timer = setTimeout(() => fn(...args), ms); };
  call.cancel = () => { clearTimeout(timer); timer = null; };
  return call;
}
