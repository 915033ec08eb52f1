// Tournaments: the arena's results, read-only; live while a tournament is running.
"use strict";
const T = { file: null, id: null, data: null, source: null, replay: null };

async function init() {
  const data = await api("/api/tournaments");
  if (!data.files.length) {
    $("#files").innerHTML = "no results files: start the app with <code>gamesearch web --db FILE_OR_FOLDER</code>";
    return;
  }
  $("#files").innerHTML = data.files.map((f) => `<div><b>${esc(f.file)}</b>` +
    (f.error ? `<div class="muted">${esc(f.error)}</div>` : "") +
    `<ul>${f.tournaments.map((t) => `<li><a href="#" class="pick" data-file="${esc(f.file)}" data-id="${t.id}">` +
      `${esc(t.game)} ${esc(t.format)}: ${esc(t.agent_names.join(", "))}</a> ` +
      `<span class="muted">${t.games}/${t.scheduled} games</span></li>`).join("")}</ul></div>`).join("");
  $$(".pick").forEach((a) => a.addEventListener("click", (e) => {
    e.preventDefault(); open(a.dataset.file, Number(a.dataset.id));
  }));
  const params = new URLSearchParams(location.search);
  if (params.get("file")) open(params.get("file"), Number(params.get("id") || 1));
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
  $("#head").innerHTML = `<h2 style="margin:0 0 6px">${esc(d.game)} ${esc(d.format)}</h2>` +
    `<div class="muted">${esc(d.file)}, tournament ${d.id}: <span id="count">${d.games}</span> of ` +
    `${d.scheduled} games, time control ${esc(d.time_control || "?")}</div>`;
  $("#live").textContent = running ? "running: this page updates as games come in" : "";
  $("#standingsbox").style.display = "block";
  if (d.seats > 2) showSeated(d);
  else $("#standings").innerHTML = "<tr><th>#</th><th class='l'>agent</th><th>games</th><th>W</th><th>D</th>" +
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
  $("#plot").style.display = "block";
  $("#plot").innerHTML = d.plot;
  $("#gamesbox").style.display = "block";
  $("#games").innerHTML = "<tr><th>#</th>" + (d.seats > 2 ? "<th class='l'>seats, in order</th>"
    : "<th class='l'>first</th><th class='l'>second</th>") + (d.seats > 2 ? "<th>ranks</th>" : "<th>result</th>") +
    "<th class='l'>termination</th><th>plies</th><th></th></tr>" + d.records.map((g) =>
      `<tr><td>${g.index + 1}</td>` + (d.seats > 2 ? `<td class="l">${esc(g.agents.join(", "))}</td>`
        : `<td class="l">${esc(g.agents[0])}</td><td class="l">${esc(g.agents[1])}</td>`) +
      `<td>${esc(g.result)}</td><td class="l">${esc(g.termination)}</td><td>${g.plies}</td>` +
      `<td><button class="secondary replay" data-index="${g.index}">replay</button></td></tr>`).join("");
  $$(".replay").forEach((b) => b.addEventListener("click", () => replay(Number(b.dataset.index))));
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
    const pos = await api("/api/position", { game: r.g.game, position: r.g.start_position || "",
      moves: r.g.moves.slice(0, r.k).join(" ") });
    $("#r-board").innerHTML = pos.svg || `<pre>${esc(pos.text)}</pre>`;  // (no moves to click)
    $("#r-info").textContent = `game ${r.g.index + 1}: ${r.g.agents.join(" vs ")}, ply ${r.k} of ` +
      `${r.g.moves.length}` + (r.k === r.g.moves.length ? ` — ${r.g.result} (${r.g.termination})` : "");
  } catch (e) { showError(e.message); }
}

init().catch((e) => showError(e.message));
