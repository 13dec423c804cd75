/* A hand in the players' words, as the sheet's why view says it (each game's ``describe`` in
   leagues/table/hand_entry/), for a hand entered without signal: it waits in the outbox (outbox.js)
   before the server can read it. The hand form carries the words (data-say, JSON, from
   leagues/table/hand_entry/words.py); this file reads the form's fields as they would be posted,
   as the game's form reads them (only the fields of the kind of hand chosen), and puts the
   words together in describe's order. window.kartenligaHandWords(form) gives the lines,
   [label, words], or null for a form without words. */
"use strict";

(function () {
  var FLAGS = { "1": 1, on: 1, "true": 1, yes: 1 };
  var PARTIES = ["re", "kontra"];
  var TRICKS = { doppelkopf: 12, maw: 5 };

  function all(fd, name) { return fd.getAll(name).map(function (v) { return String(v).trim(); }).filter(Boolean); }
  function one(fd, name) { var v = fd.get(name); return v === null ? "" : String(v).trim(); }
  function whole(text) { return /^[0-9]+$/.test(text) ? parseInt(text, 10) : null; }
  function flag(text) { return !!FLAGS[text.toLowerCase()]; }
  function span(lo, hi) { return lo === hi ? String(lo) : lo + "\u2013" + hi; }
  function pair(text) {
    var m = /^\s*([0-9]+)\s*-\s*([0-9]+)\s*$/.exec(text || "");
    return m && +m[1] <= +m[2] ? [+m[1], +m[2]] : null;
  }
  function fill(text, values) { return text.replace(/\{(\w+)\}/g, function (m, k) { return k in values ? values[k] : m; }); }
  function named(fd, prefix) {  // [suffix, value] of the fields "prefix<suffix>", in the form's order
    var out = [];
    fd.forEach(function (value, name) { if (name.indexOf(prefix) === 0) out.push([name.slice(prefix.length), String(value).trim()]); });
    return out;
  }

  /* --- Doppelkopf (leagues/table/hand_entry/doppelkopf.py: describe, _specials) ------------------- */
  function announcements(fd, w, lines) {
    var said = all(fd, "ann").map(function (value) { return value.split(":"); })
      .filter(function (a) { return w.parties[a[0]] && w.calls[a[1]]; })
      .map(function (a) { return w.parties[a[0]] + ": " + w.calls[a[1]]; });
    if (said.length) lines.push([w.labels.announcements, said.join(" \u2192 ")]);
  }
  function specials(fd, w, lines) {
    var out = [];
    PARTIES.forEach(function (party) {
      [["doppelkopf", "dk_"], ["fuchs", "fuchs_"]].forEach(function (kind) {
        var n = whole(one(fd, kind[1] + party)) || 0;
        for (var i = 0; i < Math.min(n, TRICKS.doppelkopf); i++) {
          var label = w.parties[party] + ": " + w.specials[kind[0]];
          if (kind[0] === "fuchs" && i === 0 && one(fd, "fuchs_last") === party) label += " " + w.last_trick;
          out.push(label);
        }
      });
    });
    var karlchen = one(fd, "karlchen"), caught = one(fd, "karlchen_gefangen");
    if (PARTIES.indexOf(karlchen) >= 0) {
      out.push(w.parties[karlchen] + ": " + w.specials.karlchen + (flag(one(fd, "karlchen_doppel")) ? " " + w.doppel : ""));
    }
    if (PARTIES.indexOf(caught) >= 0) out.push(w.parties[caught] + ": " + w.specials.karlchen_gefangen);
    if (out.length) lines.push([w.labels.specials, out.join(", ")]);
  }
  function eyes(fd, w, lines) {
    var count = whole(one(fd, "eyes"));
    if (count === null || count > w.total) return;
    var kontra = one(fd, "eyes_for") === "kontra", re = kontra ? w.total - count : count;
    var range = kontra ? null : pair(one(fd, "eyes_range"));
    if (range && !(range[0] <= re && re <= range[1])) range = null;
    var lo = range ? range[0] : re, hi = range ? range[1] : re;
    lines.push([w.labels.eyes, fill(w.eyes_text, { re: span(lo, hi), kontra: span(w.total - hi, w.total - lo) })]);
  }
  function withEyes(fd, w, kind, lines) {
    var re = all(fd, "re"), solo = one(fd, "solo"), tricks = whole(one(fd, "re_tricks"));
    if (kind === "solo" && solo) lines.push([w.labels.solo, w.solos[solo] || solo]);
    if (re.length) lines.push([w.labels.re, re.join(", ")]);
    eyes(fd, w, lines);
    if (tricks !== null) lines.push([w.labels.re_tricks, String(tricks)]);
    announcements(fd, w, lines);
    specials(fd, w, lines);
    if (flag(one(fd, "fuchs_wins_last_doppelkopf"))) lines.push([w.labels.fuchs_won, w.yes_doppelkopf]);
  }
  function resultOnly(fd, w, lines) {
    var re = all(fd, "re"), solo = one(fd, "solo"), winner = one(fd, "winner");
    var value = one(fd, "value_other") || one(fd, "value");
    if (re.length === 1 && solo) lines.push([w.labels.solo, w.solos[solo] || solo]);
    if (re.length) lines.push([w.labels.re, re.join(", ")]);
    if (w.parties[winner]) lines.push([w.labels.won_by, w.parties[winner]]);
    if (value) lines.push([w.labels.value, value]);
    var facts = w.facts.filter(function (f) { return flag(one(fd, f[0])); }).map(function (f) { return f[1]; });
    if (facts.length) lines.push([w.labels.facts, facts.join(", ")]);
  }
  function ramsch(fd, w, lines) {
    var typed = named(fd, "eyes__").concat(named(fd, "tricks__")).some(function (f) { return f[1] !== ""; });
    var losers = all(fd, "ramsch_losers"), jungfrauen = all(fd, "ramsch_jungfrauen");
    if (!typed && (losers.length || one(fd, "ramsch_eyes") || jungfrauen.length)) {
      var bracket = pair(one(fd, "ramsch_eyes"));
      if (bracket && bracket[0] === w.total && bracket[1] === w.total && losers.length === 1 && jungfrauen.length === w.playing - 1) {
        lines.push([w.labels.durchmarsch, losers[0]]);
        return;
      }
      lines.push([w.labels.most_eyes, losers.join(", ") + ": " + (bracket ? span(bracket[0], bracket[1]) : "?")]);
      if (jungfrauen.length) lines.push([w.labels.jungfrau, jungfrauen.join(", ")]);
      return;
    }
    var rows = named(fd, "eyes__").map(function (f) {
      var tricks = whole(one(fd, "tricks__" + f[0]));
      return fill(w.ramsch_row[tricks === 1 ? 0 : 1], { name: f[0], eyes: whole(f[1]) === null ? "?" : whole(f[1]), tricks: tricks === null ? "?" : tricks });
    });
    if (rows.length) lines.push([w.labels.ramsch, rows.join(", ")]);
  }
  function doppelkopf(fd, w) {
    var kind = one(fd, "kind") || "normal", lines = [[w.labels.game, w.kinds[kind] || kind]];
    if (kind === "revoke") {
      if (one(fd, "revoke_by")) lines.push([w.labels.revoked, one(fd, "revoke_by")]);
      announcements(fd, w, lines);
      return lines;
    }
    if (kind === "points") resultOnly(fd, w, lines);
    else if (kind === "ramsch") ramsch(fd, w, lines);
    else withEyes(fd, w, kind, lines);
    var outbid = all(fd, "solo_outbid");
    if (outbid.length) lines.push([w.labels.outbid, outbid.join(", ")]);
    return lines;
  }

  /* --- 25, 45, 110, Auction 45s, Spoil Five (leagues/table/hand_entry/maw.py: describe) ----------- */
  function maw(fd, w) {
    var L = w.labels, lines = [], bid = whole(one(fd, "bid")), call = one(fd, "call"), top = one(fd, "top_trump_trick");
    if (one(fd, "bidder")) lines.push([L.bidder, one(fd, "bidder")]);
    if (one(fd, "maker")) lines.push([L.maker, one(fd, "maker")]);
    if (bid !== null) lines.push([L.bid, String(bid)]);
    if (call) lines.push([L.call, w.calls[call] || call]);
    if (flag(one(fd, "bagged"))) lines.push([L.bagged, w.yes]);
    var others = named(fd, "other_bids:").filter(function (f) { return whole(f[1]) !== null; })
      .map(function (f) { return f[0] + ": " + whole(f[1]); });
    if (others.length) lines.push([L.other_bids, others.join(", ")]);
    var tricks = [];
    for (var n = 1; n <= TRICKS.maw; n++) tricks.push(one(fd, "trick_" + n));
    while (tricks.length && !tricks[tricks.length - 1]) tricks.pop();  // up to the last trick tapped
    lines.push([L.tricks, tricks.join(", ")]);
    if (top) lines.push([L.top_trump, top === w.no_trump_value ? w.no_trump : fill(w.trick, { n: whole(top) === null ? top : whole(top) })]);
    if (flag(one(fd, "jink"))) lines.push([L.jink, w.yes]);
    return lines;
  }

  /* --- 1000 (leagues/table/hand_entry/thousand.py: describe) -------------------------------------- */
  function thousand(fd, w) {
    var L = w.labels, lines = [], bid = whole(one(fd, "bid"));
    if (one(fd, "declarer")) lines.push([L.declarer, one(fd, "declarer")]);
    if (bid !== null) lines.push([L.bid, String(bid)]);
    var points = named(fd, "points:").filter(function (f) { return whole(f[1]) !== null; });
    if (points.length) lines.push([L.points, points.map(function (f) { return f[0] + " " + whole(f[1]); }).join(", ")]);
    var melded = named(fd, "marriages:").map(function (f) { return f[0]; })
      .filter(function (name, i, names) { return names.indexOf(name) === i; })
      .map(function (name) { return name + " " + all(fd, "marriages:" + name).map(function (s) { return w.looks[s] || s; }).join(" "); });
    if (melded.length) lines.push([L.marriages, melded.join(", ")]);
    if (flag(one(fd, "all_tricks"))) lines.push([L.all_tricks, w.yes]);
    if (flag(one(fd, "forgot_to_pass"))) lines.push([L.forgot, w.yes]);
    return lines;
  }

  /* --- 56 (leagues/table/hand_entry/fifty_six.py: describe) --------------------------------------- */
  function fiftySix(fd, w) {
    var L = w.labels, lines = [], bid = whole(one(fd, "bid")), trump = one(fd, "trump"), points = whole(one(fd, "bidder_team_points"));
    if (one(fd, "bidder")) lines.push([L.bidder, one(fd, "bidder")]);
    if (bid !== null) lines.push([L.bid, String(bid)]);
    if (trump) lines.push([L.trump, w.looks[trump] || trump]);
    if (w.doubles[one(fd, "double")]) lines.push([L.doubled, w.doubles[one(fd, "double")]]);
    if (points !== null) lines.push([L.points, String(points)]);
    return lines;
  }

  var GAMES = { doppelkopf: doppelkopf, maw: maw, thousand: thousand, fifty_six: fiftySix };
  window.kartenligaHandWords = function (form) {
    var words;
    try { words = JSON.parse(form.dataset.say || "null"); } catch (e) { return null; }
    if (!words || !GAMES[words.game]) return null;
    return GAMES[words.game](new FormData(form), words);
  };
})();
