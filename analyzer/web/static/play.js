// Page 4: a game against the AI. The server keeps nothing: each request carries the game (seed,
// options) and your moves, the server replays it and answers with the events and what is asked.
// The address holds the same, so a reload resumes the game.
"use strict";

const $ = (id) => document.getElementById(id);
const WHO = { 0: "You", 1: "The AI" };
const who_ = { 0: "you", 1: "the AI" };
let game = null;      // {variant, opponent, seed, first, muggins}
let moves = [];       // your moves, as the API takes them
let answer = null;    // the last answer of /api/game
let chosen = [];      // cards picked to throw
let busy = false;

function params() {
  return { variant: game.variant, opponent: game.opponent, seed: game.seed, first: game.first,
           muggins: game.muggins ? "true" : "false", moves: moves.join(" ") };
}

function updateUrl() {
  const q = new URLSearchParams({ seed: game.seed, opponent: game.opponent, variant: game.variant });
  if (game.first !== "cut") q.set("first", game.first);
  if (game.muggins) q.set("muggins", "1");
  if (moves.length) q.set("moves", moves.join(" "));
  history.replaceState(null, "", "/play?" + q.toString());
}

function randomSeed() { return String(Math.floor(Math.random() * 1e9)); }

// The choices a menu offers (the values of its options).
function offered(id) { return [...$(id).options].map((o) => o.value); }

const DEFAULTS = { opponent: "best", variant: "six-card", first: "cut" };
const NAMES = { opponent: "opponent", variant: "game", first: "first dealer" };

// Say something about the game that is not an error of a move (an address put right).
function notice(text) {
  $("notice").textContent = text;
  $("notice").hidden = !text;
}

