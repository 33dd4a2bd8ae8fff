// The match's chat, or an arena's: lines pushed over the page's socket (#chat-news,
// games/presentation/chat.py) go into the page's log ([data-chat-log]: the match's move log,
// between the moves, or the arena's chat) once each, in the order they come; a removed line
// leaves every open page at once. The log is a polite live region: a screen reader hears each
// new line once. An optional short sound for a line from someone else; the message box empties
// once its line was taken, with a count of its characters; "/" goes to the quick messages;
// a line's flag reports it.
(function () {
  "use strict";

  function box() {
    return document.querySelector("[data-chat-log]");
  }

  function log() {
    var shown = box();
    return shown && shown.querySelector("ol");
  }

  var audio = null; // one for the page: a browser allows only a few

  function beep() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    try {
      audio = audio || new Context();
      var tone = audio.createOscillator();
      var gain = audio.createGain();
      tone.frequency.value = 660;
      gain.gain.value = 0.05;
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.08);
    } catch (e) {
      /* no sound: nothing lost */
    }
  }

  function take() {
    var news = document.getElementById("chat-news");
    var list = log();
    if (!news || !list) return;
    var removed = news.dataset.removed;
    if (removed) {
      var gone = document.getElementById("chat-" + removed);
      if (gone) gone.remove();
    }
    var heard = false;
    Array.prototype.slice.call(news.children).forEach(function (line) {
      if (list.querySelector("[data-chat='" + line.dataset.chat + "']")) {
        line.remove(); // already in the log (a socket that opened again)
        return;
      }
      list.appendChild(line);
      if (window.htmx) window.htmx.process(line);
      if (!line.classList.contains("mine")) heard = true;
    });
    news.removeAttribute("data-removed"); // emptied, kept: the next frame's place
    var shown = box();
    if (shown) shown.scrollTop = shown.scrollHeight;
    var panel = document.querySelector("[data-chat-panel]");
    if (heard && panel && panel.hasAttribute("data-chat-sound")) beep();
  }

  document.addEventListener("htmx:wsAfterMessage", take); // the match page's socket
  document.addEventListener("chat:news", take); // the arena page's (challenges.js)
  // An arena's log opens at its last line; a match page's log is table.js's to scroll (as
  // each board arrives: scrolled here too, as the page opens, the log moved under a reader).
  document.addEventListener("DOMContentLoaded", function () {
    var shown = box();
    if (shown && !document.getElementById("board")) shown.scrollTop = shown.scrollHeight;
  });

  // A line sent: the box empties for the next. A refusal (a 4xx, its words in #chat-status:
  // the site swaps those in, so htmx calls them successful) keeps it, to be changed.
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.target.closest && event.target.closest("[data-chat-form]");
    var xhr = event.detail.xhr;
    if (form && xhr && xhr.status >= 200 && xhr.status < 300) {
      form.reset();
      count(form);
    }
  });

  // The box's count of characters, out of the most a line may have (maxlength stops more).
  function count(form) {
    var box = form.querySelector("#chat-text");
    var shown = form.querySelector("[data-chat-count]");
    if (!box || !shown) return;
    var most = Number(shown.dataset.most || box.maxLength);
    shown.textContent = box.value.length + " / " + most;
    shown.parentNode.classList.toggle("near", most - box.value.length <= 10);
  }

  document.addEventListener("input", function (event) {
    var form = event.target.closest && event.target.closest("[data-chat-form]");
    if (form) count(form);
  });

  // Keys: "/" goes to the quick messages (a key table.js leaves alone: its digits play cards,
  // its letters make calls), Escape goes back to where the player was. Caught before
  // table.js's own listener (capture, on the window), which would otherwise take the key to
  // hurry the table on.
  var cameFrom = null;
  window.addEventListener(
    "keydown",
    function (event) {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      var target = event.target;
      var panel = document.querySelector("[data-chat-panel]");
      if (!panel) return;
      var typing = target.closest && target.closest("input, select, textarea, [contenteditable]");
      var slash = event.key === "/" || (event.code === "Slash" && !event.shiftKey);
      if (slash && !typing) {
        var first = panel.querySelector("[data-phrase]");
        if (!first) return;
        event.preventDefault();
        if (!panel.contains(document.activeElement)) cameFrom = document.activeElement;
        first.focus();
        first.scrollIntoView({ block: "nearest", inline: "nearest" });
      } else if (event.key === "Escape" && panel.contains(target)) {
        event.preventDefault();
        var back = cameFrom && cameFrom !== document.body && document.contains(cameFrom);
        back = back ? cameFrom : null;
        back = back || document.querySelector("#board button[data-key]:not([disabled])") || box();
        if (back) back.focus();
        cameFrom = null;
      }
    },
    true
  );

  // A line's flag: report it (the moderators' queue), after the reader says so.
  document.addEventListener("click", function (event) {
    var flag = event.target.closest && event.target.closest("[data-chat-report]");
    if (!flag) return;
    var panel = document.querySelector("[data-chat-panel]");
    if (!panel || !window.confirm(panel.dataset.reportConfirm || "")) return;
    var token = panel.querySelector("[name=csrfmiddlewaretoken]");
    var body = new URLSearchParams();
    body.set("csrfmiddlewaretoken", token ? token.value : "");
    body.set("match", panel.dataset.match || "");
    body.set("arena", panel.dataset.arena || "");
    fetch("/chat/" + flag.dataset.chatReport + "/report", {
      method: "POST",
      body: body,
      headers: { "HX-Request": "true" },
      credentials: "same-origin",
    })
      .then(function (answer) {
        return answer.text();
      })
      .then(function (html) {
        var status = document.getElementById("chat-status");
        if (status) status.innerHTML = html;
        flag.disabled = true;
      });
  });
})();
