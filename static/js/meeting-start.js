"use strict";
// Tap-to-seat: a tapped player joins the end of the seat order; arrows move him, ✕ sends
// him back to the bench. Without JavaScript the ticked boxes are seated in listing order.
(function () {
  var seats = document.getElementById("seats");
  var bench = document.getElementById("bench");
  var template = document.getElementById("seat-template");
  function seat(box) {
    var chip = box.closest(".chip");
    box.checked = false;
    var li = template.content.firstElementChild.cloneNode(true);
    li.dataset.id = chip.dataset.id;
    li.querySelector("input").value = chip.dataset.id;
    li.querySelector(".seat-name").textContent = chip.dataset.name;
    var team = li.querySelector("select");
    if (team) team.name = "team_" + chip.dataset.id;
    seats.appendChild(li);
    chip.hidden = true;
  }
  bench.addEventListener("change", function (event) {
    if (event.target.checked) seat(event.target);
  });
  // A box ticked on a slow phone before this script ran (or restored by the browser on
  // "back") is seated too, in the order the boxes are listed.
  bench.querySelectorAll("input[type=checkbox]:checked").forEach(seat);
  seats.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-move]");
    if (!button) return;
    var li = button.closest("li");
    var move = button.dataset.move;
    if (move === "up" && li.previousElementSibling) seats.insertBefore(li, li.previousElementSibling);
    if (move === "down" && li.nextElementSibling) seats.insertBefore(li.nextElementSibling, li);
    if (move === "out") {
      var chip = bench.querySelector('.chip[data-id="' + li.dataset.id + '"]');
      if (chip) { chip.hidden = false; } else {
        chip = document.createElement("label");
        chip.className = "chip";
        chip.dataset.id = li.dataset.id;
        chip.dataset.name = li.querySelector(".seat-name").textContent;
        chip.innerHTML = '<input type="checkbox" value="' + li.dataset.id + '" name="players"> + ';
        chip.appendChild(document.createTextNode(chip.dataset.name));
        bench.appendChild(chip);
      }
      li.remove();
    }
  });
  // Scores carried over: one line per seated player, in seat order; a player sent back
  // to the bench loses his line (and what was typed in it).
  var carry = document.getElementById("carry-players");
  function syncCarry() {
    if (!carry) return;
    var ids = Array.prototype.map.call(seats.querySelectorAll("li"), function (li) { return li.dataset.id; });
    carry.querySelectorAll(".carry-row").forEach(function (row) {
      var seated = ids.indexOf(row.dataset.id) >= 0;
      row.hidden = !seated;
      if (!seated) row.querySelector("input").value = "";
    });
    ids.forEach(function (id) {
      var row = carry.querySelector('.carry-row[data-id="' + id + '"]');
      if (row) carry.appendChild(row);
    });
  }
  new MutationObserver(syncCarry).observe(seats, { childList: true });
  syncCarry();
})();