function fromUrl() {
  const q = new URLSearchParams(location.search);
  const notes = [];
  let seed = q.get("seed");
  if (seed === null || !/^\d+$/.test(seed)) {
    if (seed) notes.push(`the seed '${seed}' is not a whole number: a random seed instead`);
    seed = randomSeed();
  }
  game = { seed, muggins: q.get("muggins") === "1" };
  for (const key of ["opponent", "variant", "first"]) {
    const asked = q.get(key);
    if (asked === null || offered(key).includes(asked)) game[key] = asked || DEFAULTS[key];
    else {
      game[key] = DEFAULTS[key];
      notes.push(`no ${NAMES[key]} '${asked}' here: ${DEFAULTS[key]} instead`);
    }
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
  abortKind("hint");  // advice on the position before is not wanted any more
  updateUrl();
  const result = await api("/api/game", params());
  busy = false;
  showError(result, $("other-error"));
  if (!result.ok) {
    if (result.data && result.data.field === "moves" && moves.length && answer) {
      moves.pop();  // the move just made was refused: take it back
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
  answer = result.data;
  chosen = [];
  $("advice").hidden = true;
  render();
}

function move(m) {
  if (busy || !answer) return;
  moves.push(m);
  refresh();
}

function card(c, extra) { return cardEl(c, extra); }

function render() {
  const s = answer.state, ask = answer.ask;
  document.body.dataset.ask = ask;
  document.body.dataset.moves = String(moves.length);
  renderBoard(s);
  $("starter").textContent = "";
  if (s.starter) $("starter").append(card(s.starter, "small starter"));
  else $("starter").textContent = "not cut yet";
  $("count").textContent = s.count;
  $("count-cards").textContent = "";
  for (const c of s.count_cards) $("count-cards").append(card(c, "small"));
  const hand = $("hand");
  hand.textContent = "";
  for (const c of s.hand) {
    const pick = (ask === "throw") || (ask === "lay" && s.legal.includes(c));
    const el = card(c, pick ? "pick" : (ask === "lay" ? "dim" : ""));
    if (pick) {
      el.tabIndex = 0;
      el.setAttribute("role", "button");
      const act = () => clickCard(c, el);
      el.addEventListener("click", act);
      el.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") act(); });
    }
    hand.append(el);
  }
  const thrown = 2;  // both two-handed forms throw two
  $("throw").hidden = ask !== "throw";
  $("throw").disabled = true;
  $("throw").dataset.n = thrown;
  $("go").hidden = ask !== "go";
  $("claim-box").hidden = ask !== "count";
  $("hint").hidden = ask === "over";
  const crib = s.crib === "you" ? "your crib" : "the AI's crib";
  const words = {
    throw: `You hold ${s.hand.length} cards: click ${thrown} to throw to ${crib}, then Throw.`,
    lay: `Your turn: click a card to lay (the count is ${s.count}).`,
    go: `No card fits the count of ${s.count}: say go.`,
    count: answer.ask_detail.cards ? `Count your ${answer.ask_detail.crib ? "crib" : "hand"}: ` +
      answer.ask_detail.cards.join(" ") + ` with ${s.starter}.` : "",
    over: (s.winner === "you" ? "You win " : "The AI wins ") + Math.max(...s.scores) + " to " +
      Math.min(...s.scores) + ".",
  };
  $("ask").textContent = words[ask];
  const deal = s.dealer === "you" ? "you deal, the crib is yours." :
    "the AI deals, the crib is the AI's.";
  const status = !s.dealer ? "" : (ask === "over" ? "The last deal: " + deal : deal);
  $("status").textContent = "Seed " + game.seed + ". " + status.charAt(0).toUpperCase() +
    status.slice(1);
  $("again").hidden = ask !== "over";
  const dl = $("download");
  dl.hidden = ask !== "over";
  if (ask === "over") {
    const q = new URLSearchParams(params());
    dl.href = "/api/game/record?" + q.toString();
    dl.setAttribute("download", `crib-game-${game.seed}.jsonl`);
  }
  renderLog();
}

function renderBoard(s) {
  const box = $("board");
  box.textContent = "";
  const line = s.skunk_lines[0];
  for (const [i, name] of [[0, "you"], [1, "AI"]]) {
    const row = document.createElement("div");
    row.className = "track-row";
    const label = document.createElement("span");
    label.className = "track-name";
    label.textContent = name;
    const track = document.createElement("div");
    track.className = "track";
    const fill = document.createElement("div");
    fill.className = "fill " + (i === 0 ? "you" : "ai");
    fill.style.width = Math.min(100, 100 * s.scores[i] / s.target) + "%";
    const skunk = document.createElement("div");
    skunk.className = "skunk";
    skunk.style.left = (100 * line / s.target) + "%";
    skunk.title = "skunk line " + line;
    track.append(fill, skunk);
    const score = document.createElement("b");
    score.className = "track-score";
    score.id = "score-" + (i === 0 ? "you" : "ai");
    score.textContent = s.scores[i];
    row.append(label, track, score);
    box.append(row);
  }
  const note = document.createElement("div");
  note.className = "note";
  note.textContent = `to ${s.target}; the dashed line is the skunk line (${line})`;
  box.append(note);
}

function clickCard(c, el) {
  if (busy) return;
  if (answer.ask === "lay") { move(c); return; }
  const n = Number($("throw").dataset.n);
  if (chosen.includes(c)) chosen = chosen.filter((x) => x !== c);
  else if (chosen.length < n) chosen.push(c);
  else return;
  el.classList.toggle("thrown", chosen.includes(c));
  $("throw").disabled = chosen.length !== n;
}

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

function eventLine(e) {
  const who = WHO[e.seat];
  switch (e.kind) {
    case "cut":
      return li([`Cut for deal: you ${e.cards[0]}, the AI ${e.cards[1]}; ` +
                 (e.dealer === 0 ? "you deal first." : "the AI deals first.")]);
    case "deal":
      return li([`Deal ${e.number}: ${e.dealer === 0 ? "you deal" : "the AI deals"} ` +
                 `(you ${e.scores[0]}, AI ${e.scores[1]}).`], "deal");
    case "discard":
      return e.seat === 0 ? li(["You throw ", cardsSpan(e.thrown), " and keep ", cardsSpan(e.kept), "."])
        : li(["The AI throws to the crib."]);
    case "starter":
      return li(["Starter ", cardsSpan([e.card]), e.heels ? ` two for his heels to ${who_[e.dealer]}.` : "."]);
    case "lay": {
      const parts = [`${who} ${e.seat === 0 ? "lay" : "lays"} `, cardsSpan([e.card]), `: ${e.said}`];
      const el = li(parts, e.seat === 1 ? "ai" : "");
      if (e.points) el.append(" ", bold("+" + e.points));
      el.dataset.points = e.points;
      el.dataset.card = e.card;
      return el;
    }
    case "go":
      return li([`${who} ${e.seat === 0 ? "say" : "says"} go.`]);
    case "go_point":
      return li([`One for the go to ${who_[e.seat]}.`], e.seat === 1 ? "ai" : "");
    case "new_count":
      return li(["The count starts again."], "note");
    case "show": {
      const whose = e.seat === 0 ? "Your" : "The AI's";
      const el = li([`${whose} ${e.crib ? "crib" : "hand"} `, cardsSpan(e.cards), " with ",
                     cardsSpan([e.starter]), `: "${e.said}" `, bold(e.points)], "show" + (e.seat === 1 ? " ai" : ""));
      if (e.claimed !== null && e.claimed !== undefined) {
        el.append(` (you counted ${e.claimed}` + (e.taken ? `: muggins, the AI takes ${e.taken})` : ")"));
      }
      return el;
    }
    case "end": {
      const tiers = ["", " (skunked)", " (double skunk)", " (triple skunk)"];
      const loser = 1 - e.winner;
      return li([`${e.winner === 0 ? "You win" : "The AI wins"} ${e.scores[e.winner]} to ` +
                 `${e.scores[loser]}${tiers[e.skunk[loser]] || ""}.`], "end");
    }
    default:
      return li([e.kind]);
  }
}

function renderLog() {
  const log = $("log");
  log.textContent = "";
  for (const e of answer.events) log.append(eventLine(e));
  log.scrollTop = log.scrollHeight;
}

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
  if (result.data.ask === "go") box.textContent = "No card fits: say go.";
  else if (result.data.ask === "count") box.textContent = "Count it yourself: that is muggins.";
  else if (!rows) box.textContent = "No advice for the play of this form: the analyzer's play " +
    "search covers the six-card game.";
  else if (result.data.ask === "throw") {
    box.append("The analyzer's best keeps (expected points: net, hand, crib, play):");
    const ol = document.createElement("ol");
    for (const r of rows) {
      ol.append(li([`keep ${r.keep.join(" ")}, throw ${r.discard.join(" ")}: ${fmt(r.net, 2)} ` +
                    `(hand ${fmt(r.hand, 2)}, crib ${fmt(r.crib, 2)}, play ${fmt(r.peg, 2)})`]));
    }
    box.append(ol);
  } else {
    box.append("Each card you may lay (points now, the rest of the play, P(win)):");
    const ol = document.createElement("ol");
    for (const r of rows) {
      ol.append(li([`${r.card}: now ${r.now}, rest ${signed(r.rest, 2)}, total ${signed(r.total, 2)}, ` +
                    `P(win) ${(100 * r.p_win).toFixed(1)}%`]));
    }
    box.append(ol);
  }
  box.hidden = false;
}

$("throw").addEventListener("click", () => {
  if (chosen.length === Number($("throw").dataset.n)) move(chosen.join("-"));
});
$("go").addEventListener("click", () => move("go"));
$("claim-send").addEventListener("click", () => {
  const v = $("claim").value.trim();
  if (v !== "") { $("claim").value = ""; move(v); }
});
$("hint").addEventListener("click", hint);
// A new game: the seed given, or a random one (shown in the seed box), and the options chosen.
function newGame(seed) {
  if (!/^\d+$/.test(seed)) seed = randomSeed();
  $("seed").value = seed;
  game = { seed, opponent: $("opponent").value, variant: $("variant").value,
           first: $("first").value, muggins: $("muggins").checked };
  moves = [];
  answer = null;
  notice("");
  $("setup").open = false;
  refresh();
}

$("new").addEventListener("click", () => newGame($("seed").value.trim()));
$("again").addEventListener("click", () => newGame(""));  // the same options, a new deal

fromUrl();
refresh();
