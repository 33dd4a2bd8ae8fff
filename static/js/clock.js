// Countdowns on the board: the move clock of the player to act, and the wait before an
// abandoned match may be claimed. The server sends the seconds left as of its render
// (data-countdown); this counts them down on the player's own clock, so a skewed device
// clock does not matter. The server decides every outcome: at zero the page only asks.
(function () {
  "use strict";
  const GRACE_MS = 1500; // the server's deadline may fall up to a second after the page's

  function text(ms) {
    const total = Math.max(0, Math.ceil(ms / 1000));
    return Math.floor(total / 60) + ":" + String(total % 60).padStart(2, "0");
  }

  function tick() {
    const now = Date.now();
    document.querySelectorAll("[data-countdown]").forEach(function (el) {
      if (!el.dataset.until) {
        el.dataset.until = String(now + Number(el.dataset.countdown) * 1000);
      }
      const left = Number(el.dataset.until) - now;
      const shown = el.querySelector("[data-countdown-text]");
      // Days left (a correspondence match): the server's words stand until the last hour.
      const long = Number(el.dataset.hours) > 0 && left > 3600 * 1000;
      if (shown && !long) shown.textContent = text(left);
      el.classList.toggle("low", left <= 10000);
      if (left > -GRACE_MS || el.dataset.done) return;
      el.dataset.done = "1";
      if (el.dataset.reveal) {
        const target = document.querySelector(el.dataset.reveal);
        if (target) target.hidden = false;
        el.hidden = true;
      }
      const board = document.getElementById("board");
      if (el.dataset.outEvent && board && window.htmx) {
        window.htmx.trigger(board, el.dataset.outEvent);
      }
    });
  }

  setInterval(tick, 500);
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSwap", tick);
})();
