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
let vi = 0, k = 0;

function seatName(s) { return `seat ${s} (${D.bots[s]})`; }
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
  let plays = trickPlays(current, N), title = "On the table", winners = [];
  const justEnded = view.trickEnds.includes(k);
  if (!plays.length && obs.last_trick && justEnded) {
    plays = trickPlays(obs.last_trick, N);
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
    for (const p of trickPlays(obs.last_trick, N)) {
      const c = cardEl(p.card, {small: true});
      if (w.includes(p.seat)) c.classList.add("win");
      box.appendChild(c);
    }
  }
}
function renderSeats(view, obs, st) {
  const box = document.getElementById("seats");
  box.textContent = "";
  const keys = perSeatKeys(obs, N);
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
    const dl = seatValues(obs, keys, s);
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
    for (const p of trickPlays(t, N)) {
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
  box.appendChild(restOfView(obs, N));
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
