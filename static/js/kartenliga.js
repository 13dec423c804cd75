/* Kartenliga's small behaviours on every page. The Content-Security-Policy allows no inline
   script and no inline event handler, so the templates mark elements with data- attributes
   and these handlers, delegated once on the document, act on them. Delegation also covers
   whatever htmx swaps in later. Every page works without this file; it only adds comfort. */
(function () {
  "use strict";

  // <button data-copy="id-of-an-input" data-copied="Copied">: the input's text to the
  // clipboard; <button data-copy-text="https://…">: that text. The button then says so.
  function copy(button) {
    var input = button.dataset.copy ? document.getElementById(button.dataset.copy) : null;
    var text = input ? input.value : button.dataset.copyText;
    var done = function () { if (button.dataset.copied) button.textContent = button.dataset.copied; };
    if (input) input.select();
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, function () { if (input) { document.execCommand("copy"); done(); } });
    } else if (input) {
      document.execCommand("copy");
      done();
    }
  }

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!target.closest) return;
    var button = target.closest("[data-copy], [data-copy-text]");
    if (button) { copy(button); return; }
    // Read-only link fields: one tap selects the whole link.
    var field = target.closest("input[data-select-on-click]");
    if (field) { field.select(); return; }
    if (target.closest("[data-print]")) { window.print(); return; }
  });

  // <form data-confirm="Really?">: asks before it submits.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.dataset && form.dataset.confirm && !window.confirm(form.dataset.confirm)) event.preventDefault();
  });

  // A polled part with data-live-etag (the big screen, templates/live/live.html): the browser
  // hands a 304 to htmx as the kept answer, so an answer with the ETag already shown is not
  // swapped again (a swap would reset a sheet scrolled sideways on a phone).
  // The ETag shown: the part's own attribute when drawn with it, else the last one swapped in.
  var shownEtags = {};
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (!target || !target.dataset || target.dataset.liveEtag === undefined) return;
    var etag = event.detail.xhr && event.detail.xhr.getResponseHeader("ETag");
    if (!etag) return;
    if (etag === (target.dataset.liveEtag || shownEtags[target.id])) event.detail.shouldSwap = false;
    else shownEtags[target.id] = etag;
  });

  // The big screen's sheets (one a table) show their newest hands: scrolled to the foot when drawn.
  function sheetToFoot() {
    var board = document.getElementById("live-board");
    if (!board) return;
    board.querySelectorAll(".table-scroll").forEach(function (scroll) {
      scroll.scrollTop = scroll.scrollHeight;
    });
  }
  document.addEventListener("DOMContentLoaded", sheetToFoot);
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail && event.detail.target && event.detail.target.id === "live-board") sheetToFoot();
  });

  // <a hx-get=… data-show-dialog="why-dialog">: open that dialog once htmx has filled it.
  document.addEventListener("htmx:afterRequest", function (event) {
    var source = event.detail && event.detail.elt;
    var opener = source && source.closest && source.closest("[data-show-dialog]");
    if (!opener || !event.detail.successful) return;
    var dialog = document.getElementById(opener.dataset.showDialog);
    if (dialog && !dialog.open) dialog.showModal();
  });
})();
