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
