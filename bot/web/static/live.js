// The live page: Server-Sent Events say each new version of the match; the changing part is
// fetched again then. EventSource reconnects by itself, sending the last version it saw.
"use strict";
(function () {
  const live = document.getElementById("live");
  if (!live) return;
  let offset = 0; // the server's clock minus ours, in ms

  function current() { const m = live.querySelector(".match"); return m ? Number(m.dataset.version) : -1; }

  function twoDigits(n) { return String(n).padStart(2, "0"); }

  function tick() {
    const now = Date.now() + offset;
    for (const el of live.querySelectorAll("time.deadline")) {
      const left = Math.max(0, Math.round((Number(el.dataset.due) * 1000 - now) / 1000));
      const h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
      el.textContent = (h ? h + ":" + twoDigits(m) : String(m)) + ":" + twoDigits(s);
    }
  }

  function learnClock() {
    const m = live.querySelector(".match");
    if (m && m.dataset.now) offset = Number(m.dataset.now) * 1000 - Date.now();
  }

  let fetching = null;
  async function refresh(version) {
    if (version <= current()) return;
    if (fetching) { await fetching; if (version <= current()) return; }
    fetching = (async function () {
      try {
        const answer = await fetch(live.dataset.part, { headers: { Accept: "text/html" } });
        if (!answer.ok) return;
        const html = await answer.text();
        const parsed = new DOMParser().parseFromString(html, "text/html");
        const part = parsed.querySelector(".match");
        if (part && Number(part.dataset.version) > current()) {
          live.replaceChildren(document.importNode(part, true));
          learnClock();
          tick();
        }
      } catch (error) { /* the next event tries again */ }
    })();
    await fetching;
    fetching = null;
  }

  learnClock();
  tick();
  setInterval(tick, 1000);
  // A stream the server refused to reopen: the page is gone (its server turned its pages
  // off) when the part is gone too, and the reload shows so; else try again in a while.
  async function reopen() {
    try {
      const answer = await fetch(live.dataset.part, { headers: { Accept: "text/html" } });
      if (answer.status === 404) { window.location.reload(); return; }
    } catch (error) { /* offline: try again below */ }
    setTimeout(listen, 5000);
  }

  function listen() {
    const source = new EventSource(live.dataset.events);
    source.addEventListener("version", function (event) { refresh(Number(event.data)); });
    source.addEventListener("error", function () {
      if (source.readyState === EventSource.CLOSED) reopen();
    });
  }

  if (window.EventSource) listen();
})();
