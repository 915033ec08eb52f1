// Play: a game against agents; the engine's thinking streamed from /api/think (SSE).
"use strict";
const S = { games: {}, game: null, start: "", moves: [], movers: [], agents: [], pos: null,
            gen: 0, abort: null, flip: false, selected: null, clocks: null, tick: null };

async function init() {
  const params = new URLSearchParams(location.search);
  const data = await fillGames($("#game"), params.get("game") || "tictactoe");
  for (const g of data.games) S.games[g.name] = g;
  if (params.get("position")) $("#start").value = params.get("position");
  $("#game").addEventListener("change", () => { makeAgentInputs(); newGame(); });
  $("#new").addEventListener("click", newGame);
  $("#undo").addEventListener("click", undo);
  $("#flip").addEventListener("click", () => { S.flip = !S.flip; refresh(false); });
  $("#copy").addEventListener("click", () => {
    $("#position").select(); navigator.clipboard?.writeText($("#position").value).catch(() => {});
  });
  $("#scores").addEventListener("change", () => {
    $("#scoresline").textContent = "";
    if ($("#scores").checked && humanToMove()) showScores(S.gen);
    else if (S.pos) drawPosition(S.pos, S.pos.svg);
  });
  $("#board").addEventListener("click", onBoardClick);
  makeAgentInputs(params.getAll("agent"));
  newGame();
}

function makeAgentInputs(given) {
  const g = S.games[$("#game").value];
  const box = $("#agents");
  box.innerHTML = "";
  for (let p = 0; p < g.players; p++) {
    const value = (given && given[p]) || (p === 0 ? "human" : g.default_agent);
    box.insertAdjacentHTML("beforeend",
      `<label for="agent${p}">Player ${p + 1}</label><input id="agent${p}" class="agent" ` +
      `value="${esc(value)}" list="agentlist">`);
  }
  box.insertAdjacentHTML("beforeend", `<datalist id="agentlist">${["human", "random",
    "minimax", "alphabeta", "id", "solver", "maxn", "expectiminimax", "alphabeta:depth=4"]
    .map((a) => `<option value="${a}">`).join("")}</datalist>`);
}

function stopThinking() {
  if (S.abort) { S.abort.abort(); S.abort = null; }
}

function newGame() {
  stopThinking();
  showError("");
  S.game = $("#game").value;
  S.start = $("#start").value.trim();
  S.moves = []; S.movers = []; S.selected = null;
  S.agents = $$(".agent").map((i) => i.value.trim() || "human");
  const clock = $("#clock").value.trim();
  S.clocks = null;
  if (clock) {
    const [base, inc] = clock.split("+").map(Number);
    if (!(base > 0) || (inc !== undefined && !(inc >= 0))) {
      showError(`clock ${JSON.stringify(clock)}: expected BASE+INC in seconds, e.g. 60+1`);
      return;
    }
    S.clocks = { inc: inc || 0, left: S.agents.map(() => base), running: null, since: 0 };
  }
  $("#iterations tbody").innerHTML = "";
  $("#engine").textContent = "—";
  refresh(true);
}

function isHuman(player) { return (S.agents[player] || "").toLowerCase() === "human"; }

function undo() {
  stopThinking();
  showError("");
  S.gen++;
  if (!S.moves.length) return;
  const anyHuman = S.agents.some((a, i) => isHuman(i));
  do {
    S.moves.pop();
    const who = S.movers.pop();
    if (!anyHuman || (who !== undefined && who >= 0 && isHuman(who))) break;
  } while (S.moves.length);
  S.selected = null;
  refresh(false);
}

function clockStart(player) {
  if (!S.clocks) return;
  S.clocks.running = player;
  S.clocks.since = performance.now();
  drawClocks();
  clearInterval(S.tick);
  S.tick = setInterval(drawClocks, 200);
}

function clockStop(addInc) {
  if (!S.clocks || S.clocks.running === null) return 0;
  const p = S.clocks.running;
  const used = (performance.now() - S.clocks.since) / 1000;
  S.clocks.left[p] -= used;
  if (addInc) S.clocks.left[p] += S.clocks.inc;
  S.clocks.running = null;
  clearInterval(S.tick);
  drawClocks();
  return used;
}

