// Page 1: the hand counter. The inputs hold the cards; clicks in the picker edit them.
"use strict";

const $ = (id) => document.getElementById(id);
const handInput = $("hand"), starterInput = $("starter"), cribBox = $("crib");
const formSelect = $("variant");
const FORMS = [...formSelect.options].map((o) => o.value);  // the forms the page offers
// The form's hand holds four cards, but five-card's three (its crib four); the counting is the same
function variant() { return formSelect.value; }
function size() { return variant() === "five-card" && !cribBox.checked ? 3 : 4; }
const WORDS = { 3: "Three", 4: "Four" };
const picker = makePicker($("picker"), pick);
let asked = 0;  // the number of the latest request: older answers are dropped
let loaded = false;  // past the address: a change of the person's clears its notice

function pick(card) {
  let hand = readCards(handInput.value), starter = readCards(starterInput.value);
  $("pick-note").textContent = "";
  if (hand.includes(card)) hand = hand.filter((c) => c !== card);
  else if (starter.includes(card)) starter = [];
  else if (hand.length < size()) hand.push(card);
  else if (starter.length === 0) starter = [card];
  else {
    $("pick-note").textContent = `${WORDS[size()]} cards and a starter are chosen: click one to take it back.`;
    return;
  }
  handInput.value = hand.join(" ");
  starterInput.value = starter.join(" ");
  refresh(false);
}

function drawShown(hand, starter) {
  const shown = $("shown");
  shown.textContent = "";
  for (let i = 0; i < Math.max(size(), hand.length); i++) {
    if (i < hand.length) shown.append(cardEl(hand[i]));
    else { const s = document.createElement("span"); s.className = "slot"; shown.append(s); }
  }
  const gap = document.createElement("span");
  gap.className = "gap";
  shown.append(gap);
  if (starter.length) shown.append(cardEl(starter[0], "starter"));
  else { const s = document.createElement("span"); s.className = "slot"; shown.append(s); }
}

function updateUrl() {
  const q = new URLSearchParams();
  if (handInput.value.trim()) q.set("hand", handInput.value.trim());
  if (starterInput.value.trim()) q.set("starter", starterInput.value.trim());
  if (cribBox.checked) q.set("crib", "1");
  if (variant() !== "six-card") q.set("variant", variant());
  history.replaceState(null, "", "/count" + (q.toString() ? "?" + q.toString() : ""));
}

// Redraw from the inputs; count when four cards and a starter are given (or when asked).
function refresh(force) {
  if (loaded) addressNotice([]);
  const hand = readCards(handInput.value), starter = readCards(starterInput.value);
  picker.show([...hand, ...starter], starter);
  drawShown(hand, starter);
  updateUrl();
  const n = size();
  const ready = splitCards(handInput.value).length === n && splitCards(starterInput.value).length === 1;
  if (force && splitCards(handInput.value).length === n && !starterInput.value.trim()) {
    asked++;  // the hand is there: say, in the page's words, what is still wanted
    abortKind("count");
    $("result").hidden = true;
    showError({ ok: false, data: { field: "starter", error: "Now the starter: the card cut." } });
  } else if (force || ready) count();
  else { asked++; abortKind("count"); $("result").hidden = true; showError(null); }
}

function highlight(cards) {
  for (const el of $("shown").querySelectorAll(".card")) {
    el.classList.toggle("hl", cards !== null && cards.includes(el.dataset.card));
    el.classList.toggle("dim", cards !== null && !cards.includes(el.dataset.card));
  }
}

async function count() {
  const mine = ++asked;
  const result = await api("/api/count", { hand: handInput.value, starter: starterInput.value,
                                           crib: cribBox.checked ? "true" : "false",
                                           variant: variant() }, "count");
  if (mine !== asked || result.aborted) return;
  showError(result, $("other-error"));
  if (!result.ok) { $("result").hidden = true; return; }
  const d = result.data;
  $("total").textContent = d.total;
  $("what").textContent = (d.crib ? "in the crib" : "in the hand") + ", " + d.items.length +
    (d.items.length === 1 ? " combination" : " combinations");
  $("said").textContent = d.said;
  const body = $("items").querySelector("tbody");
  body.textContent = "";
  for (const item of d.items) {
    const tr = document.createElement("tr");
    tr.className = "combo";
    tr.dataset.cards = item.cards.join(" ");
    const kind = document.createElement("td");
    kind.className = "l";
    kind.textContent = item.kind;
    const cards = document.createElement("td");
    cards.className = "l";
    cards.append(cardsEl(item.cards, "small"));
    const pts = document.createElement("td");
    pts.textContent = item.points;
    tr.append(kind, cards, pts);
    tr.addEventListener("mouseenter", () => highlight(item.cards));
    tr.addEventListener("mouseleave", () => {
      const on = body.querySelector("tr.on");
      highlight(on ? on.dataset.cards.split(" ") : null);
    });
    const choose = () => {
      const was = tr.classList.contains("on");
      for (const r of body.querySelectorAll("tr.on")) {
        r.classList.remove("on");
        r.setAttribute("aria-pressed", "false");
      }
      tr.classList.toggle("on", !was);
      tr.setAttribute("aria-pressed", was ? "false" : "true");
      highlight(was ? null : item.cards);
    };
    // reachable from the keyboard: Tab to a row, Enter or Space lights its cards up
    tr.tabIndex = 0;
    tr.setAttribute("role", "button");
    tr.setAttribute("aria-pressed", "false");
    tr.setAttribute("aria-label", item.kind + " for " + item.points + ": " +
                    item.cards.map(cardName).join(", "));
    tr.addEventListener("click", choose);
    tr.addEventListener("focus", () => highlight(item.cards));
    tr.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); choose(); }
    });
    body.append(tr);
  }
  $("result").hidden = false;
  highlight(null);
}

const typed = debounce(() => refresh(false), 300);
handInput.addEventListener("input", typed);
starterInput.addEventListener("input", typed);
for (const input of [handInput, starterInput]) {
  input.addEventListener("keydown", (e) => { if (e.key === "Enter") { typed.cancel(); refresh(true); } });
}
cribBox.addEventListener("change", () => refresh(false));
formSelect.addEventListener("change", () => refresh(false));
$("count").addEventListener("click", () => { typed.cancel(); refresh(true); });
$("clear").addEventListener("click", () => {
  handInput.value = ""; starterInput.value = ""; $("pick-note").textContent = "";
  refresh(false);
});

// The address: what it asks for that the page cannot show is said (and replaced by the
// default); cards it gives are counted at once, or what is wrong with them said.
const given = addressParams(location.search);
const notes = [];
handInput.value = given.get("hand") || "";
starterInput.value = given.get("starter") || "";
const crib = readYesNo(given.get("crib"));
if (crib === null) notes.push(`crib '${given.get("crib")}' is not yes or no: a hand`);
cribBox.checked = crib === true;
const form = given.get("variant");
const found = form === null ? "six-card" : FORMS.find((f) => f === form.trim().toLowerCase());
if (found === undefined) notes.push(`no form '${form}' here: six-card instead`);
formSelect.value = found || "six-card";
addressNotice(notes);
refresh(Boolean(handInput.value.trim() || starterInput.value.trim()));
loaded = true;
