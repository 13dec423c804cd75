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

/* 1000: the live sum of card points (to data-total); the last empty player's points fill
   themselves from the total (and follow the others' until he is typed); chips of card points
   for the declarer's opponents (once he is tapped), each with the engine's rounding shown live (points and
   marriages to the nearest round_to, half up: scoring/thousand.py round_half_up); the
   declarer's total against his contract; the bid stepper. Delegated on the document: survives
   htmx swaps. */
(function () {
  function roundHalfUp(value, multiple) { return Math.floor((2 * value + multiple) / (2 * multiple)) * multiple; }
  function worth(row) {
    var sum = 0;
    row.querySelectorAll(".hf-suits input:checked").forEach(function (i) { sum += +i.dataset.worth || 0; });
    return sum;
  }
  function fillLast(box, total) {
    var rows = Array.prototype.filter.call(box.querySelectorAll(".hf-player"), function (r) { return !r.classList.contains("hf-out"); });
    var sum = 0, open = [];
    rows.forEach(function (row) {
      var input = row.querySelector("input[type=text]"), n = parseInt(input.value, 10);
      if (input.dataset.auto !== undefined || isNaN(n)) open.push(input); else sum += n;
    });
    if (open.length === 1 && sum <= total) {
      open[0].value = total - sum;
      open[0].dataset.auto = "";
    } else {
      open.forEach(function (input) { if (input.dataset.auto !== undefined) { input.value = ""; delete input.dataset.auto; } });
    }
  }
  function update(root) {
    var box = root.querySelector("[data-points]");
    var bid = root.querySelector("input[name=bid]"), contract = root.querySelector("[data-contract]");
    var b = bid ? parseInt(bid.value, 10) : NaN, need = isNaN(b) || !contract ? NaN : b + (+contract.dataset.offset);
    if (contract) contract.textContent = isNaN(need) ? "" : contract.dataset.text.replace("{n}", need);
    if (!box) return;
    var out = box.querySelector("[data-sum]"), total = +out.dataset.total, step = +box.dataset.round || 5;
    fillLast(box, total);
    var declarer = root.querySelector("input[name=declarer]:checked"), sum = 0;
    var forgot = root.querySelector("input[name=forgot_to_pass]:checked");
    var durch = root.querySelector("input[name=all_tricks]:checked");
    var line = root.querySelector("[data-declarer-line]");
    if (line) line.textContent = "";
    box.querySelectorAll(".hf-player").forEach(function (row) {
      var input = row.querySelector("input[type=text]"), n = parseInt(input.value, 10);
      var isDeclarer = !!declarer && declarer.value === row.dataset.player;
      var chips = row.querySelector(".hf-pts-quick"), rounded = row.querySelector("[data-rounded]");
      row.classList.toggle("hf-declarer", isDeclarer);
      if (chips) chips.hidden = !declarer || isDeclarer || row.classList.contains("hf-out") || !!forgot;
      if (chips) chips.querySelectorAll("[data-points-quick]").forEach(function (c) {
        c.classList.toggle("on", !isNaN(n) && input.dataset.auto === undefined && +c.dataset.pointsQuick === n);
      });
      if (!isNaN(n)) sum += n;
      if (rounded) rounded.textContent = !isNaN(n) && !isDeclarer && !forgot ? "→ " + roundHalfUp(n + worth(row), step) : "";
      if (isDeclarer && line && !isNaN(n) && !isNaN(need) && !forgot) {
        var taken = n * (durch ? 2 : 1) + worth(row);
        var text = (taken >= need ? line.dataset.madeText : line.dataset.failedText)
          .replace("{name}", row.dataset.player).replace("{taken}", taken).replace("{contract}", need);
        if (taken === need) text += " " + line.dataset.edgeText;
        line.textContent = text;
        line.className = "hf-contract-line " + (taken >= need ? "hf-ok" : "hf-bad");
      }
    });
    var text = "Σ " + sum + " / " + total;
    if (sum < total) text += " · " + out.dataset.leftText.replace("{n}", total - sum);
    if (sum > total) text += " · " + out.dataset.overText.replace("{n}", sum - total);
    out.textContent = text;
    out.className = sum === total ? "hf-ok" : (sum > total ? "hf-bad" : "");
  }
  function all() { document.querySelectorAll("[data-hand-form=thousand]").forEach(update); }
  function thousand(e) { return e.target.closest && e.target.closest("[data-hand-form=thousand]"); }
  document.addEventListener("input", function (e) {
    var root = thousand(e);
    if (!root) return;
    if (e.target.matches("[data-points] input[type=text]")) delete e.target.dataset.auto;  // typed: his own
    update(root);
  });
  document.addEventListener("change", function (e) { var root = thousand(e); if (root) update(root); });
  document.addEventListener("click", function (e) {
    var root = thousand(e);
    if (!root) return;
    var step = e.target.closest("[data-step]"), quick = e.target.closest("[data-points-quick]");
    if (step) {
      var bid = root.querySelector("input[name=bid]");
      if (bid.value === "") bid.value = bid.min || 0;
      else if (step.dataset.step === "1") bid.stepUp(); else bid.stepDown();
      update(root);
    } else if (quick) {
      var input = quick.closest(".hf-player").querySelector("input[type=text]");
      input.value = quick.dataset.pointsQuick;
      delete input.dataset.auto;
      input.dispatchEvent(new Event("input", { bubbles: true }));
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
