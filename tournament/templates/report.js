"use strict";
const G = JSON.parse(document.getElementById("games-data").textContent);
const PAGE = 50;
let gamePage = 0, gameRows = G.rows;
function txt(tag, cls, text) { const e = document.createElement(tag); if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text; return e; }
function fmt(x) { return x === null || x === undefined ? "–" : Number.isInteger(x) ? String(x) : x.toFixed(2); }
function renderGames() {
  const body = document.querySelector("#games-table tbody");
  body.textContent = "";
  const pages = Math.max(1, Math.ceil(gameRows.length / PAGE));
  gamePage = Math.max(0, Math.min(pages - 1, gamePage));
  for (const r of gameRows.slice(gamePage * PAGE, (gamePage + 1) * PAGE)) {
    const [index, job, table, deal, seating, bots, scores, ranks, faults, forfeited, dur, replay, transcript,
           status, reason] = r;
    const tr = document.createElement("tr");
    tr.id = "game-" + job;
    if (location.hash === "#game-" + job) tr.className = "target";
    tr.appendChild(txt("td", null, String(index)));
    tr.appendChild(txt("td", "l", job));
    tr.appendChild(txt("td", null, String(table)));
    tr.appendChild(txt("td", null, String(deal)));
    tr.appendChild(txt("td", null, String(seating)));
    const tb = txt("td", "l bots");
    bots.forEach((b, s) => {
      const name = G.bots[b] || "?";
      const part = scores ? `${name}: ${fmt(scores[s])} (${ranks[s]})` : name;
      tb.appendChild(txt("span", ranks && ranks[s] === 1 ? "first" : null,
                         part + ((forfeited || []).includes(s) ? " forfeit" : "")));
    });
    if (status) tb.appendChild(txt("span", "muted", `${status}${reason ? ": " + reason : ""}`));
    tr.appendChild(tb);
    tr.appendChild(txt("td", null, faults ? String(faults) : ""));
    tr.appendChild(txt("td", null, dur === null || dur === undefined ? "" : dur.toFixed(2)));
    const links = txt("td", "l");
    if (replay) { const a = txt("a", null, "replay"); a.href = `${G.base}replays/${job}.html`; links.appendChild(a); }
    else if (!status) {
      const d = txt("details", "cmd");
      d.appendChild(txt("summary", null, "command"));
      d.appendChild(txt("code", "cmd", `trickcore replay results.jsonl --job ${job} --html replays/${job}.html`));
      links.appendChild(d);
    }
    if (transcript) { const a = txt("a", null, " transcript"); a.href = G.base + transcript; links.appendChild(a); }
    tr.appendChild(links);
    body.appendChild(tr);
  }
  const shown = gameRows.length === G.rows.length ? `${G.rows.length}` : `${gameRows.length} of ${G.rows.length}`;
  document.getElementById("game-count").textContent =
    `${shown} games listed${G.total > G.rows.length ? ` (${G.total} in the run)` : ""}; page ${gamePage + 1} of ${pages}`;
}
function filterGames(q) {
  q = q.trim().toLowerCase();
  gameRows = !q ? G.rows : G.rows.filter(r => r[1].toLowerCase().includes(q)
                                         || r[5].some(b => (G.bots[b] || "").toLowerCase().includes(q)));
  gamePage = 0;
  renderGames();
}
function showGame(job) {
  const i = G.rows.findIndex(r => r[1] === job);
  if (i < 0) return;
  document.getElementById("game-filter").value = "";
  gameRows = G.rows;
  gamePage = Math.floor(i / PAGE);
  renderGames();
  const tr = document.getElementById("game-" + job);
  if (tr) tr.scrollIntoView({block: "center"});
}
function sortable(table) {
  const heads = table.querySelectorAll("th");
  heads.forEach((th, col) => {
    th.tabIndex = 0;
    const go = () => {
      const asc = th.getAttribute("aria-sort") !== "ascending";
      heads.forEach(h => h.removeAttribute("aria-sort"));
      th.setAttribute("aria-sort", asc ? "ascending" : "descending");
      const body = table.tBodies[0];
      const rows = Array.from(body.rows);
      const key = r => { const t = r.cells[col].textContent.trim(); const x = parseFloat(t);
                         return isNaN(x) ? t : x; };
      rows.sort((a, b) => { const x = key(a), y = key(b);
        const c = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
        return asc ? c : -c; });
      rows.forEach(r => body.appendChild(r));
    };
    th.addEventListener("click", go);
    th.addEventListener("keydown", e => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } });
  });
}
(function init() {
  renderGames();
  document.getElementById("game-filter").addEventListener("input", e => filterGames(e.target.value));
  document.getElementById("game-prev").onclick = () => { gamePage--; renderGames(); };
  document.getElementById("game-next").onclick = () => { gamePage++; renderGames(); };
  document.querySelectorAll("table.sortable").forEach(sortable);
  for (const a of document.querySelectorAll('a[href^="#game-"]'))
    a.addEventListener("click", () => showGame(a.getAttribute("href").slice(6)));
  if (location.hash.startsWith("#game-")) showGame(location.hash.slice(6));
  document.body.dataset.ready = "1";
  performance.mark("trickcore-ready");
})();
