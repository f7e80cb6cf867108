// The live page: Server-Sent Events say each new version of the match; the changing part is
// fetched again then. EventSource reconnects by itself, sending the last version it saw.
import { Deadlines } from "./deadlines.js";

(function () {
  const live = document.getElementById("live");
  if (!live) return;
  const deadlines = new Deadlines(live);

  function current() { const m = live.querySelector(".match"); return m ? Number(m.dataset.version) : -1; }

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
          deadlines.learn();
        }
      } catch (error) { /* the next event tries again */ }
    })();
    await fetching;
    fetching = null;
  }

  deadlines.learn();
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
