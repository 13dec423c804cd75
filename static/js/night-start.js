"use strict";
// Moving a player to another table: choosing the table moves him there at once (he joins the
// end of its seat order) and the tables' counts follow. Without JavaScript the choice is
// posted as it is and the server seats him there.
(function () {
  var form = document.getElementById("night-form");
  if (!form) return;
  var min = parseInt(form.dataset.min, 10);
  var max = parseInt(form.dataset.max, 10);
  function list(number) {
    return form.querySelector('.night-table[data-table="' + number + '"] .night-seats');
  }
  function recount() {
    form.querySelectorAll(".night-table").forEach(function (table) {
      var count = table.querySelectorAll(".night-seats li").length;
      table.querySelector(".table-count").textContent = count;
      table.classList.toggle("off-size", count > 0 && (count < min || count > max));
    });
  }
  form.addEventListener("change", function (event) {
    var select = event.target;
    if (select.matches(".night-seats select")) {
      var target = list(select.value);
      if (target) target.appendChild(select.closest("li"));
      recount();
    }
    if (select.name === "host") {
      form.querySelectorAll(".night-seats li").forEach(function (li) {
        li.classList.toggle("host", li.dataset.id === select.value);
      });
    }
  });
  recount();
})();
