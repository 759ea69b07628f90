/* The glue of the pages that ask the reference engine (docs/_ext/chdocs/ask.py).

   It loads Pyodide and the engine from this site only (_static/pyodide/,
   _static/ask/engine.zip), then hands the form's input to rules_ref.cli.pages,
   which runs the rules-ref command itself (trick, plays, show, validate) and
   returns what it printed. Everything said comes from the engine: this file
   only lays out the answer (cards drawn as the worked examples draw them,
   with cards.css) and links each rule ID to its page (_static/ask/rules.json). */
import { loadPyodide } from "../pyodide/pyodide.mjs";

const box = document.getElementById("ask");
const kind = box.dataset.page;
const siteRoot = new URL(box.dataset.root || "./", location.href);
const statusLine = document.getElementById("ask-status");
const errorLine = document.getElementById("ask-error");
const result = document.getElementById("ask-result");
const form = document.getElementById("ask-form");
const go = document.getElementById("ask-go");
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const PAIR_MARKS = "①②③④⑤";
let engine = null;
let pyodide = null;
let ruleLinks = {};
/* The plays page's "Continue from here", with the reader's moves (from the address). */
let resume = null;

// --- drawing -------------------------------------------------------------------------

function el(tag, classes = [], text = null) {
  const node = document.createElement(tag);
  for (const c of classes) node.classList.add(c);
  if (text !== null) node.textContent = text;
  return node;
}

const suitOf = (card) => card.slice(-1);
const rankOf = (card) => card.slice(0, -1);
const pretty = (card) => rankOf(card) + SUITS[suitOf(card)];
const colour = (card) => (suitOf(card) === "H" || suitOf(card) === "D" ? "ch-red" : "ch-black");

/* One card face, as chdocs.render.card draws it. */
function cardFace(card, classes = []) {
  const node = el("span", ["ch-card", colour(card), ...classes]);
  node.append(el("span", ["ch-rank"], rankOf(card)), el("span", ["ch-suit"], SUITS[suitOf(card)]));
  node.title = card;
  return node;
}

/* A run of small cards (hands, piles), as chdocs.render.cards_inline draws it. */
function cardsInline(cards, mark = null) {
  const row = el("span", ["ch-cards", "ch-small"]);
  for (const c of cards) row.append(cardFace(c, mark ? mark(c) : []));
  if (!cards.length) row.append(el("span", ["ch-note"], "none"));
  return row;
}

/* A trick in play order, each card with its seat and what it did (chdocs.render.trick_row). */
function trickRow(cards, seats, cancelled, winner) {
  const row = el("div", ["ch-trick", "ch-large"]);
  const marks = new Map();
  for (const c of cards) {
    if (cancelled.includes(c) && !marks.has(c)) marks.set(c, PAIR_MARKS[marks.size % 5]);
  }
  cards.forEach((c, position) => {
    const slot = el("div", ["ch-slot"]);
    if (marks.has(c)) slot.classList.add("ch-cancelled");
    if (position === winner) slot.classList.add("ch-winner");
    slot.append(el("span", ["ch-seat"], `seat ${seats[position]}`), cardFace(c));
    const tags = el("span", ["ch-tags"]);
    if (position === 0) tags.append(el("span", ["ch-tag", "ch-tag-led"], "led"));
    if (marks.has(c)) {
      const tag = el("span", ["ch-tag", "ch-tag-cancelled"], marks.get(c));
      tag.append(el("span", ["ch-tag-word"], " cancelled"));
      tags.append(tag);
    }
    if (position === winner) tags.append(el("span", ["ch-tag", "ch-tag-wins"], "wins"));
    slot.append(tags);
    row.append(slot);
  });
  return row;
}

function ruleLink(id) {
  const code = el("code", ["xref", "ch", "ch-rule"], id);
  if (!(id in ruleLinks)) return code;
  const a = el("a", ["reference", "internal"]);
  a.href = new URL(ruleLinks[id], siteRoot).href;
  a.append(code);
  return a;
}

