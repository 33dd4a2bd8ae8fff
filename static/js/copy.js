// The invite's Copy button: the Clipboard API where the page may use it (https, localhost),
// else the old select-and-copy; if neither works the link is selected for the player to copy.
(function () {
  "use strict";

  function fallback(text) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    var done = false;
    try {
      done = document.execCommand("copy");
    } catch (e) {
      done = false;
    }
    area.remove();
    return done ? Promise.resolve() : Promise.reject(new Error("copy refused"));
  }

  function copy(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text).catch(function () {
        return fallback(text);
      });
    }
    return fallback(text);
  }

  // Boards pushed in bring a new button: "Copied" stays on it for the rest of its 3 s.
  var copiedUntil = 0;

  function buttons() {
    return document.querySelectorAll("[data-action=copy-invite]");
  }

  function showCopied() {
    var copied = Date.now() < copiedUntil;
    buttons().forEach(function (button) {
      if (copied === button.hasAttribute("data-copied")) return;
      if (copied) {
        button.dataset.label = button.dataset.label || button.textContent;
        button.textContent = button.dataset.copiedWords;
        button.dataset.copied = "";
      } else {
        button.textContent = button.dataset.label || button.textContent;
        delete button.dataset.copied;
      }
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-action=copy-invite]");
    if (!button) return;
    copy(button.dataset.copy).then(
      function () {
        copiedUntil = Date.now() + 3000;
        showCopied();
        setTimeout(showCopied, 3000);
      },
      function () {
        var link = button.parentElement.querySelector("[data-invite]");
        if (link) window.getSelection().selectAllChildren(link);
        var label = button.textContent;
        button.textContent = button.dataset.failedWords;
        setTimeout(function () {
          button.textContent = label;
        }, 3000);
      }
    );
  });
  document.addEventListener("htmx:afterSettle", showCopied);
  document.addEventListener("htmx:wsAfterMessage", showCopied);
})();
