// Play: a game the server holds (/api/play), against agents; the engine's thinking streamed.
// The page keeps only the game's id (in the address bar, with the settings) and the view the
// server last sent. Every move names the ply it is made at, and the board is inert while a
// request is out or the engine thinks, so a double click cannot play for the engine (the
// server would refuse it anyway: 409).
"use strict";
const S = { games: {}, view: null, shown: null, busy: false, abort: null, flip: false,
            selected: null, clocks: null, tick: null, gen: 0 };

// The seat this page plays and is shown (the first person's; none: a spectator). In a game
// with hidden cards the server answers with that seat's view only: its own hand (bridge:
// dummy after the opening lead), never another seat's.
function mySeat(agents) {
  const i = (agents || []).findIndex((a) => (a || "").split(":")[0].trim().toLowerCase() === "human");
  return i < 0 ? "" : i;
}
function seatParams(extra) { return Object.assign({ seat: S.view ? mySeat(S.view.agents) : "" }, extra); }

async function init() {
  const params = new URLSearchParams(location.search);
  const data = await fillGames($("#game"), params.get("game") || "tictactoe");
  for (const g of data.games) S.games[g.name] = g;
  if (params.get("position")) $("#start").value = params.get("position");
  if (params.get("time")) $("#time").value = params.get("time");
  if (params.get("clock")) $("#clock").value = params.get("clock");
  $("#game").addEventListener("change", () => { makeSeatsControl(); makeAgentInputs(); newGame(); });
  $("#seats").addEventListener("change", () => {
    const n = Number($("#seats").value);
    const spec = withPlayers($("#game").value, n);
    if (![...$("#game").options].some((o) => o.value === spec)) {
      $("#game").insertAdjacentHTML("afterbegin", `<option value="${esc(spec)}">${esc(spec)}</option>`);
    }
    $("#game").value = spec;
    makeAgentInputs($$(".agent").map((i) => i.value.trim()), n);
    newGame();
  });
  $("#new").addEventListener("click", newGame);
  $("#undo").addEventListener("click", undo);
  $("#resign").addEventListener("click", resign);
  $("#flip").addEventListener("click", () => { S.flip = !S.flip; show(S.shown); });
  $("#copy").addEventListener("click", () => {
    $("#position").select(); navigator.clipboard?.writeText($("#position").value).catch(() => {});
  });
  $("#scores").addEventListener("change", () => {
    $("#scoresline").textContent = "";
    if ($("#scores").checked && humanToMove()) showScores(S.gen);
    else if (S.view) draw(S.view);
  });
  $("#board").addEventListener("click", onBoardClick);
  $("#tapmoves").addEventListener("click", (e) => {
    const b = e.target.closest("[data-tap]");
    if (b) play(b.dataset.tap);
  });
  window.addEventListener("resize", () => { if (S.view && S.shown === null) tapMoves(S.view); });
  $("#moveform").addEventListener("submit", onMoveBox);
  $("#movelist").addEventListener("click", (e) => {
    const m = e.target.closest("[data-ply]");
    if (m) show(Number(m.dataset.ply));
  });
  $("#first").addEventListener("click", () => show(0));
  $("#prev").addEventListener("click", () => step(-1));
  $("#next").addEventListener("click", () => step(1));
  $("#live").addEventListener("click", () => show(null));
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input, select, textarea") || !S.view) return;
    const keys = { ArrowLeft: () => step(-1), ArrowRight: () => step(1),
                   Home: () => show(0), End: () => show(null) };
    if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
  });
  makeSeatsControl();
  makeAgentInputs(params.getAll("agent"), seatsOf($("#game").value));
  const id = params.get("id");
  if (id) {
    try {
      S.view = await api(`/api/play/${encodeURIComponent(id)}`);
      if (mySeat(S.view.agents) !== "") S.view = await api(`/api/play/${encodeURIComponent(id)}`, seatParams());
      restoreSettings(S.view);
      startClocks();
      remember();
      advance();
      return;
    } catch (e) {
      showError(`${e.message} (a new game was started with the same settings)`);
    }
  }
  newGame(!!id);
}

