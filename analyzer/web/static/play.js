// Page 4: a game against the AI, in any of the four forms, at a level. The server keeps nothing:
// each request carries the game (seed, options) and your moves, the server replays it and answers
// with the events and what is asked. The address holds the same, so a reload resumes the game,
// and this browser remembers the last game's address (localStorage) for /play opened bare.
// The game stops at each show: the hands and the crib are counted out phrase by phrase on their
// cards, and Continue goes on.
"use strict";

const $ = (id) => document.getElementById(id);
const LEVELS = ["Beginner", "Casual", "Club", "Expert"];
const STRONGEST = LEVELS[LEVELS.length - 1];  // the level of a level the page does not know
const SAVED = "crib-play-game";       // localStorage: the last game's address
const SHOWN = "crib-play-shown";      // sessionStorage: how far this tab counted out the shows
const RETRY_HISTORY = [2, 5, 15, 30, 60];  // seconds before each new try to add a finished game
let game = null;      // {variant, opponent, seed, first, muggins}; opponent may be a level
let moves = [];       // your moves, as the API takes them
let pendingMove = false;  // the last of moves is asked of the server now, not yet answered
let answer = null;    // the last answer of /api/game
let chosen = [];      // cards picked to throw
let busy = false;
let seen = 0;         // the events already shown (the shows stepped through)
let shows = [];       // the shows to count out, in turn
let stepTimer = null;
let counted = null;   // the show whose count has been said to its end (its points on the board)
let recorded = false; // this finished game is in the history
let refocus = false;  // a move was just made: focus the next question's first card

// A P(win) in per cent, to a tenth of a point; to a hundredth within a point of 0 or 100%,
// where the cards near the end of a game differ (0.27% and 0.04%, not both 0.0%).
function winPercent(p) {
  return (100 * p).toFixed(p < 0.01 || p > 0.99 ? 2 : 1) + "%";
}

function gameParams() {
  const p = { variant: game.variant, seed: game.seed, first: game.first,
              muggins: game.muggins ? "true" : "false", moves: moves.join(" ") };
  if (LEVELS.includes(game.opponent)) p.level = game.opponent;
  else p.opponent = game.opponent;
  return p;
}
const params = gameParams;

function address() {
  const q = new URLSearchParams({ seed: game.seed });
  if (LEVELS.includes(game.opponent)) q.set("level", game.opponent);
  else q.set("opponent", game.opponent);
  q.set("variant", game.variant);
  if (game.first !== "cut") q.set("first", game.first);
  if (game.muggins) q.set("muggins", "1");
  if (moves.length) q.set("moves", moves.join(" "));
  return "/play?" + q.toString();
}

function updateUrl() {
  const where = address();
  history.replaceState(null, "", where);
  try { localStorage.setItem(SAVED, where); } catch (e) { /* private mode: the address alone */ }
}

// The choices a menu offers (the values of its options).
function offered(id) { return [...$(id).options].map((o) => o.value); }

const DEFAULTS = { opponent: STRONGEST, variant: "six-card", first: "cut" };  // as crib play: Expert
const NAMES = { opponent: "opponent", variant: "game", first: "first dealer", level: "level" };

// Say something about the game that is not an error of a move (an address put right).
function notice(text) {
  $("notice").textContent = text;
  $("notice").hidden = !text;
}

