/* The play page (tournament/play.py): the person's seat at a table of bots.  Everything shown
   comes from the server's messages: the seat's view (observation), the events the seat was sent,
   and at the person's decisions the legal options.  A choice is sent as its option text; the
   server applies only a legal one, so a click that is no option does nothing. */
const DATA = JSON.parse(document.getElementById("play-data").textContent);
FACES = DATA.faces || {};
const N = DATA.players, ME = DATA.seat;
let names = DATA.names;
let view = null;          // the seat's latest observation
let legal = [];           // the options of the person's decision, [] when it is not theirs
let decision = "";
let selected = [];        // cards picked toward an option naming several cards (or a card with a choice)
let state = "connecting"; // connecting, watch, ask, sent, pause, over, taken, closed
let pause = null, over = null, seq = 0, ws = null;
let events = [];          // every event of this game the seat was sent
let hint = null;          // what the search bot would play at this decision, when asked (--hints)

function seatName(s) { return s === ME ? `you (seat ${s})` : `seat ${s} (${names[s]})`; }

/* The cards an option names: "KH" -> [KH], "Bgod=7" -> [Bgod], "7C+8C" -> [7C, 8C], "KH+belle" ->
   [KH]; [] for an option that names no card (a bid, a word). */
function cardsOf(option) {
  return option.split("+").map(p => p.split("=")[0]).filter(p => Object.prototype.hasOwnProperty.call(FACES, p));
}
function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const x = [...a].sort(), y = [...b].sort();
  return x.every((c, i) => c === y[i]);
}
/* Whether every card of ``part`` is among ``whole`` (as many times as it is in ``part``). */
function within(part, whole) {
  const left = [...whole];
  for (const c of part) { const i = left.indexOf(c); if (i < 0) return false; left.splice(i, 1); }
  return true;
}
function optionsWith(cards) { return legal.filter(o => cardsOf(o).length && within(cards, cardsOf(o))); }

function send(message) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
}
function choose(option) {
  if (state !== "ask" || !legal.includes(option)) return;
  state = "sent";
  legal = [];
  selected = [];
  send({type: "act", action: option});
  render();
}
function goOn() {
  if (state !== "pause" && state !== "over") return;
  state = "watch";
  send({type: "continue"});
  render();
}
function clickCard(card) {
  if (state !== "ask") return;
  const options = optionsWith([card]);
  if (!options.length) return;              // not part of any option: nothing happens
  if (!selected.length && options.length === 1 && sameCards(cardsOf(options[0]), [card])) {
    choose(options[0]);
    return;
  }
  const i = selected.indexOf(card);
  if (i >= 0) selected.splice(i, 1);
  else if (optionsWith([...selected, card]).length) selected.push(card);
  else selected = [card];
  render();
}

function handle(msg) {
  seq += 1;
  switch (msg.type) {
    case "hello":
      names = msg.names;
      document.getElementById("subtitle").textContent =
        `${msg.players} players; you hold seat ${ME}. ${msg.options_text}`;
      if (RULES.page) {
        document.getElementById("subtitle").append(" ");
        document.getElementById("subtitle").appendChild(ruleLink("", "The rules"));
      }
      break;
    case "resume":
      view = msg.view;
      document.getElementById("log").textContent = "";
      events = [];
      logEvents(msg.events || []);
      if (msg.pause && !msg.over) endOfDeal();
      document.getElementById("notices").textContent = "";
      for (const f of msg.faults || []) notice(faultText(f), "fault");
      legal = []; pause = null; over = null; state = "watch";
      if (msg.over) { over = msg.over; state = "over"; }
      else if (msg.pause) { pause = msg.pause; state = "pause"; }
      else if (msg.ask) { legal = msg.ask.legal; decision = msg.ask.decision; state = "ask"; }
      break;
    case "game":
      view = null; over = null; pause = null; legal = []; selected = []; state = "watch"; events = [];
      document.getElementById("log").textContent = "";
      document.getElementById("notices").textContent = "";
      break;
    case "update":
      logEvents(msg.events || []);
      if (msg.view) view = msg.view;
      else endOfDeal();     // the deal is over: its table stays as it ended, until the person goes on
      if (state !== "ask") state = "watch";
      break;
    case "ask":
      legal = msg.legal; decision = msg.decision; selected = []; state = "ask"; hint = null;
      break;
    case "hint":
      hint = msg;
      break;
    case "refused":
      notice(`${msg.action} is not an option now.`, "fault");
      break;
    case "pause":
      pause = msg; state = "pause";
      break;
    case "over":
      over = msg; state = "over"; legal = [];
      break;
    case "fault":
      notice(faultText(msg), "fault");
      break;
    case "taken":
      state = "taken";
      break;
    case "error":
      notice(msg.text, "fault");
      break;
  }
  render();
}
function faultText(f) {
  const what = {timeout: "ran out of time", crash: "crashed", illegal: "sent an option that is not legal",
                garbage: "sent a line that is no answer", limit: "went over a limit"}[f.class] || f.class;
  const then = f.outcome === "forfeit" ? "it forfeits the game" : "a random legal option was played for it";
  return `${seatName(f.seat)} ${what}: ${then}.`;
}
function notice(text, cls) {
  document.getElementById("notices").appendChild(el("p", cls, text));
}
function logEvents(list) {
  events.push(...list);
  const log = document.getElementById("log");
  for (const ev of list) {
    const line = eventLine(ev);
    if (line) log.appendChild(line);
  }
  log.scrollTop = log.scrollHeight;
}