function restoreSettings(v) {
  if (![...$("#game").options].some((o) => o.value === v.game)) {
    $("#game").insertAdjacentHTML("afterbegin", `<option value="${esc(v.game)}">${esc(v.game)}</option>`);
  }
  $("#game").value = v.game;
  makeSeatsControl(v.players);
  makeAgentInputs(v.agents, v.players);
  $("#start").value = v.start || "";
  if (v.time) $("#time").value = v.time;
  $("#clock").value = v.clock || "";
}

// The address bar: the game's id and its settings, so that a reload or a shared link comes
// back to this game (or, once the server has forgotten it, starts it again).
function remember() {
  const v = S.view;
  const url = new URL(location.pathname, location.origin);
  url.searchParams.set("game", v.game);
  for (const a of v.agents) url.searchParams.append("agent", a);
  if (v.start) url.searchParams.set("position", v.start);
  if (v.time) url.searchParams.set("time", v.time);
  if (v.clock) url.searchParams.set("clock", v.clock);
  url.searchParams.set("id", v.id);
  history.replaceState(null, "", url);
}

// The seats of a game with a ``players`` option (rolit:players=3): a choice of its range,
// which rewrites the game's spec; hidden for a game whose seats are fixed.
function playersOption(spec) {
  const g = gameInfo(S.games, spec);
  return g && (g.options || []).find((o) => o.name === "players");
}

function seatsOf(spec) {
  const m = /[:,]players=(\d+)/.exec(String(spec));
  const opt = playersOption(spec);
  return m ? Number(m[1]) : opt ? Number(opt.default) : gameInfo(S.games, spec).players;
}

function withPlayers(spec, n) {
  const cut = spec.indexOf(":");
  const name = cut < 0 ? spec : spec.slice(0, cut);
  const rest = cut < 0 ? [] : spec.slice(cut + 1).split(",").filter((x) => x && !x.startsWith("players="));
  return `${name}:${[`players=${n}`, ...rest].join(",")}`;
}

function makeSeatsControl(players) {
  const spec = $("#game").value;
  const opt = playersOption(spec);
  $("#seatsrow").style.display = opt ? "" : "none";
  if (!opt) return;
  // every seat count the game takes (its option's choices: 2, 3, 4 or 6), else its range
  const now = players || seatsOf(spec);
  let choices = (opt.choices || []).map(Number);
  if (!choices.length) {
    const [lo, hi] = String(opt.range).split(" to ").map(Number);
    for (let n = lo || 2; n <= (hi || lo || 2); n++) choices.push(n);
  }
  $("#seats").innerHTML = choices.map((n) => `<option value="${n}"${n === now ? " selected" : ""}>${n}</option>`).join("");
}

// One input per seat; ``players``: the seats of the game as started (a spec's options may
// change them: rolit:players=3), else the game's default. A seat's default is the game's
// agent (max^n when the game's default is two seats and more are asked).
function makeAgentInputs(given, players) {
  const g = gameInfo(S.games, $("#game").value);
  const box = $("#agents");
  box.innerHTML = "";
  const n = players || g.players;
  const engine = n > 2 && g.players === 2 ? "maxn" : g.default_agent;
  for (let p = 0; p < n; p++) {
    const value = (given && given[p]) || (p === 0 ? "human" : engine);
    box.insertAdjacentHTML("beforeend",
      `<label for="agent${p}">Player ${p + 1}${g.seat_names && g.seat_names[p] ? ` (${esc(g.seat_names[p])})` : ""}</label><input id="agent${p}" class="agent" ` +
      `value="${esc(value)}" list="agentlist">`);
  }
  box.insertAdjacentHTML("beforeend", `<datalist id="agentlist">${["human", "random",
    "minimax", "alphabeta", "id", "solver", "maxn", "paranoid", "mcts", "expectiminimax",
    "alphabeta:depth=4", "pimc:worlds=20", "ismcts:iterations=1000"]
    .map((a) => `<option value="${a}">`).join("")}</datalist>`);
}

function stopThinking() {
  if (S.abort) { S.abort.abort(); S.abort = null; }
}

function clearBoard(message) {
  S.view = null; S.shown = null;
  $("#board").innerHTML = "";
  $("#movelist").innerHTML = "";
  $("#position").value = "";
  $("#status").textContent = message;
}

