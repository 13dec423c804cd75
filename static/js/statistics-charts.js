"use strict";
// The statistics and ratings pages' charts. The figures come from the server (json_script);
// this only draws them: a bar chart by default, a line chart where the canvas says data-kind="line".
(function () {
  var canvas = document.getElementById("stats-chart");
  var source = document.getElementById("stats-chart-data");
  if (!canvas || !source || typeof Chart === "undefined") return;
  var data = JSON.parse(source.textContent);
  var line = canvas.getAttribute("data-kind") === "line";
  // The colours are the page's (static/css/kartenliga.css, --chart-1 to --chart-8), so that dark
  // mode draws light lines on the dark card; the list is the light set, for a page without them.
  var css = getComputedStyle(document.documentElement);
  var colour = function (name, fallback) { return css.getPropertyValue(name).trim() || fallback; };
  var colours = ["#15803d", "#b45309", "#1d4ed8", "#b91c1c", "#7c3aed", "#0e7490", "#a16207", "#be185d"].map(function (c, i) {
    return colour("--chart-" + (i + 1), c);
  });
  var zero = colour("--chart-zero", "#9ca3af"), grid = colour("--chart-grid", "#eef0f2");
  Chart.defaults.color = colour("--muted", "#57606c");
  data.datasets.forEach(function (d, i) {
    d.borderColor = colours[i % colours.length];
    d.backgroundColor = colours[i % colours.length];
    if (line) {
      d.borderWidth = 2.5;
      d.pointRadius = data.labels.length > 40 ? 0 : 2;
      d.pointHitRadius = 6;
      d.tension = 0.15;
      d.spanGaps = true;
    }
  });
  new Chart(canvas, {
    type: line ? "line" : "bar",
    data: data,
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      interaction: { mode: "index", intersect: false },
      plugins: { legend: { display: data.datasets.length > 1, position: "bottom", labels: { boxWidth: 14, usePointStyle: true } } },
      scales: {
        x: { ticks: { maxTicksLimit: line ? 6 : 12, maxRotation: 0 }, grid: { display: false } },
        y: { grid: { color: function (c) { return c.tick.value === 0 ? zero : grid; } } }
      }
    }
  });
})();
