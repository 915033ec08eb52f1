// Shared helpers of the pages: API calls that show the server's one-line error message.
"use strict";
const $ = (sel, el = document) => el.querySelector(sel);
const $$ = (sel, el = document) => Array.from(el.querySelectorAll(sel));

function apiUrl(path, params) {
  const url = new URL(path, location.origin);
  for (const [k, v] of Object.entries(params || {})) {
    if (v !== undefined && v !== null && v !== "") url.searchParams.set(k, v);
  }
  return url;
}

// A failed call throws an Error carrying the server's message and the HTTP status
// (409: the game moved on since the page asked; 404: no such game).
async function api(path, params, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const response = await fetch(apiUrl(path, params), init);
  let data;
  try { data = await response.json(); } catch (e) { data = { error: response.statusText }; }
  if (!response.ok) {
    const error = new Error(data.error || response.statusText);
    error.status = response.status;
    throw error;
  }
  return data;
}

function showError(message) {
  const box = $("#error");
  if (!box) return;
  box.textContent = message || "";
  box.classList.toggle("show", !!message);
}

function esc(text) {
  return String(text).replace(/[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

function fmtValue(v, text) {
  // a vector (max^n): one value per player, P1 first
  if (Array.isArray(v)) return v.map((x, i) => `P${i + 1} ${fmtValue(x)}`).join(" · ");
  if (text) return text;  // the server's words for a search value (score_text: "mate in 2 (White to move)")
  if (v === null || v === undefined) return "?";
  if (typeof v === "number" && !Number.isInteger(v)) return v.toFixed(3).replace(/0+$/, "");
  return String(v);
}

// The games in a select; ``wanted`` may be a spec with options (``rolit:players=3``): it is
// kept as an option of its own, and ``gameInfo`` finds its game by the name before the colon.
async function fillGames(select, wanted) {
  const data = await api("/api/games");
  select.innerHTML = data.games.map((g) =>
    `<option value="${esc(g.name)}">${esc(g.name)} — ${esc(g.description)}</option>`).join("");
  if (wanted && !data.games.some((g) => g.name === wanted)) {
    const base = data.games.find((g) => g.name === wanted.split(":")[0].trim());
    if (base) select.insertAdjacentHTML("afterbegin",
      `<option value="${esc(wanted)}">${esc(wanted)} — ${esc(base.description)}</option>`);
  }
  if (wanted) select.value = wanted;
  return data;
}

function gameInfo(games, spec) { return games[spec] || games[String(spec).split(":")[0].trim()]; }

// Chess-like boards mark squares (data-square): a move is two clicks, from and to.
// ``pick`` gets the move (a promotion: the queen unless ``choose`` asks for the piece).
// A move's start and end squares: chess's UCI (e2e4, e7e8q), START-END (Chinese
// Checkers' d1-e5, whose hole names have two or three characters), or a checkers path of
// square numbers (11-15, 22x15, 9x18x27: its first and last squares).
function moveEnds(m) {
  if (/^\d+([-x]\d+)+$/.test(m)) {
    const squares = m.split(/[-x]/);
    return [squares[0], squares[squares.length - 1]];
  }
  const i = m.indexOf("-");
  return i > 0 ? [m.slice(0, i), m.slice(i + 1)] : [m.slice(0, 2), m.slice(2, 4)];
}

// Several checkers jump chains join the same two squares: buttons ask which (the
// promotion box of the play page when it has one, else the first chain).
function chooseChain(candidates, pick) {
  const box = $("#promotion");
  if (!box) { pick(candidates[0]); return; }
  box.innerHTML = "which capture: " + candidates.map((m) =>
    `<button data-chain="${esc(m)}">${esc(m)}</button>`).join("");
  box.classList.add("show");
  $$("[data-chain]", box).forEach((b) => b.addEventListener("click", () => {
    box.classList.remove("show");
    pick(b.dataset.chain);
  }));
}

function squareClick(state, legal, sq, pick, choose) {
  if (state.selected) {
    const from = state.selected;
    const candidates = legal.filter((m) => moveEnds(m)[0] === from && moveEnds(m)[1] === sq);
    if (candidates.length === 1) { state.selected = null; pick(candidates[0]); return; }
    if (candidates.length > 1 && candidates.every((m) => m.includes("x"))) {
      state.selected = null;
      chooseChain(candidates, pick);
      return;
    }
    if (candidates.length > 1) {
      state.selected = null;
      const queen = candidates.find((m) => m.endsWith("q")) || candidates[0];
      if (!choose) pick(queen); else choose(candidates);
      return;
    }
  }
  state.selected = legal.some((m) => moveEnds(m)[0] === sq) ? sq : null;
  markSquares(state.selected, legal);
}

function markSquares(selected, legal) {
  $$("#board rect.sq").forEach((r) => r.classList.remove("selected", "dest"));
  if (!selected) return;
  $(`#board rect.sq[data-square="${selected}"]`)?.classList.add("selected");
  for (const m of legal) {
    const [from, to] = moveEnds(m);
    if (from === selected) $(`#board rect.sq[data-square="${to}"]`)?.classList.add("dest");
  }
}

// A game without a drawing (no render_svg hook): its text picture and a button a legal move.
function boardHtml(pos, svg) {
  if (svg) return svg;
  const buttons = (pos.legal || []).map((m) =>
    `<button class="secondary" data-move="${esc(m)}">${esc(m)}</button>`).join(" ");
  return `<pre>${esc(pos.text)}</pre><div class="movebuttons">${buttons}</div>`;
}

// A stream of server-sent events read with fetch (so that a refusal's JSON error is read,
// which EventSource hides): ``onEvent(event, data)`` for each; aborted by ``signal``.
async function streamEvents(url, onEvent, signal) {
  const response = await fetch(url, { signal });
  if (!response.ok) {
    let data = {};
    try { data = await response.json(); } catch (e) { /* not JSON */ }
    const error = new Error(data.error || response.statusText);
    error.status = response.status;
    throw error;
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const chunk = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let event = "message", data = "";
      for (const line of chunk.split("\n")) {
        if (line.startsWith("event: ")) event = line.slice(7);
        else if (line.startsWith("data: ")) data += line.slice(6);
      }
      onEvent(event, data ? JSON.parse(data) : null);
    }
  }
}