async function newGame(keepError) {
  stopThinking();
  if (keepError !== true) showError("");
  const gen = ++S.gen;
  S.selected = null; S.busy = true;
  $("#iterations tbody").innerHTML = "";
  $("#engine").textContent = "—";
  $("#reasoning").innerHTML = "";
  $("#scoresline").textContent = "";
  const body = { game: $("#game").value, agents: $$(".agent").map((i) => i.value.trim() || "human"),
                 position: $("#start").value.trim(), time: $("#time").value.trim(),
                 clock: $("#clock").value.trim() };
  let v;
  try {
    v = await api("/api/play", { flip: S.flip ? 1 : "", seat: mySeat(body.agents) }, body);
  } catch (e) {  // a bad start, agent or time: no board, and what is wrong with it
    if (gen !== S.gen) return;
    S.busy = false;
    clearBoard("no game: correct the settings and press New game");
    showError(e.message);
    return;
  }
  if (gen !== S.gen) return;
  S.busy = false;
  S.view = v; S.shown = null;
  if ($$(".agent").length !== v.players) { makeSeatsControl(v.players); makeAgentInputs(v.agents, v.players); }
  startClocks();
  remember();
  advance();
}

function startClocks() {
  clearInterval(S.tick);
  S.clocks = null;
  const clock = S.view.clock;
  if (!clock) { drawClocks(); return; }
  const [base, inc] = clock.split("+").map(Number);
  S.clocks = { inc: inc || 0, left: S.view.agents.map(() => base), running: null, since: 0 };
  drawClocks();
}

function isHuman(player) {
  return ((S.view && S.view.agents[player]) || "").split(":")[0].trim().toLowerCase() === "human";
}

// A seat as people name it: numbered from 1, with its colour where the game gives one
// (Rolit: "player 1 (red, human)"), so a person knows which colour is theirs.
function colourOf(p) { return S.view && S.view.seat_names ? `${S.view.seat_names[p]}, ` : ""; }
function who(p) { return `player ${p + 1} (${colourOf(p)}${S.view.agents[p]})`; }

async function undo() {
  if (!S.view || !S.view.ply) return;
  stopThinking();
  showError("");
  const gen = ++S.gen;
  S.busy = true;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const v = await api(`/api/play/${S.view.id}/undo`, seatParams({ flip: S.flip ? 1 : "" }), { ply: S.view.ply });
      if (gen !== S.gen) return;
      S.view = v; S.shown = null; S.selected = null; S.busy = false;
      $("#scoresline").textContent = "";
      advance();
      return;
    } catch (e) {
      if (e.status !== 409) { S.busy = false; showError(e.message); return; }
      S.view = await api(`/api/play/${S.view.id}`, seatParams());  // the engine's move came in: again
    }
  }
  S.busy = false;
}

// A person resigns (two-player games): the server ends the game, the other player wins.
async function resign() {
  const v = S.view;
  if (!v || v.terminal || v.players !== 2 || !v.agents.some((a, p) => isHuman(p))) return;
  stopThinking();
  showError("");
  const gen = ++S.gen;
  S.busy = true;
  try {
    // the person to move resigns (hot seat: whoever's turn it is), else this page's seat
    const params = seatParams({ flip: S.flip ? 1 : "" });
    if (v.to_move !== null && isHuman(v.to_move)) params.seat = v.to_move;
    S.view = await api(`/api/play/${v.id}/resign`, params, { ply: v.ply });
  } catch (e) {
    S.busy = false;
    if (e.status === 409) return resync();
    showError(e.message);
    return;
  }
  if (gen !== S.gen) return;
  S.busy = false;
  advance();
}

function resignShown(v) {
  $("#resign").style.display = v && v.players === 2 && !v.terminal &&
    v.agents.some((a, p) => isHuman(p)) ? "" : "none";
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
  $("#clocks").innerHTML = S.view.agents.map((a, p) => {
    const left = Math.max(0, clockLeft(p));
    const m = Math.floor(left / 60), s = (left % 60).toFixed(1).padStart(4, "0");
    return `<span class="clock${S.clocks.running === p ? " running" : ""}">P${p + 1} ${m}:${s}</span>`;
  }).join(" ");
  if (S.clocks.running !== null && clockLeft(S.clocks.running) <= 0) {
    const p = S.clocks.running;
    clockStop(false);
    stopThinking();
    S.gen++;
    S.busy = true;  // the game is over on the clock: nothing more is played
    $("#status").textContent = `${who(p)} lost on time`;
  }
}

