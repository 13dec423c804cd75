/* The hand-entry forms' helpers (templates/hands/*.html), one file for every game: each part
   acts only inside its own form ([data-hand-form=…] or .dk-form). Handlers are delegated once
   on the document, so they survive htmx swapping a form in and out, and each form works
   without them (they only add sums, steppers and one-tap fills). */
"use strict";

/* Doppelkopf: announcements are kept in the order they were made, each tap appends one; the
   quick buttons under the eyes field fill it in. */
(function () {
  function announce(button) {
    var section = button.closest(".dk-announce");
    var list = section.querySelector(".ann-list");
    var value = button.dataset.ann;
    var party = value.split(":")[0];
    var li = document.createElement("li");
    li.className = "ann-" + party;
    var input = document.createElement("input");
    input.type = "hidden"; input.name = "ann"; input.value = value;
    var label = document.createElement("span");
    label.textContent = button.closest(".ann-row").querySelector(".party-tag").textContent + ": " + button.textContent;
    var remove = document.createElement("button");
    remove.type = "button"; remove.className = "icon"; remove.textContent = "✕";
    remove.setAttribute("data-ann-remove", "");
    remove.setAttribute("aria-label", list.dataset.removeLabel || "✕");
    li.append(input, label, remove);
    list.appendChild(li);
  }
  document.addEventListener("click", function (event) {
    if (!event.target.closest) return;
    var button = event.target.closest(".dk-announce [data-ann]");
    if (button) { announce(button); return; }
    var remove = event.target.closest("[data-ann-remove]");
    if (remove) { remove.closest("li").remove(); return; }
    var quick = event.target.closest(".dk-eyes [data-eyes-quick]");
    if (quick) quick.closest(".dk-eyes").querySelector(".eyes-input").value = quick.textContent.trim();
  });
})();

/* The live sum of card points (to data-total), a one-tap fill of the last player's points, the bid
   stepper and the contract it makes. Delegated on the document: survives htmx swaps. */
(function () {
  function update(root) {
    var box = root.querySelector("[data-points]");
    if (box) {
      var out = box.querySelector("[data-sum]"), fill = box.querySelector("[data-fill]");
      var total = +out.dataset.total, sum = 0, empty = [];
      box.querySelectorAll(".hf-player").forEach(function (row) {
        var input = row.querySelector("input[type=text]"), n = parseInt(input.value, 10);
        if (!isNaN(n)) sum += n;
        else if (!row.classList.contains("hf-out")) empty.push(input);
      });
      var text = "Σ " + sum + " / " + total;
      if (sum < total) text += " · " + out.dataset.leftText.replace("{n}", total - sum);
      if (sum > total) text += " · " + out.dataset.overText.replace("{n}", sum - total);
      out.textContent = text;
      out.className = sum === total ? "hf-ok" : (sum > total ? "hf-bad" : "");
      if (empty.length === 1 && sum <= total) {
        var name = empty[0].closest("label").querySelector("span").firstChild.textContent.trim();
        fill.textContent = fill.dataset.text.replace("{name}", name).replace("{n}", total - sum);
        fill.hidden = false;
        fill.kartenligaTarget = empty[0];
        fill.kartenligaValue = total - sum;
      } else {
        fill.hidden = true;
      }
    }
    var bid = root.querySelector("input[name=bid]"), contract = root.querySelector("[data-contract]");
    if (bid && contract) {
      var b = parseInt(bid.value, 10);
      contract.textContent = isNaN(b) ? "" : contract.dataset.text.replace("{n}", b + (+contract.dataset.offset));
    }
  }
  function all() { document.querySelectorAll("[data-hand-form=thousand]").forEach(update); }
  document.addEventListener("input", function (e) {
    var root = e.target.closest && e.target.closest("[data-hand-form=thousand]");
    if (root) update(root);
  });
  document.addEventListener("click", function (e) {
    var root = e.target.closest && e.target.closest("[data-hand-form=thousand]");
    if (!root) return;
    var step = e.target.closest("[data-step]"), fill = e.target.closest("[data-fill]");
    if (step) {
      var bid = root.querySelector("input[name=bid]");
      if (bid.value === "") bid.value = bid.min || 0;
      else if (step.dataset.step === "1") bid.stepUp(); else bid.stepDown();
      update(root);
    } else if (fill && fill.kartenligaTarget) {
      fill.kartenligaTarget.value = fill.kartenligaValue;
      update(root);
    }
  });
  document.addEventListener("htmx:load", all);
  all();
})();

/* Trick rows: a running tally under them (and the jink called out), and undo of the last
   trick. Delegated on the document, so it survives htmx swaps of the form. */
(function () {
  function update(root) {
    var box = root.querySelector("[data-tricks]");
    if (!box) return;
    var out = box.querySelector("[data-tally]"), counts = {}, order = [], played = 0;
    box.querySelectorAll("input[type=radio]:checked").forEach(function (input) {
      if (!(input.value in counts)) { counts[input.value] = 0; order.push(input.value); }
      counts[input.value] += 1; played += 1;
    });
    if (played === box.querySelectorAll(".hf-trick").length && order.length === 1) {
      out.textContent = out.dataset.jinkText.replace("{party}", order[0]);
      out.classList.add("hf-jink");
    } else {
      out.textContent = order.map(function (p) { return p + " " + counts[p]; }).join(" · ");
      out.classList.remove("hf-jink");
    }
  }
  function all() { document.querySelectorAll("[data-hand-form=maw]").forEach(update); }
  document.addEventListener("change", function (e) {
    var root = e.target.closest && e.target.closest("[data-hand-form=maw]");
    if (root) update(root);
  });
  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("[data-undo-trick]");
    if (!button) return;
    var checked = button.closest("[data-tricks]").querySelectorAll("input[type=radio]:checked");
    if (checked.length) checked[checked.length - 1].checked = false;
    update(button.closest("[data-hand-form=maw]"));
  });
  document.addEventListener("htmx:load", all);
  all();
})();