function fromUrl() {
  let q = new URLSearchParams(location.search);
  if (![...q.keys()].length) {  // /play bare: the last game of this browser, if any
    let saved = null;
    try { saved = localStorage.getItem(SAVED); } catch (e) { saved = null; }
    if (saved && saved.startsWith("/play?")) {
      q = new URLSearchParams(saved.slice(6));
      notice("Your last game, where it stands (New game deals another).");
    }
  }
  q = addressParams(q);  // a blank value as if not given
  const notes = [];
  const seed = q.get("seed");
  const read = seed ? readSeed(seed) : { seed: randomSeed() };  // none or blank: a random one
  if (read.problem) notes.push(`the seed '${seed}' ${read.problem}: a random seed instead`);
  // muggins as the API reads a yes or no (1, true, on, yes; 0, false, off, no), in any case
  const muggins = readYesNo(q.get("muggins"));
  const yes = muggins === true;
  if (muggins === null) {
    notes.push(`muggins '${q.get("muggins")}' is not yes or no: the game without it`);
  }
  game = { seed: read.seed || randomSeed(), muggins: yes };
  const level = q.get("level");
  if (level !== null) {  // a level in any case, as the API and crib play --level take it
    const found = LEVELS.find((l) => l.toLowerCase() === level.trim().toLowerCase());
    game.opponent = found || STRONGEST;
    if (!found) notes.push(`no level '${level}' here (${LEVELS.join(", ")}): ${STRONGEST} instead`);
    if (q.get("opponent") !== null) notes.push(`a level and an opponent both: the level alone`);
  }
  for (const key of ["opponent", "variant", "first"]) {
    if (key === "opponent" && level !== null) continue;
    const asked = q.get(key);
    const name = NAMES[key];
    const found = asked === null ? undefined :  // in any case, as the level
      offered(key).find((o) => o.toLowerCase() === asked.trim().toLowerCase());
    if (asked === null || found !== undefined) game[key] = found || DEFAULTS[key];
    else {
      game[key] = DEFAULTS[key];
      notes.push(`no ${name} '${asked}' here: ${DEFAULTS[key]} instead`);
    }
  }
  if (game.muggins && game.variant === "three-player") {  // the setup refuses it: so does an address
    game.muggins = false;
    notes.push("muggins is played by two sides, not in three-player: the game without it");
  }
  moves = (q.get("moves") || "").split(/[\s,]+/).filter((t) => t);
  if (notes.length) notice("The address asked for what this page cannot play (" + notes.join("; ") + ").");
  $("seed").value = game.seed;
  $("opponent").value = game.opponent;
  $("variant").value = game.variant;
  $("first").value = game.first;
  $("muggins").checked = game.muggins;
}

async function refresh() {
  busy = true;
  document.body.dataset.busy = "1";
  abortKind("hint");  // advice on the position before is not wanted any more
  updateUrl();
  const made = pendingMove;
  pendingMove = false;
  const result = await api("/api/game", params());
  busy = false;
  document.body.dataset.busy = "0";
  showError(result, $("other-error"));
  if (!result.ok) {
    if (made && answer) {
      // the move just made was refused, or never answered (no server, a 5xx): take it back,
      // so that the next click is the only move made (an audit's two cards laid at once)
      moves.pop();
      updateUrl();
    } else if (!answer && result.status === 422 && moves.length) {
      // an address whose moves cannot be replayed: the game from its start, not a dead board
      notice(($("notice").hidden ? "" : $("notice").textContent + " ") +
             "The address's moves could not be replayed (" + result.data.error + "): the game " +
             "starts again from its first deal.");
      moves = [];
      showError(null);
      refresh();
    } else if (!answer) $("setup").open = true;  // nothing to show: start a game from the setup
    return;
  }
  const first = answer === null;
  answer = result.data;
  chosen = [];
  $("advice").hidden = true;
  $("why-box").hidden = true;
  // a game opened or reloaded: its past shows are in the log, but those this tab had not yet
  // counted out when it was reloaded (the same address) are counted out still
  if (first) seen = Math.min(shownUpTo() ?? answer.n_events, answer.n_events);
  // the shows since the last answer are counted out before the next question
  const fresh = answer.events.slice(seen);
  for (const e of fresh) if (e.kind === "show") shows.push(e);
  if (!first || fresh.length) announce(fresh);
  seen = answer.n_events;
  saveShown();
  render();
}

// The events of this address counted out (all but the shows still to count), kept for a reload.
function saveShown() {
  const upto = shows.length ? answer.events.indexOf(shows[0]) : answer.n_events;
  try {
    sessionStorage.setItem(SHOWN, JSON.stringify({ where: address(), upto }));
  } catch (e) { /* private mode: a reload shows the log only, as before */ }
}

function shownUpTo() {
  let kept = null;
  try { kept = JSON.parse(sessionStorage.getItem(SHOWN)); } catch (e) { kept = null; }
  if (!kept || kept.where !== address() || !Number.isInteger(kept.upto) || kept.upto < 0) return null;
  return kept.upto;
}

function move(m) {
  if (busy || !answer || shows.length) return;
  notice("");  // a notice (an undo refused or made, the last game reopened) is about the move before
  moves.push(m);
  pendingMove = true;
  refocus = true;  // the next question takes the keyboard's focus (the control used is gone)
  refresh();
}

// ---------------------------------------------------------------- names of the seats

