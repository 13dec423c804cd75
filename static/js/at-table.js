/* At the table: the meeting page and the bill page (templates/meetings/meeting.html,
   templates/bill/bill.html). Three comforts, each only where the browser has what it needs;
   every page works without this file.

   - The undo of an undo ([data-toast], leagues/table/undo.py): without a script it is a notice
     above the form; here it floats at the foot of the screen for a few seconds, as a mail app's
     "Undo" does, and goes (the deleted hands below the sheet still restore the hand).
   - Keep the screen on ([data-wake-lock], the Screen Wake Lock API): a toggle on the sheet,
     shown where navigator.wakeLock exists. The phone remembers the choice; the lock, which
     the browser lets go whenever the page is hidden, is taken again when it is shown.
   - Share ([data-share], leagues/table/sharing.py): the phone's share sheet with a text and a link,
     and a picture of the table (drawn here from the page's JSON) where it can share files;
     else the text and the link are copied, and the page says so.

   The Content-Security-Policy allows no inline script: the words come in data- attributes. */
(function () {
  "use strict";

  var TOAST_MS = 8000;
  var WAKE_KEY = "kartenliga-wake-lock";

  function qa(root, sel) {
    root = root || document;
    var found = Array.prototype.slice.call(root.querySelectorAll(sel));
    if (root.matches && root.matches(sel)) found.unshift(root);
    return found;
  }

  /* --- the undo of an undo: a toast for a few seconds ---------------------------------------- */
  function toasts(root) {
    qa(root, "[data-toast]").forEach(function (toast) {
      if (toast.dataset.toastShown) return;
      toast.dataset.toastShown = "1";
      toast.classList.add("floating");
      var hide = function () {
        // Not while the reader is on it (a finger on its button, the keyboard's focus in it).
        if (toast.contains(document.activeElement) || toast.matches(":hover")) { setTimeout(hide, 2000); return; }
        toast.hidden = true;
      };
      setTimeout(hide, TOAST_MS);
    });
  }

  /* --- keep the screen on ------------------------------------------------------------------- */
  var lock = null, asking = false, want = false;

  function wanted() {
    try { return localStorage.getItem(WAKE_KEY) === "on"; } catch (e) { return false; }
  }
  function remember(on) {
    try { localStorage.setItem(WAKE_KEY, on ? "on" : "off"); } catch (e) { /* private mode: this page only */ }
  }
  function showWake() {
    qa(document, "[data-wake-lock]").forEach(function (button) {
      button.hidden = false;
      button.setAttribute("aria-pressed", lock ? "true" : "false");
    });
  }
  function acquire() {
    if (lock || asking || document.visibilityState !== "visible" || !document.querySelector("[data-wake-lock]")) return;
    asking = true;
    navigator.wakeLock.request("screen").then(function (sentinel) {
      asking = false;
      if (!want) { sentinel.release(); return; }  // turned off while it was asked for
      lock = sentinel;
      sentinel.addEventListener("release", function () {
        if (lock === sentinel) lock = null;
        showWake();
      });
      showWake();
    }, function () { asking = false; lock = null; showWake(); });
  }
  function release() {
    var held = lock;
    lock = null;
    showWake();
    if (held) held.release();
  }

  /* --- share, else copy ---------------------------------------------------------------------- */
  var files = {};  // share id -> the picture of its table, drawn once the page is shown

  function tableOf(id) {
    var el = document.getElementById(id);
    try { return el ? JSON.parse(el.textContent) : null; } catch (e) { return null; }
  }
  function draw(table) {
    var rows = table.rows || [], pad = 24, rowH = 34, titleH = 48, gap = 20, scale = 2;
    var font = "16px system-ui, sans-serif", bold = "600 16px system-ui, sans-serif";
    var titleFont = "700 18px system-ui, sans-serif";
    var canvas = document.createElement("canvas"), ctx = canvas.getContext("2d");
    var cols = rows.length ? rows[0].length : 0, widths = [];
    for (var c = 0; c < cols; c++) {
      ctx.font = c === 1 ? bold : font;
      widths[c] = Math.max.apply(null, rows.map(function (row) { return ctx.measureText(String(row[c])).width; }));
    }
    ctx.font = titleFont;
    var inner = widths.reduce(function (a, b) { return a + b; }, 0) + gap * Math.max(cols - 1, 0);
    var w = Math.ceil(Math.max(inner, ctx.measureText(table.title).width) + 2 * pad);
    var h = titleH + rows.length * rowH + 2 * pad;
    canvas.width = w * scale;
    canvas.height = h * scale;
    ctx.scale(scale, scale);
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, w, h);
    ctx.textBaseline = "middle";
    ctx.fillStyle = "#14532d";
    ctx.font = titleFont;
    ctx.fillText(table.title, pad, pad + titleH / 2 - 6);
    rows.forEach(function (row, i) {
      var y = pad + titleH + i * rowH + rowH / 2, x = pad;
      if (i % 2 === 0) { ctx.fillStyle = "#f1f5f0"; ctx.fillRect(pad / 2, y - rowH / 2, w - pad, rowH); }
      ctx.fillStyle = "#1f2937";
      row.forEach(function (cell, c) {
        ctx.font = c === 1 ? bold : font;
        // The place and the name read from the left, the figures line up on the right.
        ctx.textAlign = c < 2 ? "left" : "right";
        ctx.fillText(String(cell), c < 2 ? x : x + widths[c], y);
        x += widths[c] + gap;
      });
    });
    return canvas;
  }
  function prepare(button) {
    var id = button.dataset.share, table = tableOf(id);
    if (!table || !navigator.canShare || !window.File || files[id] !== undefined) return;
    files[id] = null;
    draw(table).toBlob(function (blob) {
      if (!blob) return;
      var file = new File([blob], table.file || "kartenliga.png", { type: "image/png" });
      if (navigator.canShare({ files: [file] })) files[id] = file;
    }, "image/png");
  }
  function say(button, words) {
    var note = document.querySelector('[data-share-note="' + button.dataset.share + '"]');
    if (note) note.textContent = words;
  }
  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    return new Promise(function (resolve, reject) {
      var area = document.createElement("textarea");
      area.value = text;
      area.setAttribute("readonly", "");
      area.style.position = "fixed";
      area.style.opacity = "0";
      document.body.appendChild(area);
      area.select();
      var done = false;
      try { done = document.execCommand("copy"); } catch (e) { done = false; }
      area.remove();
      if (done) resolve(); else reject(new Error("copy"));
    });
  }
  function copy(button, data) {
    copyText(data.text + "\n" + data.url).then(
      function () { say(button, button.dataset.copied); },
      function () { say(button, button.dataset.notCopied); }
    );
  }
  function share(button) {
    var data = { title: button.dataset.shareTitle, text: button.dataset.shareText, url: button.dataset.shareUrl };
    if (!navigator.share) { copy(button, data); return; }
    var file = files[button.dataset.share];
    // With a picture the link goes into the text: some apps drop the url of a share with files.
    var sent = file ? { title: data.title, text: data.text + "\n" + data.url, files: [file] } : data;
    navigator.share(sent).catch(function (error) {
      if (error && error.name === "AbortError") return;  // the reader closed the share sheet
      copy(button, data);
    });
  }

  /* --- wiring -------------------------------------------------------------------------------- */
  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!target.closest) return;
    var shareButton = target.closest("[data-share]");
    if (shareButton && shareButton.tagName === "BUTTON") { share(shareButton); return; }
    if ("wakeLock" in navigator && target.closest("[data-wake-lock]")) {
      want = !lock;
      remember(want);
      if (want) acquire(); else release();
    }
  });
  if ("wakeLock" in navigator) {
    want = wanted();
    document.addEventListener("visibilitychange", function () { if (want) acquire(); });
  }

  function init(root) {
    toasts(root);
    qa(root, "button[data-share]").forEach(function (button) { button.hidden = false; prepare(button); });
    if ("wakeLock" in navigator) {
      showWake();
      if (want) acquire();
    }
  }
  document.addEventListener("htmx:load", function (event) { init(event.detail && event.detail.elt); });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { init(document); });
  else init(document);
})();
