"use strict";
// Suggest the short name from the name until someone edits it by hand.
(function () {
  var name = document.getElementById("id_name"), slug = document.getElementById("id_slug");
  if (!name || !slug) return;
  var touched = slug.value !== "";
  slug.addEventListener("input", function () { touched = slug.value !== ""; });
  name.addEventListener("input", function () {
    if (touched) return;
    slug.value = name.value.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
      .replace(/ß/g, "ss").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 50);
  });
})();
