// Replay: arrow keys step through the match (Home and End jump to either end).
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
})();
