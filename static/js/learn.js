// The guided hand's page: on a phone the guide is a compact box above the table (what is new
// at this step; "Read all" opens the rest), and after every step the table and its controls
// are on the screen, the guide above them too when both fit. table.js plays the table.
(function () {
  "use strict";
  var phone = window.matchMedia("(max-width: 600px)");
  var open = false; // the player opened the whole guide: it stays open from step to step

  function guideState() {
    var guide = document.getElementById("learn-guide");
    if (!guide) return;
    var button = guide.querySelector("[data-guide-toggle]");
    var body = guide.querySelector(".guide-body");
    var compact = phone.matches && !open;
    guide.classList.toggle("compact", compact);
    // "Read all" only when the compact box leaves something out.
    var more = !!guide.querySelector("[data-guide-line]:not([data-new])") ||
      body.scrollHeight > body.clientHeight + 1;
    button.hidden = !phone.matches || (compact && !more);
    button.setAttribute("aria-expanded", String(!compact));
    button.textContent = compact ? button.dataset.more : button.dataset.less;
  }

  // Scrolls as little as it takes to show the whole felt, and the guide above it (a phone)
  // when both fit on the screen.
  function keepInView() {
    var felt = document.querySelector("#board .felt");
    if (!felt) return;
    var guide = document.getElementById("learn-guide");
    var f = felt.getBoundingClientRect();
    var height = window.innerHeight;
    var top = f.top;
    if (guide) {
      var g = guide.getBoundingClientRect();
      if (g.bottom <= f.top + 1) top = g.top; // above the table: a phone
    }
    var delta = 0;
    if (f.bottom - top <= height) {
      if (top < 0) delta = top;
      else if (f.bottom > height) delta = f.bottom - height;
    } else {
      delta = f.height <= height ? f.bottom - height : f.top;
    }
    if (Math.abs(delta) >= 1) window.scrollBy(0, delta);
  }

  document.addEventListener("click", function (event) {
    if (!event.target.closest || !event.target.closest("[data-guide-toggle]")) return;
    open = !open;
    guideState();
    if (!open) keepInView();
  });
  phone.addEventListener("change", guideState);
  ["htmx:afterSettle", "htmx:oobAfterSwap"].forEach(function (name) {
    document.body.addEventListener(name, function () {
      guideState();
      setTimeout(keepInView, 0); // after table.js has moved the focus
    });
  });
  guideState();
  keepInView();
})();