function clockLeft(p) {
  let left = S.clocks.left[p];
  if (S.clocks.running === p) left -= (performance.now() - S.clocks.since) / 1000;
  return left;
}

function drawClocks() {
  if (!S.clocks) { $("#clocks").innerHTML = ""; return; }
  $("#clocks").innerHTML = S.agents.map((a, p) => {
    const left = Math.max(0, clockLeft(p));
    const m = Math.floor(left / 60), s = (left % 60).toFixed(1).padStart(4, "0");
    return `<span class="clock${S.clocks.running === p ? " running" : ""}">P${p + 1} ${m}:${s}</span>`;
  }).join(" ");
  if (S.clocks.running !== null && clockLeft(S.clocks.running) <= 0) {
    const p = S.clocks.running;
    clockStop(false);
    stopThinking();
    S.gen++;
    $("#status").textContent = `player ${p + 1} (${S.agents[p]}) lost on time`;
  }
}

function params(extra) {
  return Object.assign({ game: S.game, position: S.start, moves: S.moves.join(" ") }, extra);
}

async function refresh(fresh) {
  const gen = ++S.gen;
  let pos;
  try {
    pos = await api("/api/position", params({ flip: S.flip ? 1 : "" }));
  } catch (e) {
    showError(e.message);
    if (S.moves.length && !fresh) { S.moves.pop(); S.movers.pop(); }
    return;
  }
  if (gen !== S.gen) return;
  S.pos = pos;
  drawPosition(pos, pos.svg);
  if (pos.terminal) {
    clockStop(false);
    $("#status").textContent = `game over: ${pos.result}`;
    return;
  }
  if (pos.chance.length) {
    const r = await api("/api/roll", params());
    if (gen !== S.gen) return;
    S.moves.push(r.move); S.movers.push(-1);
    return refresh(false);
  }
  const p = pos.to_move;
  if (isHuman(p)) {
    $("#status").textContent = `player ${p + 1} (human) to move: click on the board`;
    clockStart(p);
    $("#scoresline").textContent = "";
    if ($("#scores").checked) showScores(gen);
  } else {
    $("#status").textContent = `player ${p + 1} (${S.agents[p]}) is thinking…`;
    think(p, gen);
  }
}

function drawPosition(pos, svg) {
  $("#board").innerHTML = boardHtml(pos, svg);
  $("#position").value = pos.position;
  $("#movelist").textContent = pos.moves.length ? "moves: " + pos.moves.join(" ") : "";
  if (S.selected) markChess();
}

async function showScores(gen) {
  try {
    const data = await api("/api/scores", params());
    if (gen !== S.gen) return;
    const labels = data.scores.map((s) => `${s.move}=${s.score === null ? "?" : s.score}`);
    const pos = await api("/api/position", params({ labels: labels.join(","), flip: S.flip ? 1 : "" }));
    if (gen !== S.gen) return;
    drawPosition(pos, pos.svg);
    $("#scoresline").textContent = "solver's scores: " + data.scores.map((s) =>
      `${s.move}: ${s.score === null ? "?" : s.score}`).join(", ");
  } catch (e) { if (gen === S.gen) $("#scoresline").textContent = "scores: " + e.message; }
}