function names() { return answer.state.names; }
function who(seat) { return names()[seat]; }
function subject(seat) { const n = who(seat); return n.charAt(0).toUpperCase() + n.slice(1); }
function verb(seat, v) { return seat === 0 ? v : v + "s"; }
function possessive(seat) { return seat === 0 ? "your" : who(seat) + "'s"; }
function sideName(side) {
  const s = answer.state;
  if (s.players === 4) return side === 0 ? "you and your partner" : "West and East";
  return who(side);
}
function sideLabel(side) {
  const s = answer.state;
  if (s.players === 4) return side === 0 ? "us" : "them";
  if (s.players === 2) return side === 0 ? "you" : "AI";
  return who(side);
}

// The computer's moves since the last answer, said in the live region (a screen reader reads
// them out) and shown above the question.
function announce(events) {
  const said = [];
  for (const e of events) {
    if (e.kind === "lay" && e.seat !== 0) {
      said.push(`${subject(e.seat)} lays ${cardName(e.card)}: ${e.said}` +
                (e.points ? `, ${e.points} for ${who(e.seat)}` : "") + ".");
    } else if (e.kind === "go" && e.seat !== 0) said.push(`${subject(e.seat)} says go.`);
    else if (e.kind === "go") said.push("No card of yours fits: you say go.");
    else if (e.kind === "go_point" && e.seat !== 0) said.push(`One for the go to ${who(e.seat)}.`);
    else if (e.kind === "starter") {
      said.push(`The starter is the ${cardName(e.card)}` +
                (e.heels ? `: two for his heels to ${who(e.dealer)}.` : "."));
    }
  }
  $("announce").textContent = said.join(" ");
}

// ---------------------------------------------------------------- the table

function card(c, extra) { return cardEl(c, extra); }

function setAsk(kind) {
  document.body.dataset.ask = kind;
  document.body.dataset.moves = String(moves.length);
}

// Each side's pegs, [front, back], after the events before index UPTO (as the server's pegs).
function pegsUpTo(upto) {
  const pegs = answer.state.pegs.map(() => [0, 0]);
  for (const e of answer.events.slice(0, upto)) {
    (e.scores || []).forEach((x, side) => {
      if (x !== pegs[side][0]) pegs[side] = [x, pegs[side][0]];
    });
  }
  return pegs;
}

function render() {
  const s = answer.state;
  const showing = shows.length ? shows[0] : null;
  // while a show is counted out, the board stands where it was before that count, and takes
  // its points when the count has been said to its end
  const after = showing && showing === counted ? 1 : 0;
  renderBoard(s, showing ? pegsUpTo(answer.events.indexOf(showing) + after) : s.pegs);
  $("starter").textContent = "";
  const starter = showing ? showing.starter : s.starter;
  if (starter) $("starter").append(card(starter, "small starter"));
  else $("starter").textContent = "not cut yet";
  const playing = !showing && answer.ask === "lay";
  $("count-box").hidden = !playing;
  $("count").textContent = s.count;
  $("count-cards").textContent = "";
  for (const c of s.count_cards) $("count-cards").append(card(c, "small"));
  // the dealer of the deal on the table (while a show is counted out, that show's deal's)
  let dealer = s.dealer_seat;
  if (showing) {
    const before = answer.events.slice(0, answer.events.indexOf(showing)).filter((e) => e.kind === "deal");
    if (before.length) dealer = before[before.length - 1].dealer;
  }
  const status = dealer === null ? "" :
    (dealer === 0 ? "you deal, the crib is yours." : `${who(dealer)} deals, the crib is ${possessive(dealer)}.`);
  const lvl = LEVELS.includes(game.opponent) ? `${game.opponent} (${answer.game.opponent})` : game.opponent;
  $("status").textContent = "Seed " + game.seed + ". " + (status ? status.charAt(0).toUpperCase() +
    status.slice(1) + " " : "") + `Against ${lvl}.`;
  renderLog();
  if (shows.length) { renderShow(); return; }
  $("show").hidden = true;
  $("continue").hidden = true;
  $("announce").classList.remove("visually-hidden");
  renderAsk();
}

