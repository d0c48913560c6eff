// vprof's page script: sorting tables and zooming the timeline. It builds nothing from strings:
// text goes in through textContent and attributes through setAttribute, so nothing in a capture
// can become markup (the page's Content-Security-Policy also requires Trusted Types).
(function () {
  "use strict";
  function sortable(table) {
    var heads = table.querySelectorAll("th[data-sort]");
    heads.forEach(function (th) {
      th.addEventListener("click", function () {
        var col = Array.prototype.indexOf.call(th.parentNode.children, th);
        var numeric = th.getAttribute("data-sort") === "n";
        var down = th.getAttribute("data-dir") !== "down";
        heads.forEach(function (h) { h.removeAttribute("data-dir"); });
        th.setAttribute("data-dir", down ? "down" : "up");
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = a.cells[col].getAttribute("data-v") || a.cells[col].textContent;
          var y = b.cells[col].getAttribute("data-v") || b.cells[col].textContent;
          var c = numeric ? (parseFloat(x) - parseFloat(y)) : x.localeCompare(y);
          return down ? -c : c;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  }
  function seconds(ns) {
    var s = ns / 1e9;
    if (Math.abs(s) >= 10) return s.toFixed(1) + " s";
    if (Math.abs(s) >= 1) return s.toFixed(2) + " s";
    return (s * 1000).toFixed(1) + " ms";
  }
  function zoomable(outer) {
    var plot = outer.querySelector("svg.plot");
    var hit = outer.querySelector("rect.hit");
    var sel = outer.querySelector("rect.sel");
    var ticks = outer.querySelectorAll("text.tick");
    var readout = document.getElementById(outer.getAttribute("data-readout"));
    var reset = document.getElementById(outer.getAttribute("data-reset"));
    var span = parseFloat(outer.getAttribute("data-span-ns"));
    var height = plot.viewBox.baseVal.height;
    var view = [0, 1000];
    function show() {
      plot.setAttribute("viewBox", view[0] + " 0 " + (view[1] - view[0]) + " " + height);
      ticks.forEach(function (t, i) {
        var u = view[0] + (view[1] - view[0]) * i / (ticks.length - 1);
        t.textContent = "+" + seconds(span * u / 1000);
      });
      if (readout) {
        readout.textContent = "showing +" + seconds(span * view[0] / 1000) + " to +" + seconds(span * view[1] / 1000)
          + " of " + seconds(span) + (view[0] === 0 && view[1] === 1000 ? "" : " (zoomed)");
      }
    }
    function unit(evt) {
      var box = hit.getBoundingClientRect();
      var f = Math.min(1, Math.max(0, (evt.clientX - box.left) / box.width));
      return view[0] + f * (view[1] - view[0]);
    }
    var start = null;
    hit.addEventListener("mousedown", function (e) { start = unit(e); e.preventDefault(); });
    window.addEventListener("mousemove", function (e) {
      if (start === null) return;
      var u = unit(e);
      var f0 = (Math.min(start, u) - view[0]) / (view[1] - view[0]);
      var f1 = (Math.max(start, u) - view[0]) / (view[1] - view[0]);
      var x = parseFloat(hit.getAttribute("x")), w = parseFloat(hit.getAttribute("width"));
      sel.setAttribute("x", x + f0 * w);
      sel.setAttribute("width", Math.max(0, (f1 - f0) * w));
    });
    window.addEventListener("mouseup", function (e) {
      if (start === null) return;
      var u = unit(e), a = Math.min(start, u), b = Math.max(start, u);
      start = null;
      sel.setAttribute("width", 0);
      if (b - a > 0.5) { view = [a, b]; show(); }
    });
    if (reset) reset.addEventListener("click", function () { view = [0, 1000]; show(); });
    show();
  }
  document.querySelectorAll("table.sortable").forEach(sortable);
  document.querySelectorAll("svg.timeline").forEach(zoomable);
  document.body.setAttribute("data-ready", "1");
})();