function render() {
  const status = document.getElementById("status");
  status.dataset.state = state;
  status.dataset.seq = String(seq);
  status.textContent = statusText();
  const d = state === "ask" ? (TABLE.decisions || {})[decision] : null;
  if (d && d.rule && RULES.page) {     // the section of the rules the decision follows, as a link to it
    status.append(" (");
    status.appendChild(ruleLink(RULES.anchors[decision] || "", `${DATA.title.split(" (")[0]} ${d.rule}`));
    status.append(")");
  }
  renderTableInfo();
  renderTrick();
  renderSeats();
  renderHand();
  renderChoices();
  renderDetails();
  renderSheet();
  renderResult();
  renderHint();
  layoutMiddle();   // last: the felt's size follows what is drawn under it and above it
}
/* The hint (with --hints): a button at the person's decisions, and once pressed what the bundled
   search bot would play and the value it found for each option (a share of the points at stake). */
function askHint() {
  if (!DATA.hints || state !== "ask") return;
  send({type: "hint"});
}
function renderHint() {
  const box = document.getElementById("hint");
  box.textContent = "";
  delete box.dataset.best;
  if (!DATA.hints || state !== "ask") return;
  if (!hint) {
    const b = el("button", null, "Hint (h)");
    b.type = "button";
    b.addEventListener("click", askHint);
    box.appendChild(b);
    return;
  }
  box.dataset.best = hint.best;
  box.appendChild(el("span", null, {search: "The search bot would play ",
                                      heuristic: "The search bot leaves this to the game's heuristic, which plays ",
                                      first: "The search bot cannot follow this game and plays its first option, "}[hint.by]));
  box.appendChild(cardsOf(hint.best).length ? cardEl(hint.best, {small: true}) : el("b", null, hint.best));
  const values = Object.entries(hint.values || {}).sort((a, b) => b[1] - a[1]);
  if (values.length) {
    box.appendChild(document.createTextNode(" — its values: "));
    values.forEach(([option, value], i) => {
      if (i) box.appendChild(document.createTextNode(", "));
      box.appendChild(el("span", "value", `${option.replace("+", " + ")} ${value.toFixed(2)}`));
    });
  }
}
function statusText() {
  if (state === "connecting") return "Connecting…";
  if (state === "taken") return "This seat is open in another page. Close that one, then reload this one.";
  if (state === "closed") return "The game has ended: the server has stopped.";
  if (state === "ask") {
    return `Your turn: ${askText()}`;   // render() adds the link to the rule it follows
  }
  if (state === "sent") return "Sent…";
  if (state === "pause") return `The deal is over. Next deal: press n or the button.`;
  if (state === "over") return "The game is over.";
  if (view && typeof view.to_move === "number" && view.to_move >= 0) return `Waiting for ${seatName(view.to_move)}…`;
  return "Waiting…";
}
/* Where seat ``s`` sits, in per cent of the felt: the person at the bottom, the others in
   playing order clockwise (the next seat on the person's left); ``reach`` 1 is the seat's own
   place, less is toward the middle (where its trick card lies). */
