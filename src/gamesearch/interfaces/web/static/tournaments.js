// Tournaments: the arena's results, read-only; live while a tournament is running.
"use strict";
const T = { file: null, id: null, data: null, source: null, replay: null, poll: null, opened: null };

// Start one from the page (the server runs `gamesearch tournament`, one at a time, within
// its caps, from this machine by default), watch it with the live view, stop it.
async function initStart() {
  await fillGames($("#t-game"), "tictactoe");
  $("#t-start").addEventListener("click", startRun);
  $("#t-stop").addEventListener("click", stopRun);
  const st = await api("/api/tournaments/run");
  $("#t-caps").textContent = st.policy === "nobody" ? "this server does not run tournaments" :
    `at most ${st.caps.agents} agents, ${st.caps.games_per_pair} games a pair, ${st.caps.games} games, ` +
    `${st.caps.move_time} s a move` + (st.policy === "loopback" ? "; from this machine only" : "");
  runState(st);
  if (st.run && st.run.running) pollRun();
}

function runState(st) {
  const r = st.run;
  $("#t-stop").disabled = !(r && r.running);
  $("#t-start").disabled = !!(r && r.running);
  $("#t-status").textContent = !r ? "" : r.running ? `running: ${r.file}` :
    r.stopped ? `stopped: ${r.file} (the games played so far are kept)` :
    r.returncode === 0 ? `finished: ${r.file}` : `ended with an error: ${r.output || r.returncode}`;
}

async function startRun() {
  showError("");
  const body = { game: $("#t-game").value,
                 agents: $("#t-agents").value.split("\n").map((x) => x.trim()).filter(Boolean),
                 games_per_pair: Number($("#t-games").value), move_time: Number($("#t-time").value) };
  try {
    const st = await api("/api/tournaments/run", {}, body);
    runState(st);
    T.opened = null;
    pollRun();
  } catch (e) { showError(e.message); }
}

async function stopRun() {
  try { runState(await api("/api/tournaments/run/stop", {}, {})); } catch (e) { showError(e.message); }
  pollRun();
}

// While the run is going: its state each second; its results file is opened (the live
// view) once the arena has written it, and shown whole once more when the run ends.
async function pollRun() {
  clearTimeout(T.poll);
  const st = await api("/api/tournaments/run");
  runState(st);
  const r = st.run;
  if (!r) return;
  if (T.opened !== r.file || !r.running) {
    try {
      const base = `/api/tournaments/${encodeURIComponent(r.file)}/${r.id}`;
      const d = await api(base);
      if (T.opened !== r.file) { T.opened = r.file; await listFiles(); open(r.file, r.id); }
      else show(d);
    } catch (e) { /* not written yet: the next tick */ }
  }
  if (r.running) T.poll = setTimeout(pollRun, 1000);
}

async function init() {
  initStart().catch((e) => showError(e.message));
  await listFiles();
}

async function listFiles() {
  const data = await api("/api/tournaments");
  if (!data.files.length) {
    $("#files").innerHTML = "no results files: start the app with <code>gamesearch web --db FILE_OR_FOLDER</code>, or start a tournament below";
    return;
  }
  $("#files").innerHTML = data.files.map((f) => `<div><b>${esc(f.file)}</b>` +
    (f.error ? `<div class="muted">${esc(f.error)}</div>` : "") +
    `<ul>${f.tournaments.map((t) => `<li><a href="#" class="pick" data-file="${esc(f.file)}" data-id="${t.id}">` +
      `${esc(t.game)} ${esc(t.format)}: ${esc(t.agent_names.join(", "))}</a> ` +
      `<span class="muted">${t.games}/${t.scheduled} ${t.duplicate ? "tables" : "games"}</span></li>`).join("")}</ul></div>`).join("");
  $$(".pick").forEach((a) => a.addEventListener("click", (e) => {
    e.preventDefault(); open(a.dataset.file, Number(a.dataset.id));
  }));
  const params = new URLSearchParams(location.search);
  if (params.get("file") && !T.file) open(params.get("file"), Number(params.get("id") || 1));
}

