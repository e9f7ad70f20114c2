# ruff: noqa: E501  (inline SVG paths and JavaScript: long lines are the assets themselves)
"""Inline CSS, JavaScript and SVG shared by the HTML pages (the tournament report and the replay
viewer).  Kept as Python strings so the pages need no package data and fetch nothing.

Cards are drawn from the faces the game gives (``GameInfo.faces``, embedded in the page as data:
card text -> style, colour, value, symbol, letter, label), so the script knows no game: a French
card shows its value and suit symbol, a colour card a band of its colour with the colour's letter
(so colours never have to be told apart by hue alone) and its value, a picture card a symbol
alone.  Symbols are inline SVG (``CARD_SYMBOLS``), so no font is needed; colour names map to the
palette below (``PALETTE``), and any other colour is passed to CSS as it is.
"""

from __future__ import annotations

BASE_CSS = """
:root { --ink:#1f2328; --muted:#59636e; --line:#d0d7de; --bg:#f6f8fa; --accent:#0969da; --hi:#fff8c5;
        --felt:#14532d; --felt2:#166534; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", "Liberation Sans", sans-serif;
       color: var(--ink); margin: 0; background: #fff; }
header { padding: 12px 20px 4px; border-bottom: 1px solid var(--line); background: var(--bg); }
h1 { font-size: 20px; margin: 4px 0; }
h2 { font-size: 16px; margin: 18px 0 8px; }
h3 { font-size: 14px; margin: 12px 0 6px; }
a { color: var(--accent); }
:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
table { border-collapse: collapse; }
th, td { border-bottom: 1px solid var(--line); padding: 3px 8px; text-align: right; vertical-align: top; }
th { background: var(--bg); font-weight: 600; }
td.l, th.l { text-align: left; }
.muted { color: var(--muted); }
code, pre { font-family: "DejaVu Sans Mono", "Liberation Mono", monospace; font-size: 12px; }
pre { background: var(--bg); border: 1px solid var(--line); padding: 8px; overflow: auto; max-height: 420px; }
.note { color: var(--muted); font-size: 12px; }
"""

CARD_CSS = BASE_CSS + """
.card { display: inline-flex; position: relative; flex-direction: column; justify-content: center;
        align-items: center; width: 42px; height: 60px; margin: 2px; border-radius: 6px;
        border: 2px solid var(--cc, #333); background: #fff; color: var(--cc, #333);
        font-weight: 700; vertical-align: middle; box-shadow: 0 1px 2px rgba(0,0,0,.25); }
.card .v { font-size: 19px; line-height: 1; }
.card .k { position: absolute; top: 2px; left: 4px; font-size: 10px; font-weight: 700; }
.card .d { position: absolute; bottom: 1px; right: 3px; font-size: 10px; }
.card svg { width: 20px; height: 20px; fill: var(--cc); }
.card svg.s { position: absolute; top: 3px; right: 3px; width: 11px; height: 11px; }
.card.colour { background: linear-gradient(180deg, var(--cb, #eee) 0 13px, #fff 13px); }
.card.colour .k { color: #fff; }
.card.picture { background: var(--cb, #eee); }
.card.picture svg { width: 30px; height: 30px; }
.card.small.picture svg { width: 20px; height: 20px; }
.card.back { background: repeating-linear-gradient(45deg, #1e3a8a 0 4px, #3b5bdb 4px 8px); border-color: #1e3a8a;
             width: 26px; height: 38px; }
.card.small { width: 30px; height: 42px; }
.card.small .v { font-size: 14px; }
.card.small svg { width: 14px; height: 14px; }
.card.small svg.s { width: 8px; height: 8px; }
.card.small .k { font-size: 8px; top: 1px; left: 2px; }
.card.chosen { outline: 3px solid #f59e0b; }
.card.win { box-shadow: 0 0 0 3px #facc15, 0 1px 3px rgba(0,0,0,.4); }
.cards { display: inline-flex; flex-wrap: wrap; align-items: center; }
"""

