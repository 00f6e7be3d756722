// The review of a game played on /play: the address holds the game (as /play's does); the server
// replays it and reviews your decisions (analyzer.table.review). Each decision on its cards.
// /review?game=ID reviews the history's game ID instead (from /history's list of games).
"use strict";

const $ = (id) => document.getElementById(id);
const CARD = /^(?:[A2-9TJQK][CDHS])$/;

// A text of cards ("5H JC 7D") as cards; any other text as it is.
function shown(text) {
  const parts = String(text).split(" ");
  if (parts.length && parts.every((p) => CARD.test(p))) return cardsEl(parts, "small");
  return document.createTextNode(String(text));
}

function value(x, goal) {
  if (x === null || x === undefined) return "\u2013";
  return goal === "P(win)" ? (100 * x).toFixed(1) + "%" : fmt(x, 2);
}

// A loss as shown: one below the shown precision is "under" it, not "0.00" in red.
function loss(x, goal) {
  const least = goal === "P(win)" ? 0.0005 : 0.005;
  return x > 0 && x < least ? "under " + value(2 * least, goal) : value(x, goal);
}

function row(r) {
  const el = document.createElement("div");
  const lost = (r.lost || 0) > 1e-9 || (r.given || 0) > 0;
  el.className = "review-row" + (lost ? " lost" : "");
  el.dataset.kind = r.kind;
  el.dataset.deal = r.deal;
  const head = document.createElement("div");
  const what = { discard: "discard", play: "card laid", count: "muggins count" }[r.kind] || r.kind;
  head.append(`Deal ${r.deal}, ${r.role}, ${r.score}: ${what}`);
  if (r.kind === "play") head.append(r.position === "lead" ? " (the lead)" : ` (${r.position})`);
  const held = document.createElement("div");
  if (r.kind === "discard") held.append("dealt ", shown(r.position), " ");
  const done = document.createElement("span");
  done.className = "done";
  done.append(r.kind === "discard" ? "you kept " : r.kind === "count" ? "you counted " : "you laid ",
              shown(r.done));
  const advised = document.createElement("span");
  advised.className = "advised";
  advised.append(r.kind === "count" ? "; it counts " : "; advised ", shown(r.advised));
  held.append(done, advised);
  const verdict = document.createElement("div");
  verdict.className = "verdict";
  if (r.kind === "count") {
    // a count too high is corrected at the table (you peg the true count): no loss, not right
    verdict.textContent = r.given ? `muggins: ${r.given} given away` :
      Number(r.done) > Number(r.advised) ? `too many: you pegged ${r.advised}, nothing lost` :
      "right";
  } else {
    verdict.textContent = lost ? `lost ${loss(r.lost, r.objective)} (${r.objective}: ` +
      `yours ${value(r.value_done, r.objective)}, advised ${value(r.value_advised, r.objective)})`
      : `the best (${r.objective} ${value(r.value_done, r.objective)})`;
  }
  el.append(head, held, verdict);
  if (r.alternatives && r.alternatives.length) {
    const alt = document.createElement("div");
    alt.className = "note";
    alt.append("top: ");
    r.alternatives.forEach(([choice, v], i) => {
      alt.append(`${i + 1}. `, shown(choice), ` ${value(v, r.objective)}  `);
    });
    el.append(alt);
  }
  return el;
}

async function load() {
  const q = new URLSearchParams(location.search);
  const fromHistory = q.has("game");
  if (fromHistory) {
    $("back").href = "/history";
    $("back").textContent = "Back to the history";
  } else if (!q.get("moves")) {
    // opened bare (or from a game with no move made): nothing to replay
    $("back").href = "/history";
    $("back").textContent = "Go to the history";
    $("summary").textContent = "No game to review here. A game's review opens from the game " +
      "page when it ends, and any finished game's from the history.";
    document.body.dataset.reviewed = "0";
    return;
  } else {
    $("back").href = "/play?" + q.toString();
  }
  const stop = showBusy($("summary"), "Reviewing your decisions...");
  const result = fromHistory ? await api("/api/history/review", { id: q.get("game") })
    : await api("/api/game/review", Object.fromEntries(q.entries()));
  stop();
  if (fromHistory && !result.ok && result.data && result.data.field === "id"
      && result.data.error.startsWith("id")) {
    // the API's parameter is the address's game: say it in the address's words ("id: 0 is
    // less than 1"); a message that names no parameter ("there is no game 99999 ...") as is
    result.data.error = "game" + result.data.error.slice(2);
  }
  showError(result, $("other-error"));
  if (!result.ok) { $("summary").textContent = ""; return; }
  const d = result.data;
  const box = $("rows");
  box.textContent = "";
  for (const r of d.decisions) box.append(row(r));
  const parts = [`${d.decisions.length} decisions in ${d.deals} deals of ${d.variant}`,
                 `points lost by the discards ${fmt(d.discard_lost, 2)}`];
  if (d.plays_reviewed) parts.push(`by the play ${fmt(d.play_lost, 2)}`);
  if (d.muggins_lost) parts.push(`given by muggins ${d.muggins_lost}`);
  if (d.p_win_lost) parts.push(`P(win) lost near the end ${(100 * d.p_win_lost).toFixed(1)}%`);
  // an unfinished game's record holds its finished deals only: say so, or a throw made in the
  // deal in progress seems forgotten ("0 decisions")
  const open = d.unfinished ? " The game is not over: the deal in progress is reviewed once its show is counted." : "";
  $("summary").textContent = parts.join("; ") + "." + open + (d.notes.length ? " Note: " + d.notes.join("; ") + "." : "");
  document.body.dataset.reviewed = String(d.decisions.length);
}

load();
