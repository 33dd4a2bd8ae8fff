// The language switchers change language as soon as one is chosen; without JavaScript their
// button does the same.
(function () {
  "use strict";
  document.querySelectorAll("[data-language-form]").forEach(function (form) {
    var choice = form.querySelector("[data-language-choice]");
    var button = form.querySelector("[data-language-submit]");
    if (button) button.hidden = true;
    choice.addEventListener("change", function () { form.submit(); });
  });
})();
// "Improve this translation" sends the words of the page it is on, so the review page lists the
// messages this page showed (without JavaScript it lists them all).
(function () {
  "use strict";
  document.querySelectorAll("[data-improve-form]").forEach(function (form) {
    form.addEventListener("submit", function () {
      var main = document.querySelector("main") || document.body;
      form.querySelector("[data-page-text]").value = main.innerText.slice(0, 30000);
    });
  });
})();