#: SVG symbols a card face may name (CardFace.symbol): the French suits and a few pictures,
#: referenced with <use href="#sym-...">.
CARD_SYMBOLS = """<svg width="0" height="0" style="position:absolute" aria-hidden="true"><defs>
<symbol id="sym-hearts" viewBox="0 0 32 32"><path d="M16 29C16 29 3 20 3 11C3 6.5 6.5 3 10.5 3C13 3 15 4.5 16 6.5C17 4.5 19 3 21.5 3C25.5 3 29 6.5 29 11C29 20 16 29 16 29Z"/></symbol>
<symbol id="sym-diamonds" viewBox="0 0 32 32"><path d="M16 2L27 16L16 30L5 16Z"/></symbol>
<symbol id="sym-spades" viewBox="0 0 32 32"><path d="M16 2C16 2 4 12 4 19C4 23 7 25.5 10.5 25.5C12.5 25.5 14 24.5 15 23C15 26 14 28 11 30H21C18 28 17 26 17 23C18 24.5 19.5 25.5 21.5 25.5C25 25.5 28 23 28 19C28 12 16 2 16 2Z"/></symbol>
<symbol id="sym-clubs" viewBox="0 0 32 32"><circle cx="16" cy="9" r="6.5"/><circle cx="8.5" cy="19" r="6.5"/><circle cx="23.5" cy="19" r="6.5"/><path d="M14.5 17H17.5L19.5 30H12.5Z"/></symbol>
<symbol id="sym-bolt" viewBox="0 0 32 32"><path d="M19 2L7 18H15L12 30L25 12H17Z"/></symbol>
<symbol id="sym-crown" viewBox="0 0 32 32"><path d="M4 24L7 9L12 16L16 6L20 16L25 9L28 24Z M4 26H28V29H4Z"/></symbol>
<symbol id="sym-star" viewBox="0 0 32 32"><path d="M16 2L19.5 11.5L29.5 12L21.5 18.5L24.5 28.5L16 22.5L7.5 28.5L10.5 18.5L2.5 12L12.5 11.5Z"/></symbol>
<symbol id="sym-lamb" viewBox="0 0 32 32"><path d="M9 12a4 4 0 0 1 6-3a4 4 0 0 1 6 0a4 4 0 0 1 5 4a4 4 0 0 1-1 7a4 4 0 0 1-6 2a4 4 0 0 1-6 0a4 4 0 0 1-6-2a4 4 0 0 1 2-8Z"/><ellipse cx="6" cy="15" rx="3.2" ry="2.4"/><path d="M11 22h2v6h-2zM19 22h2v6h-2z"/></symbol>
</defs></svg>"""