function placeOf(s, reach) {
  const angle = 2 * Math.PI * (((s - ME) % N + N) % N) / N;
  return {x: 50 - 48 * reach * Math.sin(angle), y: 50 + 48 * reach * Math.cos(angle)};
}
/* ``e`` centred on ``at``; with ``inside``, shifted so that it stays within the felt (a seat at
   the top hangs down from its place, one at the left edge reaches right from it). */
function putAt(e, at, inside) {
  e.style.left = at.x.toFixed(2) + "%";
  e.style.top = at.y.toFixed(2) + "%";
  if (inside) e.style.transform = `translate(${-at.x.toFixed(2)}%, ${-at.y.toFixed(2)}%)`;
}
function renderTrick() {
  const box = document.getElementById("trick");
  box.textContent = "";
  if (!view) return;
  let plays = trickPlays(view.trick || view.double_trick, N), winners = [], title = "";
  if (!plays.length && view.last_trick) {
    plays = trickPlays(view.last_trick, N);
    winners = winnersOf(view.last_trick);
    const pts = view.last_trick.points !== undefined ? ` · ${view.last_trick.points} points` : "";
    title = `Won by ${winners.map(w => w === ME ? "you" : names[w]).join(" and ")}${pts}`;
  }
  if (title) box.appendChild(el("div", "title" + (winners.length ? " won" : ""), title));
  const seen = {};
  for (const p of plays) {
    // A seat with two cards in one trick (a double trick) has the second one a little aside.
    const again = seen[p.seat] = (seen[p.seat] || 0) + 1;
    const d = el("div", "play");
    const c = cardEl(p.card);
    if (winners.includes(p.seat)) c.classList.add("win");
    d.appendChild(c);
    if (p.note) d.appendChild(el("span", null, p.note));
    // Nearer the middle up and down than across: the seats' panels are wider than tall.
    const at = {x: placeOf(p.seat, 0.4).x + (again - 1) * 4, y: placeOf(p.seat, 0.34).y};
    putAt(d, at);
    box.appendChild(d);
  }
}
/* The game's description of its view (GameInfo.table, in the game's own folder): per field of the
   view where it is shown (at each seat, on the table, in the side list, or not as a field), its
   label and how its value is drawn; the prompt of each kind of decision; the words of its suits. */