function open(file, id) {
  if (T.source) T.source.close();
  T.file = file; T.id = id; T.replay = null;
  showError("");
  $("#replay").style.display = "none";
  const base = `/api/tournaments/${encodeURIComponent(file)}/${id}`;
  api(base).then(show).catch((e) => showError(e.message));
  T.source = new EventSource(base + "/live");
  T.source.addEventListener("update", (e) => show(JSON.parse(e.data)));
  T.source.addEventListener("end", () => { T.source.close(); $("#live").textContent = ""; });
  T.source.onerror = () => { T.source.close(); };
}

function elo(s) { return esc(s.elo_text); }

function show(d) {
  T.data = d;
  const running = d.games < d.scheduled;
  const dup = d.duplicate;
  $("#head").innerHTML = `<h2 style="margin:0 0 6px">${esc(d.game)} ${dup ? "duplicate " : ""}${esc(d.format)}</h2>` +
    `<div class="muted">${esc(d.file)}, tournament ${d.id}: <span id="count">${d.games}</span> of ` +
    `${d.scheduled} ${dup ? "tables" : "games"}` +
    (dup ? ` (${dup.boards} boards, each at two tables with the pairs turned)` : "") +
    `, time control ${esc(d.time_control || "?")}</div>`;
  $("#live").textContent = running ? "running: this page updates as games come in" : "";
  $("#standingsbox").style.display = "block";
  $("#boardsbox").style.display = dup ? "block" : "none";
  $("#standings-title").textContent = dup ? `Pairs: ${dup.unit} over the boards` : "Standings";
  $("#pairs-title").textContent = dup ? `Head to head (the first pair's ${dup.unit} per board)`
    : "Pairwise (row's score against column)";
  if (dup) showDuplicate(d);
  else if (d.seats > 2) showSeated(d);
  else showPairs(d);
  $("#plot").style.display = dup ? "none" : "block";  // (an Elo plot of single tables means nothing)
  $("#plot").innerHTML = dup ? "" : d.plot;
  $("#gamesbox").style.display = "block";
  $("#games-title").textContent = dup ? "Tables" : "Games";
  // (duplicate: each table's teams, how it ended in the game's words -- bridge: contract,
  // declarer, tricks, score -- and the board's points of the first team's agent)
  const teams = dup ? dup.team_names.map(esc) : [];
  const cols = dup ? `<th>board</th><th>table</th><th class='l'>${teams[0]}</th><th class='l'>${teams[1]}</th>` +
      `<th class='l'>outcome</th><th>board's ${esc(dup.unit)} (${teams[0]})</th>`
    : d.seats > 2 ? "<th class='l'>seats, in order</th><th>ranks</th>"
    : "<th class='l'>first</th><th class='l'>second</th><th>result</th>";
  $("#games").innerHTML = "<tr><th>#</th>" + cols +
    "<th class='l'>termination</th><th>plies</th><th></th></tr>" + d.records.map((g) =>
      `<tr><td>${g.index + 1}</td>` + (dup ? `<td>${g.board + 1}</td><td>${g.table + 1}</td>` +
        `<td class="l">${esc(g.teams[0])}</td><td class="l">${esc(g.teams[1])}</td>` +
        `<td class="l">${esc(g.outcome.text)}</td>` +
        `<td>${g.team_points[0] === null ? "—" : signed(g.team_points[0], 0)}</td>`
        : (d.seats > 2 ? `<td class="l">${esc(g.agents.join(", "))}</td>`
          : `<td class="l">${esc(g.agents[0])}</td><td class="l">${esc(g.agents[1])}</td>`) +
          `<td>${esc(g.result)}</td>`) +
      `<td class="l">${esc(g.termination)}</td><td>${g.plies}</td>` +
      `<td><button class="secondary replay" data-index="${g.index}">replay</button></td></tr>`).join("");
  $$(".replay").forEach((b) => b.addEventListener("click", () => replay(Number(b.dataset.index))));
}