function renderAsk() {
  const s = answer.state, ask = answer.ask;
  setAsk(ask);
  const hand = $("hand");
  hand.hidden = false;
  hand.textContent = "";
  const thrown = s.thrown;
  if (ask === "count") {
    // muggins: the cards to count, and the starter beside them
    const d = answer.ask_detail;
    hand.setAttribute("aria-label", d.crib ? "your crib and the starter" : "your hand and the starter");
    for (const c of d.cards) hand.append(card(c));
    const gap = document.createElement("span");
    gap.className = "gap";
    hand.append(gap, card(d.starter, "starter"));
  } else {
    hand.setAttribute("aria-label", "your hand");
    for (const c of s.hand) {
      const pick = (ask === "throw") || (ask === "lay" && s.legal.includes(c));
      const el = card(c, pick ? "pick" : (ask === "lay" ? "dim" : ""));
      if (pick) makePickable(el, () => clickCard(c, el));
      hand.append(el);
    }
  }
  $("throw").hidden = ask !== "throw";
  $("throw").disabled = true;
  $("throw").dataset.n = thrown;
  $("throw").textContent = thrown === 1 ? "Throw it to the crib" : "Throw to the crib";
  const counting = ask === "count";
  if (counting && $("claim-box").hidden) {
    $("claim").value = "";  // a new count: nothing left from the last one
    $("claim-error").textContent = "";
  }
  $("claim-box").hidden = !counting;
  if (counting) $("claim").focus();
  $("hint").hidden = ask === "over" || ask === "count";
  $("why").hidden = ask === "over" || !answer.events.some((e) => e.kind === "show");
  $("why").textContent = s.players > 2 ? "Why? (the AIs' last deal)" : "Why? (the AI's last deal)";
  $("undo").hidden = ask === "over";
  $("undo").dataset.moves = s.undo.moves === null ? "" : String(s.undo.moves);
  // a take-back the rules refuse looks unavailable and says why on hover; a click says it too
  const refused = s.undo.moves === null;
  $("undo").classList.toggle("unavailable", refused);
  $("undo").setAttribute("aria-disabled", String(refused));
  $("undo").title = refused ? s.undo.refused[0].toUpperCase() + s.undo.refused.slice(1) : "Take back your last decision";
  const words = {
    throw: `You hold ${s.hand.length} cards: click ${thrown === 1 ? "one" : "two"} to throw to ${crib()}, then Throw.`,
    lay: `Your turn: click a card to lay (the count is ${s.count}).`,
    count: answer.ask_detail.cards ? `Muggins: count your ${answer.ask_detail.crib ? "crib" : "hand"} ` +
      `with the starter, then press Enter (what you miss, the other side takes).` : "",
  };
  $("ask").textContent = ask === "over" ? overWords(s) : words[ask];
  if (refocus && ask !== "over") {  // after a move, the keyboard goes on in the hand
    const next = counting ? null : hand.querySelector(".pick");
    if (next) next.focus({ preventScroll: true });
  }
  refocus = false;
  $("again").hidden = ask !== "over";
  const dl = $("download");
  dl.hidden = ask !== "over";
  $("review-link").hidden = ask !== "over";
  if (ask === "over") {
    const q = new URLSearchParams(params());
    dl.href = "/api/game/record?" + q.toString();
    dl.setAttribute("download", `crib-game-${game.seed}.jsonl`);
    $("review-link").href = "/review?" + q.toString();
    addToHistory();
  }
}

function crib() {
  const s = answer.state;
  return s.dealer_seat === 0 ? "your crib" : `${possessive(s.dealer_seat)} crib`;
}

function overWords(s) {
  const end = answer.events.find((e) => e.kind === "end");
  if (end) return endWords(end);  // with the skunks, as the log says it
  const w = s.winner_side;
  const score = s.scores[w];
  const rest = s.scores.map((x, i) => [x, i]).filter(([, i]) => i !== w);
  const lead = s.players === 4 ? (w === 0 ? "You and your partner win" : "West and East win") :
    (w === 0 ? "You win" : `${subject(w)} wins`);
  if (rest.length > 1) return `${lead} with ${score}: ${rest.map(([x, i]) => `${who(i)} ${x}`).join(", ")}.`;
  return `${lead} ${score} to ${rest.map(([x]) => x).join(" and ")}.`;
}

// The end of the game as said: the winner, the scores and each loser's skunk (with three
// players, each loser named, as the terminal says it).
function endWords(e) {
  const tiers = ["", " (skunked)", " (double skunk)", " (triple skunk)"];
  const lead = answer.state.players === 4 ? (e.winner === 0 ? "You and your partner win" : "West and East win") :
    (e.winner === 0 ? "You win" : `${subject(e.winner)} wins`);
  const losers = e.scores.map((x, i) => [x, i]).filter(([, i]) => i !== e.winner);
  if (losers.length > 1) {
    const each = losers.map(([x, i]) => `${who(i)} ${x}${tiers[e.skunk[i]] || ""}`);
    return `${lead} with ${e.scores[e.winner]}: ${each.join(", ")}.`;
  }
  const others = losers.map(([x, i]) => `${x}${tiers[e.skunk[i]] || ""}`);
  return `${lead} ${e.scores[e.winner]} to ${others.join(" and ")}.`;
}