const TABLE = DATA.table || {fields: {}, decisions: {}, suits: {}};
function fieldsAt(where) {
  return Object.entries(TABLE.fields).filter(([key, f]) => f.at === where && view && key in view);
}
/* A value drawn as the description says (``f.how``); null when there is nothing to show. */
function drawnEl(v, f) {
  const how = f.how || "text";
  // A field that is a list in one event and one value in another (points of a deal, of a trick).
  if (["list", "seats", "cards"].includes(how) && v !== null && v !== undefined && !Array.isArray(v)) v = [v];
  if (v === null || v === undefined || (Array.isArray(v) && !v.length && how !== "count")) return null;
  switch (how) {
    case "flag": return v ? el("span", null, "✓") : null;
    case "yesno": return el("span", null, v ? "yes" : "no");
    case "count": return el("span", null, String(Array.isArray(v) ? v.length : v));
    case "card": return cardEl(v, {small: true});
    case "cards": return v.length > 4 ? el("span", null, `${v.length} cards`) : cardsEl(v, {small: true});
    case "suit": return el("span", "suit", (TABLE.suits || {})[v] || String(v));
    case "suits": return el("span", "suit", [...(Array.isArray(v) ? v : String(v))].map(x => (TABLE.suits || {})[x] || x).join(" "));
    case "dice": return el("span", "dice", Number.isInteger(v) && v >= 1 && v <= 6 ? "⚀⚁⚂⚃⚄⚅"[v - 1] : String(v));
    case "seat": return el("span", "name", v === ME ? "you" : names[v] === undefined ? String(v) : names[v]);
    case "seats": {    // a list of names breaks between names, never inside one
      const box = el("span", "names");
      v.forEach((x, i) => {
        if (i) box.appendChild(document.createTextNode(", "));
        box.appendChild(el("span", "name", x === ME ? "you" : names[x]));
      });
      return box;
    }
    case "words": return el("span", null, (f.words || {})[String(v)] || String(v));
    case "number": return el("span", null, fmtNum(v));
    case "list": {     // each element drawn as ``f.item``, the ones that show nothing left out
      const shown = v.map(x => drawnEl(x, f.item || {})).filter(e => e);
      if (!shown.length) return null;
      const box = el("span", "list");
      shown.forEach((e, i) => { if (i) box.appendChild(document.createTextNode("; ")); box.appendChild(e); });
      return box;
    }
    case "record": {
      if (f.needs && drawnEl(v[f.needs], f.parts[f.needs]) === null) return null;
      const box = el("span", "record");
      for (const [key, part] of Object.entries(f.parts || {})) {
        const e = drawnEl(v[key], part);
        if (!e) continue;
        if (box.childNodes.length) box.appendChild(document.createTextNode(", "));
        if (part.label) box.appendChild(el("span", "l", part.label + " "));
        box.appendChild(e);
      }
      return box.childNodes.length ? box : null;
    }
    default: return el("span", null, typeof v === "number" ? fmtNum(v) : String(v));
  }
}
/* A label and its value, or null when the value shows nothing. */
function factEl(f, v) {
  const shown = drawnEl(v, f);
  if (!shown) return null;
  const e = el("span", "fact");
  if (f.label) e.appendChild(el("span", "l", f.label + (f.how === "flag" ? "" : " ")));
  if (f.how !== "flag") e.appendChild(shown);
  return e;
}
/* An event as the game tells it (its description's ``events``: a sentence per kind of event, each
   {field} drawn as ``event_fields`` says); null for a kind the game does not tell. */
function eventLine(ev) {
  const say = (TABLE.events || {})[ev.type];
  if (!say) return null;
  const li = el("li");
  for (const [i, part] of say.split(/\{(\w+)\}/).entries()) {
    if (i % 2 === 0) { if (part) li.appendChild(document.createTextNode(part)); continue; }
    li.appendChild(drawnEl(ev[part], (TABLE.event_fields || {})[part] || {}) || el("span", "muted", "–"));
  }
  return li;
}
/* The ended deal as it ended: its last trick (the trick event, which the view of the next deal
   no longer holds) lies on the table, and nobody is to move. */
function endOfDeal() {
  if (!view) return;
  const last = [...events].reverse().find(e => e.type === "trick");
  if (!last) return;
  // The cards of the last trick played after the view was taken leave their holders' hands.
  const before = new Set(trickPlays(view.trick || view.double_trick, N).map(p => `${p.seat} ${p.card}`));
  const sizes = Array.isArray(view.hand_sizes) ? [...view.hand_sizes] : null;
  let hand = Array.isArray(view.hand) ? [...view.hand] : view.hand;
  for (const p of trickPlays(last, N)) {
    if (before.has(`${p.seat} ${p.card}`)) continue;
    if (sizes && sizes[p.seat] > 0) sizes[p.seat] -= 1;
    if (p.seat === ME && Array.isArray(hand)) hand = hand.filter(c => c !== p.card.split("=")[0]);
  }
  view = Object.assign({}, view, {to_move: -1, trick: null, double_trick: null, last_trick: last, hand},
                       sizes ? {hand_sizes: sizes} : {});
}
/* The team of seat ``s`` (an index into a value given per team), or null. */
function teamOf(s) {
  return DATA.teams ? DATA.teams.findIndex(t => t.includes(s)) : null;
}
/* The score sheet of the last deal that ended (the game's description names the event that ends a
   deal, its columns and caption): per seat each column's value, the tricks it took in the deal
   (counted from the deal's trick events), and the running total where the event has one. */
/* Each seat's tricks in the last deal that ended (the one the score sheet shows): its trick events
   since the deal before ended; null before a deal has ended. */