// Two seats: wins, draws, losses, Elo against the field, and the pairwise table.
function showPairs(d) {
  $("#standings").innerHTML = "<tr><th>#</th><th class='l'>agent</th><th>games</th><th>W</th><th>D</th>" +
    "<th>L</th><th>points</th><th>score</th><th>Elo vs field (95 %)</th><th>forfeits</th>" +
    "<th>s/move</th><th>nodes/move</th></tr>" + d.standings.map((s, i) =>
      `<tr class="standing"><td>${i + 1}</td><td class="l">${esc(s.agent)}</td><td>${s.games}</td>` +
      `<td>${s.wins}</td><td>${s.draws}</td><td>${s.losses}</td><td>${s.points}</td>` +
      `<td>${(100 * s.score).toFixed(1)}%</td><td>${elo(s)}</td><td>${s.forfeits}</td>` +
      `<td>${s.seconds_per_move.toFixed(3)}</td><td>${Math.round(s.nodes_per_move)}</td></tr>`).join("");
  const names = d.agents.map((a) => a.name);
  $("#pairs").innerHTML = "<tr><th></th>" + names.map((n) => `<th>${esc(n)}</th>`).join("") + "</tr>" +
    d.table.map((row, i) => `<tr><th class="l">${esc(names[i])}</th>` + row.map((c) => c === null ? "<td>—</td>"
      : c.games ? `<td title="Elo ${elo(c)}">+${c.wins} =${c.draws} −${c.losses}<br><span class="muted">${elo(c)}</span></td>`
      : "<td></td>").join("") + "</tr>").join("");
}

// Duplicate (bridge): each pair's board points (IMPs), total and per board with the 95 %
// interval, the head to head of each table of agents and every board's two tables, as the
// command line's table (gamesearch tournament --duplicate).
function signed(x, digits) { return (x < 0 ? "-" : "+") + Math.abs(x).toFixed(digits); }
function perBoard(p) {
  if (!p.boards) return "--";
  return signed(p.mean, 2) + (p.margin === null ? "" : " ± " + p.margin.toFixed(2));
}

function showDuplicate(d) {
  const dup = d.duplicate, unit = esc(dup.unit);
  $("#standings").innerHTML = `<tr><th>#</th><th class='l'>pair</th><th>boards</th><th>${unit} total</th>` +
    `<th>${unit}/board (95 %)</th><th>boards won</th><th>unscored</th></tr>` + dup.pairs.map((p, i) =>
      `<tr class="standing"><td>${i + 1}</td><td class="l">${esc(p.agent)}</td><td>${p.boards}</td>` +
      `<td>${signed(p.total, 0)}</td><td>${perBoard(p)}</td><td>${p.boards_won}</td>` +
      `<td>${p.unscored}</td></tr>`).join("");
  $("#pairs").innerHTML = `<tr><th class='l'>first</th><th class='l'>second</th><th>boards</th>` +
    `<th>${unit} total</th><th>${unit}/board (95 %)</th><th>boards won</th></tr>` + dup.head_to_head.map((h) =>
      `<tr class="h2h"><td class="l">${esc(h.first)}</td><td class="l">${esc(h.second)}</td><td>${h.boards}</td>` +
      `<td>${signed(h.total, 0)}</td><td>${perBoard(h)}</td><td>${h.boards_won}</td></tr>`).join("");
  const score = (x) => x === null ? "—" : signed(x, 0);
  const outcome = (b, t) => b.outcomes && b.outcomes[t] ? esc(b.outcomes[t].text) : "not played yet";
  const [ns, ew] = dup.team_names.map(esc);
  $("#boards").innerHTML = `<tr><th>board</th><th class='l'>first pair</th><th class='l'>second pair</th>` +
    `<th class='l'>table 1, first pair ${ns}</th><th>first pair's score</th>` +
    `<th class='l'>table 2, first pair ${ew}</th><th>first pair's score</th>` +
    `<th>difference</th><th>first pair's ${unit}</th></tr>` +
    dup.board_results.map((b) =>
      `<tr class="board"><td>${b.board + 1}</td><td class="l">${esc(b.first)}</td><td class="l">${esc(b.second)}</td>` +
      `<td class="l">${outcome(b, 0)}</td><td>${score(b.tables[0])}</td>` +
      `<td class="l">${outcome(b, 1)}</td><td>${score(b.tables[1])}</td><td>${score(b.difference)}</td>` +
      `<td>${score(b.points)}</td></tr>`).join("");
}

