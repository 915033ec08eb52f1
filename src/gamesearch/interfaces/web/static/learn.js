// Learn: replay a traced search event by event (forward, back, play).
"use strict";
const L = { data: null, step: 0, timer: null };

async function init() {
  const data = await api("/api/trees");
  $("#tree").innerHTML = data.trees.map((t) =>
    `<option value="${esc(t.name)}">${esc(t.name)} — ${esc(t.description)}</option>`).join("") +
    `<option value="random">random tree…</option>`;
  $("#algorithm").innerHTML = `<option value="">(the tree's usual one)</option>` +
    data.algorithms.map((a) => `<option value="${a}">${a}</option>`).join("");
  const params = new URLSearchParams(location.search);
  if (params.get("tree")) $("#tree").value = params.get("tree");
  if (params.get("algorithm")) $("#algorithm").value = params.get("algorithm");
  $("#tree").addEventListener("change", () => { $("#algorithm").value = ""; load(); });
  $("#algorithm").addEventListener("change", load);
  $("#ordering").addEventListener("change", load);
  $("#load").addEventListener("click", load);
  $("#newrandom").addEventListener("click", () => {
    $("#tree").value = "random"; $("#seed").value = String(Math.floor(Math.random() * 100000)); load();
  });
  $("#first").addEventListener("click", () => go(0));
  $("#back").addEventListener("click", () => go(L.step - 1));
  $("#forward").addEventListener("click", () => go(L.step + 1));
  $("#last").addEventListener("click", () => go(L.data ? L.data.steps.length : 0));
  $("#play").addEventListener("click", togglePlay);
  load();
}

async function load() {
  stop();
  showError("");
  const tree = $("#tree").value;
  $("#randomopts").style.display = tree === "random" ? "block" : "none";
  const q = { tree, algorithm: $("#algorithm").value, ordering: $("#ordering").value };
  if (tree === "random") Object.assign(q, { branching: $("#branching").value, depth: $("#depth").value,
    seed: $("#seed").value, chance: $("#chance").value });
  try {
    L.data = await api("/api/learn", q);
  } catch (e) { showError(e.message); return; }
  $("#board").innerHTML = L.data.svg;
  $("#steps").textContent = L.data.steps.length;
  $("#summary").textContent = `${L.data.description} — ${L.data.algorithm}: ${L.data.nodes} nodes ` +
    `searched; ${L.data.pruned.length} of ${L.data.leaves} leaves pruned`;
  go(0);
}

function stop() { clearInterval(L.timer); L.timer = null; $("#play").textContent = "▶ play"; }

function togglePlay() {
  if (L.timer) { stop(); return; }
  if (!L.data) return;
  if (L.step >= L.data.steps.length) go(0);
  $("#play").textContent = "⏸ pause";
  L.timer = setInterval(() => {
    if (L.step >= L.data.steps.length) { stop(); return; }
    go(L.step + 1);
  }, 1500 / Number($("#speed").value));
}

function go(k) {
  if (!L.data) return;
  const steps = L.data.steps;
  k = Math.max(0, Math.min(steps.length, k));
  L.step = k;
  const ab = L.data.algorithm === "alphabeta";
  const node = {}, edge = {};
  let current = null;
  const set = (name, key, value) => { (node[name] = node[name] || {})[key] = value; };
  for (let i = 0; i < k; i++) {
    const e = steps[i];
    if (e.type === "visit") {
      set(e.node, "cls", "visiting"); edge[e.node] = "walked"; current = e.node;
      if (ab) set(e.node, "ab", `α=${e.alpha} β=${e.beta}`);
    } else if (e.type === "leaf") {
      set(e.node, "cls", "seen"); edge[e.node] = "walked"; current = e.node;
    } else if (e.type === "backup") {
      set(e.node, "val", e.value); current = e.node;
      if (ab) set(e.node, "ab", `α=${e.alpha} β=${e.beta}`);
    } else if (e.type === "done") {
      set(e.node, "cls", "done"); set(e.node, "val", e.value); current = e.node;
    } else if (e.type === "prune") {
      for (const n of e.nodes) { set(n, "cls", "pruned"); edge[n] = "pruned"; }
      current = e.node;
    }
  }
  for (const g of $$("#board [data-node]")) {
    const st = node[g.dataset.node] || {};
    g.classList.remove("visiting", "done", "seen", "pruned", "current");
    if (st.cls) g.classList.add(st.cls);
    if (g.dataset.node === current) g.classList.add("current");
    const val = $(".val", g), abt = $(".ab", g);
    if (val) val.textContent = st.cls === "pruned" ? "" : (st.val || "");
    if (abt) abt.textContent = st.ab || "";
  }
  for (const g of $$("#board [data-edge]")) {
    g.classList.remove("walked", "pruned");
    if (edge[g.dataset.edge]) g.classList.add(edge[g.dataset.edge]);
  }
  $("#stepno").textContent = k;
  $("#explain").textContent = k ? steps[k - 1].text : "press ▶ or ▶| to start the search";
  $("#final").textContent = k === steps.length
    ? `value ${L.data.value}, best move ${L.data.move}; pruned: ${L.data.pruned.length ? L.data.pruned.join(", ") : "none"}`
    : "";
}

init().catch((e) => showError(e.message));
