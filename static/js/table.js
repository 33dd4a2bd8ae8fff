// The match page, between boards: play what a board brings (a card's flight, a trick's beat,
// a hand's end and the next deal) before the table rests, keep the
// move log (appending only new lines, so a screen reader hears each once), call the player back
// when it is their turn (tab title, favicon, an optional sound, an opt-in notification), and
// play from the keyboard (focus on the first playable control, 1-6 for cards, letters for calls).
(function () {
  "use strict";
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
  // The lines of hands a board no longer carries stay (the log holds the match since the page
  // opened), up to LOG_KEEPS lines: older ones leave from the top, and only while the rest
  // still fill the box, so that no line the player may be looking at moves.
  var logVersion = -1;
  var LOG_KEEPS = 300;

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
    var added = [];
    source.querySelectorAll("li[data-key]").forEach(function (line) {
      if (handOf(line.dataset.key) < shownHand) return; // a hand the log has moved past
      if (!log.querySelector("li[data-key='" + line.dataset.key + "']")) {
        var copy = line.cloneNode(true);
        log.appendChild(copy);
        added.push(copy);
      }
    });
    var lines = log.children;
    while (lines.length > LOG_KEEPS && box.scrollHeight - lines[0].offsetHeight > box.clientHeight) {
      lines[0].remove();
    }
    box.scrollTop = box.scrollHeight;
    return added;
  }

  // What a board brings is played before the table rests, the same for players and
  // spectators; a page opened afresh (or reloaded) shows the table at rest at once. By
  // default (site.css) a board is at rest: the classes and data-stage set here, on a board
  // bringing a move, as it is swapped in (before the browser paints), set it in motion.
  //  - a card played flies in from its player's side;
  //  - a completed trick stays on the table PAUSE_MS (or until the next card), then goes to
  //    its winner; after a match's last trick the result waits for it (BEAT_MS);
  //  - a hand's end: its last trick with its winner marked (the scoreboard still reads that
  //    hand's tricks), the trick to its winner, at the relaxed pace the hand's summary large
  //    in the middle of the table, then the next deal from the stock. At the quick pace the
  //    summary is beside the table from the last trick on, and stays there through the deal.
  //    The next hand's controls are hidden and inert until its cards are on the table. A tap
  //    on the table or a key hurries it on (a key's call is then made); a board arriving
  //    during it waits for its end.
  // The stages' lengths come with the page (#table-paces: games.models.PACE_STAGES, at the
  // pace the player chose, data-pace); the server starts the next hand's first turn (its
  // clock, the computer's move) once the slower of the two players' tables has played them
  // (games.models.HAND_END_BY_PACE).
  function paceOf() {
    var source = document.getElementById("table-paces");
    var page = document.querySelector("[data-pace]");
    var paces = source ? JSON.parse(source.textContent) : {};
    var pace = paces[page ? page.dataset.pace : "quick"] || paces.quick;
    // A page without them (a puzzle, the guided hand): the quick pace's.
    return pace || { trick: 800, collect: 300, summary: 0, deal_step: 50, deal_flight: 300 };
  }
  var PACE = paceOf();
  var PAUSE_MS = PACE.trick;
  var COLLECT_MS = PACE.collect; // site.css: .trick.done .play's transition (--collect-ms)
  var SUMMARY_MS = PACE.summary; // 0: the summary is beside the table, no stage of its own
  var DEAL_STEP_MS = PACE.deal_step; // a card leaves the stock every DEAL_STEP_MS ...
  var DEAL_FLIGHT_MS = PACE.deal_flight; // ... and is this long in the air (--deal-flight-ms)
  document.documentElement.style.setProperty("--collect-ms", COLLECT_MS + "ms");
  document.documentElement.style.setProperty("--deal-flight-ms", DEAL_FLIGHT_MS + "ms");
  var FORCED_CARD = !!document.querySelector("[data-pace][data-forced-card]");
  var BEAT_MS = 2000; // site.css: .felt.beat > .result-banner
  var beatUntil = 0;

  function lastLine(element) {
    var lines = element ? element.querySelectorAll("[data-log-source] li[data-key]") : [];
    return lines.length ? lines[lines.length - 1].dataset.key : "";
  }

  function versionOf(element) {
    return element ? Number(element.getAttribute("data-version") || 0) : -1;
  }

  function centre(element) {
    var r = element.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  }

  // How far ``element`` is turned on the page (its own rotate and its parents', up to the
  // felt: the opponent's fan is upside down), in radians.
  function turned(element) {
    var angle = 0;
    for (var e = element; e && !e.classList.contains("felt"); e = e.parentElement) {
      var value = parseFloat(getComputedStyle(e).rotate);
      if (!isNaN(value)) angle += value;
    }
    return angle * Math.PI / 180;
  }

  // The offset from ``element`` to ``target`` (both on the page) as the element's transform
  // reads it (after its turn), its whole box kept on the felt where it goes.
  function offset(element, target, name) {
    var from = centre(element);
    var to = centre(target);
    var felt = element.closest(".felt").getBoundingClientRect();
    var box = element.getBoundingClientRect();
    to.x = Math.min(Math.max(to.x, felt.left + box.width / 2), felt.right - box.width / 2);
    to.y = Math.min(Math.max(to.y, felt.top + box.height / 2), felt.bottom - box.height / 2);
    var dx = to.x - from.x;
    var dy = to.y - from.y;
    var a = -turned(element);
    element.style.setProperty("--" + name + "-x", dx * Math.cos(a) - dy * Math.sin(a) + "px");
    element.style.setProperty("--" + name + "-y", dx * Math.sin(a) + dy * Math.cos(a) + "px");
  }

  function sideOf(felt, mine) {
    return felt.querySelector(mine ? ".my-hand" : ".seat-top .fan") || felt;
  }

  // The card just played comes from its player's side of the table (never from outside it).
  function flights(felt) {
    felt.querySelectorAll(".trick .play.new").forEach(function (play) {
      var card = play.querySelector(".card");
      if (card) offset(card, sideOf(felt, play.classList.contains("mine")), "from");
    });
  }

  function collect(felt) {
    var done = felt.querySelector("[data-trick-pause]");
    if (!done || done.classList.contains("collected")) return;
    var winner = sideOf(felt, done.classList.contains("to-me"));
    done.querySelectorAll(".play").forEach(function (play) {
      offset(play, winner, "to");
    });
    done.classList.add("collected");
    setTimeout(function () {
      if (done.isConnected) done.hidden = true;
    }, reducedMotion.matches ? 0 : COLLECT_MS);
  }

  // The deal: the cards leave the stock one by one, to the dealer's opponent first. Resolves
  // when the last one has landed.
  function deal(felt) {
    var pile = felt.querySelector(".stock .pile");
    var mine = Array.prototype.slice.call(felt.querySelectorAll(".my-hand > *"));
    var theirs = Array.prototype.slice.call(felt.querySelectorAll(".seat-top .fan.backs > *"));
    var dealerMe = !!felt.querySelector(".stock.near-me");
    var first = dealerMe ? theirs : mine;
    var second = dealerMe ? mine : theirs;
    var order = [];
    for (var i = 0; i < Math.max(first.length, second.length); i++) {
      if (first[i]) order.push(first[i]);
      if (second[i]) order.push(second[i]);
    }
    if (!pile || !order.length || reducedMotion.matches) return Promise.resolve();
    order.forEach(function (card, n) {
      offset(card, pile, "from");
      card.style.animationDelay = n * DEAL_STEP_MS + "ms";
    });
    felt.classList.add("dealing");
    return new Promise(function (done) {
      setTimeout(done, (order.length - 1) * DEAL_STEP_MS + DEAL_FLIGHT_MS);
    });
  }

  var show = null; // the hand's end (or a pushed deal) being played: {felt, stages, timer}
  var held = null; // the newest board that came during it
  var heldKey = null; // a key pressed during it: its call is made once the table rests

  function playing() {
    return !!(show && show.felt.isConnected);
  }

  function form(felt) {
    return felt.closest("#board").querySelector("form[data-move]");
  }

  function choreograph(felt, stages) {
    show = { felt: felt, stages: stages.slice(), timer: 0 };
    var moves = form(felt);
    if (moves) moves.inert = true;
    felt.dataset.stage = stages[0];
    step(show, true);
  }

  var STAGE_MS = { trick: PAUSE_MS, collect: COLLECT_MS, summary: SUMMARY_MS };

  function step(current, first) {
    if (show !== current || !current.felt.isConnected) return;
    var stage = first ? current.stages[0] : (current.stages.shift(), current.stages[0]);
    if (!stage) return rest(current);
    current.felt.dataset.stage = stage;
    if (stage === "collect") collect(current.felt);
    if (stage === "deal") {
      deal(current.felt).then(function () { step(current); });
      return;
    }
    var ms = stage === "collect" && reducedMotion.matches ? 0 : STAGE_MS[stage];
    current.timer = setTimeout(function () { step(current); }, ms);
  }

  // The table at rest: the new hand's controls usable, then whatever waited for it.
  function rest(current) {
    clearTimeout(current.timer);
    var felt = current.felt;
    felt.removeAttribute("data-stage");
    felt.classList.remove("dealing");
    var done = felt.querySelector("[data-trick-pause]");
    if (done) done.hidden = true;
    var moves = form(felt);
    if (moves) moves.inert = false;
    show = null;
    if (held && versionOf(held) >= versionOf(board())) {
      var next = held;
      held = null;
      var previous = board();
      previous.replaceWith(next);
      if (window.htmx) window.htmx.process(next);
      arrived(next, previous);
    }
    held = null;
    if (board() !== shown) boardChanged();
    else if (!playing()) {
      focusPlayable(board());
      playForced(board());
    }
    if (heldKey) {
      var key = heldKey;
      heldKey = null;
      press(key);
    }
  }

  function hurry() {
    if (!playing()) return;
    var current = show;
    current.felt.querySelectorAll(".my-hand > *, .fan.backs > *").forEach(function (card) {
      card.style.animation = "none";
    });
    rest(current);
  }

  // A board swapped in (``previous``: the one it replaced, or null on the page's first): in
  // motion if it brings a move, at rest otherwise, or the beat carried on where it was.
  function arrived(current, previous) {
    var felt = current && current.querySelector(".felt");
    if (!felt || !previous) return;
    var moved = lastLine(current) !== lastLine(previous);
    if (!moved) {
      // Nothing was played (a rematch offered or declined, someone arrived): during the
      // beat, it goes on where it was; after it, the table stays at rest.
      if (Date.now() < beatUntil && felt.classList.contains("after-trick")) {
        var elapsed = BEAT_MS - (beatUntil - Date.now());
        felt.classList.add("beat");
        felt.querySelectorAll(":scope > *").forEach(function (part) {
          part.style.animationDelay = -elapsed + "ms";
        });
        var done = felt.querySelector("[data-trick-pause]");
        var before = previous.querySelector("[data-trick-pause]");
        if (done && before && (before.hidden || before.classList.contains("collected"))) {
          done.classList.add("collected");
          done.hidden = true;
        } else if (done) {
          setTimeout(function () { collect(felt); }, Math.max(0, PAUSE_MS - elapsed));
        }
      }
      return;
    }
    felt.classList.add("moving");
    flights(felt);
    if (felt.hasAttribute("data-hand-end")) {
      var stages = SUMMARY_MS ? ["summary", "deal"] : ["deal"];
      if (felt.querySelector("[data-trick-pause]")) stages = ["trick", "collect"].concat(stages);
      if (!SUMMARY_MS) felt.classList.add("summary-beside");
      choreograph(felt, stages);
    } else if (felt.classList.contains("dealt")) {
      choreograph(felt, ["deal"]);
    } else if (felt.classList.contains("after-trick")) {
      felt.classList.add("beat");
      beatUntil = Date.now() + BEAT_MS;
      setTimeout(function () {
        if (felt.isConnected) collect(felt); // unless the next card came first
      }, PAUSE_MS);
    }
  }

  // Boards that come while the hand's end is played wait for its end (the newest only).
  function hold(incoming) {
    if (!playing() || !incoming) return false;
    if (!held || versionOf(incoming) >= versionOf(held)) held = incoming;
    return true;
  }

  var replaced = null; // the board a swap under way replaces

  document.body.addEventListener("htmx:oobBeforeSwap", function (event) {
    var fragment = event.detail.fragment;
    var incoming = fragment && fragment.querySelector ? fragment.querySelector("#board") : null;
    if (!incoming && fragment && fragment.id === "board") incoming = fragment;
    if (!incoming || event.detail.target !== board()) return;
    if (hold(document.importNode(incoming, true))) {
      event.detail.shouldSwap = false;
      return;
    }
    replaced = board();
  });

  document.body.addEventListener("htmx:beforeSwap", function (event) {
    if (!event.detail.target || event.detail.target.id !== "board") return;
    if (playing()) {
      var holder = document.createElement("template");
      holder.innerHTML = event.detail.serverResponse || "";
      var incoming = holder.content.querySelector("#board");
      if (incoming && hold(document.importNode(incoming, true))) {
        event.detail.shouldSwap = false;
        return;
      }
    }
    replaced = board();
  });

  // Synchronous after the swap: the motion is set before the browser paints the new board.
  ["htmx:oobAfterSwap", "htmx:afterSwap"].forEach(function (name) {
    document.body.addEventListener(name, function () {
      var current = board();
      if (!replaced || !current || current === replaced) return;
      var previous = replaced;
      replaced = null;
      arrived(current, previous);
    });
  });

  // A tap on the table during the hand's end hurries it on.
  document.addEventListener("click", function (event) {
    if (playing() && event.target.closest && event.target.closest(".felt") === show.felt) hurry();
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
    return !!(window.euchreNotifyOn && window.euchreNotifyOn()); // alerts.js
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

  // A forced card (the only one the player may play) played for them, if they asked for it in
  // their settings: clicked, as the player would, once the table rests, once a board.
  var forcedVersion = -1;
  function playForced(current) {
    if (!FORCED_CARD || !current || !current.hasAttribute("data-your-turn") || playing()) return;
    var version = versionOf(current);
    var cards = current.querySelectorAll(".my-hand .card-button[data-action=play]:not([disabled])");
    if (version === forcedVersion || cards.length !== 1 || current.querySelector(".bids")) return;
    forcedVersion = version;
    cards[0].click();
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
    if (playing()) return; // the controls are usable once the table rests
    if (!first || myTurn) focusPlayable(current);
    playForced(current);
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
    var key = event.key.length === 1 ? event.key.toUpperCase() : "";
    if (!key) return;
    if (playing()) {
      event.preventDefault();
      heldKey = key; // made once the table rests, on the board then shown
      hurry();
      return;
    }
    if (press(key)) event.preventDefault();
  });

  // Leaving a match in play asks first (the browser's own question): with no page of theirs
  // open, the player's clock runs out or the opponent may claim the match. A form of the page
  // that is not htmx's (the language, say) reloads it: no question then.
  var submitting = false;
  document.addEventListener("submit", function (event) {
    if (!event.defaultPrevented) submitting = true; // htmx prevents its own forms' default
  });
  window.addEventListener("beforeunload", function (event) {
    var current = board();
    if (submitting || !current || !current.hasAttribute("data-leaving-costs")) return;
    event.preventDefault();
    event.returnValue = ""; // older browsers ask only when it is set
  });

  function press(key) {
    var current = board();
    if (!current || !current.hasAttribute("data-your-turn")) return false;
    var slot = current.querySelector(
      ".my-hand [data-key='" + key + "'], .bids [data-key='" + key + "']"
    );
    if (!slot) return false;
    if (slot.matches("button:not([disabled])")) slot.click();
    return true;
  }

})();