/* One statement of an answer (rules_ref.answers.Statement): "Label: words (RULE, RULE)". */
function statement(st) {
  const li = el("li", ["ch-statement-line"]);
  const p = el("p");
  if (st.label) p.append(el("strong", [], `${st.label}:`), " ");
  for (const part of st.parts) {
    if (typeof part === "string") p.append(part);
    else if (part.card) p.append(el("span", [colour(part.card), "ch-card-word"], pretty(part.card)));
    else p.append(el("span", [colour("x" + part.suit)], SUITS[part.suit]));
  }
  if (st.rules.length) {
    p.append(" (");
    st.rules.forEach((id, i) => { if (i) p.append(", "); p.append(ruleLink(id)); });
    p.append(")");
  }
  li.append(p);
  return li;
}

function statements(list) {
  const ul = el("ul", ["ch-outcome", "ch-ask-answer"]);
  for (const st of list) ul.append(statement(st));
  return ul;
}

// --- talking to the engine ----------------------------------------------------------

/* Run a rules-ref command in the page: {code, out, err}, as the command line gives them. */
function command(argv) {
  return JSON.parse(engine.command(JSON.stringify(argv)));
}

function showError(line) {
  // the command's one error line, without the program's name ("rules-ref trick: error: ")
  errorLine.textContent = line.trim().replace(/^rules-ref [a-z]+: (error: )?/, "");
  errorLine.hidden = false;
  result.replaceChildren();
}

function clearError() {
  errorLine.hidden = true;
  errorLine.textContent = "";
}

function answered(done) {
  if (done.code !== 0) {
    showError(done.err || `exit status ${done.code}`);
    return null;
  }
  clearError();
  return JSON.parse(done.out);
}

// --- the trick resolver -------------------------------------------------------------

function trickPage() {
  const cards = document.getElementById("ask-cards");
  const picker = document.getElementById("ask-picker");
  for (const suit of "CDHS") {
    const row = el("div", ["ch-picker-row"]);
    for (const rank of RANKS) {
      const button = el("button", ["ch-pick"]);
      button.type = "button";
      button.append(cardFace(rank + suit));
      button.setAttribute("aria-label", rank + suit);
      button.dataset.card = rank + suit;
      button.addEventListener("click", () => {
        cards.value = (cards.value.trim() + " " + pretty(rank + suit)).trim();
        cards.focus();
      });
      row.append(button);
    }
    picker.append(row);
  }
  document.getElementById("ask-clear").addEventListener("click", () => {
    cards.value = "";
    cards.focus();
  });
  return () => {
    const argv = ["trick", ...cards.value.trim().split(/\s+/).filter(Boolean)];
    argv.push("--leader", document.getElementById("ask-leader").value || "0");
    const players = document.getElementById("ask-players").value;
    if (players) argv.push("--players", players);
    argv.push("--json");
    share({ cards: cards.value.trim(), leader: document.getElementById("ask-leader").value,
            players });
    const answer = answered(command(argv));
    if (!answer) return;
    const winner = answer.winner === null ? null : answer.seats.indexOf(answer.winner);
    const head = el("p", ["ch-example-title"]);
    head.append(el("strong", [], answer.cards.map(pretty).join(" ")));
    const panel = el("div", ["ch-example", "container", "ch-ask-panel"]);
    panel.append(head, trickRow(answer.cards, answer.seats, answer.cancelled, winner),
                 statements(answer.statements));
    result.replaceChildren(panel);
  };
}

// --- the legal-plays consultant -----------------------------------------------------

