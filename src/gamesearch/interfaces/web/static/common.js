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

async function api(path, params) {
  const response = await fetch(apiUrl(path, params));
  let data;
  try { data = await response.json(); } catch (e) { data = { error: response.statusText }; }
  if (!response.ok) throw new Error(data.error || response.statusText);
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
  if (text) return text;  // the server's words for a search value (score_text: "mate in 2 (White to move)")
  if (v === null || v === undefined) return "?";
  if (Array.isArray(v)) return "(" + v.map((x) => fmtValue(x)).join(", ") + ")";
  if (typeof v === "number" && !Number.isInteger(v)) return v.toFixed(3).replace(/0+$/, "");
  return String(v);
}

async function fillGames(select, wanted) {
  const data = await api("/api/games");
  select.innerHTML = data.games.map((g) =>
    `<option value="${esc(g.name)}">${esc(g.name)} — ${esc(g.description)}</option>`).join("");
  if (wanted) select.value = wanted;
  return data;
}

// A game without a drawing (no render_svg hook): its text picture and a button a legal move.
function boardHtml(pos, svg) {
  if (svg) return svg;
  const buttons = (pos.legal || []).map((m) =>
    `<button class="secondary" data-move="${esc(m)}">${esc(m)}</button>`).join(" ");
  return `<pre>${esc(pos.text)}</pre><div class="movebuttons">${buttons}</div>`;
}
