// The watching table, drawn in the browser from the room's state document (ui/_table_doc.py).
//
// The server sends the whole document once (`doc`) and then, after each room change, only what
// changed (`delta`, see room/deltas.py), stamped with the seq it leads to and the seq it applies to
// (`base`). A delta is applied only while this page holds `base`; otherwise the page asks the server
// for the whole document again (a message), so it can never drift from the room.
// Everything the server sends is plain text: it goes into `textContent`, never into `innerHTML`.

const SVG = "http://www.w3.org/2000/svg";

// Same rules as room/deltas.py `_applied`, the parts by their letters (deltas.SET...): s(et), p(atch,
// nested), a(ppend), i(tems: a list's changes by place), t(ext: an edit, the first `kept` characters,
// `middle`, then the old text from `kept + cut`), d(rop).
function applied(doc, changes) {
  const out = { ...doc };
  for (const key of changes.d || []) delete out[key];
  for (const [key, value] of Object.entries(changes.s || {})) out[key] = structuredClone(value);
  for (const [key, part] of Object.entries(changes.p || {})) out[key] = applied(out[key], part);
  for (const [key, items] of Object.entries(changes.a || {})) out[key] = [...out[key], ...structuredClone(items)];
  for (const [key, places] of Object.entries(changes.i || {})) {
    const done = applied(Object.fromEntries(out[key].map((item, i) => [String(i), item])), places);
    out[key] = out[key].map((_, i) => done[String(i)]);
  }
  for (const [key, [kept, cut, middle]] of Object.entries(changes.t || {})) {
    const chars = Array.from(out[key]);  // by code point, as Python counts them
    out[key] = chars.slice(0, kept).join("") + middle + chars.slice(kept + cut).join("");
  }
  return out;
}

// A catalog text of a round number ("Round {n}", "{n}라운드": _table_doc.NUMBER_KEYS) filled in.
function fill(text, n) {
  return text.replaceAll("{n}", String(n));
}

