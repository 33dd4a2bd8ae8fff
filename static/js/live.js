// Live pages (htmx websocket extension): say when the connection drops, reconnect by itself,
// and give pushed forms the page's CSRF token (pushes are rendered without a request).
(function () {
  "use strict";
  // The words come translated from the page (data-* on #live-status); English otherwise.
  var box = document.getElementById("live-status");
  var words = box ? box.dataset : {};
  var REFUSALS = {
    4401: words.sessionEnded || "Your session has ended: log in again to keep playing.",
    4403: words.notAllowed || "You are not allowed to watch this match.",
    4404: words.noMatch || "There is no such match."
  };
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

  document.body.addEventListener("htmx:wsOpen", function () {
    status("");
  });

  document.body.addEventListener("htmx:wsClose", function (event) {
    var code = event.detail.event.code;
    if (REFUSALS[code]) {
      status(REFUSALS[code]);
      return;
    }
    status(words.reconnecting || "Offline: reconnecting…");
    if (RETRIED.indexOf(code) < 0 && event.detail.socketWrapper) {
      // A clean close (the server going away): try again ourselves, with a little jitter.
      setTimeout(event.detail.socketWrapper.reconnect, 500 + Math.random() * 1500);
    }
  });

  document.body.addEventListener("htmx:wsAfterMessage", function () {
    var token = csrfToken();
    document.querySelectorAll("input[data-csrf]").forEach(function (input) {
      if (!input.value) input.value = token;
    });
  });
})();
