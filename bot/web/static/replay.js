// The replay: the slider, the step buttons and the arrow keys choose the move; the position is
// fetched and the URL changed (history.replaceState), so the address shares this position.
"use strict";
(function () {
  const replay = document.getElementById("replay");
  if (!replay) return;
  const slider = document.getElementById("ply");
  const number = document.getElementById("ply-number");
  const part = document.getElementById("part");
  const total = Number(replay.dataset.total);
  let asked = 0;

  function links(ply) {
    const set = function (id, value) {
      const a = document.getElementById(id);
      const url = new URL(a.href);
      url.searchParams.set("ply", String(value));
      a.href = url.toString();
    };
    set("back", Math.max(0, ply - 1));
    set("forward", Math.min(total, ply + 1));
  }

  async function show(ply) {
    ply = Math.max(0, Math.min(total, ply));
    slider.value = String(ply);
    number.textContent = ply + " / " + total;
    const url = new URL(window.location.href);
    url.searchParams.set("ply", String(ply));
    history.replaceState(null, "", url.toString());
    links(ply);
    const mine = ++asked;
    const target = new URL(replay.dataset.part, window.location.href);
    target.searchParams.set("ply", String(ply));
    try {
      const answer = await fetch(target.toString(), { headers: { Accept: "text/html" } });
      if (!answer.ok || mine !== asked) return;
      const parsed = new DOMParser().parseFromString(await answer.text(), "text/html");
      const found = parsed.querySelector(".match");
      if (found && mine === asked) part.replaceChildren(document.importNode(found, true));
    } catch (error) { /* the link still works */ }
  }

  function at() { return Number(slider.value); }

  slider.addEventListener("input", function () { show(at()); });
  for (const [id, step] of [["first", -Infinity], ["back", -1], ["forward", 1], ["last", Infinity]]) {
    document.getElementById(id).addEventListener("click", function (event) {
      event.preventDefault();
      show(step === -Infinity ? 0 : step === Infinity ? total : at() + step);
    });
  }
  part.addEventListener("click", function (event) {
    const a = event.target.closest("a");
    if (!a) return;
    const ply = new URL(a.href).searchParams.get("ply");
    if (ply === null) return;
    event.preventDefault();
    show(Number(ply));
  });
  document.addEventListener("keydown", function (event) {
    if (event.target === slider || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "ArrowLeft") { event.preventDefault(); show(at() - 1); }
    else if (event.key === "ArrowRight") { event.preventDefault(); show(at() + 1); }
    else if (event.key === "Home") { event.preventDefault(); show(0); }
    else if (event.key === "End") { event.preventDefault(); show(total); }
  });
})();