CARD_JS = r"""
"use strict";
/* A face's colour name -> [ink, ground]; any other colour is used as it is. */
const PALETTE = {red: ["#dc2626"], blue: ["#1d4ed8"], yellow: ["#a16207", "#facc15"], green: ["#15803d"],
                 brown: ["#78350f"], violet: ["#7c3aed"], black: ["#111827"], crimson: ["#c81e1e"],
                 purple: ["#6b21a8", "#f3e8ff"], pink: ["#9d174d", "#fce7f3"], grey: ["#57534e", "#f5f5f4"]};
/* The game's card faces (GameInfo.faces): card text -> {style, colour, value, symbol, letter, label,
   declared}; the page sets them from its data. */
let FACES = {};
/* A card text drawn as a card: its face, and a declared value after "=" (Rgod=15) for a card
   that is declared as it is played; null for a text that is no card of the game. */
function parseCard(tok) {
  if (typeof tok !== "string") return null;
  const eq = tok.indexOf("=");
  const name = eq < 0 ? tok : tok.slice(0, eq);
  if (!Object.prototype.hasOwnProperty.call(FACES, name)) return null;
  const f = FACES[name];
  const decl = eq < 0 ? null : tok.slice(eq + 1);
  if (decl !== null && !(f.declared && /^\d+$/.test(decl))) return null;
  const [col, bg] = PALETTE[f.colour] || [f.colour];
  return {tok, kind: f.style, v: f.value || "", sym: f.symbol || "", k: f.letter || "",
          d: decl !== null ? "=" + decl : "", col, bg: bg || col,
          label: f.label + (decl !== null ? ` declared ${decl}` : "")};
}
function svgUse(id, cls) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 32 32");
  svg.setAttribute("aria-hidden", "true");
  if (cls) svg.setAttribute("class", cls);
  const use = document.createElementNS(ns, "use");
  use.setAttribute("href", "#sym-" + id);
  svg.appendChild(use);
  return svg;
}
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}
function cardEl(tok, opts) {
  opts = opts || {};
  const c = parseCard(tok);
  if (!c) return el("code", null, tok);
  const e = el("span", "card " + c.kind + (opts.small ? " small" : ""));
  e.dataset.card = tok;
  e.setAttribute("role", "img");
  e.setAttribute("aria-label", c.label);
  e.title = c.label + " (" + tok + ")";
  e.style.setProperty("--cc", c.col);
  if (c.bg) e.style.setProperty("--cb", c.bg);
  if (opts.focus) e.tabIndex = 0;
  if (c.kind === "french") {
    e.appendChild(el("span", "v", c.v));
    if (c.sym) { e.appendChild(svgUse(c.sym)); e.appendChild(svgUse(c.sym, "s")); }
  } else if (c.kind === "picture") {
    if (c.sym) e.appendChild(svgUse(c.sym)); else e.appendChild(el("span", "v", c.v));
  } else {
    e.appendChild(el("span", "k", c.k));
    if (c.sym) e.appendChild(svgUse(c.sym)); else e.appendChild(el("span", "v", c.v));
    if (c.d) e.appendChild(el("span", "d", c.d));
  }
  return e;
}
function backEl() {
  const e = el("span", "card back");
  e.setAttribute("role", "img");
  e.setAttribute("aria-label", "a hidden card");
  e.title = "a hidden card";
  return e;
}
function cardsEl(list, opts) {
  const box = el("span", "cards");
  for (const t of list) box.appendChild(cardEl(t, opts));
  return box;
}
function isCardList(v) { return Array.isArray(v) && v.length > 0 && v.every(x => parseCard(x)); }
/* Any JSON value, with card texts drawn as cards. */
function valueEl(v, depth) {
  depth = depth || 0;
  if (v === null || v === undefined) return el("span", "muted", "–");
  if (typeof v === "string") return parseCard(v) ? cardEl(v, {small: true}) : el("span", null, v);
  if (typeof v !== "object") return el("span", null, typeof v === "number" ? fmtNum(v) : String(v));
  if (Array.isArray(v)) {
    if (v.length === 0) return el("span", "muted", "[]");
    if (isCardList(v)) return cardsEl(v, {small: true});
    if (v.every(x => x === null || typeof x !== "object")) {
      const s = el("span", "inline");
      v.forEach((x, i) => { if (i) s.appendChild(document.createTextNode(", ")); s.appendChild(valueEl(x, depth + 1)); });
      return s;
    }
    const ol = el("ol", "vlist");
    ol.start = 0;
    for (const x of v) { const li = el("li"); li.appendChild(valueEl(x, depth + 1)); ol.appendChild(li); }
    return ol;
  }
  const dl = el("dl", "vmap");
  for (const [k, x] of Object.entries(v)) {
    dl.appendChild(el("dt", null, k));
    const dd = el("dd");
    dd.appendChild(valueEl(x, depth + 1));
    dl.appendChild(dd);
  }
  return dl;
}
function fmtNum(x) { return Number.isInteger(x) ? String(x) : x.toFixed(2); }
"""

