// The match page, between boards: let a trick just completed sit on the table for a beat, keep the
// move log (appending only new lines, so a screen reader hears each once), call the player back
// when it is their turn (tab title, favicon, an optional sound, an opt-in notification), and
// play from the keyboard (focus on the first playable control, 1-6 for cards, letters for calls).
(function () {
  "use strict";
  var PAUSE_MS = 1500;
  var baseTitle = document.title;
  var icons = Array.prototype.slice.call(document.querySelectorAll("link[rel=icon][data-turn]"));
  icons.forEach(function (link) {
    link.dataset.plain = link.getAttribute("href");
  });
  var shown = null; // the board element last handled
  var wasMyTurn = false;
  var reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

  function board() {
    return document.getElementById("board");
  }

  // The log appends the lines of newer versions only: a board that repeats a version (who is at
  // the table changed) changes nothing, and a hand the log has moved past never comes back.
  var logVersion = -1;

  function handOf(key) {
    return Number(String(key).split("-")[0]);
  }

  function syncLog(source, version) {
    var box = document.getElementById("move-log");
    var log = box && box.querySelector("ol");
    if (!log || !source || version <= logVersion) return [];
    logVersion = version;
    var shownHand = -1;
    log.querySelectorAll("li[data-key]").forEach(function (line) {
      shownHand = Math.max(shownHand, handOf(line.dataset.key));
    });
    var keep = {};
    var added = [];
    source.querySelectorAll("li[data-key]").forEach(function (line) {
      keep[line.dataset.key] = true;
      if (handOf(line.dataset.key) < shownHand) return; // a hand the log has moved past
      if (!log.querySelector("li[data-key='" + line.dataset.key + "']")) {
        var copy = line.cloneNode(true);
        log.appendChild(copy);
        added.push(copy);
      }
    });
    log.querySelectorAll("li[data-key]").forEach(function (line) {
      if (!keep[line.dataset.key]) line.remove(); // a hand older than the log keeps
    });
    box.scrollTop = box.scrollHeight;
    return added;
  }

  function pauseTrick(current) {
    var done = current.querySelector("[data-trick-pause]");
    if (!done) return;
    // The trick is collected PAUSE_MS into its beat, even on a board sent again during it.
    var during = lastLine(current) === beatLine && Date.now() < beatUntil;
    var since = during ? Date.now() - (beatUntil - BEAT_MS) : 0;
    setTimeout(function () {
      if (!done.isConnected) return; // the next card came first
      done.classList.add("collected");
      setTimeout(function () {
        if (done.isConnected) done.hidden = true;
      }, reducedMotion.matches ? 0 : 450);
    }, Math.max(0, PAUSE_MS - since));
  }

  function lastLine(element) {
    var lines = element ? element.querySelectorAll("[data-log-source] li[data-key]") : [];
    return lines.length ? lines[lines.length - 1].dataset.key : "";
  }

  // The beat (the trick on the table, then the hand's summary or the match's result) is for a
  // trick just played. A page opened afresh shows the summary or result at once (the trick is
  // collected after its beat); a board sent again for something else (the socket's first
  // board, the opponent arriving, a rematch offered or declined) after the beat shows the table
  // at rest, instead of the result hiding again for two seconds and the trick coming back.
  var BEAT_MS = 2000; // static/css/site.css: the after-the-trick animation
  var beatUntil = 0;
  var beatLine = null; // the last line of the board whose beat is (or was) played

  function showAtOnce(element) {
    var felt = element.querySelector(".felt.after-trick");
    if (felt) felt.classList.remove("after-trick");
  }

  // A board that replaces one with the same last line (nothing was played: a rematch offered
  // or declined, someone arrived) carries the beat on: during it, where it is; after it, the
  // table at rest, instead of the result hiding again for two seconds and the trick coming
  // back. Pushed boards are handled before their swap, the answers to the page's own forms
  // (a click on "Decline") right after it, before the browser paints.
  function carryOver(incoming, previous) {
    if (!incoming || !previous || incoming === previous ||
        lastLine(incoming) !== lastLine(previous)) {
      return;
    }
    if (Date.now() < beatUntil) {
      var elapsed = BEAT_MS - (beatUntil - Date.now());
      incoming.querySelectorAll(".felt.after-trick > *").forEach(function (part) {
        part.style.animationDelay = -elapsed + "ms";
      });
      return;
    }
    showAtOnce(incoming);
    var before = previous.querySelector("[data-trick-pause]");
    var done = incoming.querySelector("[data-trick-pause]");
    if (done && before && (before.hidden || before.classList.contains("collected"))) {
      done.classList.add("collected");
      done.hidden = true;
    }
  }

  document.body.addEventListener("htmx:oobBeforeSwap", function (event) {
    var fragment = event.detail.fragment;
    var incoming = fragment && fragment.querySelector ? fragment.querySelector("#board") : null;
    if (event.detail.target === board()) carryOver(incoming, board());
  });

  document.body.addEventListener("htmx:afterSwap", function (event) {
    var old = event.detail.target;
    if (old && old.id === "board" && !old.isConnected) carryOver(board(), old);
  });

  // A short tone (no audio file to load): higher for my turn, lower for their card.
  var audio = null;
  function beep(frequency) {
    var settings = document.getElementById("alert-settings");
    if (!settings || settings.dataset.sound !== "on") return;
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      var oscillator = audio.createOscillator();
      var gain = audio.createGain();
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.15, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.18);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start();
      oscillator.stop(audio.currentTime + 0.2);
    } catch (e) {
      /* no sound in this browser */
    }
  }

  function notifyOn() {
    return window.Notification && Notification.permission === "granted" &&
      localStorage.getItem("euchre-notify") === "on";
  }

  function callBack(current, myTurn) {
    document.title = myTurn && current.dataset.turnTitle ? current.dataset.turnTitle : baseTitle;
    icons.forEach(function (link) {
      link.setAttribute("href", myTurn ? link.dataset.turn : link.dataset.plain);
    });
    if (myTurn && !wasMyTurn) {
      beep(880);
      if (document.hidden && notifyOn()) {
        var prompt = current.querySelector("[data-prompt]");
        new Notification(current.dataset.turnTitle || baseTitle, {
          body: prompt ? prompt.textContent : "",
          tag: "euchre-turn"
        });
      }
    }
  }

  // Focus follows the play, unless the player is busy elsewhere (the language, a report).
  function focusPlayable(current) {
    var active = document.activeElement;
    var free = !active || active === document.body || !active.isConnected ||
      current.contains(active);
    if (!free) return;
    var target = current.querySelector(".bids button:not([disabled])") ||
      current.querySelector(".card-button:not([disabled])") ||
      current.querySelector("form[data-move] button:not([disabled])") ||
      current.querySelector("[data-focus], [data-result] a");
    if (target) target.focus({ preventScroll: !target.matches("button") });
  }

  function boardChanged() {
    var current = board();
    if (!current || current === shown) return;
    var first = shown === null;
    shown = current;
    var added = syncLog(current.querySelector("[data-log-source]"),
      Number(current.getAttribute("data-version") || 0));
    var myTurn = current.hasAttribute("data-your-turn");
    if (!first && added.some(function (line) {
      return line.classList.contains("log-play") && !line.classList.contains("mine");
    })) {
      beep(440);
    }
    callBack(current, myTurn);
    wasMyTurn = myTurn;
    var line = lastLine(current);
    if (first) {
      showAtOnce(current);
      beatLine = line;
    } else if (current.querySelector(".felt.after-trick") && line !== beatLine) {
      beatUntil = Date.now() + BEAT_MS;
      beatLine = line;
    }
    pauseTrick(current);
    if (!first || myTurn) focusPlayable(current);
  }

  ["htmx:afterSettle", "htmx:oobAfterSwap", "htmx:wsAfterMessage", "htmx:load"].forEach(
    function (name) {
      document.body.addEventListener(name, function () {
        setTimeout(boardChanged, 0);
      });
    }
  );
  boardChanged();

  // Keys: 1-6 play (or discard) the n-th card of the hand; a call's letter makes that call.
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
    var target = event.target;
    if (target.closest && target.closest("input, select, textarea, [contenteditable]")) return;
    var current = board();
    if (!current || !current.hasAttribute("data-your-turn")) return;
    var key = event.key.length === 1 ? event.key.toUpperCase() : "";
    if (!key) return;
    var slot = current.querySelector(
      ".my-hand [data-key='" + key + "'], .bids [data-key='" + key + "']"
    );
    if (!slot) return;
    event.preventDefault();
    if (slot.matches("button:not([disabled])")) slot.click();
  });

  // Opt-in notifications: the browser asks once; the choice is kept in this browser.
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-action=notify]");
    if (!button) return;
    if (notifyOn()) {
      localStorage.setItem("euchre-notify", "off");
      showNotify();
      return;
    }
    Notification.requestPermission().then(function (answer) {
      localStorage.setItem("euchre-notify", answer === "granted" ? "on" : "off");
      showNotify();
    });
  });

  function showNotify() {
    var button = document.querySelector("[data-action=notify]");
    if (!button || !window.Notification) return;
    button.hidden = false;
    var blocked = Notification.permission === "denied";
    button.disabled = blocked;
    button.setAttribute("aria-pressed", notifyOn() ? "true" : "false");
    button.textContent = blocked ? button.dataset.notifyBlocked
      : notifyOn() ? button.dataset.notifyOn : button.dataset.notifyOff;
  }
  showNotify();
  document.body.addEventListener("htmx:afterSwap", showNotify); // the sound switch re-renders

  // The table's look, chosen in the settings beside the board: the page follows at once.
  document.body.addEventListener("htmx:afterSwap", function () {
    var look = document.getElementById("look-settings");
    if (!look) return;
    document.documentElement.dataset.theme = look.dataset.theme;
    document.documentElement.toggleAttribute("data-deck", look.dataset.deck === "four");
    if (look.dataset.deck === "four") document.documentElement.dataset.deck = "four";
  });
})();
