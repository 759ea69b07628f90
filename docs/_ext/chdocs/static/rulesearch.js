/* The rules for the words searched, above the pages Sphinx finds (chdocs/rulesearch.py).

   The ranking of `rules-ref rules --search` (rules_ref/cli/search.py), step for step,
   on the data the build writes from the spec (window.chRuleWords, _static/rule-words.js):
   a common name of spec/glossary.toml, or one of its aliases, leads to the rules it
   lists, first (100 for the whole name, 60 when every word is in its names, less one
   per place in its list); then the rules whose title, ID or statement hold every word.
   Loaded on the search page only. */
(() => {
  const data = window.chRuleWords;
  if (!data) return;
  const WORD = /[\p{L}\p{N}_♠♥♦♣]+/gu;
  const stop = new Set(data.stopwords);
  const all = (text) => text.toLowerCase().match(WORD) || [];
  const words = (text) => all(text).filter((w) => !stop.has(w));
  const phraseOf = (text) => all(text).join(" ");
  /* A query word matches a word of the text it starts (cancel matches cancelled). */
  const wordIn = (word, hay) => hay.some((h) => h.startsWith(word) ||
                                               (h.length >= 4 && word.startsWith(h)));

  function search(query) {
    const phrase = phraseOf(query);
    let tokens = words(query);
    if (!tokens.length) tokens = phrase.split(" ").filter(Boolean);
    if (!tokens.length) return [];
    const named = new Map();
    const text = new Map();
    const why = new Map();
    const add = (id, score, reason) => {
      if (reason.startsWith("common name")) {
        if ((named.get(id) || 0) < score) {
          named.set(id, score);
          why.set(id, reason);
        }
      } else {
        text.set(id, score);
        if (!why.has(id)) why.set(id, reason);
      }
    };
    for (const term of data.glossary) {
      const names = [term.term, ...term.aliases];
      let strength;
      if (names.some((n) => phraseOf(n) === phrase)) strength = 100;
      else {
        const nameWords = names.flatMap(words);
        if (!tokens.every((t) => wordIn(t, nameWords))) continue;
        strength = 60;
      }
      term.rules.forEach((id, rank) => add(id, strength - rank, `common name: ${term.term}`));
    }
    for (const rule of data.rules) {
      const title = words(rule.title);
      const ident = words(rule.id.replaceAll(".", " ").replaceAll("_", " "));
      const statement = words(rule.statement);
      const hay = [...title, ...ident, ...statement];
      const matched = tokens.filter((t) => wordIn(t, hay));
      if (matched.length < tokens.length) continue;
      let score = 10 * matched.length;
      let reason;
      if (phrase && phraseOf(rule.title).includes(phrase)) {
        score += 40;
        reason = "title";
      } else if (tokens.every((t) => wordIn(t, [...title, ...ident]))) {
        score += 25;
        reason = "title";
      } else reason = "statement";
      if (phrase && phraseOf(rule.statement).includes(phrase)) score += 15;
      for (const t of tokens) for (const s of statement) if (s.startsWith(t)) score += 0.5;
      add(rule.id, score, reason);
    }
    const order = new Map(data.rules.map((r, i) => [r.id, i]));
    const byId = new Map(data.rules.map((r) => [r.id, r]));
    const found = [...new Set([...named.keys(), ...text.keys()])];
    found.sort((a, b) => (named.get(b) || 0) - (named.get(a) || 0) ||
                         (text.get(b) || 0) - (text.get(a) || 0) || order.get(a) - order.get(b));
    return found.map((id) => ({ rule: byId.get(id), why: why.get(id) }));
  }
  window.chRuleSearch = search;

  const SHOWN = 5;
  function draw() {
    const query = new URLSearchParams(location.search).get("q") || "";
    const hits = search(query).slice(0, SHOWN);
    const anchor = document.getElementById("search-results");
    if (!anchor || !hits.length) return;
    const box = document.createElement("section");
    box.id = "ch-rule-hits";
    box.className = "ch-rule-hits";
    const head = document.createElement("h2");
    head.textContent = "Rules";
    const list = document.createElement("ol");
    for (const { rule, why } of hits) {
      const li = document.createElement("li");
      li.dataset.rule = rule.id;
      const a = document.createElement("a");
      a.href = rule.href;
      const code = document.createElement("code");
      code.textContent = rule.id;
      a.append(code, ` ${rule.title}`);
      li.append(a);
      if (why.startsWith("common name")) {
        const note = document.createElement("span");
        note.className = "ch-rule-hit-why";
        note.textContent = ` (${why})`;
        li.append(note);
      }
      list.append(li);
    }
    box.append(head, list);
    anchor.before(box);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", draw);
  else draw();
})();