REPLAY_CSS = """
header .back { float: right; margin-top: 6px; }
#subtitle { margin: 2px 0 6px; color: var(--muted); }
nav { padding: 8px 20px; border-bottom: 1px solid var(--line); display: flex; flex-wrap: wrap; gap: 8px 24px;
      align-items: center; }
nav fieldset { border: 1px solid var(--line); border-radius: 6px; padding: 2px 8px 6px; margin: 0; }
nav fieldset label { margin-right: 10px; white-space: nowrap; }
nav fieldset label.omni { color: #9a3412; font-weight: 600; }
.stepper { display: flex; gap: 6px; align-items: center; flex-wrap: wrap; }
.stepper button { font-size: 16px; min-width: 36px; padding: 3px 6px; cursor: pointer; }
#slider { width: 260px; }
#jump { width: 70px; }
.keys { flex-basis: 100%; margin: 0; font-size: 12px; color: var(--muted); }
main { display: grid; grid-template-columns: minmax(520px, 1.4fr) minmax(340px, 1fr); gap: 16px; padding: 12px 20px; }
#tablearea { background: radial-gradient(ellipse at center, var(--felt2), var(--felt)); border-radius: 14px;
             padding: 12px; color: #f0fdf4; }
.banner { font-size: 15px; margin-bottom: 8px; min-height: 22px; }
.banner .omni { background: #9a3412; color: #fff; border-radius: 4px; padding: 1px 6px; margin-right: 6px; }
.trick { background: rgba(0,0,0,.18); border-radius: 10px; padding: 10px; min-height: 118px; margin-bottom: 10px;
         display: flex; flex-wrap: wrap; gap: 10px; align-items: flex-end; }
.trick .play { display: flex; flex-direction: column; align-items: center; font-size: 12px; }
.trick .title { flex-basis: 100%; font-size: 13px; }
.trick .won { color: #fde68a; font-weight: 700; }
.seats { display: grid; grid-template-columns: repeat(auto-fill, minmax(250px, 1fr)); gap: 10px; }
.seat { background: #fff; color: var(--ink); border-radius: 10px; padding: 8px; border: 3px solid transparent; }
.seat.me { border-color: #60a5fa; }
.seat.tomove { border-color: #f59e0b; }
.seat h3 { margin: 0 0 4px; font-size: 14px; }
.seat .tag { font-size: 11px; border-radius: 4px; padding: 0 5px; margin-left: 4px; background: var(--bg);
             border: 1px solid var(--line); font-weight: 500; }
.seat .tag.move { background: #fef3c7; border-color: #f59e0b; }
.seat dl, aside dl { margin: 2px 0; display: grid; grid-template-columns: max-content 1fr; gap: 1px 8px; }
.seat dt, aside dt { color: var(--muted); font-size: 12px; }
.seat dd, aside dd { margin: 0; }
.hand { min-height: 44px; }
aside section { border: 1px solid var(--line); border-radius: 8px; padding: 6px 10px; margin-bottom: 10px; }
aside h2 { margin: 4px 0 6px; font-size: 15px; }
#step .action { font-size: 15px; }
#step .legal .card, #step .legal code { opacity: .55; }
#step .legal .chosen { opacity: 1; }
#step .ev { margin: 2px 0; font-size: 13px; }
#step .ev b { font-weight: 600; }
#tricks ol { margin: 0; padding-left: 26px; max-height: 260px; overflow: auto; }
#tricks li { margin: 2px 0; }
#details { max-height: 320px; overflow: auto; }
#timeline ol { max-height: 260px; overflow: auto; margin: 0; padding-left: 44px; font-size: 12px; }
#timeline li { cursor: pointer; padding: 1px 4px; }
#timeline li.cur { background: var(--hi); font-weight: 600; }
ol.vlist { margin: 0; padding-left: 20px; }
dl.vmap { display: grid; grid-template-columns: max-content 1fr; gap: 0 8px; margin: 0; }
.faults { color: #b91c1c; }
@media (max-width: 900px) { main { grid-template-columns: 1fr; } }
"""

