// The player's own socket, on every page (/ws/me/): the challenges banner, kept current, and
// a push that takes the page to a match that has just started for the player (an accepted
// rematch or challenge). A plain WebSocket: the match and lobby sockets are htmx's.
(function () {
  "use strict";
  if (!document.getElementById("challenges")) return; // logged out: nothing to hear

  var delay = 1000;

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
    } catch (e) {
      return "";
    }
  }

  function show(html) {
    var template = document.createElement("template");
    template.innerHTML = html;
    var goto = template.content.querySelector("[data-goto]");
    if (goto && goto.dataset.goto !== window.location.pathname) {
      window.location.assign(goto.dataset.goto);
      return;
    }
    var fresh = template.content.querySelector("#challenges");
    var shown = document.getElementById("challenges");
    if (!fresh || !shown) return;
    fresh.querySelectorAll("input[data-csrf]").forEach(function (input) {
      input.value = csrfToken();
    });
    fresh.querySelectorAll("input[data-next]").forEach(function (input) {
      input.value = window.location.pathname + window.location.search;
    });
    shown.replaceWith(fresh);
  }

  function connect() {
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    var socket = new WebSocket(scheme + window.location.host + "/ws/me/");
    socket.onopen = function () {
      delay = 1000;
    };
    socket.onmessage = function (event) {
      show(event.data);
    };
    socket.onclose = function (event) {
      // Logged out elsewhere, or too many of the player's pages are open (this one then
      // shows no live banner; the others do).
      if (event.code === 4401 || event.code === 4423 || event.code === 4429) return;
      setTimeout(connect, delay + Math.random() * 500);
      delay = Math.min(delay * 2, 30000);
    };
  }

  connect();
})();
