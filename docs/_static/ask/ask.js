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
    drawGame(game);
  };
  return show;
}

function tableOf(table, number, steps) {
  const panel = el("div", ["ch-example", "container", "ch-ask-panel"]);
  const head = el("p", ["ch-example-title"]);
  const where = table.phase === "playing" ? `, trick ${table.trick_number}` : "";
  head.append(el("strong", [], `Deal ${table.deal}${where}: ${table.phase}`),
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

function drawGame(game) {
  const log = el("pre", ["ch-ask-log"]);
  log.id = "ask-log";
  log.textContent = game.log.join("\n");
  const logTitle = el("p");
  logTitle.append(el("strong", [], "The file as rules-ref show prints it:"));
  const parts = [];
  if (game.violations) {
    const verdict = el("div", ["ch-ask-violations",
                               game.violations.code === 0 ? "ch-ask-ok" : "ch-ask-bad"]);
    verdict.id = "ask-violations";
    const title = el("p");
    title.append(el("strong", [], "What rules-ref validate finds:"));
    verdict.append(title);
    const ul = el("ul");
    for (const line of game.violations.lines) {
      const li = el("li");
      const m = line.match(/^(.*?)([A-Z]+\.[A-Z_]+)(.*)$/);
      if (m && m[2] in ruleLinks) li.append(m[1], ruleLink(m[2]), m[3]);
      else li.append(line);
      ul.append(li);
    }
    verdict.append(ul);
    parts.push(verdict);
  }
  const steps = game.steps;
  if (!steps.length) {
    result.replaceChildren(...parts, logTitle, log);
    return;
  }
  const nav = el("div", ["ch-ask-row", "ch-ask-nav"]);
  const button = (label, id) => { const b = el("button", [], label); b.type = "button"; b.id = id; return b; };
  const first = button("« First", "ask-first");
  const prev = button("◀ Previous", "ask-prev");
  const next = button("Next ▶", "ask-next");
  const nextTrick = button("Next trick »", "ask-next-trick");
  const last = button("Last »", "ask-last");
  const slider = el("input");
  slider.type = "range";
  slider.min = "0";
  slider.max = String(steps.length);
  slider.value = "0";
  slider.id = "ask-step";
  slider.setAttribute("aria-label", "Step");
  nav.append(first, prev, slider, next, nextTrick, last);
  const view = el("div", ["ch-ask-view"]);
  const stepLines = el("pre", ["ch-ask-log", "ch-ask-step-log"]);
  stepLines.id = "ask-step-log";
  parts.push(nav, view, stepLines, logTitle, log);
  result.replaceChildren(...parts);
  const go = (i) => {
    i = Math.max(0, Math.min(steps.length, i));
    slider.value = String(i);
    const table = i === 0 ? game.start : steps[i - 1].table;
    view.replaceChildren(tableOf(table, i, steps.length));
    stepLines.textContent = i === 0 ? "(the start of the file)" :
      (steps[i - 1].lines.join("\n") || "(this action is shown in the log when its trick is complete)");
    box.dataset.step = String(i);
  };
  const current = () => Number(slider.value);
  first.addEventListener("click", () => go(0));
  prev.addEventListener("click", () => go(current() - 1));
  next.addEventListener("click", () => go(current() + 1));
  last.addEventListener("click", () => go(steps.length));
  nextTrick.addEventListener("click", () => {
    let i = current() + 1;
    while (i < steps.length && !(steps[i - 1].table.trick && steps[i - 1].table.trick.complete)) i++;
    go(i);
  });
  slider.addEventListener("input", () => go(current()));
  go(0);
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
                   position: "ask-position", preset: "ask-preset", switches: "ask-switches" };
  let given = false;
  for (const [name, id] of Object.entries(fields)) {
    const field = document.getElementById(id);
    if (field && query.has(name)) {
      field.value = query.get(name);
      given = true;
    }
  }
  if (query.has("example")) document.getElementById("ask-example").click();
  else if (given) answer(ask);
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