async function addToHistory() {
  const where = address();
  const key = "crib-recorded:" + where;
  let done = false;
  try { done = localStorage.getItem(key) === "1"; } catch (e) { done = false; }
  if (recorded || done) { historyNote(true); return; }
  recorded = true;
  const asked = params();
  // a history the server cannot write now (503: locked by another program, say) or no answer is
  // tried again, later each time; a game refused for what it is (422) is not
  for (const wait of [...RETRY_HISTORY, null]) {
    const result = await apiPost("/api/history/game", asked);
    if (result.ok) break;
    const why = (result.data && result.data.error) || "not added to the history";
    const later = result.status === 503 || result.status === 0;  // 0: no answer from the server
    if (!later || wait === null) {
      $("other-error").textContent = "The game is not in your history: " + why +
        (later ? " (a reload of the page tries again)." : ".");
      return;
    }
    $("other-error").textContent = `The game is not in your history yet: ${why} (tried again in ${wait} s).`;
    await new Promise((done) => setTimeout(done, wait * 1000));
    if (address() !== where) return;  // another game on the page now
  }
  $("other-error").textContent = "";
  try { localStorage.setItem(key, "1"); } catch (e) { /* the server does not add it twice */ }
  historyNote(true);
}

function historyNote(added) {
  if (added) notice("The game is in your history (the History page sums it up, as crib stats does).");
}

function renderBoard(s, pegs) {
  const colours = ["you", "ai", "third"];
  const sides = pegs.map(([front, back], i) => ({
    name: sideLabel(i), front, back, cls: colours[i],
    id: s.players === 2 || s.players === 4 ? (i === 0 ? "score-you" : "score-ai") : "score-" + i,
  }));
  drawBoard($("board"), sides, s.target, s.skunk_lines[0]);
}

function clickCard(c, el) {
  if (busy || !answer || shows.length) return;
  if (answer.ask === "lay") { move(c); return; }
  const n = answer.state.thrown;
  if (chosen.includes(c)) chosen = chosen.filter((x) => x !== c);
  else if (chosen.length < n) chosen.push(c);
  else return;
  const on = chosen.includes(c);
  el.classList.toggle("thrown", on);
  el.setAttribute("aria-pressed", on ? "true" : "false");
  el.setAttribute("aria-label", cardName(c) + (on ? ", selected to throw" : ""));
  $("throw").disabled = chosen.length !== n;
}

// ---------------------------------------------------------------- the show, counted out

function renderShow() {
  const e = shows[0];
  setAsk("show");
  for (const id of ["throw", "claim-box", "hint", "why", "undo", "again", "download", "review-link"]) {
    $(id).hidden = true;
  }
  $("hand").hidden = true;
  $("show").hidden = false;
  $("continue").hidden = false;
  const what = e.crib ? "crib" : "hand";
  $("ask").textContent = `The show: ${possessive(e.seat)} ${what}, with the starter.`;
  const box = $("show-cards");
  box.textContent = "";
  box.setAttribute("aria-label", `${possessive(e.seat)} ${what} and the starter`);
  for (const c of e.cards) box.append(card(c));
  const gap = document.createElement("span");
  gap.className = "gap";
  box.append(gap, card(e.starter, "starter"));
  const list = $("show-steps");
  list.textContent = "";
  $("show-total").textContent = "";
  $("show-claim").textContent = "";
  $("show").dataset.steps = String(e.steps.length);
  $("show").dataset.seat = String(e.seat);
  $("show").dataset.crib = e.crib ? "1" : "0";
  let k = 0;
  clearInterval(stepTimer);
  const step = () => {
    if (k >= e.steps.length) {
      clearInterval(stepTimer);
      for (const el of box.querySelectorAll(".card")) el.classList.remove("hl");
      $("show-total").textContent = `"${e.said}": ${e.points}.`;
      $("show-claim").textContent = claimWords(e);
      counted = e;
      renderBoard(answer.state, pegsUpTo(answer.events.indexOf(e) + 1));
      $("show").dataset.done = "1";
      return;
    }
    const st = e.steps[k];
    const li = document.createElement("li");
    li.textContent = st.said;
    li.dataset.total = st.total;
    li.dataset.cards = st.cards.join(" ");
    if (st.cards.length) {
      li.append(" ", cardsEl(st.cards, "small"));
    }
    list.append(li);
    for (const el of box.querySelectorAll(".card")) {
      el.classList.toggle("hl", st.cards.includes(el.dataset.card));
    }
    k += 1;
  };
  $("show").dataset.done = "0";
  // a screen reader hears the count as said at the table (the page shows it on the cards)
  $("announce").classList.add("visually-hidden");
  $("announce").textContent = `${possessive(e.seat).charAt(0).toUpperCase() + possessive(e.seat).slice(1)} ` +
    `${what}: ${e.said}.`;
  step();
  const calm = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  stepTimer = setInterval(step, calm ? 60 : 450);
  $("continue").focus();
}

