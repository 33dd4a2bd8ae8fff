// Live pages (htmx websocket extension): say when the connection drops, reconnect by itself,
// and give pushed forms the page's CSRF token (pushes are rendered without a request).
// While the socket is open, moves go over it (the push brings the new board to both players)
// and the board's slow poll is skipped; when it is not, both fall back to http.
(function () {
  "use strict";
  // The words come translated from the page (data-* on #live-status); English otherwise.
  var box = document.getElementById("live-status");
  var words = box ? box.dataset : {};
  var REFUSALS = {
    4401: words.sessionEnded || "Your session has ended: log in again to keep playing.",
    4403: words.notAllowed || "You are not allowed to watch this match.",
    4423: words.suspended ||
      "Your account has been suspended. Log in again to read the moderators' reason.",
    4404: words.noMatch || "There is no such match.",
    4429: words.tooMany ||
      "Too many connections are open: close some of your other tabs, then reload this page."
  };
  // After these the board is no longer this viewer's to use (logged out, suspended, not
  // allowed, gone): it is greyed out and inert, and neither polled nor posted to. After 4429
  // (too many sockets) it still works over http.
  var ENDED = [4401, 4403, 4404, 4423];
  // The extension itself retries after these codes (abnormal closure, restarts).
  var RETRIED = [1006, 1011, 1012, 1013];

  function status(text) {
    var box = document.getElementById("live-status");
    if (!box) return;
    box.hidden = !text;
    box.textContent = text || "";
    document.body.toggleAttribute("data-offline", !!text);
  }

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
    } catch (e) {
      return "";
    }
  }

  var socket = null; // the open socket's wrapper, or null

  function clearError() {
    var box = document.getElementById("live-error");
    if (box && box.textContent) {
      var empty = document.createElement("div");
      empty.id = "live-error";
      box.replaceWith(empty);
    }
  }

  // A board older than the one shown is not applied: a push can overtake a board read a moment
  // earlier, and the page must never step back. One of the same version is (who is at the
  // table changed, a refusal shows the table again); the move log takes only the lines of newer
  // versions (table.js).
  function versionOf(board) {
    return board ? Number(board.getAttribute("data-version") || 0) : 0;
  }

  function isOlder(incoming) {
    var current = document.getElementById("board");
    return !!(current && incoming &&
      current.getAttribute("data-match-id") === incoming.getAttribute("data-match-id") &&
      versionOf(incoming) < versionOf(current));
  }

  document.body.addEventListener("htmx:oobBeforeSwap", function (event) {
    var fragment = event.detail.fragment;
    var incoming = fragment && fragment.querySelector ? fragment.querySelector("#board") : null;
    if (!incoming && fragment && fragment.id === "board") incoming = fragment;
    if (isOlder(incoming)) event.detail.shouldSwap = false;
  });

  document.body.addEventListener("htmx:beforeSwap", function (event) {
    if (!event.detail.target || event.detail.target.id !== "board") return;
    var holder = document.createElement("template");
    holder.innerHTML = event.detail.serverResponse || "";
    if (isOlder(holder.content.querySelector("#board"))) event.detail.shouldSwap = false;
  });

  // A match page's tab hidden or shown again: the server tells the player of their turn by a
  // push notification while it is hidden (games.services.push).
  function sayHidden(always) {
    if (!socket || !document.getElementById("board")) return;
    if (always || document.hidden) socket.send(JSON.stringify({hidden: document.hidden}));
  }
  document.addEventListener("visibilitychange", function () { sayHidden(true); });

  document.body.addEventListener("htmx:wsOpen", function (event) {
    socket = event.detail.socketWrapper;
    status("");
    sayHidden(false); // a new socket starts shown
  });

  function endBoard(code) {
    document.body.setAttribute("data-board-ended", String(code));
    var board = document.getElementById("board");
    if (board) board.inert = true;
  }

  document.body.addEventListener("htmx:afterSettle", function () {
    var code = document.body.getAttribute("data-board-ended");
    if (code) endBoard(code); // a board that came in after the end is no more usable
  });

  document.body.addEventListener("htmx:configRequest", function (event) {
    var elt = event.detail.elt;
    if (document.body.hasAttribute("data-board-ended") &&
        (elt.id === "board" || elt.closest("#board"))) {
      event.preventDefault(); // the board is not this viewer's any more (ENDED)
      return;
    }
    if (!socket) return;
    if (elt.matches("form[data-move]")) {
      event.preventDefault();
      var data = event.detail.formData;
      socket.send(JSON.stringify({
        action: data.get("action"),
        version: Number(data.get("version"))
      }));
      elt.querySelectorAll("button").forEach(function (button) {
        button.disabled = true; // until the new board (or a refusal) comes back
      });
    } else if (elt.id === "board" && !event.detail.triggeringEvent) {
      event.preventDefault(); // the timed poll: pushes keep this board current
    }
  });

  document.body.addEventListener("htmx:wsClose", function (event) {
    socket = null;
    var code = event.detail.event.code;
    if (REFUSALS[code]) {
      status(REFUSALS[code]);
      if (ENDED.indexOf(code) >= 0) endBoard(code);
      return;
    }
    status(words.reconnecting || "Offline: reconnecting…");
    if (RETRIED.indexOf(code) < 0 && event.detail.socketWrapper) {
      // A clean close (the server going away): try again ourselves, with a little jitter.
      setTimeout(event.detail.socketWrapper.reconnect, 500 + Math.random() * 1500);
    }
  });

  document.body.addEventListener("htmx:wsAfterMessage", function (event) {
    if (event.detail.message.indexOf('id="board"') >= 0) {
      clearError(); // a new board: an earlier refusal no longer applies
    }
    document.querySelectorAll("form[data-move] button[disabled]").forEach(function (button) {
      button.disabled = false; // a refusal came back instead of a board
    });
    var token = csrfToken();
    document.querySelectorAll("input[data-csrf]").forEach(function (input) {
      if (!input.value) input.value = token;
    });
  });
})();
