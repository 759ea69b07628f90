"""The DOM stub of the allanh harness (peers/allanh/dom.mjs), without the engine."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

STUB = Path(__file__).resolve().parents[2] / "peers" / "allanh" / "dom.mjs"

# A page script of our own, run in a node:vm context built by makeGlobals: it touches what a
# page touches (elements by id, classes, buttons, storage, timers, Math.random).
PAGE = r"""
const btn = document.getElementById("go");
btn.onclick = () => { document.getElementById("status").textContent = "clicked"; };
btn.classList.add("hidden");
btn.classList.toggle("hidden");
document.getElementById("panel").classList.toggle("open", true);
sessionStorage.setItem("k", 1);
const wrap = document.createElement("div");
wrap.innerHTML = "<span>x</span>";
const child = wrap.firstElementChild;
child.onclick = () => {};
window.marker = 7;
function step() { document.getElementById("status").textContent += " step"; }
setTimeout(step, 350);
setTimeout(() => { document.getElementById("status").textContent += " ai"; }, 6000);
document.querySelectorAll(".none").forEach(() => { throw new Error("no element"); });
var draws = [Math.random(), Math.random()];
"""

DRIVER = r"""
import vm from "node:vm";
import { makeGlobals, seededRandom } from "STUB";
const { globals, timers, random } = makeGlobals({ seed: 5 });
globals.__random = random;
const ctx = vm.createContext(globals);
vm.runInContext("Math.random = __random;", ctx);
vm.runInContext(PAGE, ctx);
const doc = globals.document;
const before = doc.getElementById("status").textContent;
doc.getElementById("go").onclick();
const queued = timers.queue.length;
const drained = timers.drain((cb) => cb === ctx.step);
const again = seededRandom(5);
console.log(JSON.stringify({
  before, status: doc.getElementById("status").textContent, queued, drained,
  hidden: doc.getElementById("go").classList.contains("hidden"),
  open: doc.getElementById("panel").classList.contains("open"),
  same: doc.getElementById("go") === doc.getElementById("go"),
  stored: globals.sessionStorage.getItem("k"), missing: globals.sessionStorage.getItem("x"),
  window: globals.window === globals && ctx.marker === 7,
  draws: vm.runInContext("draws", ctx), expected: [again(), again()],
  left: timers.queue.length,
}));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_the_stub_runs_a_page_script_of_our_own(tmp_path: Path) -> None:
    driver = tmp_path / "driver.mjs"
    driver.write_text(DRIVER.replace("STUB", STUB.as_uri()).replace("PAGE", json.dumps(PAGE)))
    ran = subprocess.run(["node", str(driver)], capture_output=True, text=True, check=True)
    got = json.loads(ran.stdout)
    assert got["before"] == ""
    assert got["status"] == "clicked step"  # the page's own step ran, the other timer did not
    assert got["queued"] == 2 and got["drained"] == {"ran": 1, "dropped": 1} and got["left"] == 0
    assert (got["hidden"], got["open"], got["same"], got["window"]) == (False, True, True, True)
    assert (got["stored"], got["missing"]) == ("1", None)
    assert got["draws"] == got["expected"]  # Math.random is the seeded generator
    assert all(0 <= d < 1 for d in got["draws"]) and got["draws"][0] != got["draws"][1]
