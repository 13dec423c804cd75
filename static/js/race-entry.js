/* Faster than paper (issue 11) for the race games' hand forms: one tap for a trick won by
   the top trump (45, 110: the trick's winner and the top-trump trick both ticked), one for
   every trick after the last one tapped ("the rest to …"), one for the bidder and his bid
   (110, Auction 45s: a bid chip in a party's row ticks that party) and one for a common 1000
   bid (hand-forms.js fills the last player's card points). The
   form's own fields still carry the hand; this file only fills them. Delegated on the
   document, so it survives htmx swaps; a strict CSP allows no inline script. */
"use strict";

(function () {
  function qa(root, sel) { return Array.prototype.slice.call(root.querySelectorAll(sel)); }
  function changed(input) { input.dispatchEvent(new Event("change", { bubbles: true })); }

  /* --- a trick won by the top trump ---------------------------------------------------------- */
  function syncStars(root) {
    var top = root.querySelector("input[name=top_trump_trick]:checked");
    qa(root, "[data-star-trick]").forEach(function (b) {
      var won = root.querySelector("input[name=trick_" + b.dataset.starTrick + "]:checked");
      var on = !!(top && top.value === b.dataset.starTrick && won && won.value === b.dataset.starParty);
      b.classList.toggle("on", on);
      b.setAttribute("aria-pressed", on ? "true" : "false");
    });
  }
  function star(button) {
    var root = button.closest("[data-hand-form=maw]");
    var n = button.dataset.starTrick, party = button.dataset.starParty;
    qa(root, "input[name=trick_" + n + "]").forEach(function (i) { i.checked = i.value === party; });
    var top = root.querySelector("input[name=top_trump_trick][value=\"" + n + "\"]");
    if (top) { top.checked = true; changed(top); }
    changed(root.querySelector("input[name=trick_" + n + "]:checked"));
    syncStars(root);
  }

  /* --- 1000: a common bid in one tap ------------------------------------------------------- */
  function bid(button) {
    var input = button.closest("[data-hand-form=thousand]").querySelector("input[name=bid]");
    input.value = button.dataset.bidQuick;
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }
  /* --- the rest of the tricks to one party -------------------------------------------------- */
  function rest(button) {
    var root = button.closest("[data-hand-form=maw]");
    var rows = qa(root, ".hf-trick"), last = -1;
    rows.forEach(function (row, k) { if (row.querySelector("input[type=radio]:checked")) last = k; });
    rows.slice(last + 1).forEach(function (row) {
      qa(row, "input[type=radio]").forEach(function (i) { i.checked = i.value === button.dataset.restParty; });
    });
    var any = root.querySelector(".hf-trick input[type=radio]:checked");
    if (any) changed(any);
  }

  /* --- 110, Auction 45s: a bid chip in a party's row says who bid too ------------------------ */
  function bidFor(input) {
    var box = input.closest("[data-bid-by]");
    qa(box, ".hf-bidder input").forEach(function (i) { i.checked = i.value === input.dataset.bidFor; });
  }
  function bidderChosen(input) {
    // The bid stays when the bidder changes: the same bid moves to his row.
    var box = input.closest("[data-bid-by]"), bid = box.querySelector("input[data-bid-for]:checked");
    if (!bid || bid.dataset.bidFor === input.value) return;
    qa(box, "input[data-bid-for]").forEach(function (i) {
      if (i.dataset.bidFor === input.value && i.value === bid.value) i.checked = true;
    });
  }

  document.addEventListener("click", function (event) {
    var t = event.target.closest && event.target.closest("[data-star-trick], [data-bid-quick], [data-rest-party]");
    if (!t) return;
    if (t.dataset.starTrick) star(t); else if (t.dataset.restParty) rest(t); else bid(t);
  });
  document.addEventListener("change", function (event) {
    var root = event.target.closest && event.target.closest("[data-hand-form=maw]");
    if (!root) return;
    if (event.target.dataset.bidFor) bidFor(event.target);
    else if (event.target.closest(".hf-bidder")) bidderChosen(event.target);
    syncStars(root);
  });
  function init() {
    qa(document, "[data-hand-form=maw]").forEach(syncStars);
    qa(document, "[data-hand-form=maw] .hf-rest").forEach(function (el) { el.hidden = false; });
    // A race game's score to the target: folded into one line on a phone (the form first),
    // unfolded where the form sits beside the sheet (kartenliga.css, 900 px).
    if (window.matchMedia && window.matchMedia("(min-width: 900px)").matches) {
      qa(document, "[data-next-more][data-open-wide]:not([data-opened])").forEach(function (d) {
        d.open = true; d.dataset.opened = "";
      });
    }
  }
  document.addEventListener("htmx:load", init);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init); else init();
})();
