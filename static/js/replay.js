// Replay: arrow keys step through the match (Home and End jump to either end), and the
// analysis's best lines step through one move at a time (Previous / Next under each).
(function () {
  "use strict";
  var KEYS = { ArrowLeft: "previous", ArrowRight: "next", Home: "first", End: "last" };
  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA")) return;
    var nav = KEYS[event.key];
    if (!nav) return;
    var link = document.querySelector('#replay a[data-nav="' + nav + '"]');
    if (link) {
      event.preventDefault();
      link.click();
    }
  });

  // A line shows its moves up to the current one; the others are faded, the current one is
  // outlined and read out.
  function show(line, at) {
    var moves = line.querySelectorAll("[data-line-moves] > li");
    at = Math.max(0, Math.min(at, moves.length - 1));
    line.setAttribute("data-at", String(at));
    moves.forEach(function (move, i) {
      move.classList.toggle("later", i > at);
      move.classList.toggle("now", i === at);
    });
    var now = line.querySelector("[data-line-now]");
    var current = moves[at];
    if (now && current) {
      var card = current.querySelector(".card");
      var bid = current.querySelector(".bid");
      now.textContent = (at + 1) + "/" + moves.length + ": " +
        (card ? card.getAttribute("aria-label") : bid ? bid.textContent : "");
    }
    line.querySelector("[data-line-back]").disabled = at === 0;
    line.querySelector("[data-line-next]").disabled = at === moves.length - 1;
  }

  function start(root) {
    root.querySelectorAll("[data-line]").forEach(function (line) {
      if (line.hasAttribute("data-at")) return;
      line.querySelector("[data-line-step]").hidden = false;
      show(line, 0);
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-line-back], [data-line-next]");
    if (!button) return;
    var line = button.closest("[data-line]");
    var step = button.hasAttribute("data-line-next") ? 1 : -1;
    show(line, Number(line.getAttribute("data-at") || 0) + step);
  });
  document.addEventListener("htmx:load", function (event) { start(event.detail.elt); });
  document.addEventListener("DOMContentLoaded", function () { start(document); });
})();