// Server-sent events over fetch, so that a 400 or 429 shows its message.
async function streamEvents(url, onEvent, signal) {
  const response = await fetch(url, { signal });
  if (!response.ok) {
    let data = {};
    try { data = await response.json(); } catch (e) { /* not JSON */ }
    throw new Error(data.error || response.statusText);
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

async function think(player, gen) {
  stopThinking();
  const extra = { agent: S.agents[player] };
  if (S.clocks) {
    extra.clock = Math.max(0.01, S.clocks.left[player]).toFixed(3);
    extra.increment = S.clocks.inc;
  } else extra.time = $("#time").value.trim();
  const controller = new AbortController();
  S.abort = controller;
  const body = $("#iterations tbody");
  body.innerHTML = "";
  $("#engine").textContent = `${S.agents[player]} (player ${player + 1}) thinking…`;
  clockStart(player);
  let move = null;
  try {
    await streamEvents(apiUrl("/api/think", params(extra)), (event, d) => {
      if (gen !== S.gen) return;
      if (event === "start") $("#engine").textContent =
        `${d.agent} (player ${player + 1}) thinking, ${d.budget} s`;
      if (event === "info") {
        body.insertAdjacentHTML("beforeend", `<tr><td>${d.depth}</td><td>${esc(fmtValue(d.value))}</td>` +
          `<td>${d.nodes}</td><td>${d.nps}</td><td>${d.seconds}</td><td class="l">${esc(d.pv.join(" "))}</td></tr>`);
        if (d.svg) $("#board").innerHTML = d.svg;
      }
      if (event === "move") move = d;
      if (event === "error") throw new Error(d.error);
    }, controller.signal);
  } catch (e) {
    if (e.name === "AbortError" || gen !== S.gen) return;
    clockStop(false);
    showError(e.message);
    $("#status").textContent = "the engine could not move";
    return;
  }
  S.abort = null;
  if (gen !== S.gen || !move) return;
  clockStop(true);
  const how = move.source === "search" ? `value ${fmtValue(move.value, move.score_text)}, depth ${move.depth}, ${move.nodes} nodes`
    : move.source === "book" ? `opening book, score ${move.value}`
    : move.source === "solver" ? `solved, score ${move.value}, ${move.nodes} nodes` : move.source;
  $("#engine").textContent = `${move.agent} played ${move.move} in ${move.seconds} s (${how})`;
  S.moves.push(move.move); S.movers.push(player);
  refresh(false);
}

function humanToMove() {
  return S.pos && !S.pos.terminal && !S.pos.chance.length && isHuman(S.pos.to_move) && !S.abort;
}

function play(move) {
  if (!S.pos.legal.includes(move)) { showError(`illegal move ${move}`); return; }
  showError("");
  clockStop(true);
  S.selected = null;
  $("#promotion").classList.remove("show");
  S.moves.push(move); S.movers.push(S.pos.to_move);
  refresh(false);
}

function onBoardClick(e) {
  if (!humanToMove()) return;
  const square = e.target.closest("[data-square]");
  if (square) { chessClick(square.dataset.square); return; }
  const target = e.target.closest("[data-move]");
  if (target) play(target.dataset.move);
}

function chessClick(sq) {
  const legal = S.pos.legal;
  if (S.selected) {
    const candidates = legal.filter((m) => m.slice(0, 2) === S.selected && m.slice(2, 4) === sq);
    if (candidates.length === 1) { play(candidates[0]); return; }
    if (candidates.length > 1) {  // a promotion: queen unless asked to choose
      const queen = candidates.find((m) => m.endsWith("q")) || candidates[0];
      if (!$("#choosepromo").checked) { play(queen); return; }
      const box = $("#promotion");
      box.innerHTML = "promote to: " + candidates.map((m) =>
        `<button data-promo="${m}">${{ q: "queen", r: "rook", b: "bishop", n: "knight" }[m[4]]}</button>`).join("");
      box.classList.add("show");
      $$("[data-promo]", box).forEach((b) => b.addEventListener("click", () => play(b.dataset.promo)));
      return;
    }
  }
  S.selected = legal.some((m) => m.slice(0, 2) === sq) ? sq : null;
  markChess();
}

function markChess() {
  $$("#board rect.sq").forEach((r) => r.classList.remove("selected", "dest"));
  if (!S.selected || !S.pos) return;
  $(`#board rect.sq[data-square="${S.selected}"]`)?.classList.add("selected");
  for (const m of S.pos.legal) {
    if (m.slice(0, 2) === S.selected) $(`#board rect.sq[data-square="${m.slice(2, 4)}"]`)?.classList.add("dest");
  }
}

init().catch((e) => showError(e.message));