function playsPage() {
  const position = document.getElementById("ask-position");
  const example = document.getElementById("ask-example");
  example.addEventListener("click", () => {
    const done = command(["play", "--players", "6", "--seed", "3", "--at", "1.2"]);
    if (done.code === 0) position.value = done.out.trim();
    answer(ask);
  });
  const value = (id) => document.getElementById(id).value.trim();
  const ruleset = (argv) => {
    const switches = value("ask-switches");
    if (switches) {
      pyodide.FS.writeFile("/tmp/switches.json", switches);
      argv.push("--ruleset", "switches.json");
    } else {
      argv.push("--preset", value("ask-preset"));
    }
    return argv;
  };
  const ask = () => {
    moves = [];
    share({ position: value("ask-position"), preset: value("ask-preset"),
            switches: value("ask-switches") });
    draw(answered(command(ruleset(["plays", value("ask-position"), "--json"]))), false);
  };
  const build = () => {
    const argv = ["plays", "--hand", value("ask-hand"), "--trick", value("ask-trick"),
                  "--trick-number", value("ask-trick-number") || "2",
                  "--players", value("ask-build-players"), "--json"];
    if (document.getElementById("ask-hearts-broken").checked) argv.push("--hearts-broken");
    const answer = answered(command(ruleset(argv)));
    if (answer) position.value = answer.position;
    draw(answer, true);
  };
  document.getElementById("ask-build").addEventListener("click", () => answer(build));
  /* Continue from here: the rest of the deal, as rules-ref play --from POSITION --seed SEED
     [--seat N] plays it; the reader's moves at the seat are kept in the address too. */
  let moves = [];
  const carryOn = () => {
    const argv = ruleset(["play", "--from", value("ask-position"),
                          "--seed", value("ask-seed") || "1"]);
    const seat = value("ask-seat");
    if (seat) argv.push("--seat", seat);
    share({ position: value("ask-position"), preset: value("ask-preset"),
            switches: value("ask-switches"), seed: value("ask-seed") || "1", seat,
            moves: moves.join(","), continue: "1" });
    const game = JSON.parse(engine.continued(JSON.stringify(argv), JSON.stringify(moves)));
    if (game.error) {
      showError(game.error);
      return;
    }
    clearError();
    result.replaceChildren(continuedPanel(game, argv, (move) => {
      moves.push(move);
      answer(carryOn);
    }));
  };
  document.getElementById("ask-continue").addEventListener("click", () => {
    moves = [];
    answer(carryOn);
  });
  resume = (given) => {
    moves = given;
    answer(carryOn);
  };
  const draw = (answer, built) => {
    if (!answer) return;
    const panel = el("div", ["ch-example", "container", "ch-ask-panel"]);
    const head = el("p", ["ch-example-title"]);
    head.append(el("strong", [], `Seat ${answer.seat} to play, trick ${answer.trick_number}`));
    panel.append(head);
    if (answer.trick.length) {
      const n = answer.players;
      const seats = answer.trick.map((_, i) => (answer.leader + i) % n);
      panel.append(trickRow(answer.trick, seats, [], null));
    }
    const hand = el("p", ["ch-hand", "ch-ask-hand"]);
    hand.append(el("span", ["ch-seat"], `seat ${answer.seat}`),
                cardsInline(answer.hand, (c) => [answer.legal.includes(c) ? "ch-legal" : "ch-refused"]));
    panel.append(hand, statements(answer.statements));
    if (built) {
      const text = el("p", ["ch-position", "ch-ask-position"]);
      text.append(el("strong", [], "Position:"), " ", el("code", [], answer.position));
      panel.append(text);
    }
    result.replaceChildren(panel);
  };
  return ask;
}

/* The rest of a deal from a position: the command's log, each trick drawn, and the
   question to the reader when it is their seat's turn. */
