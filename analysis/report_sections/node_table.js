// The node table of the report: sort by a header click, filter with the
// search box, a page of rows at a time. The rows are read once, either from
// the JSON block (large surveys: the page holds no <tr> per node) or from
// the table's own rows; then only the visible page is drawn. Plain
// JavaScript, no library: the report opens from file:// with no network.
(function () {
  "use strict";
  function setup(table) {
    var id = table.id;
    var head = table.tHead.rows[0].cells;
    var kinds = [];
    for (var i = 0; i < head.length; i++) kinds.push(head[i].getAttribute("data-sort") || "text");
    var body = table.tBodies[0];
    var rows = [];
    var json = document.getElementById(id + "-data");
    if (json) {
      rows = JSON.parse(json.textContent);
    } else {
      for (var r = 0; r < body.rows.length; r++) {
        var cells = body.rows[r].cells, row = [];
        for (var c = 0; c < cells.length; c++) {
          var t = cells[c].textContent;
          row.push(kinds[c] === "num" ? (t === "" || isNaN(parseFloat(t)) ? null : parseFloat(t)) : t);
        }
        rows.push(row);
      }
    }
    var pageSize = parseInt(table.getAttribute("data-page-size") || "100", 10);
    var flagColumn = kinds.length - 1;
    var state = {col: -1, asc: true, filter: "", page: 0, shown: rows};
    var filter = document.getElementById(id + "-filter");
    var info = document.getElementById(id + "-info");
    var prev = document.getElementById(id + "-prev");
    var next = document.getElementById(id + "-next");

    function compare(a, b) {
      var x = a[state.col], y = b[state.col];
      if (x === null || x === undefined) return (y === null || y === undefined) ? 0 : 1;  // n/a last
      if (y === null || y === undefined) return -1;
      var d = kinds[state.col] === "num" ? x - y : String(x).localeCompare(String(y), undefined, {numeric: true});
      return state.asc ? d : -d;
    }
    function text(v) { return v === null || v === undefined ? "n/a" : String(v); }
    function draw() {
      var needle = state.filter.toLowerCase();
      var shown = needle ? rows.filter(function (row) {
        for (var c = 0; c < row.length; c++) if (text(row[c]).toLowerCase().indexOf(needle) >= 0) return true;
        return false;
      }) : rows.slice();
      if (state.col >= 0) shown.sort(compare);
      var pages = Math.max(1, Math.ceil(shown.length / pageSize));
      state.page = Math.min(state.page, pages - 1);
      var first = state.page * pageSize, last = Math.min(shown.length, first + pageSize);
      var fragment = document.createDocumentFragment();
      for (var r = first; r < last; r++) {
        var tr = document.createElement("tr");
        if (shown[r][flagColumn]) tr.className = "bws-flagged";
        for (var c = 0; c < shown[r].length; c++) {
          var td = document.createElement("td");
          td.textContent = shown[r][c] === null ? "n/a" : String(shown[r][c]);
          tr.appendChild(td);
        }
        fragment.appendChild(tr);
      }
      body.textContent = "";
      body.appendChild(fragment);
      if (info) info.textContent = (shown.length ? (first + 1) + "\u2013" + last : "0") + " of " + shown.length +
          " nodes" + (shown.length < rows.length ? " (filtered from " + rows.length + ")" : "");
      if (prev) prev.disabled = state.page === 0;
      if (next) next.disabled = state.page >= pages - 1;
      for (var h = 0; h < head.length; h++)
        head[h].setAttribute("aria-sort", h === state.col ? (state.asc ? "ascending" : "descending") : "none");
    }
    for (var h = 0; h < head.length; h++) {
      (function (col) {
        head[col].style.cursor = "pointer";
        head[col].addEventListener("click", function () {
          // First click: ascending (the slowest nodes first); again: descending.
          state.asc = state.col === col ? !state.asc : true;
          state.col = col;
          state.page = 0;
          draw();
        });
      })(h);
    }
    if (filter) filter.addEventListener("input", function () { state.filter = filter.value; state.page = 0; draw(); });
    if (prev) prev.addEventListener("click", function () { state.page--; draw(); });
    if (next) next.addEventListener("click", function () { state.page++; draw(); });
    draw();
  }
  var tables = document.querySelectorAll("table.bws-sortable");
  for (var t = 0; t < tables.length; t++) setup(tables[t]);
})();
