/* Search ranking of the rules site (conf.py: html_search_scorer).
   Sphinx's default scores, with one change: for the words of a rule, the rule
   pages come first. A hit on a rule page (or a rule itself) gains 40, the
   player's pages (quick answers, the rule index, the worked examples, the home
   page) gain 10, and the implementer's reference (Python API, traceability,
   source code) loses 10; so "pending pile" lists the void rules before the
   API and traceability pages that also use the words. */
var Scorer = {
  score: (result) => {
    const [docname, , , , score] = result;
    if (docname.startsWith("rules/") && docname !== "rules/index") return score + 40;
    if (["quick", "examples", "rules/index", "index", "summary"].includes(docname)) return score + 10;
    if (docname.startsWith("api/") || docname.startsWith("_modules/") || docname.startsWith("traceability")) {
      return score - 10;
    }
    return score;
  },
  objNameMatch: 11,
  objPartialMatch: 6,
  objPrio: { 0: 15, 1: 5, 2: -5 },
  objPrioDefault: 0,
  title: 15,
  partialTitle: 7,
  term: 5,
  partialTerm: 2,
};

/* The words shown under a hit are read from the page's text. A diagram's labels are
   not sentences (the text of an SVG runs its labels together), so they are left out,
   as Sphinx leaves out scripts and styles. This file is loaded on the search page only,
   after Sphinx's searchtools. */
if (typeof Search !== "undefined" && Search.htmlToText) {
  const pageText = Search.htmlToText;
  Search.htmlToText = (htmlString, anchor) => {
    const page = new DOMParser().parseFromString(htmlString, "text/html");
    page.querySelectorAll("svg").forEach((el) => el.remove());
    return pageText(page.documentElement.outerHTML, anchor);
  };
}
