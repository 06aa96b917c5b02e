// Client-side search over the inline index: every query term must appear in an entry's name,
// kind, device or detail; entries whose name matches exactly come first, then by prefix, then the
// rest, and within each a register, block or layout before a field of the same name (a
// fine-grained trap register has fields named after the registers it traps). The query can come from the page address (`index.html?q=PMCR`), which is how the other
// pages' search boxes and the browser test reach it.
(function () {
  "use strict";
  var index = JSON.parse(document.getElementById("search-index").textContent);
  var box = document.getElementById("search");
  var list = document.getElementById("results");
  var status = document.getElementById("search-status");
  var LIMIT = 200;

  function rank(entry, query) {
    var name = entry[0].toLowerCase();
    if (name === query) return 0;
    if (name.indexOf(query) === 0) return 1;
    if (name.indexOf(query) >= 0) return 2;
    return 3;
  }

  function fieldLast(entry) {
    return entry[1] === "field" ? 1 : 0;
  }

  function search(text) {
    var query = text.trim().toLowerCase();
    var terms = query.split(/\s+/).filter(function (t) { return t.length > 0; });
    if (terms.length === 0) return [];
    var hits = index.filter(function (e) {
      var hay = (e[0] + " " + e[1] + " " + e[2] + " " + e[3]).toLowerCase();
      return terms.every(function (t) { return hay.indexOf(t) >= 0; });
    });
    hits.sort(function (a, b) {
      return rank(a, query) - rank(b, query) || fieldLast(a) - fieldLast(b) ||
        a[0].localeCompare(b[0]) || a[2].localeCompare(b[2]);
    });
    return hits;
  }

  function render(text) {
    var hits = search(text);
    list.textContent = "";
    hits.slice(0, LIMIT).forEach(function (e) {
      var li = document.createElement("li");
      li.className = "hit";
      var kind = document.createElement("span");
      kind.className = "kind";
      kind.textContent = e[1] + " · " + e[2];
      var link = document.createElement("a");
      link.href = e[4];
      link.textContent = e[0];
      var detail = document.createElement("span");
      detail.className = "detail";
      detail.textContent = e[3];
      li.appendChild(link);
      li.appendChild(detail);
      li.appendChild(kind);
      list.appendChild(li);
    });
    if (text.trim() === "") {
      status.textContent = index.length + " registers, fields, blocks and events indexed.";
    } else if (hits.length > LIMIT) {
      status.textContent = hits.length + " matches; the first " + LIMIT + " are shown.";
    } else {
      status.textContent = hits.length + (hits.length === 1 ? " match." : " matches.");
    }
  }

  box.addEventListener("input", function () { render(box.value); });
  var initial = new URLSearchParams(window.location.search).get("q");
  if (initial) box.value = initial;
  render(box.value);
  document.body.setAttribute("data-search-ready", "true");
})();