// What happened since the last choice when chance came between two players' moves: the
// other player's move, then chance's outcome, each said as what it is, so the dice are
// never credited to a player (backgammon: the roll that follows the engine's move is the
// person's dice; Pig: the 1 that ended a turn).
function turnNote(v) {
  const moves = v.moves;
  const last = moves[moves.length - 1];
  if (!last || last.player !== -1) return "";
  let i = moves.length - 1;
  while (i >= 0 && moves[i].player === -1) i--;
  if (i < 0 || moves[i].player === v.to_move) return "";
  const rolls = moves.slice(i + 1).map((m) => m.text).join(", ");
  return `${who(moves[i].player)} played ${moves[i].text}; then chance: ${rolls}. `;
}

// The game as it now stands: drawn, then whoever is to move is asked (or the engine thinks).
function advance() {
  const v = S.view;
  draw(v);
  resignShown(v);
  if (v.terminal) {
    clockStop(false);
    // the game is over: every agent's reasoning, all its cards' averages
    if (v.reasonings && v.reasonings.length) $("#reasoning").innerHTML = v.reasonings.map(reasoningHtml).join("");
    $("#status").textContent = `game over: ${v.result}`;
    return;
  }
  const p = v.to_move;
  if (isHuman(p)) {
    $("#status").textContent = `${turnNote(v)}player ${p + 1} (${colourOf(p)}human) to move: click on the board`;
    clockStart(p);
    $("#scoresline").textContent = "";
    if ($("#scores").checked) showScores(S.gen);
  } else {
    $("#status").textContent = `${turnNote(v)}${who(p)} is thinking…`;
    think(p, ++S.gen);
  }
}

function draw(v) {
  $("#board").innerHTML = boardHtml(v, v.svg);
  $("#position").value = v.line;
  drawMoveList();
  if (S.selected) markSquares(S.selected, v.legal);
  tapMoves(v);
}

// The legal moves as buttons of at least 32 px when the board's own targets are drawn
// smaller than a finger (a phone: bridge's overlapping cards, backgammon's move rows);
// the legal moves are the seat's own, as the server sent them. Boards played by squares
// (chess, checkers) and boards with many moves (Go) keep their own targets.
const TAP = 32, TAP_MAX = 60;
function tapMoves(v) {
  const box = $("#tapmoves");
  box.innerHTML = "";
  if (!humanToMove() || v.legal.length > TAP_MAX || $("#board [data-square]")) return;
  const small = $$("#board [data-move]").some((el) => {
    const r = el.getBoundingClientRect();
    return r.width < TAP || r.height < TAP;
  });
  if (!small) return;
  box.innerHTML = v.legal.map((m) => `<button type="button" class="secondary" data-tap="${esc(m)}">${esc(m)}</button>`).join("");
}

function drawMoveList() {
  const v = S.view;
  if (!v) return;
  const shown = S.shown === null ? v.ply : S.shown;
  $("#movelist").innerHTML = v.moves.length ? '<span class="muted">moves:</span> ' + v.moves.map((m) =>
    `<span class="mv${m.player === -1 ? " chance" : ""}${m.ply === shown ? " current" : ""}" ` +
    `data-ply="${m.ply}" data-notation="${esc(m.move)}" title="ply ${m.ply}: ${esc(m.move)}">${esc(m.text)}</span>`
  ).join(" ") : "";
  $("#movelist .mv.current")?.scrollIntoView({ block: "nearest" });
}

// An earlier position of the game, to look at (the board is inert there); null: the game now.
async function show(ply) {
  if (!S.view) return;
  if (ply === null || ply >= S.view.ply) {
    S.shown = null;
    draw(S.view);
    if (S.abort) return;  // the engine's thinking draws its own board
    return;
  }
  ply = Math.max(0, ply);
  S.shown = ply;
  S.selected = null;
  $("#tapmoves").innerHTML = "";  // an earlier position is looked at, not played on
  drawMoveList();
  const v = await api(`/api/play/${S.view.id}`, seatParams({ ply, flip: S.flip ? 1 : "" }));
  if (S.shown !== ply) return;
  $("#board").innerHTML = boardHtml(v, v.svg);
  $("#position").value = v.line;
}

