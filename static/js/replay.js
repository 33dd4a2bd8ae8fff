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
  // A key moment's link lands on its position: the decision's line focused (a screen reader
  // reads the move and its grade), the window scrolled so the board and the options weighed
  // there are in view. The page above had been scrolled down to the link; the swapped board
  // is shorter, so the browser alone would leave the window at the page's foot.
  var landing = false;
  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-key-moment]")) landing = true;
  });

  function land() {
    var board = document.getElementById("replay");
    if (!board) return;
    var move = document.getElementById("analysis-move");
    var options = board.querySelector("[data-analysis-options]") || move || board;
    var header = document.querySelector(".site-header");
    var covered = header && /sticky|fixed/.test(getComputedStyle(header).position) ? header.offsetHeight : 0;
    var room = window.innerHeight - covered;
    var at = function (element, edge) { return element.getBoundingClientRect()[edge] + window.scrollY; };
    var y = at(board, "top") - 8;
    var needed = at(options, "bottom") + 8 - room;  // the least scroll that shows the options
    if (needed > y) {
      // The board and its options do not fit together (a phone): scrolled down to the first
      // of the board's rows (the step buttons, the last move, the facts, the hands) that
      // leaves the options in view, none cut in half; never past the hands' top.
      var rows = board.querySelectorAll(".replay-position > *");
      var hands = board.querySelector(".my-hand");
      var last = hands ? at(hands, "top") - 4 : needed;
      y = Math.min(needed, last);
      for (var i = 0; i < rows.length; i++) {
        var top = at(rows[i], "top") - 4;
        if (top >= needed && top <= last) { y = top; break; }
      }
    }
    window.scrollTo({ top: y - covered, behavior: "instant" });
    if (move) move.focus({ preventScroll: true });
  }

  document.addEventListener("htmx:afterSettle", function () {
    if (!landing) return;
    landing = false;
    land();
  });
  document.addEventListener("htmx:load", function (event) { start(event.detail.elt); });
  document.addEventListener("DOMContentLoaded", function () { start(document); });
})();