function continuedPanel(game, argv, move) {
  const panel = el("div", ["ch-example", "container", "ch-ask-panel", "ch-ask-continued"]);
  panel.id = "ask-continued";
  const head = el("p", ["ch-example-title"]);
  const deal = game.start.deal;
  head.append(el("strong", [], game.waiting ? `Deal ${deal}, played on from the position`
                                            : `Deal ${deal}, played on to its end`));
  const cli = el("p", ["ch-ask-hint"]);
  cli.append("On the command line: ", el("code", [], "rules-ref " + argv.map(
    (a) => (/^[\w.,:=/+-]+$/.test(a) ? a : `'${a}'`)).join(" ")));
  panel.append(head, cli);
  const tricks = el("div", ["ch-ask-tricks"]);
  tricks.id = "ask-tricks";
  for (const step of game.steps) {
    const t = step.table.trick;
    if (!t || !t.complete) continue;
    const title = el("p", ["ch-ask-trick-title"], `Trick ${step.at[1]}`);
    const drawn = trickRow(t.cards, t.seats, t.cancelled, t.winner);
    drawn.dataset.step = String(step.number);
    tricks.append(title, drawn);
  }
  panel.append(tricks);
  if (game.waiting) panel.append(question(game.waiting, move));
  const log = el("pre", ["ch-ask-log"]);
  log.id = "ask-continue-log";
  log.textContent = [...game.head, ...game.steps.flatMap((s) => s.lines)].join("\n");
  panel.append(log);
  box.dataset.waiting = game.waiting ? game.waiting.phase : "";
  return panel;
}

/* The reader's turn: the trick so far, their hand, and what they may do. */
function question(waiting, move) {
  const part = el("div", ["ch-ask-turn"]);
  part.id = "ask-turn";
  const t = waiting.table.trick;
  if (t && t.cards.length) part.append(trickRow(t.cards, t.seats, [], null));
  const say = el("p");
  const hand = el("p", ["ch-hand", "ch-ask-hand"]);
  hand.append(el("span", ["ch-seat"], `seat ${waiting.seat}`));
  const cards = el("span", ["ch-cards", "ch-small"]);
  hand.append(cards);
  if (waiting.phase === "playing") {
    say.append(el("strong", [], `Your turn, seat ${waiting.seat}:`), " pick a card to play.");
    for (const c of waiting.hand) {
      const ok = waiting.legal.includes(c);
      const b = el("button", ["ch-pick"]);
      b.type = "button";
      b.dataset.card = c;
      b.setAttribute("aria-label", c);
      b.append(cardFace(c, [ok ? "ch-legal" : "ch-refused"]));
      b.disabled = !ok;
      b.addEventListener("click", () => move(c));
      cards.append(b);
    }
    part.append(say, hand);
  } else if (waiting.phase === "passing") {
    say.append(el("strong", [], `Your turn, seat ${waiting.seat}:`),
               ` pick ${waiting.count} cards to pass.`);
    const chosen = new Set();
    const send = el("button", [], `Pass these ${waiting.count}`);
    send.type = "button";
    send.id = "ask-pass";
    send.disabled = true;
    for (const c of waiting.hand) {
      const b = el("button", ["ch-pick"]);
      b.type = "button";
      b.dataset.card = c;
      b.setAttribute("aria-pressed", "false");
      b.append(cardFace(c));
      b.addEventListener("click", () => {
        if (chosen.has(c)) chosen.delete(c); else chosen.add(c);
        b.setAttribute("aria-pressed", String(chosen.has(c)));
        send.disabled = chosen.size !== waiting.count;
      });
      cards.append(b);
    }
    send.addEventListener("click", () => move([...chosen].join(" ")));
    part.append(say, hand, send);
  } else {
    say.append(el("strong", [], `Your choice, seat ${waiting.seat}:`), " you shot the moon.");
    part.append(say);
    for (const option of waiting.options) {
      const b = el("button", [], option);
      b.type = "button";
      b.addEventListener("click", () => move(option));
      part.append(b);
    }
  }
  return part;
}

// --- the game viewer ------------------------------------------------------------------