function dealTricks() {
  const sheet = TABLE.sheet;
  const at = sheet ? events.map(e => e.type).lastIndexOf(sheet.event) : -1;
  if (at < 0) return null;
  const before = events.slice(0, at).map(e => e.type).lastIndexOf(sheet.event);
  const tricks = new Array(N).fill(0);
  for (const e of events.slice(before + 1, at)) if (e.type === "trick") for (const w of winnersOf(e)) tricks[w] += 1;
  return tricks;
}
function renderSheet() {
  const box = document.getElementById("sheet");
  box.textContent = "";
  const sheet = TABLE.sheet;
  if (!sheet || (state !== "pause" && state !== "over")) return;
  const at = events.map(e => e.type).lastIndexOf(sheet.event);
  if (at < 0) return;
  const ev = events[at], tricks = dealTricks();
  box.appendChild(el("h2", null, sheet.title || "The deal's score sheet"));
  const caption = el("p", "caption");
  for (const [key, f] of Object.entries(sheet.caption || {})) {
    const fact = factEl(f, ev[key]);
    if (fact) { caption.appendChild(fact); caption.appendChild(document.createTextNode(" ")); }
  }
  if (caption.childNodes.length) box.appendChild(caption);
  const table = el("table");
  const head = el("tr");
  head.appendChild(el("th", "l", "seat"));
  for (const col of sheet.columns) head.appendChild(el("th", null, col.label));
  head.appendChild(el("th", null, sheet.tricks || "tricks"));
  table.appendChild(head);
  for (let s = 0; s < N; s++) {
    const row = el("tr", s === ME ? "me" : null);
    const who = row.appendChild(el("td", "l", s === ME ? "you" : names[s]));
    who.title = seatName(s);
    for (const col of sheet.columns) {
      const all = ev[col.key];
      const value = !Array.isArray(all) ? null : all.length === N ? all[s] : teamOf(s) !== null ? all[teamOf(s)] : null;
      const td = el("td");
      td.dataset.key = col.key;
      td.dataset.seat = String(s);
      td.dataset.value = JSON.stringify(value === undefined ? null : value);
      td.appendChild(drawnEl(value, col) || el("span", "muted", "–"));
      row.appendChild(td);
    }
    const td = el("td", null, String(tricks[s]));
    td.dataset.key = "tricks";
    td.dataset.seat = String(s);
    td.dataset.value = String(tricks[s]);
    row.appendChild(td);
    table.appendChild(row);
  }
  box.appendChild(table);
}
/* The game's result, at the top of the page once it is over: every seat's rank and score, a new
   game and the replay of this one. */
function renderResult() {
  const box = document.getElementById("result");
  box.textContent = "";
  box.hidden = state !== "over" || !over;
  if (box.hidden) return;
  const res = over.result || {scores: over.scores, ranks: over.ranks};
  const order = [...Array(N).keys()].sort((a, b) => res.ranks[a] - res.ranks[b]);
  box.appendChild(el("b", null, "The game is over: "));
  order.forEach((s, i) => {
    const e = el("span", "place" + (s === ME ? " me" : ""),
                 `${res.ranks[s]}. ${s === ME ? "you" : names[s]} ${fmtNum(res.scores[s])}`
                 + ((over.forfeited || []).includes(s) ? " (forfeited)" : ""));
    if (i) box.appendChild(document.createTextNode(" · "));
    box.appendChild(e);
  });
  const again = el("button", "go", "New game");
  again.type = "button";
  again.addEventListener("click", goOn);
  box.appendChild(again);
  if (over.game) {
    const link = el("a", null, "Replay this game");
    link.href = `/replay?t=${encodeURIComponent(DATA.token)}&game=${over.game}`;
    link.target = "_blank";
    link.rel = "noopener";
    box.appendChild(link);
  }
}
/* The game's rules page (served beside the page, the game's docs/rules file rendered), opened in
   a tab of its own at ``anchor`` (a section's number, e.g. s4.4; none: the top). */
const RULES = DATA.rules || {page: false, anchors: {}};
function ruleLink(anchor, text) {
  const link = el("a", "rule", text);
  link.href = `/rules?t=${encodeURIComponent(DATA.token)}` + (anchor ? `#${encodeURIComponent(anchor)}` : "");
  link.target = "_blank";
  link.rel = "noopener";
  link.dataset.anchor = anchor;
  return link;
}
/* What the person is asked, in the game's words (its description's prompt of the decision),
   each {field} of the prompt filled with the view's value as words. */
