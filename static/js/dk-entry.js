/* Faster than paper (issue 11): the Doppelkopf hand form's one-tap helpers, a half-entered
   hand kept in the browser, and Back closing a dialog. Delegated once on the document, so it
   survives htmx swapping the form; a strict CSP allows no inline script, hence this file.
   The hand is still read from the form's own fields (re, eyes, dk_re, eyes__<name>, …):
   these helpers only fill them in. */
"use strict";

(function () {
  function qa(root, sel) { return Array.prototype.slice.call(root.querySelectorAll(sel)); }
  function form() { return document.querySelector(".dk-form"); }

  /* --- Re pair: one tap ticks both players' chips ------------------------------------------ */
  function syncPairs(root) {
    var ticked = qa(root, "input[name=re]:checked").map(function (i) { return i.value; }).sort().join("|");
    qa(root, "[data-re-pair]").forEach(function (b) {
      var on = b.dataset.rePair.split("|").sort().join("|") === ticked;
      b.classList.toggle("on", on);
      b.setAttribute("aria-pressed", on ? "true" : "false");
    });
  }
  function pickPair(button) {
    var root = button.closest(".dk-form");
    var names = button.dataset.rePair.split("|");
    qa(root, "input[name=re]").forEach(function (i) { i.checked = names.indexOf(i.value) >= 0; });
    syncPairs(root);
  }

  /* --- Result chips: Re's eyes by bracket, each naming its winner under the calls made ----- */
  var LEVEL = { keine_90: 1, keine_60: 2, keine_30: 3, schwarz: 4 };
  function calls(root) {
    var c = { re: 0, kontra: 0, reSaid: false, kontraSaid: false };
    qa(root, "input[name=ann]").forEach(function (i) {
      var parts = i.value.split(":"), party = parts[0], call = parts[1];
      if (party === "re") c.reSaid = true; else c.kontraSaid = true;
      if (LEVEL[call]) c[party] = Math.max(c[party], LEVEL[call]);
    });
    return c;
  }
  // doppelkopf.md, who wins: a party's own absage sets its target, else the other party's
  // absage, else 121 (120 for Kontra; the other way round when only Kontra was said).
  function winner(box, c, reEyes) {
    var total = +box.dataset.total, half = +box.dataset.half, k = total - reEyes;
    var targets = box.dataset.targets.split("|").map(Number), against = box.dataset.against.split("|").map(Number);
    var onlyKontra = c.kontraSaid && !c.reSaid;
    var re, kontra;
    if (c.re) re = c.re < 4 ? reEyes >= targets[c.re - 1] : reEyes === total;
    else if (c.kontra) re = c.kontra < 4 ? reEyes >= against[c.kontra - 1] : reEyes > 0;
    else re = reEyes >= (onlyKontra ? half : half + 1);
    if (c.kontra) kontra = c.kontra < 4 ? k >= targets[c.kontra - 1] : reEyes === 0;
    else if (c.re) kontra = c.re < 4 ? k >= against[c.re - 1] : k > 0;
    else kontra = k >= (onlyKontra ? half + 1 : half);
    return re ? "re" : (kontra ? "kontra" : "none");
  }
  function syncBrackets(root) {
    var box = root.querySelector(".dk-brackets");
    if (!box) return;
    var c = calls(root);
    var input = root.querySelector("input[name=eyes]");
    var forKontra = root.querySelector("input[name=eyes_for][value=kontra]:checked");
    var typed = parseInt(input.value, 10);
    var reEyes = isNaN(typed) ? null : (forKontra ? +box.dataset.total - typed : typed);
    qa(box, "[data-bracket-eyes]").forEach(function (b) {
      var w = winner(box, c, +b.dataset.bracketEyes);
      b.dataset.win = w;
      b.querySelector("[data-winner]").textContent = box.dataset[w + "Text"];
      var on = reEyes !== null && reEyes >= +b.dataset.lo && reEyes <= +b.dataset.hi;
      b.classList.toggle("on", on);
      b.setAttribute("aria-pressed", on ? "true" : "false");
    });
  }
  // The chip's figure goes into the eyes field and its bracket is kept as entered
  // (eyes_range); eyes typed, or counted for Kontra, are a count: the bracket goes.
  function setRange(root, value) {
    var range = root.querySelector("input[name=eyes_range]");
    if (range) range.value = value;
  }
  function pickBracket(button) {
    var root = button.closest(".dk-form");
    root.querySelector("input[name=eyes]").value = button.dataset.bracketEyes;
    setRange(root, button.dataset.lo + "-" + button.dataset.hi);
    var re = root.querySelector("input[name=eyes_for][value=re]");
    if (re) re.checked = true;
    syncBrackets(root);
  }

  /* --- Sonderpunkte: chips that count ------------------------------------------------------- */
  function syncSpecials(root) {
    qa(root, "[data-count-for]").forEach(function (b) {
      var n = parseInt(root.querySelector("input[name=" + b.dataset.countFor + "]").value, 10) || 0;
      b.classList.toggle("on", n > 0);
      b.setAttribute("aria-pressed", n > 0 ? "true" : "false");
      b.querySelector(".sp-n").textContent = n > 1 ? " ×" + n : "";
    });
    var k = root.querySelector("input[name=karlchen]"), d = root.querySelector("input[name=karlchen_doppel]");
    qa(root, "[data-karlchen]").forEach(function (b) {
      var on = k && k.value === b.dataset.karlchen;
      b.classList.toggle("on", !!on);
      b.setAttribute("aria-pressed", on ? "true" : "false");
      b.querySelector(".sp-n").textContent = on && d.value ? " · " + b.dataset.doppelText : "";
    });
  }
  function count(button) {
    var root = button.closest(".dk-form");
    var input = root.querySelector("input[name=" + button.dataset.countFor + "]");
    var n = (parseInt(input.value, 10) || 0) + 1;
    input.value = n > +button.dataset.max ? 0 : n;
    syncSpecials(root);
  }
  function karlchen(button) {
    var root = button.closest(".dk-form");
    var k = root.querySelector("input[name=karlchen]"), d = root.querySelector("input[name=karlchen_doppel]");
    var party = button.dataset.karlchen;
    if (k.value !== party) { k.value = party; d.value = ""; }
    else if (!d.value && button.hasAttribute("data-doppel")) d.value = "1";
    else { k.value = ""; d.value = ""; }
    syncSpecials(root);
  }

  /* --- Ramsch: chips fill the table; the last empty row from 240 and 12 -------------------- */
  function ramschRows(box) {
    return qa(box, "[data-ramsch-row]").map(function (tr) {
      return { name: tr.dataset.ramschRow, eyes: tr.querySelector("input[name^=eyes__]"), tricks: tr.querySelector("input[name^=tricks__]") };
    });
  }
  function ramschState(box) {
    return {
      losers: qa(box, "[data-ramsch-loser].on").map(function (b) { return b.dataset.ramschLoser; }),
      jungfrau: qa(box, "[data-ramsch-jungfrau].on").map(function (b) { return b.dataset.ramschJungfrau; }),
      bracket: box.querySelector("[data-ramsch-lo].on"),
    };
  }
  // The chips are kept as tapped, nobody's eyes or tricks made up: they only have to be
  // possible, some eyes of the bracket for the losers (each the same) that let the others,
  // each with fewer and a trick each unless marked Jungfrau, make up the rest (the engine
  // checks the same, scoring/doppelkopf_entered.py).
  function ramschCheck(box) {
    var total = +box.dataset.total;
    var s = ramschState(box), note = box.querySelector("[data-ramsch-note]");
    note.textContent = "";
    if (!s.losers.length || !s.bracket) return;
    var m = ramschRows(box).filter(function (r) { return s.losers.indexOf(r.name) < 0 && s.jungfrau.indexOf(r.name) < 0; }).length;
    var k = s.losers.length, lo = +s.bracket.dataset.ramschLo, hi = +s.bracket.dataset.ramschHi;
    for (var x = lo; x <= hi; x++) {
      var rest = total - k * x;
      if (rest < 0) break;
      if (m === 0 ? rest === 0 : rest <= m * (x - 1)) return;
    }
    note.textContent = note.dataset.impossible;
  }
  // A chip posts its hidden input while it is on.
  function syncRamschChips(box) {
    qa(box, "[data-ramsch-loser], [data-ramsch-jungfrau], [data-ramsch-lo]").forEach(function (b) {
      var on = b.classList.contains("on");
      b.setAttribute("aria-pressed", on ? "true" : "false");
      var input = b.querySelector("input[type=hidden]");
      if (input) input.disabled = !on;
    });
  }
  function ramschTap(button) {
    var box = button.closest("[data-ramsch]");
    if (button.dataset.ramschLo) {
      qa(box, "[data-ramsch-lo]").forEach(function (b) { if (b !== button) b.classList.remove("on"); });
      button.classList.toggle("on");
    } else {
      var name = button.dataset.ramschLoser || button.dataset.ramschJungfrau;
      button.classList.toggle("on");
      // A player is either among the losers or a Jungfrau.
      var twin = button.dataset.ramschLoser ? "[data-ramsch-jungfrau]" : "[data-ramsch-loser]";
      qa(box, twin).forEach(function (b) {
        if ((b.dataset.ramschLoser || b.dataset.ramschJungfrau) === name && button.classList.contains("on")) b.classList.remove("on");
      });
    }
    syncRamschChips(box);
    ramschCheck(box);
  }
  function ramschTyped(input) {
    var box = input.closest("[data-ramsch]");
    var rows = ramschRows(box);
    ["eyes", "tricks"].forEach(function (what) {
      var total = what === "eyes" ? +box.dataset.total : +box.dataset.tricks;
      var empty = rows.filter(function (r) { return r[what].value.trim() === "" || r[what].dataset.filled; });
      if (empty.length !== 1 || empty[0][what] === input) return;
      var sum = 0;
      rows.forEach(function (r) { if (r !== empty[0]) sum += parseInt(r[what].value, 10) || 0; });
      if (sum <= total) { empty[0][what].value = total - sum; empty[0][what].dataset.filled = "1"; }
    });
    if (input.dataset.filled) delete input.dataset.filled;
  }

  function syncAll() {
    var root = form();
    if (!root) return;
    syncPairs(root); syncBrackets(root); syncSpecials(root);
  }

  document.addEventListener("click", function (event) {
    var t = event.target.closest && event.target.closest("[data-re-pair], [data-bracket-eyes], [data-count-for], [data-karlchen], [data-ramsch-loser], [data-ramsch-jungfrau], [data-ramsch-lo], .dk-announce [data-ann], [data-ann-remove]");
    if (!t) return;
    if (t.dataset.rePair) pickPair(t);
    else if (t.dataset.bracketEyes) pickBracket(t);
    else if (t.dataset.countFor) count(t);
    else if (t.dataset.karlchen) karlchen(t);
    else if (t.closest("[data-ramsch]")) ramschTap(t);
    // An announcement added or removed (by hand-forms.js) changes who wins each bracket.
    else setTimeout(syncAll, 0);
    draftSoon(event);
  });
  document.addEventListener("input", function (event) {
    var t = event.target;
    if (!t.closest) return;
    if (t.closest("[data-ramsch]") && t.matches("input[name^=eyes__], input[name^=tricks__]")) ramschTyped(t);
    if (t.matches("input[name=eyes]")) setRange(t.closest(".dk-form"), "");
    // A result's value typed wins over its chips: none of them stays chosen.
    if (t.matches("input[name=value_other]") && t.value.trim() !== "") {
      qa(t.closest(".dk-form"), "input[name=value]").forEach(function (i) { i.checked = false; });
    }
    if (t.closest(".dk-form")) syncAll();
    draftSoon(event);
  });
  document.addEventListener("change", function (event) {
    var t = event.target;
    // A pair tapped before the game became a solo: a solo has one Re player, tap him again.
    if (t.matches && t.matches(".dk-form input[name=kind][value=solo]") && t.checked) {
      var re = qa(t.closest(".dk-form"), "input[name=re]:checked");
      if (re.length > 1) re.forEach(function (i) { i.checked = false; });
    }
    // A value chip tapped after one was typed: the chip is the value now.
    if (t.matches && t.matches(".dk-form input[name=eyes_for]")) setRange(t.closest(".dk-form"), "");
    if (t.matches && t.matches(".dk-form input[name=value]") && t.checked) {
      var typed = t.closest(".dk-form").querySelector("input[name=value_other]");
      if (typed) typed.value = "";
    }
    if (t.closest && t.closest(".dk-form")) syncAll();
    draftSoon(event);
  });

  /* --- Nothing lost: the half-entered hand in localStorage, per meeting and hand ----------- */
  // What belongs to this rendering of the form, not to the hand typed: never kept in a draft.
  // The Ramsch chips' inputs follow the chips, which the draft keeps as chips.
  var SKIP = { csrfmiddlewaretoken: 1, expected_hand: 1, idempotency_key: 1, sheet_mark: 1, ramsch_losers: 1, ramsch_eyes: 1, ramsch_jungfrauen: 1 };
  function draftForm() { return document.querySelector("form[data-draft-key]"); }
  function draftKey(f) { return "kartenliga:draft:" + f.dataset.draftKey; }
  var timer = null, dirty = false, dirtyHand = null;
  function handOf(f) { var h = f && f.querySelector("input[name=expected_hand]"); return h ? h.value : ""; }
  // Only what a person entered is kept: a tap or a keystroke in the form marks it, for the
  // hand it was made in. Once that hand is saved the next hand's form is untouched: nothing
  // of it is kept (it came back as "your hand is back" after leaving the page).
  function draftSoon(event) {
    var f = draftForm();
    if (!f || !event || !f.contains(event.target) || event.target.closest("[data-draft-discard]")) return;
    dirty = true; dirtyHand = handOf(f);
    clearTimeout(timer); timer = setTimeout(saveDraft, 150);
  }
  function saveDraft() {
    var f = draftForm();
    if (f && dirty && handOf(f) !== dirtyHand) { dirty = false; return; }
    if (!f || !dirty) return;
    var fields = [];
    qa(f, "input, select, textarea").forEach(function (el) {
      if (!el.name || SKIP[el.name]) return;
      if ((el.type === "checkbox" || el.type === "radio")) { if (el.checked) fields.push([el.name, el.value, 1]); }
      else if (el.closest(".ann-list")) return;
      else fields.push([el.name, el.value, 0]);
    });
    var anns = qa(f, ".ann-list input[name=ann]").map(function (i) { return i.value; });
    var chips = qa(f, "[data-ramsch] .chip.on").map(function (b) {
      return b.dataset.ramschLoser ? "l:" + b.dataset.ramschLoser : b.dataset.ramschJungfrau ? "j:" + b.dataset.ramschJungfrau : "b:" + b.dataset.ramschLo;
    });
    var hand = f.querySelector("input[name=expected_hand]");
    try {
      localStorage.setItem(draftKey(f), JSON.stringify({ hand: hand ? hand.value : "", fields: fields, anns: anns, chips: chips }));
    } catch (e) { /* private mode, full: the form still works */ }
  }
  function clearDraft(f) { dirty = false; clearTimeout(timer); try { localStorage.removeItem(draftKey(f)); } catch (e) { /* nothing kept */ } }
  function restoreDraft() {
    var f = draftForm();
    if (!f || f.dataset.draftRestored) return;
    f.dataset.draftRestored = "1";
    // A form sent back with its problems holds the hand as posted: newer than any draft.
    if (f.querySelector(".errorlist, .form-errors")) return;
    var raw = null;
    try { raw = localStorage.getItem(draftKey(f)); } catch (e) { return; }
    if (!raw) return;
    var draft;
    try { draft = JSON.parse(raw); } catch (e) { clearDraft(f); return; }
    var hand = f.querySelector("input[name=expected_hand]");
    if (!draft || (hand && draft.hand !== hand.value)) { clearDraft(f); return; }  // that hand was saved
    var ticked = {};
    draft.fields.forEach(function (x) { if (x[2]) ticked[x[0] + "\u0000" + x[1]] = true; });
    qa(f, "input[type=checkbox], input[type=radio]").forEach(function (el) {
      if (!el.name || SKIP[el.name]) return;
      el.checked = !!ticked[el.name + "\u0000" + el.value];
    });
    draft.fields.forEach(function (x) {
      if (x[2]) return;
      var el = f.querySelector("[name=\"" + x[0].replace(/"/g, "\\\"") + "\"]:not([type=checkbox]):not([type=radio])");
      if (el) el.value = x[1];
    });
    var list = f.querySelector(".ann-list");
    if (list && draft.anns && draft.anns.length && !list.children.length) {
      draft.anns.forEach(function (value) {
        var b = f.querySelector(".dk-announce [data-ann=\"" + value + "\"]");
        if (b) b.click();
      });
    }
    (draft.chips || []).forEach(function (c) {
      var kind = c.slice(0, 2), v = c.slice(2);
      var sel = kind === "l:" ? "[data-ramsch-loser]" : kind === "j:" ? "[data-ramsch-jungfrau]" : "[data-ramsch-lo]";
      qa(f, sel).forEach(function (b) {
        if ((b.dataset.ramschLoser || b.dataset.ramschJungfrau || b.dataset.ramschLo) === v) b.classList.add("on");
      });
    });
    qa(f, "[data-ramsch]").forEach(syncRamschChips);
    var note = f.querySelector("[data-draft-note]");
    if (note) note.hidden = false;
    syncAll();
  }
  document.addEventListener("htmx:afterRequest", function (event) {
    var f = event.detail && event.detail.elt;
    if (f && f.matches && f.matches("form[data-draft-key]") && event.detail.successful) clearDraft(f);
  });
  document.addEventListener("click", function (event) {
    var b = event.target.closest && event.target.closest("[data-draft-discard]");
    if (!b) return;
    var f = b.closest("form[data-draft-key]");
    clearDraft(f);
    window.location.reload();
  });
  // A plain (no-htmx) submit: the server answers with a new page; the hand is saved or shown
  // again with its problems, so the draft has done its job either way.
  document.addEventListener("submit", function (event) {
    if (event.target.matches && event.target.matches("form[data-draft-key]") && !window.htmx) clearDraft(event.target);
  });
  document.addEventListener("visibilitychange", function () { if (document.hidden) saveDraft(); });
  window.addEventListener("pagehide", saveDraft);

  /* --- Back closes an open dialog instead of leaving the page ------------------------------ */
  // Opening the why dialog adds a history entry; Back then only closes it. Closed by its
  // button or Escape, the entry stays (taking it back with history.back() would race a link
  // tapped right after); the next Back steps over it, so one Back still leaves the page.
  var pushed = false, stale = false;
  document.addEventListener("htmx:afterRequest", function (event) {
    var src = event.detail && event.detail.elt;
    if (!src || !src.closest || !src.closest("[data-show-dialog]") || !event.detail.successful) return;
    setTimeout(function () {
      var dialog = document.querySelector("dialog[open]");
      if (!dialog || pushed) return;
      if (!stale) history.pushState({ dialog: dialog.id }, "");
      pushed = true; stale = false;
    }, 0);
  });
  window.addEventListener("popstate", function () {
    var dialog = document.querySelector("dialog[open]");
    // The dialog's entry: close the dialog; if its own button closed it already (its close
    // event may not have run yet), step over the entry as for a stale one.
    if (pushed) { pushed = false; if (dialog) dialog.close(); else history.back(); return; }
    if (stale) { stale = false; history.back(); }
  });
  document.addEventListener("close", function (event) {
    if (event.target.tagName === "DIALOG" && pushed) { pushed = false; stale = true; }
  }, true);

  /* --- A notice in the answer to a save (a hand entered meanwhile by another phone, a refusal)
     sits above the form, where the phone is not scrolled to: brought into sight once, below the
     sticky top bar (scroll-padding-top) ---------------------------------------------------- */
  document.addEventListener("htmx:afterSettle", function () {
    var notice = document.querySelector("#at-table > .alert:not([data-sighted]), #at-entry > .alert:not([data-sighted])");
    if (!notice) return;
    notice.dataset.sighted = "";
    var bar = document.querySelector(".topbar");
    var top = bar ? bar.getBoundingClientRect().bottom : 0, r = notice.getBoundingClientRect();
    if (r.top < top || r.bottom > window.innerHeight) notice.scrollIntoView({ block: "start" });
  });

  /* --- The sheet: short names in its header, a tap shows the full ones ---------------------- */
  document.addEventListener("click", function (event) {
    var th = event.target.closest && event.target.closest("th[data-full-names]");
    if (th) th.closest("table").classList.toggle("full-names");
  });

  function init() {
    syncAll();
    restoreDraft();
    qa(document, "[data-ramsch]").forEach(syncRamschChips);
  }
  document.addEventListener("htmx:load", init);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init); else init();
})();
