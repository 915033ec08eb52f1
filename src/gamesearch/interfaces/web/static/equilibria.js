// Equilibria: CFR on Kuhn or Leduc poker streamed live (/api/equilibria/solve: the
// exploitability at log-spaced iterations, drawn here on log-log axes without a library),
// the average policy at each information set, a button to play it; and a matrix game's
// equilibria (/api/equilibria/matrix, = gamesearch nash --json).
"use strict";
const E = { abort: null, run: null, points: [], asked: 0, sets: [], presets: {} };
// a phone's width (app.css's breakpoint): the forms come first, so results are scrolled to
const PHONE = matchMedia("(max-width: 700px)");

async function init() {
  const offer = await api("/api/equilibria");
  $("#algorithm").innerHTML = Object.entries(offer.algorithms).map(([name, text]) =>
    `<option value="${esc(name)}">${esc(name)} — ${esc(text)}</option>`).join("");
  $("#algorithm").value = "cfr+";
  $("#caps").textContent = `this server: at most ${offer.caps.iterations.toLocaleString("en")} ` +
    `iterations and ${offer.caps.seconds} s a run`;
  E.presets = offer.presets;
  $("#preset").innerHTML = Object.keys(offer.presets).map((name) =>
    `<option value="${esc(name)}">${esc(name)}</option>`).join("") + `<option value="">your own</option>`;
  const params = new URLSearchParams(location.search);
  for (const k of ["game", "algorithm", "iterations"]) if (params.get(k)) $("#" + k).value = params.get(k);
  $("#preset").value = "rock-paper-scissors";
  preset();
  $("#preset").addEventListener("change", preset);
  $("#run").addEventListener("click", run);
  $("#stop").addEventListener("click", stop);
  $("#solve").addEventListener("click", solveMatrix);
  for (const id of ["round", "player", "filter"]) $("#" + id).addEventListener("input", showSets);
}

function preset() {
  const p = E.presets[$("#preset").value];
  if (!p) return;
  $("#matrix-a").value = JSON.stringify(p.a);
  $("#matrix-b").value = p.b ? JSON.stringify(p.b) : "";
}

// A probability or an exploitability: 4 decimals, or 3 significant digits when tiny.
function num(x) {
  if (x === null || x === undefined) return "?";
  if (x !== 0 && Math.abs(x) < 1e-3) return x.toExponential(2);
  return (Math.round(x * 1e4) / 1e4).toFixed(4);
}

// ----- a run ------------------------------------------------------------------------
async function run() {
  showError("");
  if (E.abort) E.abort.abort();
  const controller = new AbortController();
  E.abort = controller;
  E.points = []; E.run = null; E.sets = [];
  $("#matrixbox").style.display = "none";
  $("#strategybox").style.display = "none";
  $("#family").style.display = "none";
  $("#playrow").style.display = "none";
  $("#summary").textContent = "";
  $("#run").disabled = true; $("#stop").disabled = false;
  $("#status").textContent = "starting…";
  const params = { game: $("#game").value, algorithm: $("#algorithm").value,
                   iterations: $("#iterations").value.trim() };
  try {
    await streamEvents(apiUrl("/api/equilibria/solve", params), (event, d) => {
      if (event === "start") {
        E.run = d.run; E.asked = d.iterations;
        $("#plotbox").style.display = "block";
        drawPlot();
        if (PHONE.matches) $("#plotbox").scrollIntoView({ block: "start" });  // (below the forms)
        $("#status").textContent = `${d.algorithm} on ${d.game}: ${d.information_sets} information ` +
          `sets, ${d.histories.toLocaleString("en")} histories; ${d.iterations.toLocaleString("en")} iterations`;
      } else if (event === "point") {
        E.points.push(d);
        drawPlot();
        $("#status").textContent = `iteration ${d.iteration.toLocaleString("en")} of ` +
          `${E.asked.toLocaleString("en")}: exploitability ${num(d.exploitability)}`;
      } else if (event === "progress") {
        const last = E.points[E.points.length - 1];
        $("#status").textContent = `iteration ${d.iteration.toLocaleString("en")} of ` +
          `${E.asked.toLocaleString("en")}` + (last ? ` (exploitability ${num(last.exploitability)} at ` +
          `${last.iteration.toLocaleString("en")})` : "");
      } else if (event === "done") {
        finished(d);
      } else if (event === "error") {
        showError(d.error);
      }
    }, controller.signal);
  } catch (e) {
    if (e.name !== "AbortError") showError(e.message);
    if (!E.points.length) $("#status").textContent = "";
  } finally {
    if (E.abort === controller) { E.abort = null; $("#run").disabled = false; $("#stop").disabled = true; }
  }
}

async function stop() {
  if (!E.run) return;
  $("#stop").disabled = true;
  try { await api("/api/equilibria/stop", { run: E.run }, {}); } catch (e) { showError(e.message); }
}

