// The player's own socket, on every page (/ws/me/): the challenges banner, kept current, and
// a push that takes the page to a match that has just started for the player (an accepted
// rematch or challenge); on the list of the players one follows, the list when one of them
// comes online. A plain WebSocket: the match and lobby sockets are htmx's.
(function () {
  "use strict";
  if (!document.getElementById("challenges")) return; // logged out: nothing to hear

  var delay = 1000;
  var leaving = null; // the match page this page is on its way to
  // Back on this page from the browser's history: it is going nowhere now.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) leaving = null;
  });

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
    // A moderator has just suspended the player: atop the page, with their reason (the
    // socket closes next, 4423, and the match page's board stops: live.js).
    var suspended = template.content.getElementById("suspended");
    if (suspended) {
      var old = document.getElementById("suspended");
      if (old) old.remove();
      var main = document.querySelector("main") || document.body;
      main.insertBefore(suspended, main.firstChild);
      return;
    }
    // One match can be told twice at once (an arena's pairing: the player's own push and the
    // arena's live part): the page goes once. A second assign would abort the first load.
    var goto = template.content.querySelector("[data-goto]");
    if (goto && goto.dataset.goto !== window.location.pathname) {
      if (goto.dataset.goto !== leaving) {
        leaving = goto.dataset.goto;
        window.location.assign(leaving);
      }
      return;
    }
    notifyTurns(template.content.getElementById("turn-badge"));
    // The arena's chat: new lines, or one removed, for chat.js to put in the page's log.
    var news = template.content.getElementById("chat-news");
    var newsShown = document.getElementById("chat-news");
    if (news && newsShown) {
      newsShown.replaceWith(news);
      document.dispatchEvent(new CustomEvent("chat:news"));
    }
    ["challenges", "following", "turn-badge", "arena-live"].forEach(function (id) {
      var fresh = template.content.getElementById(id);
      var shown = document.getElementById(id);
      if (!fresh || !shown) return;
      fresh.querySelectorAll("input[data-csrf]").forEach(function (input) {
        input.value = csrfToken();
      });
      fresh.querySelectorAll("input[data-next]").forEach(function (input) {
        input.value = window.location.pathname + window.location.search;
      });
      if (id === "challenges") notifySeeks(fresh);
      // A box being ticked is kept as it is (hx-preserve does so for htmx's own swaps).
      shown.querySelectorAll("[hx-preserve][id]").forEach(function (kept) {
        var twin = fresh.querySelector("#" + kept.id);
        if (twin) twin.replaceWith(kept);
      });
      shown.replaceWith(fresh);
      if (window.htmx) window.htmx.process(fresh); // the list asks again every minute
    });
  }

  // A followed player opened a match, or an arena the player joined started: a browser
  // notification too, if the player turned them on (alerts.js) and this tab is not the one
  // they are looking at.
  // The banner's first push, as the page opens, tells nothing new.
  var seeksSeen = null;
  function notifySeeks(fresh) {
    var quiet = seeksSeen === null;
    seeksSeen = seeksSeen || {};
    fresh.querySelectorAll("[data-seek], [data-arena-started]").forEach(function (seek) {
      var key = seek.dataset.seek ? "seek" + seek.dataset.seek : "arena" + seek.dataset.arenaStarted;
      if (seeksSeen[key]) return;
      seeksSeen[key] = true;
      if (!quiet && window.euchreNotifyOn && window.euchreNotifyOn() && document.hidden) {
        new Notification(seek.querySelector("span").textContent.trim());
      }
    });
  }

  // More matches wait for the player's move than this browser last saw (a correspondence
  // opponent moved while the player was away, or on another page): a browser notification,
  // if the player turned them on (alerts.js).
  function notifyTurns(badge) {
    if (!badge) return;
    var count = Number(badge.dataset.turns || 0);
    var seen = Number(localStorage.getItem("euchre-turns") || 0);
    localStorage.setItem("euchre-turns", String(count));
    if (count > seen && window.euchreNotifyOn && window.euchreNotifyOn() &&
        !document.getElementById("board")) {
      new Notification(badge.textContent.trim());
    }
  }

  // An arena's page: its live part (standings, clock, what the player may do) comes over
  // this socket as it changes; so does, at the end of an arena match, what became of the
  // pairing (the next match: the page goes there). Only while the socket is closed (the
  // server restarting, the network changing, too many pages open) does the page ask, every 30 s.
  var socketOpen = false;
  window.setInterval(function () {
    var live = document.querySelector("[data-arena-live]");
    if (socketOpen || !live) return;
    fetch(live.dataset.arenaLive, { headers: { "HX-Request": "true" }, credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : ""; })
      .then(function (html) { if (html && !socketOpen) show(html); })
      .catch(function () {});
  }, 30000);

  function query() {
    var arena = document.querySelector("[data-arena-page]");
    // Its chat's lines after the last one the page was made with (chat.js keeps each once).
    var chat = document.querySelector("[data-chat-log][data-chat-after]");
    if (arena) {
      return "?arena=" + arena.dataset.arenaPage + (chat ? "&chat=" + chat.dataset.chatAfter : "");
    }
    var next = document.querySelector("[data-arena-next]");
    if (next) return "?arena=" + next.dataset.arenaNext + "&after=" + next.dataset.after;
    return document.getElementById("following") ? "?following=1" : "";
  }

  // A match of an arena ended while the page was open: the socket opens again to hear the
  // arena (its first answer says whether the next match has begun already).
  var socket = null;
  var asked = "";
  function askedAgain() {
    if (socket && socketOpen && query() !== asked) socket.close();
  }
  document.addEventListener("htmx:afterSettle", askedAgain);
  document.addEventListener("htmx:wsAfterMessage", askedAgain); // the board's pushes

  function connect() {
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    asked = query();
    socket = new WebSocket(scheme + window.location.host + "/ws/me/" + asked);
    socket.onopen = function () {
      delay = 1000;
      socketOpen = true;
    };
    socket.onmessage = function (event) {
      show(event.data);
      // Heard: its first frame is in (what the page missed, too), the pushes follow.
      document.body.setAttribute("data-page-socket", "live");
    };
    socket.onclose = function (event) {
      socketOpen = false;
      document.body.removeAttribute("data-page-socket");
      // Logged out elsewhere, or too many of the player's pages are open (this one then
      // shows no live banner; the others do).
      if (event.code === 4401 || event.code === 4423 || event.code === 4429) return;
      setTimeout(connect, delay + Math.random() * 500);
      delay = Math.min(delay * 2, 30000);
    };
  }

  connect();
})();