// A duplicate table's last line: how it ended (bridge: "4S by South, 10 tricks (=), N-S
// +420") and the board's points of each team's agent, or why the board has none yet.
function tableResult(v) {
  const points = v.teams.map((t) => t.points === null ? null
    : `${t.agent} (${t.name}) ${signed(t.points, 0)}`);
  return v.outcome.text + "; board " + (v.board + 1) + ": " + (points[0] === null
    ? "unscored (its other table not played yet, or not ended by the rules)"
    : points.join(", ") + " " + v.unit);
}

// Three to six seats: first places, mean rank, mean score (95 %), the score in each seat and
// the openskill rating (95 %), as the command line's table.
function showSeated(d) {
  const pct = (x) => x === null ? "n/a" : (100 * x).toFixed(1) + "%";
  const seats = [...Array(d.seats).keys()];
  $("#standings").innerHTML = "<tr><th>#</th><th class='l'>agent</th><th>games</th><th>1st</th>" +
    "<th>mean rank</th><th>score (95 %)</th>" + seats.map((k) => `<th>seat ${k + 1}</th>`).join("") +
    "<th>rating (95 %)</th><th>forfeits</th><th>s/move</th><th>nodes/move</th></tr>" +
    d.standings.map((s, i) =>
      `<tr class="standing"><td>${i + 1}</td><td class="l">${esc(s.agent)}</td><td>${s.games}</td>` +
      `<td>${s.firsts}</td><td>${s.mean_rank === null ? "n/a" : s.mean_rank.toFixed(2)}</td>` +
      `<td>${pct(s.score)}${s.score_margin === null ? "" : " ± " + (100 * s.score_margin).toFixed(1)}</td>` +
      s.seat_scores.map((x) => `<td>${pct(x)}</td>`).join("") +
      `<td>${s.rating === null ? "n/a" : s.rating.toFixed(1) + " ± " + s.rating_margin.toFixed(1)}</td>` +
      `<td>${s.forfeits}</td><td>${s.seconds_per_move.toFixed(3)}</td>` +
      `<td>${Math.round(s.nodes_per_move)}</td></tr>`).join("");
}

async function replay(index) {
  try {
    const g = await api(`/api/tournaments/${encodeURIComponent(T.file)}/${T.id}/games/${index}`);
    T.replay = { g, k: 0 };
    $("#replay").style.display = "block";
    for (const [id, f] of [["r-first", () => 0], ["r-back", (k) => k - 1], ["r-forward", (k) => k + 1],
                           ["r-last", () => g.moves.length]]) {
      $("#" + id).onclick = () => step(f(T.replay.k));
    }
    step(0);
  } catch (e) { showError(e.message); }
}

async function step(k) {
  const r = T.replay;
  r.k = Math.max(0, Math.min(r.g.moves.length, k));
  try {
    // a stored game is over: the server draws it whole (every hand of a card game)
    const pos = await api(`/api/tournaments/${encodeURIComponent(T.file)}/${T.id}/games/${r.g.index}`,
      { ply: r.k });
    $("#r-board").innerHTML = pos.svg || `<pre>${esc(pos.text)}</pre>`;  // (no moves to click)
    const v = r.g.duplicate;  // (a duplicate table: the game's outcome and IMPs, no ranks)
    const who = v ? `board ${v.board + 1}, table ${v.table + 1}: ` +
        v.teams.map((t) => `${t.agent} ${t.name}`).join(" vs ")
      : `game ${r.g.index + 1}: ${r.g.agents.join(" vs ")}`;
    $("#r-info").textContent = `${who}, ply ${r.k} of ` + `${r.g.moves.length}` +
      (r.k < r.g.moves.length ? "" : v ? ` — ${tableResult(v)}` : ` — ${r.g.result} (${r.g.termination})`);
  } catch (e) { showError(e.message); }
}

init().catch((e) => showError(e.message));