function finished(d) {
  const how = d.stopped ? ` (${d.stopped})` : "";
  $("#status").textContent = `done: ${d.iterations.toLocaleString("en")} iterations${how}`;
  $("#summary").innerHTML = d.iterations ? `exploitability <b id="exploitability" data-value="${d.exploitability}">` +
    `${num(d.exploitability)}</b> after ${d.iterations.toLocaleString("en")} iterations of ${esc(d.algorithm)}; ` +
    `player 1's value ${num(d.value)}. <span class="muted">CPU: solver ${d.solver_cpu} s, ` +
    `exploitability ${d.exploitability_cpu} s (${d.evaluations} measurements).</span>` : "no iteration was run";
  if (!d.iterations) return;
  $("#playrow").innerHTML = `<span class="muted">Play this policy (<code>${esc(d.agent)}</code>):</span> ` +
    d.play.map((href, k) => `<a class="button" id="play${k + 1}" href="${esc(href)}">you are player ${k + 1}</a>`).join(" ");
  $("#playrow").style.display = "flex";
  E.sets = d.information_sets;
  const leduc = d.game.startsWith("leduc");
  $("#filters").style.display = leduc ? "flex" : "none";
  $("#strategybox").style.display = "block";
  if (d.game === "kuhn_poker") family();
  showSets();
}

// Kuhn poker's equilibria (Kuhn 1950): player 1 bets the jack with any probability α in
// [0, 1/3], the king with 3α, and calls a bet with the queen with α + 1/3; player 2's
// strategy is the same in all of them.
function family() {
  const bet = (key, action) => {
    const s = E.sets.find((x) => x.key === key);
    return s ? s.probabilities[s.actions.indexOf(action)] : null;
  };
  const alpha = bet("0", "bet"), king = bet("2", "bet"), queen = bet("1pb", "bet");
  const inside = alpha >= -1e-9 && alpha <= 1 / 3 + 1e-3;
  $("#family").innerHTML = `<b>Kuhn's family of equilibria.</b> Player 1 bets the jack with a ` +
    `probability α anywhere in [0, 1/3] (a bluff), the king with 3α, and calls a bet with the queen ` +
    `with α + 1/3. This run: α = <b id="alpha" data-value="${alpha}">${num(alpha)}</b> ` +
    `${inside ? "∈ [0, 1/3]" : "outside [0, 1/3]"}; the king's bet <b id="kingbet" data-value="${king}">` +
    `${num(king)}</b> against 3α = ${num(3 * alpha)}; the queen's call <b id="queencall" data-value="${queen}">` +
    `${num(queen)}</b> against α + 1/3 = ${num(alpha + 1 / 3)}.`;
  $("#family").style.display = "block";
}

// The policy table: Kuhn's 12 sets whole; Leduc's 936 by round, player and a filter.
const SHOWN = 60;
function showSets() {
  const leduc = E.sets.length && E.sets[0].public !== undefined && E.sets.some((s) => s.round === 2);
  let rows = E.sets;
  if (leduc) {
    const round = Number($("#round").value), player = $("#player").value;
    const words = $("#filter").value.trim().toLowerCase().split(/\s+/).filter(Boolean);
    rows = rows.filter((s) => s.round === round && (!player || s.player === Number(player)) &&
      words.every((w) => `p${s.player} ${s.card} ${s.public} ${s.history}`.toLowerCase().includes(w) ||
        (w.length === 1 && (s.card[0].toLowerCase() === w || (s.public && s.public[0].toLowerCase() === w)))));
  }
  $("#shown").textContent = leduc ? `${rows.length} of ${E.sets.length} information sets` +
    (rows.length > SHOWN ? `; the first ${SHOWN} shown: narrow the filter` : "") : "";
  const board = leduc && rows.some((s) => s.public);
  $("#strategy").innerHTML = `<tr><th>player</th><th>card</th>${board ? "<th>public</th>" : ""}` +
    `<th class="l">betting so far</th><th class="l">average policy</th></tr>` +
    rows.slice(0, SHOWN).map((s) => {
      const mark = s.key === "0" || s.key === "2" ? " family" : "";
      return `<tr class="set${mark}" data-key="${esc(s.key)}"><td>${s.player}</td><td>${esc(s.card)}</td>` +
        (board ? `<td>${esc(s.public)}</td>` : "") + `<td class="l">${esc(s.history)}</td><td class="l">` +
        s.actions.map((a, k) => `<span class="prob" data-action="${esc(a)}" data-p="${s.probabilities[k]}">` +
          `${esc(a)} <b>${num(s.probabilities[k])}</b><i style="width:${Math.round(40 * s.probabilities[k])}px"></i></span>`).join(" ") +
        "</td></tr>";
    }).join("");
}

