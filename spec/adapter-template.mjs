#!/usr/bin/env node
// A template adapter for the Cancellation Hearts adapter protocol, version 2, in Node.js.
//
// The protocol is spec/protocol.md; the messages have JSON Schemas in
// spec/schemas/protocol/; spec/implementing.md explains how to put an engine
// behind it (an engine that lives in a web page included). Copy this file
// next to your implementation and replace each TODO with a call into it. It
// needs Node.js 18 or later and no npm package.
//
// As it is, it speaks the protocol but plays no game: it answers `hello`
// (version 2, with the capabilities `batch` and `pipeline`) and `bye`, and rejects every
// `start` and `action`. Try it with
//
//     rules-ref conform -- node spec/adapter-template.mjs
//
// which passes the handshake and then reports that the start of a game was
// rejected. Rules are named by their IDs in spec/rules.toml. The reference
// engine's own adapter, `rules-ref adapter`, answers every message as a correct
// engine does: send it the same lines to see the answer expected.

import { createInterface } from "node:readline";

const PROTOCOL = "cancellation-hearts-adapter";
// The protocol versions this adapter speaks; it answers with the newest the runner offers.
const VERSIONS = [1, 2];
// Version 2: the optional messages implemented. "batch" costs nothing (see batch() below),
// nor does "pipeline" (the loop below reads one request per line and answers it before the
// next); add "position" once startPosition() works, "observe" once observe() does.
const CAPABILITIES = ["batch", "pipeline"];

// Standard output carries the protocol only: send every log line to standard error.
console.log = (...args) => console.error(...args);

function hello(request) {
  const offered = VERSIONS.filter((v) => (request.versions || []).includes(v));
  if (offered.length === 0) {
    console.error(`adapter: the runner speaks none of the versions ${VERSIONS}`);
    process.exit(2);
  }
  const answer = {
    type: "hello",
    protocol: PROTOCOL,
    version: Math.max(...offered),
    name: "template adapter (Node.js) 0.2", // TODO: your implementation's name and version
    supports: {
      players: [6, 7, 8, 9, 10, 11], // TODO: the player counts you implement
      // TODO: the switch values you implement beyond the defaults, e.g.
      // {pass_cycle: [["left", "right"], ["hold"]], target: "any"}
      switches: {},
    },
  };
  if (answer.version >= 2) answer.capabilities = CAPABILITIES;
  return answer;
}

// The answer to an action your implementation refuses (the game stays unchanged).
function rejected(reason, rule) {
  const answer = { type: "rejected", reason };
  if (rule !== undefined) answer.rule = rule; // optional: e.g. "FOLLOW.SUIT"
  return answer;
}

class Adapter {
  constructor() {
    this.game = null; // TODO: your implementation's game object
    this.version = 1;
  }

  // Set up a game at the start of a deal, with the cards given.
  start(request) {
    if ("position" in request) return this.startPosition(request);
    // TODO: build your game from request.players, request.ruleset (a switch it leaves
    // out is at its default: spec/protocol.md, start), request.deal_number, request.dealer, request.totals, request.hands and
    // request.extras (cards in canonical notation such as "10H", "QS"), then:
    // return this.observe();
    return rejected("this adapter does not implement a game yet");
  }

  // Version 2, capability "position": set up a game at request.position.
  startPosition(request) {
    // TODO: build your game from the position (spec/position.md) and request.ruleset,
    // add "position" to CAPABILITIES, then: return this.observe();
    return rejected("this adapter cannot start from a position");
  }

  // Apply one action: play, pass, moon or deal (spec/protocol.md, `action`).
  act(action) {
    if (this.game === null) return rejected("no game started");
    // TODO: apply the action; if your implementation finds it illegal, answer
    // rejected(reason, rule) and leave the game as it was; otherwise:
    // return this.observe();
    return rejected(`${action.type} actions are not implemented yet`);
  }

  // Version 2: every action in order, each exactly as a separate `action` request.
  // A rejected action leaves the game unchanged and the next one applies to it;
  // an error ends the batch.
  batch(actions) {
    const answers = [];
    for (const [index, action] of actions.entries()) {
      const answer = guarded(this.version, () => this.act(action));
      answers.push({ index, ...answer });
      if (answer.type === "error") break;
    }
    return { type: "batch", answers };
  }

  // Every field of the observation, from your game (spec/protocol.md, tables).
  observe() {
    // TODO: fill in every field from this.game; the runner compares each one.
    return {
      type: "observation",
      phase: "playing", // passing, playing, moon-choice, dealing, game-over
      deal_number: 1,
      dealer: 0,
      to_act: null, // the seat to play or choose a moon option, else null
      waiting_for: [], // while passing: seats yet to pass, from the dealer's left
      legal: null, // while playing: distinct legal cards, canonical order
      hands: null, // every hand, canonical order, during a deal
      trick_number: null,
      leader: null,
      trick: [],
      hearts_broken: false,
      last_trick: null, // {number, leader, cards, winner}; winner null if void
      pending: [],
      points: null,
      deal_scores: null,
      totals: [],
      winners: [],
    };
  }
}

// answer(); in version 2 a failure of your code becomes an `error` answer.
function guarded(version, answer) {
  if (version < 2) return answer();
  try {
    return answer();
  } catch (exc) {
    console.error(exc && exc.stack ? exc.stack : exc); // standard error is for logs
    return { type: "error", message: String(exc && exc.message ? exc.message : exc) };
  }
}

const adapter = new Adapter();
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  // one request per line
  const request = JSON.parse(line);
  let answer;
  if (request.type === "hello") {
    answer = hello(request);
    adapter.version = answer.version;
  } else if (request.type === "start") {
    answer = guarded(adapter.version, () => adapter.start(request));
  } else if (request.type === "action") {
    answer = guarded(adapter.version, () => adapter.act(request.action));
  } else if (request.type === "batch" && adapter.version >= 2) {
    answer = adapter.batch(request.actions);
  } else if (request.type === "bye") {
    answer = { type: "bye" };
  } else {
    console.error(`adapter: unknown request ${JSON.stringify(request.type)}`);
    process.exit(2);
  }
  answer.id = request.id;
  process.stdout.write(JSON.stringify(answer) + "\n"); // one line per answer
  if (request.type === "bye") process.exit(0);
}
