// The smallest browser a page script needs to load and run in a node:vm context, with no
// browser: a document whose elements are inert records, seeded randomness and a timer queue.
//
// - Elements are created on first use, by id; each one keeps what the page sets on it
//   (textContent, innerHTML, value, onclick, classes, attributes) so that a harness can read it
//   back (the status line) and press a button the way a player would (its onclick). Anything
//   else an element is asked (a method the page calls, a property it reads) answers nothing.
// - Math.random is a seeded generator (mulberry32), so that the page's random choices
//   (names, seats of its computer players) are the same on every run.
// - setTimeout queues its callback; nothing runs until the harness drains the queue, choosing
//   which callbacks run (the page's own steps) and which are dropped (its computer players'
//   moves, which the runner makes instead).

export function seededRandom(seed) {
  let a = seed >>> 0;
  return function random() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function classList() {
  const names = new Set();
  return {
    add: (...n) => n.forEach((x) => names.add(x)),
    remove: (...n) => n.forEach((x) => names.delete(x)),
    toggle: (n, force) => {
      const on = force === undefined ? !names.has(n) : Boolean(force);
      if (on) names.add(n); else names.delete(n);
      return on;
    },
    contains: (n) => names.has(n),
  };
}

const NOTHING = () => undefined;

export function makeElement(id = null) {
  const attributes = new Map();
  const element = {
    id, textContent: "", value: "", checked: false, disabled: false, open: false,
    dataset: {}, style: {}, children: [], previousElementSibling: null, classList: classList(),
    onclick: null, onchange: null, oninput: null,
    setAttribute: (k, v) => attributes.set(k, String(v)),
    getAttribute: (k) => (attributes.has(k) ? attributes.get(k) : null),
    appendChild(child) { this.children.push(child); return child; },
    addEventListener: NOTHING, removeEventListener: NOTHING, focus: NOTHING, select: NOTHING,
    remove: NOTHING, scrollIntoView: NOTHING,
    showModal() { this.open = true; },
    close() { this.open = false; },
    querySelector: () => null,
    querySelectorAll: () => [],
  };
  let html = "";
  Object.defineProperty(element, "innerHTML", {
    get: () => html,
    set: (v) => { html = String(v); element.children = []; },
  });
  // a wrapper filled with innerHTML hands back its first child, itself inert
  Object.defineProperty(element, "firstElementChild", { get: () => makeElement() });
  return element;
}

export function makeDocument() {
  const byId = new Map();
  return {
    body: makeElement("body"),
    getElementById(id) {
      if (!byId.has(id)) byId.set(id, makeElement(id));
      return byId.get(id);
    },
    querySelector: () => null,
    querySelectorAll: () => [],
    createElement: () => makeElement(),
    addEventListener: NOTHING,
  };
}

export function makeStorage() {
  const items = new Map();
  return {
    getItem: (k) => (items.has(k) ? items.get(k) : null),
    setItem: (k, v) => items.set(k, String(v)),
    removeItem: (k) => items.delete(k),
    clear: () => items.clear(),
  };
}

export function makeTimers() {
  const queue = [];
  let next = 1;
  return {
    queue,
    setTimeout(callback, delay = 0) {
      queue.push({ id: next, callback, delay });
      return next++;
    },
    clearTimeout(id) {
      const at = queue.findIndex((t) => t.id === id);
      if (at >= 0) queue.splice(at, 1);
    },
    // Run, oldest first, the queued callbacks `keep` accepts (and any they queue in turn);
    // drop the others. Returns how many ran and how many were dropped.
    drain(keep) {
      let ran = 0, dropped = 0;
      while (queue.length) {
        const timer = queue.shift();
        if (keep(timer.callback)) { ran++; timer.callback(); } else dropped++;
      }
      return { ran, dropped };
    },
  };
}

// The global object of a vm context that loads a page script: window and globalThis are one.
export function makeGlobals({ seed = 1, log = () => {} } = {}) {
  const timers = makeTimers();
  const globals = {
    document: makeDocument(),
    sessionStorage: makeStorage(),
    localStorage: makeStorage(),
    location: { reload: NOTHING, href: "about:blank" },
    setTimeout: timers.setTimeout,
    clearTimeout: timers.clearTimeout,
    alert: NOTHING,
    confirm: () => false,
    console: { log, error: log, warn: log, info: log, debug: log },
  };
  globals.window = globals;
  return { globals, timers, random: seededRandom(seed) };
}