// ----- the plot: exploitability against iterations, both axes logarithmic -------------
const SUP = { "-": "⁻", 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸", 9: "⁹" };
function power(k) { return "10" + String(k).split("").map((c) => SUP[c]).join(""); }

function drawPlot() {
  // as wide as the panel (up to 560 px), so that a phone's labels stay readable
  const W = Math.round(Math.max(300, Math.min(560, $("#plot").clientWidth || 560)));
  const H = Math.round(W * 0.54), L = 58, R = 14, T = 12, B = 42;
  const pts = E.points.filter((p) => p.exploitability > 0);
  const xMax = Math.max(1, Math.ceil(Math.log10(Math.max(10, E.asked))));
  const ys = pts.map((p) => Math.log10(p.exploitability));
  let yLo = ys.length ? Math.floor(Math.min(...ys)) : -4, yHi = ys.length ? Math.ceil(Math.max(...ys)) : 0;
  if (yHi - yLo < 1) yLo = yHi - 1;
  const x = (i) => L + (W - L - R) * Math.log10(i) / xMax;
  const y = (e) => T + (H - T - B) * (yHi - Math.log10(e)) / (yHi - yLo);
  let svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" ` +
    `role="img" class="loglog"><rect x="${L}" y="${T}" width="${W - L - R}" height="${H - T - B}" fill="#fff" stroke="#bbb"/>`;
  for (let k = 0; k <= xMax; k++) {
    const px = x(10 ** k);
    svg += `<line x1="${px}" y1="${T}" x2="${px}" y2="${H - B}" stroke="#eee"/>` +
      `<text x="${px}" y="${H - B + 16}" text-anchor="middle" font-size="12">${power(k)}</text>`;
  }
  for (let k = yLo; k <= yHi; k++) {
    const py = T + (H - T - B) * (yHi - k) / (yHi - yLo);
    svg += `<line x1="${L}" y1="${py}" x2="${W - R}" y2="${py}" stroke="#eee"/>` +
      `<text x="${L - 6}" y="${py + 4}" text-anchor="end" font-size="12">${power(k)}</text>`;
  }
  svg += `<text x="${(L + W - R) / 2}" y="${H - 6}" text-anchor="middle" font-size="13">iterations</text>` +
    `<text x="14" y="${(T + H - B) / 2}" text-anchor="middle" font-size="13" transform="rotate(-90 14 ${(T + H - B) / 2})">exploitability</text>`;
  if (pts.length) {
    svg += `<polyline fill="none" stroke="#1d4e89" stroke-width="2" points="${pts.map((p) =>
      `${x(p.iteration).toFixed(1)},${y(p.exploitability).toFixed(1)}`).join(" ")}"/>`;
    svg += pts.map((p) => `<circle class="pt" cx="${x(p.iteration).toFixed(1)}" cy="${y(p.exploitability).toFixed(1)}" ` +
      `r="3.5" fill="#e63946" data-iteration="${p.iteration}" data-exploitability="${p.exploitability}">` +
      `<title>iteration ${p.iteration}: ${num(p.exploitability)}</title></circle>`).join("");
  }
  $("#plot").innerHTML = svg + "</svg>";
}

// ----- a matrix game ----------------------------------------------------------------
async function solveMatrix() {
  showError("");
  if (E.abort) E.abort.abort();
  $("#plotbox").style.display = "none";
  $("#strategybox").style.display = "none";
  $("#status").textContent = "";
  let d;
  try {
    d = await api("/api/equilibria/matrix", { a: $("#matrix-a").value, b: $("#matrix-b").value });
  } catch (e) { showError(e.message); $("#matrixbox").style.display = "none"; return; }
  const kind = d.zero_sum ? "zero-sum" : d.constant_sum !== null ? "constant-sum" : "general-sum";
  $("#matrixtitle").textContent = `A ${kind} ${d.rows}×${d.columns} game (${d.method === "lp" ?
    "linear programming" : "support enumeration"}): ${d.equilibria.length} equilibri${d.equilibria.length === 1 ? "um" : "a"}`;
  const strategy = (xs, who) => xs.map((p, k) => `<span class="prob" data-${who}="${k}" data-p="${p}">` +
    `${who === "row" ? "row" : "column"} ${k + 1} <b>${num(p)}</b></span>`).join(" ");
  let html = "";
  if (d.value !== null) {
    html += `<p>The value (the row player's payoff): <b id="value" data-value="${d.value}">${num(d.value)}</b></p>`;
  }
  html += `<table id="equilibria"><tr><th>#</th><th class="l">row player</th><th class="l">column player</th>` +
    `<th>payoffs</th></tr>` + d.equilibria.map((e, i) => `<tr class="eq"><td>${i + 1}</td>` +
      `<td class="l rowstrat">${strategy(e.row_strategy, "row")}</td><td class="l colstrat">${strategy(e.column_strategy, "col")}</td>` +
      `<td>${num(e.row_payoff)}, ${num(e.column_payoff)}</td></tr>`).join("") + "</table>";
  if (d.degenerate) html += `<p class="muted">The game is degenerate: support enumeration may miss equilibria.</p>`;
  $("#matrixresult").innerHTML = html;
  $("#matrixbox").style.display = "block";
  if (PHONE.matches) $("#matrixbox").scrollIntoView({ block: "start" });
}

init().catch((e) => showError(e.message));
