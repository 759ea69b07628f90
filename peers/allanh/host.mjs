#!/usr/bin/env node
// The host of the allanh engine: loads its app.js (from the checked scratch copy named on the
// command line) into a node:vm context with the DOM stub of dom.mjs, and drives it the way
// its page does, one command a line (JSON in, JSON out), for the Python adapter
// (peers/allanh/engine.py), which speaks the protocol:
//
//   {"cmd": "new", "dealer", "round", "scores", "target", "hands"}   a game, dealt as given
//   {"cmd": "pass", "passes"}     every seat's pass at once (the page's "Pass selected cards")
//   {"cmd": "play", "seat", "card"}     the page's playCard for that seat
//   {"cmd": "deal", "hands"}      the page's "Next round", dealt as given
//   {"cmd": "set", …}             the page's state set field by field (a position)
//   {"cmd": "dump"}               the state only
//
// It adds no rule: legality is the page's legalCards, a play is its playCard, the exchange is
// its confirmHumanPass, the scoring its finishRound. Two cuts replace the page's randomness:
// its shuffle returns the given deal (in the order its dealing loop hands out), and the
// dealing step that moves a 2♣ out of a hand dealt both is skipped, since the runner deals.
import fs from "node:fs";
import vm from "node:vm";
import { createInterface } from "node:readline";
import { makeGlobals } from "./dom.mjs";

const [, , appPath] = process.argv;
const log = (...a) => process.stderr.write(a.join(" ") + "\n");
const { globals, timers, random } = makeGlobals({ seed: 1, log });
globals.__random = random;
const page = vm.createContext(globals);
vm.runInContext("Math.random = __random;", page);
vm.runInContext(fs.readFileSync(appPath, "utf8"), page, { filename: "app.js" });
const state = vm.runInContext("state", page);
const $ = (id) => globals.document.getElementById(id);

// The page's own steps, which its timers schedule; a timer of anything else (a computer
// player's move) is dropped: the runner plays every seat.
const STEPS = new Set([page.startFirstTrick, page.finishRound]);
let lastTrick = null;

const cardText = (c) => c.rank + c.suit;
const sameCard = (c, text) => cardText(c) === text;

function settle() {
  timers.drain((callback) => STEPS.has(callback));
}

// Deal `hands` through the page's own dealing loop (deck[i] to seat i % 8).
function withDeal(hands, step) {
  const shuffle = page.shuffle, separate = page.ensureTwoClubsSeparated;
  page.shuffle = (deck) => {
    if (deck.length !== 104) return shuffle(deck);
    const pool = [...deck], order = [];
    for (let i = 0; i < 104; i++) {
      const want = hands[i % hands.length][Math.floor(i / hands.length)];
      const at = pool.findIndex((c) => sameCard(c, want));
      if (at < 0) throw new Error(`the deal holds ${want} more often than the two packs do`);
      order.push(pool.splice(at, 1)[0]);
    }
    return order;
  };
  page.ensureTwoClubsSeparated = () => {};
  try { step(); } finally { page.shuffle = shuffle; page.ensureTwoClubsSeparated = separate; }
  lastTrick = null;
  settle();
}

function seatPlayers(cmd) {
  state.mode = "standard";
  state.target = cmd.target;
  state.difficulty = "medium";
  state.playSpeed = 1;
  state.players = [{ name: "You", persona: "Human", score: 0, roundPoints: 0, hand: [], tricks: [] }];
  for (const cpu of page.selectedCpuSetup()) state.players.push({ ...cpu, score: 0, roundPoints: 0, hand: [], tricks: [] });
  state.players.forEach((p, i) => { p.score = cmd.scores[i]; });
  state.partnerIndex = null;
  state.dealer = cmd.dealer;
  state.round = cmd.round;
  state.gameOver = false;
  state.practiceEnded = false;
  state.scoreHistory = [];
  $("nextRoundBtn").classList.add("hidden");
}

function newGame(cmd) {
  seatPlayers(cmd);
  withDeal(cmd.hands, () => page.beginRound());
}

