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

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-action=copy-invite]");
    if (!button) return;
    var label = button.dataset.label || button.textContent;
    button.dataset.label = label;
    copy(button.dataset.copy).then(
      function () {
        button.textContent = button.dataset.copiedWords;
        button.dataset.copied = "";
      },
      function () {
        var link = button.parentElement.querySelector("[data-invite]");
        if (link) window.getSelection().selectAllChildren(link);
        button.textContent = button.dataset.failedWords;
      }
    );
    setTimeout(function () {
      button.textContent = label;
      delete button.dataset.copied;
    }, 3000);
  });
})();