function step(delta) {
  if (!S.view) return;
  const now = S.shown === null ? S.view.ply : S.shown;
  show(now + delta);
}

// Every move's score: what is known at once first (the game's end, the opening book's
// exact scores, or its win/draw/loss), then the solver's exact scores as they come; "…"
// while a move is still being solved, "?" only where nothing at all is known.
function scoreWord(s, final) {
  if (s.score !== null && s.score !== undefined) return String(s.score);
  if (s.result) return s.result;
  return final ? "?" : "…";
}

async function showScores(gen) {
  const v = S.view;
  const base = { game: v.game, position: v.start, moves: v.moves.map((m) => m.move).join(" ") };
  const paint = async (data, final) => {
    const labels = data.scores.map((s) => `${s.move}=${scoreWord(s, final)}`);
    const pos = await api("/api/position", Object.assign({}, base, { labels: labels.join(","), flip: S.flip ? 1 : "" }));
    if (gen !== S.gen || S.shown !== null) return;
    $("#board").innerHTML = boardHtml(pos, pos.svg);
    $("#scoresline").textContent = `${final ? "scores" : "scores so far"}: ` + data.scores.map((s) =>
      `${s.move}: ${scoreWord(s, final)}`).join(", ");
    $("#scoresline").dataset.final = final ? "1" : "";
  };
  try {
    const quick = await api("/api/scores", Object.assign({ quick: 1 }, base));
    if (gen !== S.gen) return;
    await paint(quick, quick.complete);
    if (quick.complete) return;
    const data = await api("/api/scores", base);
    if (gen !== S.gen) return;
    await paint(data, true);
  } catch (e) { if (gen === S.gen) $("#scoresline").textContent = "scores: " + e.message; }
}

// (streamEvents, in common.js: server-sent events over fetch, so that a 400, 404 or 409
// shows its message)
async function think(player, gen) {
  stopThinking();
  const extra = seatParams({ ply: S.view.ply });
  if (S.clocks) {
    extra.clock = Math.max(0.01, S.clocks.left[player]).toFixed(3);
    extra.increment = S.clocks.inc;
  }
  const controller = new AbortController();
  S.abort = controller;
  S.busy = true;
  const body = $("#iterations tbody");
  body.innerHTML = "";
  $("#engine").textContent = `${who(player)} thinking…`;
  clockStart(player);
  let move = null;
  try {
    await streamEvents(apiUrl(`/api/play/${S.view.id}/think`, extra), (event, d) => {
      if (gen !== S.gen) return;
      if (event === "start") $("#engine").textContent =
        `${d.agent} (player ${player + 1}) thinking, ${d.budget} s`;
      if (event === "info") {
        body.insertAdjacentHTML("beforeend", `<tr><td>${d.depth}</td><td>${esc(fmtValue(d.value, d.score_text))}</td>` +
          `<td>${d.nodes}</td><td>${d.nps}</td><td>${d.seconds}</td><td class="l">${esc((d.pv_text || d.pv).join(" "))}</td></tr>`);
        if (d.svg && S.shown === null) $("#board").innerHTML = d.svg;
      }
      if (event === "move") move = d;
      if (event === "error") {
        const error = new Error(d.error);
        error.status = d.status;
        throw error;
      }
    }, controller.signal);
  } catch (e) {
    if (e.name === "AbortError" || gen !== S.gen) return;
    S.abort = null;
    if (e.status === 409) { S.busy = false; return resync(); }  // the game moved on: catch up
    clockStop(false);
    showError(e.message);
    $("#status").textContent = "the engine could not move";
    return;
  }
  S.abort = null;
  if (gen !== S.gen || !move) return;
  clockStop(true);
  const how = move.source === "search" ? `value ${fmtValue(move.value, move.score_text)}` +
      `${move.depth === null || move.depth === undefined ? "" : `, depth ${move.depth}`}, ${move.nodes} nodes`
    : move.source === "book" ? `opening book, score ${move.value}`
    : move.source === "solver" ? `solved, score ${move.value}, ${move.nodes} nodes` : move.source;
  $("#engine").textContent = `${move.agent} played ${move.text} in ${move.seconds} s (${how})`;
  showReasoning(move, player);
  S.view = move.view;
  if (S.flip) S.view = await api(`/api/play/${S.view.id}`, seatParams({ flip: 1 }));
  S.busy = false;
  advance();
}

