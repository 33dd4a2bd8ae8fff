// Every page: registers the service worker (/sw.js: static/js/sw.js) and tells it the page's
// language, so that the page it shows with the network gone speaks the player's language; the
// worker answers with the language it keeps (<html data-offline-ready>). On the settings
// page, the Install button (templates/partials/install_settings.html) when the browser
// offers to install the site.
(function () {
  "use strict";
  var root = document.documentElement;
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.addEventListener("message", function (event) {
      var data = event.data || {};
      if (data.type === "offline-ready") root.dataset.offlineReady = data.language || "";
    });
    navigator.serviceWorker.register("/sw.js", {scope: "/"}).catch(function () {
      // no worker (a private window may refuse it): the site works as before
    });
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.active) {
        registration.active.postMessage({type: "language", language: root.lang});
      }
    });
  }

  var section = document.querySelector("[data-install]");
  var offer = null;  // the browser's beforeinstallprompt, kept for the button
  function show(state) {
    if (!section) return;
    section.dataset.install = state;
    section.querySelectorAll("[data-install-when]").forEach(function (part) {
      part.hidden = part.dataset.installWhen !== state;
    });
  }
  if (window.matchMedia("(display-mode: standalone)").matches) show("installed");
  window.addEventListener("beforeinstallprompt", function (event) {
    event.preventDefault();  // the button asks, not the browser's own bar
    offer = event;
    show("offered");
  });
  window.addEventListener("appinstalled", function () {
    offer = null;
    show("installed");
  });
  if (!section) return;
  section.querySelector("[data-action=install]").addEventListener("click", function () {
    if (!offer) return;
    var asked = offer;
    offer = null;  // the browser asks once per offer
    asked.prompt();
    asked.userChoice.then(function (choice) {
      show(choice.outcome === "accepted" ? "installed" : "none");
    });
  });
})();