function gamePage() {
  const text = document.getElementById("ask-game");
  const file = document.getElementById("ask-file");
  let fileName = "pasted.json";
  text.addEventListener("input", () => { fileName = "pasted.json"; });
  file.addEventListener("change", async () => {
    const chosen = file.files[0];
    if (!chosen) return;
    text.value = await chosen.text();
    fileName = chosen.name;
    answer(show);
  });
  document.getElementById("ask-example").addEventListener("click", () => {
    const done = command(["play", "--players", "6", "--seed", "3", "--json"]);
    if (done.code === 0) text.value = done.out;
    fileName = "game.json";
    answer(show);
  });
  const show = () => {
    const game = JSON.parse(engine.game(text.value, fileName));
    if (game.error) {
      showError(game.error);
      return;
    }
    clearError();
    drawGame(game, (step) => {
      // continue from this step on the plays page, its position and ruleset in the address
      const at = JSON.parse(engine.position_at(text.value, fileName, step));
      if (at.error) {
        showError(at.error);
        return;
      }
      const query = new URLSearchParams({ position: at.position,
                                          switches: JSON.stringify(at.ruleset),
                                          seed: "1", continue: "1" });
      location.href = new URL(`ask/plays.html?${query}`, siteRoot).href;
    });
  };
  return show;
}

function tableOf(table, number, steps, at = null) {
  const panel = el("div", ["ch-example", "container", "ch-ask-panel"]);
  const head = el("p", ["ch-example-title"]);
  // a card played: the deal and trick it was played to (the table after it may be the next)
  const played = at && at[1] !== null;
  const where = played ? `, trick ${at[1]}` :
    table.phase === "playing" ? `, trick ${table.trick_number}` : "";
  head.append(el("strong", [], `Deal ${played ? at[0] : table.deal}${where}: ${table.phase}`),
              ` (step ${number} of ${steps})`);
  panel.append(head);
  if (table.trick) {
    panel.append(trickRow(table.trick.cards, table.trick.seats, table.trick.cancelled,
                          table.trick.winner));
  }
  const hands = el("div", ["ch-hands", "container"]);
  table.hands.forEach((hand, seat) => {
    const row = el("p", ["ch-hand"]);
    row.append(el("span", ["ch-seat"], `seat ${seat}`), cardsInline(hand),
               el("span", ["ch-note"], `${table.points[seat]} points this deal, total ${table.totals[seat]}`));
    hands.append(row);
  });
  panel.append(hands);
  const pending = el("p", ["ch-pending"]);
  pending.append(el("strong", [], "Pending pile: "), cardsInline(table.pending));
  panel.append(pending);
  return panel;
}

