// A player's name cut to fit the table ("comput…") is one tap from whole: the name on the
// opponent's plate is a button that lets it wrap, and a second tap cuts it again. The choice
// holds while boards are pushed in (each brings a new plate).
(function () {
  "use strict";
  var whole = false;

  function show() {
    document.querySelectorAll("[data-whole-name]").forEach(function (name) {
      name.classList.toggle("whole", whole);
    });
  }

  document.addEventListener("click", function (event) {
    if (!(event.target.closest && event.target.closest("[data-whole-name]"))) return;
    whole = !whole;
    show();
  });
  document.addEventListener("htmx:afterSettle", show);
  document.addEventListener("htmx:wsAfterMessage", show);
})();
