// The player's alert and look settings, wherever they are shown (the match page's side panel,
// the settings page): the opt-in turn notifications (the browser asks once; the choice is
// kept in this browser), and the page following a new theme or deck at once.
(function () {
  "use strict";
  function notifyOn() {
    return window.Notification && Notification.permission === "granted" &&
      localStorage.getItem("euchre-notify") === "on";
  }
  window.euchreNotifyOn = notifyOn; // table.js: whether to notify on my turn

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
    if (!button) return;
    if (!window.Notification) {
      button.hidden = true; // this browser cannot notify
      return;
    }
    button.removeAttribute("data-pending");
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