function claimWords(e) {
  if (e.claimed === null || e.claimed === undefined) return "";
  const them = sideName(1);
  if (e.claimed < e.points) {
    const takes = (e.taken ? `${them.charAt(0).toUpperCase() + them.slice(1)} ${answer.state.players === 4 ? "take" : "takes"} the ${e.taken} you missed` : "");
    return `You counted ${e.claimed}, but it counts ${e.points}: muggins! ${takes}.`;
  }
  if (e.claimed > e.points) return `You counted ${e.claimed}, but it counts ${e.points}: you peg ${e.points}, not more.`;
  return `You counted ${e.claimed}: right.`;
}

function nextShow() {
  clearInterval(stepTimer);
  shows.shift();
  saveShown();
  if (!shows.length) $("announce").textContent = "";  // the shows said, the next question
  render();
}

// ---------------------------------------------------------------- the log

function li(parts, cls) {
  const el = document.createElement("li");
  if (cls) el.className = cls;
  for (const p of parts) el.append(typeof p === "string" ? document.createTextNode(p) : p);
  return el;
}

function bold(text) {
  const b = document.createElement("b");
  b.textContent = String(text);
  return b;
}

function cardsSpan(cards) { return cardsEl(cards, "small"); }

function scoresSaid(scores) {
  return scores.map((x, i) => `${sideLabel(i)} ${x}`).join(", ");
}

function eventLine(e) {
  switch (e.kind) {
    case "cut":
      return li([`Cut for deal: ${e.cards.map((c, i) => `${who(i)} ${c}`).join(", ")}; ` +
                 (e.dealer === 0 ? "you deal first." : `${who(e.dealer)} deals first.`)]);
    case "deal": {
      // five-card's three for last: the pone's 3 before the first deal, as the terminal says
      const pone = (e.dealer + 1) % answer.state.players;
      const three = e.number === 1 && answer.state.target === 61 && e.scores[pone] > 0 ?
        ` ${subject(pone)} ${verb(pone, "peg")} ${e.scores[pone]} for last: in five-card the ` +
        "pone starts with three." : "";
      return li([`Deal ${e.number}: ${e.dealer === 0 ? "you deal" : who(e.dealer) + " deals"} ` +
                 `(${scoresSaid(e.scores)}).${three}`], "deal");
    }
    case "discard":
      return e.seat === 0 ? li(["You throw ", cardsSpan(e.thrown), " and keep ", cardsSpan(e.kept), "."])
        : li([`${subject(e.seat)} throws to the crib.`]);
    case "starter": {
      // what the form's rules add here: three-player's crib card from the pack, five-card's
      // single count
      const pack = answer.state.players === 3 ?
        `${subject(e.dealer)} ${verb(e.dealer, "add")} the top card of the pack to the crib. ` : "";
      const one = answer.state.target === 61 ?
        " The play is one count: when no one can lay, the cards left are not played." : "";
      return li([pack + "Starter ", cardsSpan([e.card]),
                 (e.heels ? `: two for his heels to ${who(e.dealer)}.` : ".") + one]);
    }
    case "lay": {
      const parts = [`${subject(e.seat)} ${verb(e.seat, "lay")} `, cardsSpan([e.card]), `: ${e.said}`];
      const el = li(parts, e.seat !== 0 ? "ai" : "");
      if (e.points) el.append(" ", bold("+" + e.points));
      el.dataset.points = e.points;
      el.dataset.card = e.card;
      el.dataset.seat = e.seat;
      return el;
    }
    case "go":
      return li([e.seat === 0 ? "You say go (no card of yours fits)." : `${subject(e.seat)} says go.`]);
    case "go_point":
      return li([`One for the go to ${who(e.seat)}.`], e.seat !== 0 ? "ai" : "");
    case "new_count":
      return li(["The count starts again."], "note");
    case "show": {
      const el = li([`${possessive(e.seat).charAt(0).toUpperCase() + possessive(e.seat).slice(1)} ` +
                     `${e.crib ? "crib" : "hand"} `, cardsSpan(e.cards), " with ",
                     cardsSpan([e.starter]), `: "${e.said}" `, bold(e.points)], "show" + (e.seat !== 0 ? " ai" : ""));
      if (e.claimed !== null && e.claimed !== undefined) {
        el.append(` (you counted ${e.claimed}` + (e.taken ? `: muggins, ${sideName(1)} ${answer.state.players === 4 ? "take" : "takes"} ${e.taken})` : ")"));
      }
      return el;
    }
    case "end":
      return li([endWords(e)], "end");
    default:
      return li([e.kind]);
  }
}

