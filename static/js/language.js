// The language switcher changes language as soon as one is chosen; without JavaScript its
// button does the same.
(function () {
  "use strict";
  var form = document.querySelector("[data-language-form]");
  if (!form) return;
  var choice = form.querySelector("[data-language-choice]");
  var button = form.querySelector("[data-language-submit]");
  if (button) button.hidden = true;
  choice.addEventListener("change", function () { form.submit(); });
})();