function askText() {
  const d = (TABLE.decisions || {})[decision];
  if (!d) return "choose one of the options.";
  return d.ask.replace(/\{(\w+)\}/g, (_, key) => {
    const shown = drawnEl(view ? view[key] : null, TABLE.fields[key] || {});
    if (!shown) return "–";
    return shown.classList.contains("card") ? shown.getAttribute("aria-label") : shown.textContent;
  });
}
/* How many cards seat ``s`` holds: the view's hand sizes; in a view without them, during a trick
   (where every seat plays one card each trick, so all hold as many at its lead) as many as the
   person, less one for a seat that has played to it and the person has not, or one more the
   other way round; null when it cannot be known. */
function handSize(s) {
  if (view.hand_sizes && typeof view.hand_sizes[s] === "number") return view.hand_sizes[s];
  if (!view.trick || !Array.isArray(view.trick.cards) || !Array.isArray(view.hand)) return null;
  const played = new Set(trickPlays(view.trick, N).map(p => p.seat));
  return view.hand.length + (played.has(ME) ? 1 : 0) - (played.has(s) ? 1 : 0);
}
function renderSeats() {
  const box = document.getElementById("seats");
  box.textContent = "";
  if (!view) return;
  const perSeat = fieldsAt("seat");
  const ended = state === "over" ? dealTricks() : null;
  for (let s = 0; s < N; s++) {
    const d = el("div", "seat" + (s === ME ? " me" : "") + (view.to_move === s ? " tomove" : ""));
    d.id = "seat-" + s;
    putAt(d, placeOf(s, 1), true);
    const h = el("h3");
    if (view.dealer === s) h.appendChild(el("span", "chip dealer", "D")).title = "the dealer";
    if (view.to_move === s) h.appendChild(el("span", "chip move", "to move"));
    if (DATA.teams) DATA.teams.forEach((t, i) => { if (t.includes(s)) h.appendChild(el("span", "chip", `team ${i}`)); });
    h.appendChild(document.createTextNode(s === ME ? "you" : names[s]));
    h.title = seatName(s);
    d.appendChild(h);
    const held = handSize(s);
    if (s !== ME && held) {
      const backs = el("div", "backs");
      for (let i = 0; i < Math.min(held, 16); i++) backs.appendChild(backEl());
      backs.appendChild(el("span", "count", held === 1 ? "1 card" : `${held} cards`));
      d.appendChild(backs);
    }
    const facts = el("div", "facts");
    for (const [key, f] of perSeat) {
      // A count of the deal's tricks that the game's last view has cleared: the ended deal's.
      const value = f.deal_tricks && state === "over" && ended ? ended[s] : Array.isArray(view[key]) ? view[key][s] : null;
      const fact = value !== null ? factEl(f, value) : null;
      if (!fact) continue;
      fact.dataset.key = key;
      fact.dataset.value = JSON.stringify(value);
      facts.appendChild(fact);
    }
    d.appendChild(facts);
    if (over) {    // the game's result, first in the seat's line
      const res = over.result || {scores: over.scores, ranks: over.ranks};
      h.insertBefore(el("span", "chip final", `final ${fmtNum(res.scores[s])}, rank ${res.ranks[s]}`
                                              + ((over.forfeited || []).includes(s) ? ", forfeited" : "")), h.firstChild);
    }
    box.appendChild(d);
  }
}
function renderTableInfo() {
  const box = document.getElementById("tableinfo");
  box.textContent = "";
  for (const [key, f] of fieldsAt("table")) {
    const fact = factEl(f, view[key]);
    if (fact) box.appendChild(fact);
  }
}
/* The middle of the table: the notes (#tableinfo) near the middle, a completed trick's title just
   above them, and the trick's cards around both, each moved out toward its seat as far as needed
   to leave the notes and the title uncovered.  Of a few heights of the notes (and the same at a
   smaller size), the one where no moved card meets a seat, at the full size if one does, and
   with the cards moved least. */