// What a sampling agent (PIMC, ISMCTS) considered for its move: the worlds or iterations
// sampled and each card's average (and visits), from the search's result; statistics of
// the agent's own cards only.
function showReasoning(move, player) {
  $("#reasoning").innerHTML = move.reasoning ? reasoningHtml(move.reasoning) : "";
}

function reasoningHtml(r) {
  const visits = r.algorithm === "ismcts";
  const withheld = r.withheld ? `; its ${r.withheld} other ${r.withheld === 1 ? "card is" : "cards are"} ` +
    "hidden until the end" : "";
  return `<div class="muted">${esc(`ply ${r.ply}: player ${r.player + 1} (${r.agent}) played ${r.move}: ` +
    `${r.algorithm}, ${r.samples} ${r.sample_kind} sampled${withheld}`)}</div>` +
    `<table class="reasoning-moves"><thead><tr><th class="l">move</th><th>${visits ? "mean" : "average"}</th>` +
    `${visits ? "<th>visits</th>" : ""}</tr></thead><tbody>` +
    r.moves.map((m) => `<tr${m.move === r.move || m.chosen ? ' class="chosen"' : ""}><td class="l">${esc(m.move)}</td>` +
      `<td>${esc(fmtValue(m.value))}</td>${visits ? `<td>${m.visits}</td>` : ""}</tr>`).join("") +
    "</tbody></table>";
}

async function resync() {
  S.view = await api(`/api/play/${S.view.id}`, seatParams({ flip: S.flip ? 1 : "" }));
  advance();
}

function humanToMove() {
  const v = S.view;
  return v && !S.busy && S.shown === null && !v.terminal && v.to_move !== null &&
    isHuman(v.to_move) && v.legal.length > 0;
}

async function play(move, typed = false) {
  if (!humanToMove()) return;
  // a typed move is read by the server (any spelling the game's notation accepts)
  if (!typed && !S.view.legal.includes(move)) { showError(`illegal move ${move}`); return; }
  S.busy = true;  // inert from this click on: a second click is ignored
  showError("");
  S.selected = null;
  $("#promotion").classList.remove("show");
  const gen = ++S.gen;
  try {
    const v = await api(`/api/play/${S.view.id}/move`, seatParams({ flip: S.flip ? 1 : "" }),
                        { move, ply: S.view.ply });
    if (gen !== S.gen) return;
    clockStop(true);
    S.view = v;
  } catch (e) {
    S.busy = false;
    if (e.status === 409) return resync();
    showError(e.message);
    return;
  }
  S.busy = false;
  advance();
}

function onMoveBox(e) {
  e.preventDefault();
  const text = $("#movebox").value.trim();
  if (!text) return;
  if (!humanToMove()) { showError("not your move"); return; }
  $("#movebox").value = "";
  play(text, true);
}

function onBoardClick(e) {
  if (!humanToMove()) return;
  const square = e.target.closest("[data-square]");
  if (square) {
    squareClick(S, S.view.legal, square.dataset.square, play,
                $("#choosepromo").checked ? choosePromotion : null);
    return;
  }
  const target = e.target.closest("[data-move]");
  if (target) play(target.dataset.move);
}

function choosePromotion(candidates) {
  const box = $("#promotion");
  box.innerHTML = "promote to: " + candidates.map((m) =>
    `<button data-promo="${m}">${{ q: "queen", r: "rook", b: "bishop", n: "knight" }[m[4]]}</button>`).join("");
  box.classList.add("show");
  $$("[data-promo]", box).forEach((b) => b.addEventListener("click", () => play(b.dataset.promo)));
}

init().catch((e) => showError(e.message));
