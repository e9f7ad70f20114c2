"use strict";
/* What every game's view calls a trick, read alike by the replay viewer and the play page. */
/* The plays of a trick of a view, in order: {seat, card, note}; ``n`` seats.  A trick is
   {leader, cards} (the card of seat leader + i at i), or {plays: [{seat, card, action}]}. */
function trickPlays(t, n) {
  if (!t) return [];
  if (Array.isArray(t.plays)) return t.plays.map(p => ({seat: p.seat, card: p.card, note: p.action}));
  return (t.cards || []).map((c, i) => ({seat: (t.leader + i) % n, card: c}));
}
/* The seats that won a completed trick (two for a double trick). */
function winnersOf(t) {
  if (!t) return [];
  if (t.winners) return Object.values(t.winners);
  return [t.winner, t.winner2].filter(x => x !== undefined && x !== null);
}
/* The keys of a view shown at the centre of the table, not among a seat's details. */
const CENTRE = new Set(["hand", "trick", "double_trick", "last_trick", "tricks", "double_tricks", "private",
                        "seat", "game", "players", "decision", "to_move"]);
const NOT_PER_SEAT = new Set(["priority", "colours", "tricks", "double_tricks", "results", "teams", "trump_side",
                              "dice"]);
/* The keys of a view that hold one value per seat (``n`` seats), shown beside each seat. */
function perSeatKeys(obs, n) {
  return Object.keys(obs).filter(key => !CENTRE.has(key) && !NOT_PER_SEAT.has(key) && Array.isArray(obs[key])
    && obs[key].length === n && obs[key].every(x => x === null || typeof x !== "object" || isCardList(x)
                                                   || (Array.isArray(x) && x.length === 0)));
}
/* An event as a line: its type in bold, then its fields, card texts drawn as cards. */
function eventEl(ev, tag) {
  const p = el(tag || "div", "ev");
  p.appendChild(el("b", null, ev.type));
  for (const [key, v] of Object.entries(ev)) {
    if (key === "type") continue;
    p.appendChild(document.createTextNode(` ${key} `));
    p.appendChild(valueEl(v));
  }
  return p;
}
/* The keys of a view shown neither at the centre nor beside the seats, as a list of terms. */
function restOfView(obs, n) {
  const shown = new Set([...CENTRE, ...perSeatKeys(obs, n)]);
  const dl = el("dl");
  for (const [key, v] of Object.entries(obs)) {
    if (shown.has(key)) continue;
    dl.appendChild(el("dt", null, key));
    const dd = el("dd");
    dd.appendChild(valueEl(v));
    dl.appendChild(dd);
  }
  return dl;
}
/* One seat's values of the per-seat keys of a view (``keys``), as a list of terms. */
function seatValues(obs, keys, s) {
  const dl = el("dl");
  for (const key of keys) {
    if (key === "hand_sizes") continue;
    dl.appendChild(el("dt", null, key));
    const dd = el("dd");
    dd.appendChild(valueEl(obs[key][s]));
    dl.appendChild(dd);
  }
  return dl;
}