function h(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function s(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  return node;
}

// Dice as dice: one box per die left, a hollow one per die lost. `leaving` lost dice were lost in
// this update: they get the short "leave" animation (none under prefers-reduced-motion, see the CSS).
function diceRow(dice, words, leaving) {
  const row = h("div", "dice");
  if (!dice) return row;
  if (words) row.setAttribute("aria-label", words);
  row.setAttribute("role", "img");
  for (let i = 0; i < dice.left; i++) row.append(h("span", "pip"));
  for (let i = 0; i < dice.lost; i++) {
    row.append(h("span", i >= dice.lost - leaving ? "pip lost leaving" : "pip lost"));
  }
  return row;
}

function token(entry, big) {
  const t = h("span", big ? "token big" : "token", entry.initials);
  t.style.background = entry.color;
  t.style.color = entry.ink;
  t.setAttribute("aria-hidden", "true");
  return t;
}

function unitCard(uid, unit, before, labels) {
  const card = h("article", "unit");
  card.dataset.uid = uid;
  card.style.setProperty("--unit", unit.color);
  if (unit.out) card.classList.add("out");
  if (unit.fallen) card.classList.add("fallen");
  if (unit.fallen && before && !before.fallen) card.classList.add("falling");
  const head = h("div", "head");
  const who = h("div", "who");
  who.append(h("b", "name", unit.name));
  who.append(h("small", "kind", `${unit.kind} · ${unit.status}`));
  head.append(token(unit, true), who);
  if (unit.out) head.append(h("span", "badge", labels["contest.out"]));
  card.append(head);
  if (unit.team) {
    card.classList.add("team");
    const list = h("ul", "members");
    const keys = Object.keys(unit.members).sort((a, b) => a - b);
    for (const key of keys) {
      const m = unit.members[key];
      const old = before && before.members ? before.members[key] : null;
      const item = h("li", m.down ? "member down" : "member");
      if (m.leader) item.classList.add("leader");
      item.append(token(m, false), h("span", "line", m.line));
      item.append(diceRow(m.dice, m.line, old ? Math.max(0, m.dice.lost - old.dice.lost) : 0));
      list.append(item);
    }
    card.append(list);
  } else if (unit.cliche) {
    card.append(h("div", "cliche", `${labels["contest.cliche"]}: ${unit.cliche}`));
    const lost = before && before.dice && unit.dice ? Math.max(0, unit.dice.lost - before.dice.lost) : 0;
    card.append(diceRow(unit.dice, unit.dice_words, lost));
    if (unit.dice_words) card.append(h("div", "small", unit.dice_words));
  }
  if (unit.pool) card.append(h("div", "small pool", unit.pool));
  for (const note of unit.notes || []) card.append(h("div", "note", note));
  return card;
}

// The last roll: a row per side, a column per attempt (a tie marked in words), dice as dice.
function lastRoll(roll, fresh, labels) {
  const box = h("section", "roll");
  box.append(h("h3", "", labels["roll.title"]));
  const table = h("table", "attempts");
  if (roll.attempts.length > 1) {
    const tr = h("tr");
    tr.append(h("td"));
    roll.attempts.forEach((a, i) => {
      const th = h("th", "", fill(labels["roll.attempt_n"], i + 1));
      if (a.tie) th.append(" ", h("span", "tie", labels["roll.tie"]));
      tr.append(th);
    });
    table.append(tr);
  }
  roll.names.forEach((name, side) => {
    const tr = h("tr", side === roll.winner ? "won" : "");
    const th = h("th", "", name);
    th.style.setProperty("--unit", roll.colors[side]);
    th.setAttribute("scope", "row");
    tr.append(th);
    for (const a of roll.attempts) {
      const td = h("td");
      // the faces come as digits ("3261": _table_doc._roll)
      for (const f of Array.from(a.sides[side].faces, Number)) td.append(h("span", (f === 6 ? "die six" : "die") + (fresh ? " rolling" : ""), f));
      td.append(h("span", "total", `= ${a.sides[side].total}`));
      tr.append(td);
    }
    table.append(tr);
  });
  box.append(table, h("p", "verdict", roll.verdict));
  for (const hit of roll.hits) box.append(h("p", "hit", hit));
  return box;
}

// How far each line is drawn from its score, in dice: ui/_charts.series_offsets (4.5 px apart,
// within 0.4 dice), so that lines at one score all stay visible.
function offsets(n, top, plotPx) {
  if (n < 2) return Array(n).fill(0);
  const perDie = plotPx / (Math.max(top, 1) + 0.8);
  const gap = Math.min(4.5 / perDie, 0.4 / (n - 1));
  return Array.from({ length: n }, (_, i) => (i - (n - 1) / 2) * gap);
}

// A step chart over the rounds: a line per series, one point per chart point (`x`, and `s`, the
// series' values in order; null where a series has no value there). `top` is the highest value on
// the axis, `pad` the room left under 0 and over the top, `ticks` the values labelled (`tick` words
// them), `dodge` draws lines at one value apart, `key(last)` words the last point for a screen reader.
function stepChart({ cls, caption, keyLabel, axisX, series, points, top, pad, ticks, tick, dodge, key }) {
  // a narrower picture on a phone, so that its words stay 12 px when it is shrunk to the screen
  const W = window.innerWidth < 600 ? 380 : 600, H = 180, L = 38, R = 14, T = 10, B = 36;
  const box = h("figure", `chart ${cls}`);
  const maxX = Math.max(1, ...points.map(p => p.x));
  const x = v => L + (W - L - R) * v / maxX;
  const y = v => T + (H - T - B) * (1 - (v + pad) / (top + 2 * pad));
  const last = points[points.length - 1];
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": `${caption}. ${key(last)}` });
  for (const v of ticks) {
    svg.append(s("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }));
    const lab = s("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end", class: "tick" });
    lab.textContent = tick(v);
    svg.append(lab);
  }
  const stepX = maxX > 20 ? 5 : maxX > 10 ? 2 : 1;
  for (let r = 0; r <= maxX; r += stepX) {
    const lab = s("text", { x: x(r), y: H - 20, "text-anchor": "middle", class: "tick" });
    lab.textContent = String(r);
    svg.append(lab);
  }
  const axis = s("text", { x: (L + W - R) / 2, y: H - 3, "text-anchor": "middle", class: "tick" });
  axis.textContent = axisX;
  svg.append(axis);
  const shift = dodge ? offsets(series.length, top, H - T - B) : series.map(() => 0);
  series.forEach((ser, i) => {
    const pts = points.filter(p => p.s[i] !== undefined && p.s[i] !== null).map(p => [x(p.x), y(p.s[i] + shift[i])]);
    if (!pts.length) return;
    // a step line: a value holds until the point where it changed
    let d = `M${pts[0][0]},${pts[0][1]}`;
    for (const [px, py] of pts.slice(1)) d += `H${px}V${py}`;
    svg.append(s("path", { d, fill: "none", stroke: ser.color, "stroke-width": 2.5,
      "stroke-dasharray": ser.dash ? "6,4" : "none" }));
    if (ser.dots === false) return;
    for (const [px, py] of pts) {
      svg.append(s("circle", { cx: px, cy: py, r: 3.5, stroke: ser.color, "stroke-width": 1.5,
        fill: ser.hollow ? "var(--panel-background-color, #fff)" : ser.color }));
    }
  });
  box.append(svg);
  const list = h("ul", "key");
  list.setAttribute("aria-label", keyLabel);
  series.forEach((ser, i) => {
    const item = h("li");
    const sw = s("svg", { width: 24, height: 10, "aria-hidden": "true" });
    sw.append(s("line", { x1: 0, x2: 24, y1: 5, y2: 5, stroke: ser.color, "stroke-width": 3,
      "stroke-dasharray": ser.dash ? "5,3" : "none" }));
    item.append(sw, h("span", "", ser.word(last ? last.s[i] : undefined)));
    list.append(item);
  });
  box.append(list);
  box.prepend(h("figcaption", "", caption));
  return box;
}

// The cliché-score chart: a line per series, one new point per round.
function chart(doc, labels) {
  const points = doc.points || [];
  const top = Math.max(1, ...points.flatMap(p => p.s.filter(v => v !== null)));
  const step = top > 10 ? 5 : top > 5 ? 2 : 1;
  const ticks = [];
  for (let v = 0; v <= top; v += step) ticks.push(v);
  const series = (doc.series || []).map(ser => ({
    ...ser, word: v => (v !== undefined ? `${ser.label} ${v ?? "-"}` : ser.label) }));
  const key = last => (last ? series.map((ser, i) => ser.word(last.s[i] ?? null)).join(", ") : "");
  return stepChart({ cls: "scores", caption: labels["table.chart"], keyLabel: labels["table.chart_key"], axisX: labels["chart.round"],
    series, points, top, pad: 0.4, ticks, tick: String, dodge: true, key });
}

// A chance in words, as ui/_base.percent words it (near the ends it never looks certain).
function pct(p) {
  if (p <= 0) return "0%";
  if (p >= 1) return "100%";
  if (p < 0.001) return "<0.1%";
  if (p > 0.999) return ">99.9%";
  return `${(100 * p).toFixed(1)}%`;
}

// The live odds: the words first (what a screen reader reads), a bar of both sides' chances of the
// contest, and side A's chances over the rounds (contest, next round, an exchange: each rated as
// the contest stood then). The words come from the server (rounded as everywhere else on the page).
function odds(doc, labels) {
  const box = h("section", "odds");
  const o = doc.odds || { lines: [] };
  if (o.win !== undefined) {
    const bar = h("div", "bar");
    bar.setAttribute("aria-hidden", "true");
    [o.win, 1 - o.win].forEach((p, side) => {
      const part = h("span", `part side${side}`, p >= 0.12 ? o.win_text[side] : "");
      part.style.flexGrow = String(p);
      part.style.background = o.colors[side];
      part.style.color = o.ink[side];
      bar.append(part);
    });
    box.append(bar);
  }
  const words = h("div", o.notice ? "words notice" : "words");
  for (const line of o.lines) words.append(h("p", "", line));
  box.append(words);
  const rows = doc.trail || [];
  if (!rows.length) return box;
  const color = o.colors ? o.colors[0] : "#0072B2";
  const named = [["odds.p_win_short", false, true], ["odds.p_next_short", true, false],
    ["odds.p_exchange_short", false, true]].map(([k, dash, dots], i) => ({
    label: labels[k], color, dash, dots, hollow: i === 2, word: v => (v !== undefined && v !== null ? `${labels[k]} ${pct(v)}` : labels[k]) }));
  // a line only for a chance the contest has had (an exchange's only with several units a side)
  const used = named.map((_, i) => rows.some(r => r[i + 1] !== null));
  const series = named.filter((_, i) => used[i]);
  const points = rows.map(r => ({ x: r[0], s: r.slice(1).filter((_, i) => used[i]) }));
  const key = last => (last ? series.map((ser, i) => ser.word(last.s[i])).join(", ") : "");
  box.append(stepChart({ cls: "chances", caption: labels["odds.chart_title"], keyLabel: labels["odds.chart_title"],
    axisX: labels["chart.round"], series, points, top: 1, pad: 0.04, ticks: [0, 0.25, 0.5, 0.75, 1], tick: v => `${100 * v}%`,
    dodge: false, key }));
  return box;
}

function draw(root, doc, before, labels) {
  // the dice roll only when a new roll arrives, not when a page first draws (or redraws) the table
  const fresh = !!(doc.roll && before && JSON.stringify(before.roll) !== JSON.stringify(doc.roll));
  root.replaceChildren();
  root.dataset.seq = doc.seq;
  const now = h("div", doc.mine ? "now mine" : "now");
  now.setAttribute("role", "status");
  now.append(h("span", "label", `${labels["what_now.label"]}: `), h("span", "", doc.now));
  if (!doc.contest) {
    root.append(now, h("p", "none", labels["odds.no_contest"]));
    return;
  }
  const head = h("header", "top");
  // "Contest in rounds · next: round 4", or "… · the contest is over · Round 3"
  const status = doc.ended ? `${labels["contest.status_ended"]} · ${fill(labels["contest.round"], doc.round)}`
    : fill(labels["contest.next_round"], doc.round + 1);
  head.append(h("h2", "", doc.name), h("div", "status", `${doc.mode} · ${status}`));
  root.append(head, now);
  const table = h("div", "sides");
  doc.sides.forEach((uids, side) => {
    const col = h("section", `side side${side}`);
    col.setAttribute("aria-label", labels[`side.${side}`]);
    col.append(h("h3", "", labels[`side.${side}`]));
    for (const uid of uids) {
      col.append(unitCard(uid, doc[`u:${uid}`], before ? before[`u:${uid}`] : null, labels));
    }
    table.append(col);
    if (side === 0) {
      const mid = h("div", "middle");
      mid.setAttribute("aria-hidden", "true");
      // "Round 3" under "vs" once a round was rolled, nothing before
      mid.append(h("span", "vs", labels["table.vs"]), h("span", "round", doc.round ? fill(labels["contest.round"], doc.round) : ""));
      table.append(mid);
    }
  });
  root.append(table);
  if (doc.roll) root.append(lastRoll(doc.roll, fresh, labels));
  if (doc.result) {
    const res = h("section", "result");
    res.append(h("h3", "", doc.result));
    if (doc.outcome) res.append(h("p", "", doc.outcome));
    for (const f of doc.fates) res.append(h("p", "fate", `${f.name}: ${f.text}`));
    root.append(res);
  }
  // the two charts side by side where there is room, one under the other on a phone
  const charts = h("div", "charts");
  charts.append(chart(doc, labels), odds(doc, labels));
  root.append(charts);
}

export function render({ model, el }) {
  const root = h("div", "raisus-table-view");
  let held = null;     // the document this page shows
  let before = null;   // the one it showed before (what changed animates)

  const show = () => { draw(root, held, before, model.labels); };
  // sent as UTF-8 JSON bytes (table_view.TableModel.delta): an ArrayBuffer here
  const latest = () => (model.delta && model.delta.byteLength ? JSON.parse(new TextDecoder().decode(model.delta)) : null);
  const take = (delta) => {
    // one this page has already (the whole document came after it): nothing to do
    if (!delta || delta.seq === undefined || !held || delta.seq < held.seq || delta.seq === held.seq && delta.base !== held.seq) return;
    // Tests set globalThis.raisusTableDrop = n to lose the next n deltas, as a lost message would.
    if (globalThis.raisusTableDrop > 0) { globalThis.raisusTableDrop -= 1; return; }
    if (delta.base !== held.seq) {  // a change never arrived here: ask for the whole state
      root.dataset.asked = String((Number(root.dataset.asked) || 0) + 1);
      model.send_msg({ whole: held.seq });
      return;
    }
    before = held;
    held = applied(held, delta);
    held.seq = delta.seq;
    show();
  };
  const whole = () => {
    before = held;
    held = structuredClone(model.doc);
    show();
    take(latest());  // a delta may already lead on from it
  };
  model.on("doc", whole);
  model.on("delta", () => take(latest()));
  model.on("labels", show);
  whole();
  return root;
}