function renderLog() {
  const log = $("log");
  log.textContent = "";
  // while a show is counted out, the log stops before it
  const upto = shows.length ? answer.events.indexOf(shows[0]) : answer.events.length;
  for (const e of answer.events.slice(0, upto < 0 ? answer.events.length : upto)) log.append(eventLine(e));
  log.scrollTop = log.scrollHeight;
}

// ---------------------------------------------------------------- hint, why, undo

async function hint() {
  if (!answer || answer.ask === "over") return;
  const result = await api("/api/game", { ...params(), advice: "true", since: answer.n_events },
                           "hint");
  if (result.aborted) return;
  showError(result, $("other-error"));
  if (!result.ok) return;
  const box = $("advice");
  box.textContent = "";
  const rows = result.data.advice;
  if (result.data.ask === "count") box.textContent = "Count it yourself: that is muggins.";
  else if (!rows) box.textContent = "No advice for this decision.";
  else if (result.data.ask === "throw") {
    // Under the objective of the position, as the terminal's `?` says it: by P(win) near the
    // end of a six-card game (each keep's chance to win, then its points), else by points. The
    // crib is signed as it enters the net (the crib of another side counts against you), and
    // the play only where it is valued (six-card).
    const toWin = rows.length > 0 && rows[0].objective === "P(win)";
    const six = result.data.game.variant === "six-card";
    const own = result.data.state.crib === "you";
    const net = `net = hand + crib${six ? " + play" : ""}, the crib signed as it counts for you`;
    box.append(toWin ? `The analyzer's best keeps, by P(win), near the end (each keep's chance ` +
                       `to win; and its expected points: ${net}):`
                     : `The analyzer's best keeps, by points (expected points: ${net}):`);
    const ol = document.createElement("ol");
    for (const r of rows) {
      const parts = `hand ${fmt(r.hand, 2)}, crib ${signed(own ? r.crib : -r.crib, 2)}` +
                    (six ? `, play ${signed(r.peg, 2)}` : "");
      ol.append(li(["keep ", cardsEl(r.keep, "small"), ", throw ", cardsEl(r.discard, "small"),
                    toWin ? `: P(win) ${winPercent(r.p_win)} (${fmt(r.net, 2)} points: ${parts})`
                          : `: ${fmt(r.net, 2)} (${parts})`]));
    }
    box.append(ol);
  } else {
    const withWin = rows.some((r) => r.p_win !== null);
    const goal = rows.length ? rows[0].objective : "points";
    const six = answer.game.variant === "six-card";
    // P(win) in words here: its own parentheses closed the list's as "P(win))"
    box.append(`Each card you may lay, best first by ${goal} (points now, the rest of the play` +
               (six ? "" : " for your side minus against") + (withWin ? " and the chance to win" : "") + ")" +
               (six ? "" : `; a card that reaches ${answer.state.target} wins the game and comes first`) +
               ":");
    const ol = document.createElement("ol");
    for (const r of rows) {
      ol.append(li([cardEl(r.card, "small"),
                    `: now ${r.now}, rest ${signed(r.rest, 2)}, total ${signed(r.total, 2)}` +
                    (r.p_win !== null ? `, P(win) ${winPercent(r.p_win)}` : "") +
                    (r.wins_now ? ", wins the game" : "")]));
    }
    box.append(ol);
  }
  box.hidden = false;
}

