// A player's name cut to fit the table ("comput…") is one tap from whole: the name on the
// opponent's plate is a button that lets it wrap, and a second tap cuts it again.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var name = event.target.closest && event.target.closest("[data-whole-name]");
    if (name) name.classList.toggle("whole");
  });
})();