REPLAY_JS = r"""
const D = JSON.parse(document.getElementById("replay-data").textContent);
FACES = D.faces || {};
const N = D.players;
const LAST = D.steps.length - 1;
function applyPatch(cur, p) {
  const next = Object.assign({}, cur);
  for (const [k, v] of Object.entries(p["="] || {})) next[k] = v;
  for (const [k, v] of Object.entries(p["+"] || {})) next[k] = (next[k] || []).concat(v);
  for (const [k, v] of Object.entries(p["~"] || {})) next[k] = applyPatch(next[k] || {}, v);
  for (const k of p["-"] || []) delete next[k];
  return next;
}
/* Rebuild every frame of every view from its patches, once. */
for (const view of D.views) {
  let cur = {};
  view.obs = view.frames.map(f => {
    cur = applyPatch(cur, f.o || {});
    return cur;
  });
  const key = o => JSON.stringify([o.last_trick, (o.tricks || o.double_tricks || []).length]);
  view.trickEnds = [];
  for (let k = 1; k <= LAST; k++) if (key(view.obs[k]) !== key(view.obs[k - 1])) view.trickEnds.push(k);
}
const CENTRE = new Set(["hand", "trick", "double_trick", "last_trick", "tricks", "double_tricks", "private",
                        "seat", "game", "players", "decision", "to_move"]);
const NOT_PER_SEAT = new Set(["priority", "colours", "tricks", "double_tricks", "results", "teams", "trump_side",
                              "dice"]);
let vi = 0, k = 0;

function seatName(s) { return `seat ${s} (${D.bots[s]})`; }
function perSeatKeys(obs) {
  return Object.keys(obs).filter(key => !CENTRE.has(key) && !NOT_PER_SEAT.has(key) && Array.isArray(obs[key])
    && obs[key].length === N && obs[key].every(x => x === null || typeof x !== "object" || isCardList(x)
                                                   || (Array.isArray(x) && x.length === 0)));
}
function trickPlays(t) {
  if (!t) return [];
  if (Array.isArray(t.plays)) return t.plays.map(p => ({seat: p.seat, card: p.card, note: p.action}));
  return (t.cards || []).map((c, i) => ({seat: (t.leader + i) % N, card: c}));
}
function winnersOf(t) {
  if (!t) return [];
  if (t.winners) return Object.values(t.winners);
  return [t.winner, t.winner2].filter(x => x !== undefined && x !== null);
}
function eventEl(ev) {
  const p = el("div", "ev");
  p.appendChild(el("b", null, ev.type));
  for (const [key, v] of Object.entries(ev)) {
    if (key === "type") continue;
    p.appendChild(document.createTextNode(` ${key} `));
    p.appendChild(valueEl(v));
  }
  return p;
}
/* A decision's line in the list.  Lines after the one shown name no card: a later play would
   tell this view a card that is still hidden in another hand at the decision shown. */
function stepLabel(view, j, upTo) {
  const st = D.steps[j], f = view.frames[j];
  if (j === 0) return "the deal";
  let text = `seat ${st.seat} ${st.kind}`;
  if (j > upTo && view.seat !== null) return text;
  if (f.a !== undefined) return `${text}: ${f.a}` + (view.seat === st.seat ? " (you)" : "");
  const shown = (f.e || []).filter(e => e.seat === st.seat && (e.card || e.bid || e.call || e.choice));
  if (shown.length) { const e = shown[0]; return `${text}: ${e.card || e.bid || e.call || e.choice}`; }
  return `${text}: made` + ((f.e || []).length ? "" : " (not shown)");
}

function render() {
  const view = D.views[vi], obs = view.obs[k], st = D.steps[k], f = view.frames[k];
  const omni = view.seat === null;
  document.getElementById("slider").value = k;
  document.getElementById("jump").value = k;
  document.getElementById("position").textContent = `${k} / ${LAST}`;
  for (const r of document.querySelectorAll('#views input')) r.checked = Number(r.value) === vi;
  // banner
  const banner = document.getElementById("banner");
  banner.textContent = "";
  if (omni) banner.appendChild(el("span", "omni", "ORGANISER'S VIEW: every hand shown"));
  else banner.appendChild(el("span", null, `As ${seatName(view.seat)} saw it. `));
  const nextTxt = st.to >= 0 ? `Next: ${seatName(st.to)} to ${st.next || st.kind}.` : "Game over.";
  banner.appendChild(el("span", null, (k === 0 ? "The deal. " : `After decision ${k}: seat ${st.seat} ${st.kind}. `)
                                      + nextTxt));
  renderTrick(view, obs, f);
  renderSeats(view, obs, st);
  renderStep(view, obs, st, f);
  renderTricks(obs);
  renderDetails(view, obs);
  for (const li of document.querySelectorAll("#steps li.cur")) li.classList.remove("cur");
  const items = document.getElementById("steps").children;
  for (let j = 0; j < items.length; j++) {
    const label = stepLabel(view, j, k);
    if (items[j].textContent !== label) items[j].textContent = label;
  }
  const li = document.getElementById("step-" + k);
  if (li) {
    li.classList.add("cur");
    const box = li.parentElement;
    if (li.offsetTop < box.scrollTop || li.offsetTop > box.scrollTop + box.clientHeight - 20)
      box.scrollTop = li.offsetTop - box.clientHeight / 2;
  }
  history.replaceState(null, "", `#${view.id}/${k}`);
}
function renderTrick(view, obs, f) {
  const box = document.getElementById("trick");
  box.textContent = "";
  const current = obs.trick || obs.double_trick;
  let plays = trickPlays(current), title = "On the table", winners = [];
  const justEnded = view.trickEnds.includes(k);
  if (!plays.length && obs.last_trick && justEnded) {
    plays = trickPlays(obs.last_trick);
    winners = winnersOf(obs.last_trick);
    const pts = obs.last_trick.points !== undefined ? `, ${obs.last_trick.points} points` : "";
    title = `Trick complete: won by ${winners.map(seatName).join(" and ")}${pts}`;
  } else if (!plays.length) {
    title = obs.last_trick ? "No card on the table yet (last trick below)" : "No card on the table";
  }
  const t = el("div", "title" + (winners.length ? " won" : ""), title);
  box.appendChild(t);
  for (const p of plays) {
    const d = el("div", "play");
    const c = cardEl(p.card);
    if (winners.includes(p.seat)) c.classList.add("win");
    d.appendChild(c);
    d.appendChild(el("span", null, `seat ${p.seat}` + (p.note ? ` · ${p.note}` : "")));
    box.appendChild(d);
  }
  if (!plays.length && obs.last_trick) {
    const d = el("div", "play");
    d.appendChild(el("span", null, "last trick:"));
    box.appendChild(d);
    const w = winnersOf(obs.last_trick);
    for (const p of trickPlays(obs.last_trick)) {
      const c = cardEl(p.card, {small: true});
      if (w.includes(p.seat)) c.classList.add("win");
      box.appendChild(c);
    }
  }
}
function renderSeats(view, obs, st) {
  const box = document.getElementById("seats");
  box.textContent = "";
  const keys = perSeatKeys(obs);
  for (let s = 0; s < N; s++) {
    const me = view.seat === s;
    const d = el("div", "seat" + (me ? " me" : "") + (st.to === s ? " tomove" : ""));
    d.id = "seat-" + s;
    const h = el("h3", null, seatName(s));
    if (me) h.appendChild(el("span", "tag", "this view"));
    if (st.to === s) h.appendChild(el("span", "tag move", "to move"));
    if (obs.dealer === s) h.appendChild(el("span", "tag", "dealer"));
    if (D.teams) D.teams.forEach((t, i) => { if (t.includes(s)) h.appendChild(el("span", "tag", `team ${i}`)); });
    d.appendChild(h);
    const hand = el("div", "hand");
    const priv = omni(view) ? (obs.private || [])[s] || {} : null;
    const cards = priv ? priv.hand : (me ? obs.hand : null);
    if (Array.isArray(cards)) {
      for (const c of cards) hand.appendChild(cardEl(c, {focus: true}));
      if (!cards.length) hand.appendChild(el("span", "muted", "no cards in hand"));
    } else if (obs.hand_sizes && typeof obs.hand_sizes[s] === "number") {
      for (let i = 0; i < obs.hand_sizes[s]; i++) hand.appendChild(backEl());
      hand.appendChild(el("span", "muted", ` ${obs.hand_sizes[s]} hidden`));
    }
    d.appendChild(hand);
    const dl = el("dl");
    for (const key of keys) {
      if (key === "hand_sizes") continue;
      dl.appendChild(el("dt", null, key));
      const dd = el("dd");
      dd.appendChild(valueEl(obs[key][s]));
      dl.appendChild(dd);
    }
    if (priv) for (const [key, v] of Object.entries(priv)) {
      if (key === "hand") continue;
      dl.appendChild(el("dt", null, key + " (own)"));
      const dd = el("dd");
      dd.appendChild(valueEl(v));
      dl.appendChild(dd);
    }
    if (k === LAST && D.scores) {
      dl.appendChild(el("dt", null, "final"));
      const res = D.result || {scores: D.scores, ranks: D.ranks};
      dl.appendChild(el("dd", null, `score ${fmtNum(res.scores[s])}, rank ${res.ranks[s]}`
                                    + (D.forfeited.includes(s) ? " (forfeited)" : "")));
    }
    d.appendChild(dl);
    box.appendChild(d);
  }
}
function omni(view) { return view.seat === null; }
function renderStep(view, obs, st, f) {
  const box = document.getElementById("step");
  box.textContent = "";
  box.appendChild(el("h2", null, k === 0 ? "The deal" : `Decision ${k}`));
  if (k > 0) {
    const a = el("div", "action");
    a.appendChild(document.createTextNode(`${seatName(st.seat)} — ${st.kind}: `));
    if (f.a !== undefined) a.appendChild(valueEl(f.a));
    else a.appendChild(el("em", null, (f.e || []).length ? "seen only through the events below"
                                                          : "a choice this seat was not shown"));
    box.appendChild(a);
    const how = [f.how, f.ms !== undefined ? `${f.ms} ms` : null].filter(Boolean).join(", ");
    if (how) box.appendChild(el("div", "muted", `made by: ${how}`));
    if (f.r !== undefined) box.appendChild(el("div", "faults", `rejected answer: ${f.r}`));
    if (f.legal) {
      const lg = el("div", "legal");
      lg.appendChild(el("div", "muted", `${f.legal.length} legal option(s):`));
      for (const o of f.legal) {
        const c = valueEl(o);
        if (o === f.a) c.classList.add("chosen");
        lg.appendChild(c);
        lg.appendChild(document.createTextNode(" "));
      }
      box.appendChild(lg);
    }
  }
  if (f.e && f.e.length) {
    box.appendChild(el("h3", null, `Events sent to seat ${view.seat}`));
    for (const ev of f.e) box.appendChild(eventEl(ev));
  }
  if (k === LAST) {
    box.appendChild(el("h3", null, D.finished ? "Result" : "The record ends here (game not finished)"));
    if (D.scores) {
      const res = D.result || {scores: D.scores, ranks: D.ranks};
      box.appendChild(el("div", null, res.scores.map((x, s) => `${seatName(s)}: ${fmtNum(x)} (rank ${res.ranks[s]})`)
                                              .join("; ")));
    }
    const faults = D.faults.filter(x => omni(view) || x.seat === view.seat);
    for (const x of faults) box.appendChild(el("div", "faults", `fault: seat ${x.seat} (${x.bot}) ${x.class} → ${x.outcome}: ${x.detail}`));
  }
}
function renderTricks(obs) {
  const box = document.getElementById("tricks");
  box.textContent = "";
  const list = obs.tricks || obs.double_tricks;
  box.appendChild(el("h2", null, "Tricks" + (list ? ` (${list.length})` : "")));
  if (!list || !list.length) { box.appendChild(el("div", "muted", "none yet")); return; }
  const ol = el("ol");
  for (const t of list) {
    const li = el("li");
    const w = winnersOf(t);
    for (const p of trickPlays(t)) {
      const c = cardEl(p.card, {small: true});
      if (w.includes(p.seat)) c.classList.add("win");
      li.appendChild(c);
    }
    li.appendChild(document.createTextNode(` → ${w.map(s => "seat " + s).join(", ")}`
                                           + (t.points !== undefined ? ` (${t.points})` : "")));
    ol.appendChild(li);
  }
  box.appendChild(ol);
  ol.scrollTop = ol.scrollHeight;
}
function renderDetails(view, obs) {
  const box = document.getElementById("details");
  box.textContent = "";
  box.appendChild(el("h2", null, "Everything else in this view"));
  const shown = new Set([...CENTRE, ...perSeatKeys(obs)]);
  const dl = el("dl");
  for (const [key, v] of Object.entries(obs)) {
    if (shown.has(key)) continue;
    dl.appendChild(el("dt", null, key));
    const dd = el("dd");
    dd.appendChild(valueEl(v));
    dl.appendChild(dd);
  }
  box.appendChild(dl);
}
function buildTimeline() {
  const ol = document.getElementById("steps");
  ol.textContent = "";
  ol.start = 0;
  const view = D.views[vi];
  for (let j = 0; j <= LAST; j++) {
    const li = el("li", null, stepLabel(view, j, -1));
    li.id = "step-" + j;
    li.value = j;
    li.addEventListener("click", () => go(j));
    ol.appendChild(li);
  }
}
function go(j) { k = Math.max(0, Math.min(LAST, j)); render(); }
function setView(i) { vi = Math.max(0, Math.min(D.views.length - 1, i)); buildTimeline(); render(); }
function nextTrick(dir) {
  const ends = D.views[vi].trickEnds;
  const t = dir > 0 ? ends.find(x => x > k) : [...ends].reverse().find(x => x < k);
  go(t === undefined ? (dir > 0 ? LAST : 0) : t);
}

(function init() {
  const opts = D.options && Object.keys(D.options).length ? ", " + Object.entries(D.options).map(([a, b]) => `${a}=${b}`).join(" ") : "";
  document.getElementById("subtitle").textContent =
    `${D.players} players${opts}; ${D.bots.map((b, s) => `seat ${s}: ${b}`).join(", ")}; ${LAST} decisions`
    + (D.finished ? "" : " (unfinished)");
  const fs = document.getElementById("views");
  D.views.forEach((v, i) => {
    const lab = el("label", v.seat === null ? "omni" : null);
    const r = el("input");
    r.type = "radio"; r.name = "view"; r.value = i; r.id = "view-" + v.id;
    r.addEventListener("change", () => setView(i));
    lab.appendChild(r);
    lab.appendChild(document.createTextNode(" " + v.label));
    fs.appendChild(lab);
  });
  const slider = document.getElementById("slider");
  slider.max = LAST;
  slider.addEventListener("input", () => go(Number(slider.value)));
  const jump = document.getElementById("jump");
  jump.max = LAST;
  jump.addEventListener("change", () => go(Number(jump.value)));
  document.getElementById("first").onclick = () => go(0);
  document.getElementById("last").onclick = () => go(LAST);
  document.getElementById("prev").onclick = () => go(k - 1);
  document.getElementById("next").onclick = () => go(k + 1);
  document.getElementById("prevtrick").onclick = () => nextTrick(-1);
  document.getElementById("nexttrick").onclick = () => nextTrick(1);
  document.addEventListener("keydown", ev => {
    const t = ev.target;
    if (t && (t.id === "jump" || t.id === "slider")) return;
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const key = ev.key;
    if (key === "ArrowRight") go(k + 1);
    else if (key === "ArrowLeft") go(k - 1);
    else if (key === "PageDown") nextTrick(1);
    else if (key === "PageUp") nextTrick(-1);
    else if (key === "Home") go(0);
    else if (key === "End") go(LAST);
    else if (/^[0-9]$/.test(key)) { const i = D.views.findIndex(v => v.seat === Number(key)); if (i >= 0) setView(i); else return; }
    else if (key === "a") { const i = D.views.findIndex(v => v.seat === null); if (i >= 0) setView(i); else return; }
    else return;
    ev.preventDefault();
  });
  let start = 0, startK = 0;
  const m = /^#([\w-]+)\/(\d+)$/.exec(location.hash);
  if (m) { const i = D.views.findIndex(v => v.id === m[1]); if (i >= 0) start = i; startK = Number(m[2]); }
  vi = start; k = Math.min(LAST, startK);
  buildTimeline();
  render();
  document.body.dataset.ready = "1";
  performance.mark("trickcore-ready");
})();
"""

