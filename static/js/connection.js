// Shows whether the live connection (websocket and channel layer) answers: "Live" or "Offline".
(function () {
  "use strict";
  var badge = document.querySelector("[data-connection]");
  if (!badge || !("WebSocket" in window)) return;
  var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
  var socket = new WebSocket(scheme + window.location.host + "/ws/health/");
  function show(state, text) {
    badge.dataset.connection = state;
    badge.textContent = text;
  }
  socket.addEventListener("message", function (event) {
    var data = JSON.parse(event.data);
    if (data.status === "ok" && data.channel_layer) {
      show("live", "● " + (badge.dataset.liveWords || "Live"));
    }
  });
  socket.addEventListener("close", function () {
    show("offline", "○ " + (badge.dataset.offlineWords || "Offline"));
  });
})();
