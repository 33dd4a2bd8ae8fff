// Arenas' times in the viewer's own time zone. The server writes them in UTC and says so
// (what a page without scripts shows); here each <time data-local-time> is written again in
// the browser's zone, and the form to announce an arena shows its start in that zone and
// sends the zone's offset from UTC at the time chosen (utc_offset, minutes east).
(function () {
  "use strict";

  function pad(n) {
    return (n < 10 ? "0" : "") + n;
  }

  // The value of a datetime-local input for this moment, in the browser's zone.
  function wallTime(date) {
    return date.getFullYear() + "-" + pad(date.getMonth() + 1) + "-" + pad(date.getDate()) +
      "T" + pad(date.getHours()) + ":" + pad(date.getMinutes());
  }

  // "Asia/Bangkok", or "UTC+07:00" where the browser does not name its zone.
  function zoneName() {
    try {
      var name = Intl.DateTimeFormat().resolvedOptions().timeZone;
      if (name) return name;
    } catch (e) { /* named by its offset below */ }
    var minutes = -new Date().getTimezoneOffset();
    var sign = minutes < 0 ? "-" : "+";
    minutes = Math.abs(minutes);
    return "UTC" + sign + pad(Math.floor(minutes / 60)) + ":" + pad(minutes % 60);
  }

  function formatted(date, kind) {
    var lang = document.documentElement.lang || undefined;
    var options = kind === "time" ? { timeStyle: "short" } : { dateStyle: "medium", timeStyle: "short" };
    try {
      return new Intl.DateTimeFormat(lang, options).format(date);
    } catch (e) {
      return new Intl.DateTimeFormat(undefined, options).format(date);
    }
  }

  function localise(root) {
    root.querySelectorAll("time[data-local-time]:not([data-localised])").forEach(function (time) {
      time.dataset.localised = "";
      var date = new Date(time.getAttribute("datetime"));
      if (isNaN(date)) return;
      var text = formatted(date, time.dataset.localTime);
      var words = time.dataset.localWords;
      time.textContent = words ? words.replace("{time}", text) : text;
    });
  }

  function field(input) {
    var offset = input.form && input.form.querySelector("input[name=utc_offset]");
    if (!offset) return;
    // The server's suggestion (a fresh form): shown in this zone. A form sent back with an
    // error keeps what the player typed, with its offset.
    if (input.dataset.utc && !offset.value) input.value = wallTime(new Date(input.dataset.utc));
    function remember() {
      var chosen = new Date(input.value); // a value without a zone is read as local time
      if (!isNaN(chosen)) offset.value = String(-chosen.getTimezoneOffset());
    }
    remember();
    input.addEventListener("change", remember);
    input.form.addEventListener("submit", remember);
    var help = document.getElementById(input.id + "_helptext");
    if (help && input.dataset.localHelp) {
      help.textContent = input.dataset.localHelp.replace("%(zone)s", zoneName());
    }
  }

  function start() {
    localise(document);
    document.querySelectorAll("input[data-local-time=field]").forEach(field);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
  // The arena's page: its live part comes again over the socket.
  new MutationObserver(function () {
    localise(document);
  }).observe(document.body, { childList: true, subtree: true });
})();