function drawGame(game, carryOn) {
  const log = el("pre", ["ch-ask-log"]);
  log.id = "ask-log";
  log.textContent = game.log.join("\n");
  const logTitle = el("p");
  logTitle.append(el("strong", [], "The file as rules-ref show prints it:"));
  const parts = [];
  const steps = game.steps;
  const violationSteps = game.violations ? game.violations.steps : [];
  if (game.violations) {
    const verdict = el("div", ["ch-ask-violations",
                               game.violations.code === 0 ? "ch-ask-ok" : "ch-ask-bad"]);
    verdict.id = "ask-violations";
    const title = el("p");
    title.append(el("strong", [], "What rules-ref validate finds:"));
    verdict.append(title);
    const ul = el("ul");
    game.violations.lines.forEach((line, i) => {
      const li = el("li");
      const m = line.match(/^(.*?)([A-Z]+\.[A-Z_]+)(.*)$/);
      if (m && m[2] in ruleLinks) li.append(m[1], ruleLink(m[2]), m[3]);
      else li.append(line);
      const place = li.firstChild;
      if (i < violationSteps.length && steps.length && place.nodeType === Node.TEXT_NODE &&
          place.data.includes(": ")) {
        // where it is ("deal 2, trick 3, card 2 (seat 3)") shows that step when pressed
        const [where, ...rest] = place.data.split(": ");
        const jump = el("button", ["ch-ask-jump"], where);
        jump.type = "button";
        jump.title = "show this step";
        jump.dataset.step = String(violationSteps[i]);
        jump.addEventListener("click", () => go(violationSteps[i]));
        place.replaceWith(jump, ": " + rest.join(": "));
      }
      ul.append(li);
    });
    verdict.append(ul);
    parts.push(verdict);
  }
  if (!steps.length) {
    result.replaceChildren(...parts, logTitle, log);
    return;
  }
  const button = (label, id, title) => {
    const b = el("button", [], label);
    b.type = "button";
    b.id = id;
    if (title) b.title = title;
    return b;
  };
  const first = button("« First", "ask-first", "the start of the file");
  const prevTrick = button("« Trick", "ask-prev-trick", "the trick before");
  const prev = button("◀ Step", "ask-prev", "one step back");
  const next = button("Step ▶", "ask-next", "one step on");
  const nextTrick = button("Trick »", "ask-next-trick", "the next complete trick");
  const last = button("Last »", "ask-last", "the end of the file");
  const nav = el("div", ["ch-ask-row", "ch-ask-nav"]);
  nav.id = "ask-nav";
  nav.append(first, prevTrick, prev, next, nextTrick, last);
  // jump to a deal, a trick of it, or a violation
  const jump = el("select");
  jump.id = "ask-jump";
  jump.setAttribute("aria-label", "Go to a deal or a trick");
  const isTrick = (s) => s.table.trick && s.table.trick.complete;
  let group = null;
  steps.forEach((s, i) => {
    const deal = s.at[0];
    if (!group || group.dataset.deal !== String(deal)) {
      group = el("optgroup");
      group.label = `Deal ${deal}`;
      group.dataset.deal = String(deal);
      const o = el("option", [], `Deal ${deal}`);
      o.value = String(i + 1);
      group.append(o);
      jump.append(group);
    }
    if (isTrick(s)) {
      const o = el("option", [], `Deal ${deal}, trick ${s.at[1]}`);
      o.value = String(i + 1);
      group.append(o);
    }
  });
  const place = el("option", [], "Go to a deal or a trick…");
  place.value = "";
  jump.prepend(place);
  const slider = el("input");
  slider.type = "range";
  slider.min = "0";
  slider.max = String(steps.length);
  slider.value = "0";
  slider.id = "ask-step";
  slider.setAttribute("aria-label", "Step");
  const where = el("div", ["ch-ask-row", "ch-ask-nav"]);
  where.append(jump);
  if (violationSteps.length) {
    const v = el("select");
    v.id = "ask-violation";
    v.setAttribute("aria-label", "Go to a violation");
    const none = el("option", [], `Go to a violation (${violationSteps.length})…`);
    none.value = "";
    v.append(none);
    violationSteps.forEach((step, i) => {
      const o = el("option", [], game.violations.lines[i].split(": ").slice(0, 2).join(": "));
      o.value = String(step);
      v.append(o);
    });
    v.addEventListener("change", () => { if (v.value) go(Number(v.value)); });
    where.append(v);
  }
  const cont = button("Continue from here", "ask-continue",
                      "play the rest of the deal from this step, on the plays page");
  cont.addEventListener("click", () => carryOn(current()));
  where.append(cont, slider);
  const view = el("div", ["ch-ask-view"]);
  const stepLines = el("pre", ["ch-ask-log", "ch-ask-step-log"]);
  stepLines.id = "ask-step-log";
  parts.push(nav, where, view, stepLines, logTitle, log);
  result.replaceChildren(...parts);
  const go = (i) => {
    i = Math.max(0, Math.min(steps.length, i));
    slider.value = String(i);
    const table = i === 0 ? game.start : steps[i - 1].table;
    view.replaceChildren(tableOf(table, i, steps.length, i === 0 ? null : steps[i - 1].at));
    stepLines.textContent = i === 0 ? "(the start of the file)" :
      (steps[i - 1].lines.join("\n") || "(this action is shown in the log when its trick is complete)");
    box.dataset.step = String(i);
    jump.value = [...jump.options].some((o) => o.value === String(i)) ? String(i) : "";
  };
  const current = () => Number(slider.value);
  first.addEventListener("click", () => go(0));
  prev.addEventListener("click", () => go(current() - 1));
  next.addEventListener("click", () => go(current() + 1));
  last.addEventListener("click", () => go(steps.length));
  nextTrick.addEventListener("click", () => {
    let i = current() + 1;
    while (i < steps.length && !isTrick(steps[i - 1])) i++;
    go(i);
  });
  prevTrick.addEventListener("click", () => {
    let i = current() - 1;
    while (i > 1 && !isTrick(steps[i - 1])) i--;
    go(i);
  });
  jump.addEventListener("change", () => { if (jump.value) go(Number(jump.value)); });
  slider.addEventListener("input", () => go(current()));
  // the first card played (not the empty table before the first deal)
  const firstPlay = steps.findIndex((s) => s.table.trick && s.table.trick.cards.length);
  go(firstPlay === -1 ? steps.length : firstPlay + 1);
}