async function why() {
  if (!answer) return;
  const box = $("why-box");
  box.hidden = false;
  const stop = showBusy(box, "Weighing the AI's choices...");
  const result = await api("/api/game/why", params(), "why");
  stop();
  if (result.aborted) return;
  box.textContent = "";
  if (!result.ok) { box.textContent = result.data.error; return; }
  const d = result.data;
  if (d.deal === null) { box.textContent = "The AI's choices are explained once its cards are seen: after a deal's show."; return; }
  const group = answer.state.players > 2;
  box.append(`Why: ${group ? "the AIs'" : "the AI's"} choices in deal ${d.deal}, each with its top 3 ` +
             "(expected points, or P(win) near the end):");
  const ol = document.createElement("ul");
  for (const r of d.rows) {
    const did = r.kind === "discard" ? "kept " : r.position === "lead" ? "led " : "laid ";
    const item = li([`${group ? subject(r.seat) + " " : ""}${did}`, cardsSpan(r.done.split(" ")),
                     r.kind === "discard" ? ` of ${r.position}` : (r.position === "lead" ? "" : ` ${r.position}`),
                     `, by ${r.objective}: ${r.said}`]);
    item.className = "why-row";
    ol.append(item);
  }
  box.append(ol);
}

function undo() {
  if (!answer || busy || shows.length) return;
  const s = answer.state;
  if (s.undo.moves === null) {
    notice("Undo: " + s.undo.refused + ".");
    return;
  }
  moves = moves.slice(0, s.undo.moves);
  seen = 0;
  answer = null;  // the answer to come is the game before that decision: its shows are past
  notice("Taken back: your last decision.");
  refresh();
}

// ---------------------------------------------------------------- the controls

$("throw").addEventListener("click", () => {
  if (answer && chosen.length === answer.state.thrown) move(chosen.join("-"));
});
$("continue").addEventListener("click", nextShow);
$("claim-box").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const v = $("claim").value.trim();
  if (!/^\d+$/.test(v) || Number(v) > 29) {
    $("claim-error").textContent = v === "" ? "Type the points you count, then Enter." :
      `'${v}' is not a count: a hand or crib counts a whole number of points, 0 to 29.`;
    $("claim").setAttribute("aria-invalid", "true");
    return;
  }
  $("claim").removeAttribute("aria-invalid");
  $("claim-error").textContent = "";
  $("claim").value = "";
  move(String(Number(v)));
});
$("hint").addEventListener("click", hint);
$("why").addEventListener("click", why);
$("undo").addEventListener("click", undo);

// A new game: the seed typed, or a random one when it is blank (shown in the seed box), and
// the options chosen. A seed the server cannot take (TYPED null: text the number box cannot
// read), or muggins in three-player, is refused in words before anything changes: the game on
// the table, its address and this browser's remembered game stay as they are.
function newGame(typed) {
  const read = typed === "" ? { seed: randomSeed() } : readSeed(typed || "");
  $("seed-error").textContent = read.problem ?
    `The seed ${typed ? typed + " " : ""}${read.problem}: leave it blank for a random game.` : "";
  if (read.problem) $("seed").setAttribute("aria-invalid", "true");
  else $("seed").removeAttribute("aria-invalid");
  const variant = $("variant").value;
  if ($("muggins").checked && variant === "three-player") {
    $("muggins-error").textContent = "Muggins is played by two sides: not in the three-player game.";
  } else $("muggins-error").textContent = "";
  if (read.problem || $("muggins-error").textContent) {
    $("setup").open = true;
    return;
  }
  const seed = read.seed;
  $("seed").value = seed;
  game = { seed, opponent: $("opponent").value, variant, first: $("first").value,
           muggins: $("muggins").checked };
  moves = [];
  answer = null;
  shows = [];
  clearInterval(stepTimer);  // a show of the game before, still being counted out, stops
  $("announce").textContent = "";  // and what its AI did is not said over the new game
  recorded = false;
  notice("");
  $("setup").open = false;
  refresh();
}

$("new").addEventListener("click", () =>
  newGame($("seed").validity.badInput ? null : $("seed").value.trim()));
// Enter in the seed box starts the game, as the button does (the setup is no form)
$("seed").addEventListener("keydown", (ev) => {
  if (ev.key === "Enter") { ev.preventDefault(); $("new").click(); }
});
$("again").addEventListener("click", () => newGame(""));  // the same options, a new deal

fromUrl();
refresh();