const MIDDLE_TOPS = [50, 54, 46, 58, 42, 62];
function layoutMiddle() {
  const felt = document.getElementById("felt").getBoundingClientRect();
  const box = document.getElementById("tableinfo"), title = document.querySelector("#trick .title");
  const plays = Array.from(document.querySelectorAll("#trick .play"), e => ({e, r: e.getBoundingClientRect()}));
  const seats = Array.from(document.querySelectorAll("#seats .seat"), e => e.getBoundingClientRect());
  const meet = (a, b) => Math.min(a.right, b.right) > Math.max(a.left, b.left)
                      && Math.min(a.bottom, b.bottom) > Math.max(a.top, b.top);
  const cx = felt.left + felt.width / 2, cy = felt.top + felt.height / 2;
  // How far along u a span [lo, hi] must go to leave [keepLo, keepHi].
  const clear = (lo, hi, keepLo, keepHi, u) =>
    hi <= keepLo || lo >= keepHi ? 0 : u > 1e-6 ? (keepHi - lo) / u : u < -1e-6 ? (hi - keepLo) / -u : Infinity;
  const arrange = (small, top) => {
    box.classList.toggle("small", small);
    box.style.top = top + "%";
    const notes = box.childNodes.length ? box.getBoundingClientRect() : null;
    if (title) {
      const t = title.getBoundingClientRect();
      const y = notes ? notes.top - felt.top - t.height / 2 - 2 : felt.height * 0.46;
      title.style.top = (100 * y / felt.height).toFixed(2) + "%";
    }
    const parts = [notes, title ? title.getBoundingClientRect() : null].filter(r => r && r.width);
    const keep = parts.length ? {left: Math.min(...parts.map(r => r.left)) - 6, right: Math.max(...parts.map(r => r.right)) + 6,
                                 top: Math.min(...parts.map(r => r.top)) - 6, bottom: Math.max(...parts.map(r => r.bottom)) + 6} : null;
    let hits = 0, moved = 0;
    const moves = plays.map(({r}) => {
      if (!keep) return [0, 0];
      let ux = (r.left + r.right) / 2 - cx, uy = (r.top + r.bottom) / 2 - cy;
      const len = Math.hypot(ux, uy);
      [ux, uy] = len ? [ux / len, uy / len] : [0, 1];
      let t = Math.min(clear(r.left, r.right, keep.left, keep.right, ux), clear(r.top, r.bottom, keep.top, keep.bottom, uy));
      if (!isFinite(t)) t = 0;
      const at = {left: r.left + t * ux, right: r.right + t * ux, top: r.top + t * uy, bottom: r.bottom + t * uy};
      if (seats.some(s => meet(at, s)) || at.left < felt.left || at.right > felt.right || at.top < felt.top
          || at.bottom > felt.bottom) hits += 1;
      moved += t;
      return [t * ux, t * uy];
    });
    return {small, top, moves, score: hits * 1e6 + (small ? 1e3 : 0) + moved};
  };
  let best = null;
  for (const small of [false, true]) {
    for (const top of MIDDLE_TOPS) {
      const tried = arrange(small, top);
      if (best === null || tried.score < best.score) best = tried;
    }
    if (best.score < 1e3) break;     // at the full size, nothing under a seat
  }
  arrange(best.small, best.top);
  plays.forEach(({e}, i) => {
    const [dx, dy] = best.moves[i];
    if (!dx && !dy) return;
    e.style.left = (parseFloat(e.style.left) + 100 * dx / felt.width).toFixed(2) + "%";
    e.style.top = (parseFloat(e.style.top) + 100 * dy / felt.height).toFixed(2) + "%";
  });
}
function renderHand() {
  const box = document.getElementById("hand");
  box.textContent = "";
  const cards = view && Array.isArray(view.hand) ? view.hand : [];
  box.classList.toggle("many", cards.length > 18);
  const left = [...selected];
  for (const c of cards) {
    const e = cardEl(c);
    const ok = state === "ask" && optionsWith([c]).length > 0;
    if (ok) {
      e.classList.add("legal");
      e.tabIndex = 0;
      e.setAttribute("role", "option");
      e.addEventListener("click", () => clickCard(c));
    }
    const i = left.indexOf(c);
    if (i >= 0) { e.classList.add("chosen"); e.setAttribute("aria-selected", "true"); left.splice(i, 1); }
    box.appendChild(e);
  }
  if (!cards.length) box.appendChild(el("span", "muted", "no cards in hand"));
}
function renderChoices() {
  const prompt = document.getElementById("prompt"), box = document.getElementById("choices");
  box.textContent = "";
  prompt.textContent = "";
  prompt.title = "";
  box.dataset.legal = JSON.stringify(state === "ask" ? legal : []);
  let n = 0;
  const button = (label, onClick, action, cls) => {
    n += 1;
    const b = el("button", cls || null);
    if (n <= 9) b.appendChild(el("span", "key", String(n)));   // the digit key that presses it
    b.appendChild(document.createTextNode(label));
    b.type = "button";
    if (action !== undefined) b.dataset.action = action;
    b.addEventListener("click", onClick);
    box.appendChild(b);
  };
  if (state === "ask") {
    const options = legal.filter(o => !cardsOf(o).length);
    const matching = selected.length ? legal.filter(o => sameCards(cardsOf(o), selected)) : [];
    const withCards = legal.length - options.length;
    prompt.textContent = selected.length
      ? (matching.length ? "Choose:" : "Pick more cards (Esc clears).")
      : (!withCards ? "Choose:" : withCards === legal.length ? "Pick a card." : "Pick a card or an option.");
    for (const o of [...matching, ...options]) button(o.replace("+", " + "), () => choose(o), o);
  } else if (state === "pause") {
    prompt.textContent = "The deal is over: its score sheet is beside the table.";
    button("Next deal", goOn, undefined, "go");
  } else if (state === "over") {
    if (over && over.record) {   // the file's name: its folder is the command's --out
      prompt.textContent = `Saved as ${over.record.split(/[\\/]/).pop()} (trickcore replay opens it).`;
      prompt.title = over.record;
    }
    button("New game", goOn, undefined, "go");
  }
}
function renderDetails() {
  const box = document.getElementById("details");
  box.textContent = "";
  const facts = fieldsAt("side").map(([key, f]) => [f, factEl(f, view[key])]).filter(([, e]) => e);
  if (!facts.length) return;
  box.appendChild(el("h2", null, "The game"));
  const dl = el("dl");
  for (const [f, e] of facts) {
    dl.appendChild(el("dt", null, f.label));
    const dd = el("dd");
    dd.appendChild(e.lastChild);
    dl.appendChild(dd);
  }
  box.appendChild(dl);
}

