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