REPORT_CSS = """
header .sub { margin: 0 0 8px; color: var(--muted); }
header nav { margin: 8px 0 6px; display: flex; flex-wrap: wrap; gap: 4px 14px; }
.facts { display: flex; flex-wrap: wrap; gap: 8px; }
.facts div { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 4px 10px;
             display: flex; flex-direction: column; }
.facts b { font-size: 16px; }
.facts span { font-size: 11px; color: var(--muted); }
main { padding: 0 20px 20px; max-width: 1400px; }
section { margin-top: 8px; }
.dq { background: #fee2e2; color: #991b1b; border-radius: 4px; padding: 0 4px; font-size: 11px; }
.n { color: var(--muted); font-size: 11px; }
td.na { color: var(--line); }
.hists { display: flex; flex-wrap: wrap; gap: 6px 14px; }
svg text { font: 11px system-ui, "DejaVu Sans", sans-serif; fill: var(--ink); }
svg .t { font-weight: 600; font-size: 12px; }
svg .tick { fill: var(--muted); }
svg .axis { stroke: var(--muted); }
svg .grid { stroke: #e5e7eb; }
svg .mean { stroke: #111; stroke-width: 2; }
svg .ci { fill: #fde68a; opacity: .7; }
svg.forest { display: block; margin-top: 10px; }
table.sortable th { cursor: pointer; user-select: none; }
table.sortable th[aria-sort=ascending]::after { content: " ▲"; }
table.sortable th[aria-sort=descending]::after { content: " ▼"; }
.faultlist { max-height: 300px; overflow: auto; font-size: 13px; }
.faultlist .detail { font-family: "DejaVu Sans Mono", monospace; font-size: 12px; }
.gamebar { margin: 6px 0; display: flex; gap: 10px; align-items: center; flex-wrap: wrap; }
#games-table tr.target { background: var(--hi); }
#games-table code.cmd { font-size: 11px; user-select: all; display: block; }
#games-table details.cmd { display: inline-block; margin-right: 6px; }
#games-table td:nth-child(2) { white-space: nowrap; }
#games-table td.bots span { margin-right: 10px; white-space: nowrap; }
#games-table td.bots span.first { font-weight: 700; }
table.kv th { width: 160px; }
footer { padding: 8px 20px 20px; }
"""

REPORT_JS = r"""
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
"""


def page_head(generator: str) -> str:
    """The start of a self-contained page, up to the inline card symbols: the placeholders
    {{TITLE}}, {{CSS}} and {{SYMBOLS}} are filled by the page's writer."""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="{generator}">
<link rel="icon" href="data:,">
<title>{{{{TITLE}}}}</title>
<style>{{{{CSS}}}}</style>
</head>
<body>
{{{{SYMBOLS}}}}
"""