function pass(cmd) {
  const hands = state.players.map((p) => p.hand);
  const pick = (seat) => {
    const pool = [...hands[seat]];
    return cmd.passes[seat].map((t) => pool.splice(pool.findIndex((c) => sameCard(c, t)), 1)[0]);
  };
  const chosen = state.players.map((_, seat) => pick(seat));
  const choose = page.choosePassCards;
  state.selected = new Set(chosen[0].map((c) => c.id));
  page.choosePassCards = (player) => chosen[state.players.indexOf(player)];
  try { $("confirmPassBtn").onclick(); } finally { page.choosePassCards = choose; }
  settle();
  return state.phase === "playing";
}

function play(cmd) {
  if (state.phase !== "playing" || state.currentPlayer !== cmd.seat) return false;
  const card = state.players[cmd.seat].hand.find((c) => sameCard(c, cmd.card));
  if (!card) return false;
  const before = state.actionLog.length;
  page.playCard(cmd.seat, card);
  if (state.actionLog.length === before) return false; // the page refused the card
  if (state.phase === "trick-end") {
    const award = state.currentTrickAward;
    lastTrick = { leader: state.trick[0].player, cards: state.trick.map((x) => cardText(x.card)),
                  winner: award.winner };
    if (!$("nextTrickBtn").classList.contains("hidden")) $("nextTrickBtn").onclick();
  }
  settle();
  return true;
}

function deal(cmd) {
  if ($("nextRoundBtn").classList.contains("hidden")) return false;
  withDeal(cmd.hands, () => $("nextRoundBtn").onclick());
  return true;
}

// A position: the page's state set field by field (the harness's own step, documented).
function set(cmd) {
  seatPlayers(cmd);
  timers.drain(() => false);
  let id = 1000;
  const card = (t) => ({ id: id++, suit: t.slice(-1), rank: t.slice(0, -1), copy: 0 });
  state.players.forEach((p, i) => {
    p.hand = (cmd.hands[i] || []).map(card);
    p.tricks = (cmd.collected[i] || []).map(card);
    p.roundPoints = p.tricks.reduce((sum, c) => sum + page.cardPoints(c), 0);
    page.sortHand(p.hand);
  });
  state.phase = cmd.phase === "dealing" ? "trick-end" : cmd.phase;
  $("nextRoundBtn").classList.toggle("hidden", cmd.phase !== "dealing");
  state.passOffset = cmd.pass_offset;
  state.trickNumber = cmd.trick_index;
  state.leader = cmd.leader;
  state.currentPlayer = cmd.current;
  state.heartsBroken = cmd.hearts_broken;
  state.trick = cmd.trick.map((t, k) => ({ player: (cmd.leader + k) % 8, card: card(t), cancelled: false }));
  page.updateCancellation();
  state.carryoverCards = cmd.pending.map(card);
  state.carryoverPoints = state.carryoverCards.reduce((s, c) => s + page.cardPoints(c), 0);
  state.selected.clear();
  lastTrick = null;
  return true;
}

function dump(ok) {
  const playing = state.phase === "playing";
  return {
    ok,
    state: {
      phase: state.phase,
      game_over: state.gameOver,
      next_round: !$("nextRoundBtn").classList.contains("hidden"),
      status: $("status").textContent,
      names: state.players.map((p) => p.name),
      dealer: state.dealer,
      round: state.round,
      pass_offset: state.passOffset,
      trick_number: state.trickNumber,
      leader: state.leader,
      current: state.currentPlayer,
      trick: state.trick.map((x) => cardText(x.card)),
      hearts_broken: state.heartsBroken,
      hands: state.players.map((p) => p.hand.map(cardText)),
      legal: playing ? page.legalCards(state.currentPlayer).map(cardText) : null,
      pending: state.carryoverCards.map(cardText),
      points: state.players.map((p) => p.roundPoints),
      scores: state.players.map((p) => p.score),
      last_trick: lastTrick,
    },
  };
}

const COMMANDS = { new: (c) => (newGame(c), true), pass, play, deal, set, dump: () => true };
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  let answer;
  try {
    const cmd = JSON.parse(line);
    answer = dump(COMMANDS[cmd.cmd](cmd));
  } catch (exc) {
    log(exc && exc.stack ? exc.stack : String(exc));
    answer = { error: String(exc && exc.message ? exc.message : exc) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