/* The keyboard: arrows move among the options, Enter or Space chooses, 1-9 pick a button, Esc
   clears the selection, n goes on. */
function focusables() {
  return [...document.querySelectorAll("#hand .card.legal, #choices button")];
}
document.addEventListener("keydown", e => {
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  const items = focusables();
  const at = items.indexOf(document.activeElement);
  if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
    if (!items.length) return;
    const step = e.key === "ArrowRight" ? 1 : -1;
    items[(at + step + items.length) % items.length].focus();
    e.preventDefault();
  } else if ((e.key === "Enter" || e.key === " ") && document.activeElement
             && document.activeElement.dataset && document.activeElement.dataset.card !== undefined) {
    const card = document.activeElement.dataset.card;
    clickCard(card);
    const again = [...document.querySelectorAll("#hand .card.legal")].find(x => x.dataset.card === card);
    if (again) again.focus();
    e.preventDefault();
  } else if (/^[1-9]$/.test(e.key)) {
    const buttons = document.querySelectorAll("#choices button");
    const b = buttons[Number(e.key) - 1];
    if (b) { b.click(); e.preventDefault(); }
  } else if (e.key === "Escape") {
    selected = [];
    render();
  } else if (e.key === "n") {
    goOn();
  } else if (e.key === "h") {
    askHint();
  }
});

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  ws = new WebSocket(`${proto}//${location.host}/ws?t=${encodeURIComponent(DATA.token)}`);
  ws.onmessage = e => handle(JSON.parse(e.data));
  ws.onclose = () => {
    if (state !== "taken") { state = "closed"; legal = []; render(); }
  };
}
render();
connect();