// --- the question in the page's address ----------------------------------------------

/* Keep the question in the address (?cards=…), so that the answer can be linked to. */
function share(fields) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) if (value) query.set(name, value);
  history.replaceState(null, "", `${location.pathname}?${query}${location.hash}`);
}

/* A question given in the address: its fields filled in, and asked. */
function askFromAddress(ask) {
  const query = new URLSearchParams(location.search);
  const fields = { cards: "ask-cards", leader: "ask-leader", players: "ask-players",
                   position: "ask-position", preset: "ask-preset", switches: "ask-switches",
                   seed: "ask-seed", seat: "ask-seat" };
  let given = false;
  for (const [name, id] of Object.entries(fields)) {
    const field = document.getElementById(id);
    if (field && query.has(name)) {
      field.value = query.get(name);
      given = true;
    }
  }
  if (query.has("example")) document.getElementById("ask-example").click();
  else if (query.has("continue") && resume) {
    resume((query.get("moves") || "").split(",").filter(Boolean));
  } else if (given) answer(ask);
  const step = document.getElementById("ask-step");
  if (step && query.has("step")) {
    step.value = query.get("step");
    step.dispatchEvent(new Event("input"));
  }
}

// --- start ------------------------------------------------------------------------------

/* Run one question; then count it in data-answered, which says that the answer is drawn. */
function answer(ask) {
  try {
    ask();
  } catch (error) {
    showError(`the page failed: ${error.message.split("\n").filter(Boolean).pop()}`);
  }
  box.dataset.answered = String(Number(box.dataset.answered || "0") + 1);
}

async function start() {
  const began = performance.now();
  const here = new URL(".", import.meta.url);
  pyodide = await loadPyodide({ indexURL: new URL("../pyodide/", here).href });
  const [zip, links] = await Promise.all([
    fetch(new URL("engine.zip", here)).then((r) => {
      if (!r.ok) throw new Error(`engine.zip: ${r.status}`);
      return r.arrayBuffer();
    }),
    fetch(new URL("rules.json", here)).then((r) => (r.ok ? r.json() : {})),
  ]);
  ruleLinks = links;
  pyodide.unpackArchive(zip, "zip", { extractDir: "/engine" });
  pyodide.runPython("import os, sys; sys.path.insert(0, '/engine'); os.chdir('/tmp')");
  engine = pyodide.pyimport("rules_ref.cli.pages");
  const seconds = ((performance.now() - began) / 1000).toFixed(1);
  window.chEngineReadyMs = performance.now() - began;
  const handlers = { trick: trickPage, plays: playsPage, game: gamePage };
  const ask = handlers[kind]();
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    answer(ask);
  });
  for (const b of form.querySelectorAll("button")) b.disabled = false;
  statusLine.textContent = `The rules engine is ready (loaded in ${seconds} s; it runs in this page).`;
  box.dataset.ready = "true";
  askFromAddress(ask);
}

start().catch((error) => {
  statusLine.textContent = `The rules engine could not be loaded: ${error.message}`;
  box.dataset.ready = "failed";
});
