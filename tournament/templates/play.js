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
      break;
    case "resume":
      view = msg.view;
      document.getElementById("log").textContent = "";
      logEvents(msg.events || []);
      document.getElementById("notices").textContent = "";
      for (const f of msg.faults || []) notice(faultText(f), "fault");
      legal = []; pause = null; over = null; state = "watch";
      if (msg.over) { over = msg.over; state = "over"; }
      else if (msg.pause) { pause = msg.pause; state = "pause"; }
      else if (msg.ask) { legal = msg.ask.legal; decision = msg.ask.decision; state = "ask"; }
      break;
    case "game":
      view = null; over = null; pause = null; legal = []; selected = []; state = "watch";
      document.getElementById("log").textContent = "";
      document.getElementById("notices").textContent = "";
      break;
    case "update":
      view = msg.view;
      logEvents(msg.events || []);
      if (state !== "ask") state = "watch";
      break;
    case "ask":
      legal = msg.legal; decision = msg.decision; selected = []; state = "ask";
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
  const log = document.getElementById("log");
  for (const ev of list) log.appendChild(eventEl(ev, "li"));
  log.scrollTop = log.scrollHeight;
}

function render() {
  const status = document.getElementById("status");
  status.dataset.state = state;
  status.dataset.seq = String(seq);
  status.textContent = statusText();
  renderTrick();
  renderSeats();
  renderHand();
  renderChoices();
  renderDetails();
}
function statusText() {
  if (state === "connecting") return "Connecting…";
  if (state === "taken") return "This seat is open in another page. Close that one, then reload this one.";
  if (state === "closed") return "The game has ended: the server has stopped.";
  if (state === "ask") return `Your turn: ${decision}.`;
  if (state === "sent") return "Sent…";
  if (state === "pause") return `The deal is over. Next deal: press n or the button.`;
  if (state === "over") return "The game is over.";
  if (view && typeof view.to_move === "number" && view.to_move >= 0) return `Waiting for ${seatName(view.to_move)}…`;
  return "Waiting…";
}
function renderTrick() {
  const box = document.getElementById("trick");
  box.textContent = "";
  if (!view) return;
  let plays = trickPlays(view.trick || view.double_trick, N), winners = [], title = "On the table";
  if (!plays.length && view.last_trick) {
    plays = trickPlays(view.last_trick, N);
    winners = winnersOf(view.last_trick);
    const pts = view.last_trick.points !== undefined ? `, ${view.last_trick.points} points` : "";
    title = `Last trick: won by ${winners.map(seatName).join(" and ")}${pts}`;
  } else if (!plays.length) {
    title = "No card on the table";
  }
  box.appendChild(el("div", "title" + (winners.length ? " won" : ""), title));
  for (const p of plays) {
    const d = el("div", "play");
    const c = cardEl(p.card);
    if (winners.includes(p.seat)) c.classList.add("win");
    d.appendChild(c);
    d.appendChild(el("span", null, seatName(p.seat) + (p.note ? ` · ${p.note}` : "")));
    box.appendChild(d);
  }
}
function renderSeats() {
  const box = document.getElementById("seats");
  box.textContent = "";
  if (!view) return;
  const keys = perSeatKeys(view, N);
  for (let s = 0; s < N; s++) {
    const d = el("div", "seat" + (s === ME ? " me" : "") + (view.to_move === s ? " tomove" : ""));
    d.id = "seat-" + s;
    const h = el("h3", null, seatName(s));
    if (view.to_move === s) h.appendChild(el("span", "tag move", "to move"));
    if (view.dealer === s) h.appendChild(el("span", "tag", "dealer"));
    if (DATA.teams) DATA.teams.forEach((t, i) => { if (t.includes(s)) h.appendChild(el("span", "tag", `team ${i}`)); });
    d.appendChild(h);
    if (s !== ME && view.hand_sizes && typeof view.hand_sizes[s] === "number") {
      const hand = el("div", "hand");
      for (let i = 0; i < view.hand_sizes[s]; i++) hand.appendChild(backEl());
      d.appendChild(hand);
    }
    const dl = seatValues(view, keys, s);
    if (over) {
      dl.appendChild(el("dt", null, "final"));
      const res = over.result || {scores: over.scores, ranks: over.ranks};
      dl.appendChild(el("dd", null, `score ${fmtNum(res.scores[s])}, rank ${res.ranks[s]}`
                                    + ((over.forfeited || []).includes(s) ? " (forfeited)" : "")));
    }
    d.appendChild(dl);
    box.appendChild(d);
  }
}
function renderHand() {
  const box = document.getElementById("hand");
  box.textContent = "";
  const cards = view && Array.isArray(view.hand) ? view.hand : [];
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
    const words = legal.filter(o => !cardsOf(o).length);
    const matching = selected.length ? legal.filter(o => sameCards(cardsOf(o), selected)) : [];
    const withCards = legal.length - words.length;
    prompt.textContent = selected.length
      ? (matching.length ? "Choose:" : "Pick more cards (Esc clears).")
      : (!withCards ? "Choose:" : withCards === legal.length ? "Pick a card." : "Pick a card or an option.");
    for (const o of [...matching, ...words]) button(o.replace("+", " + "), () => choose(o), o);
  } else if (state === "pause") {
    prompt.textContent = "The deal is over; the scores are beside the seats.";
    button("Next deal", goOn, undefined, "go");
  } else if (state === "over") {
    prompt.textContent = over && over.record ? `Saved as ${over.record} (trickcore replay opens it).` : "";
    button("New game", goOn, undefined, "go");
  }
}
function renderDetails() {
  const box = document.getElementById("details");
  box.textContent = "";
  if (!view) return;
  box.appendChild(el("h2", null, "Everything else in your view"));
  box.appendChild(restOfView(view, N));
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
