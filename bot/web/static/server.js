// A server's page: Server-Sent Events say the server's stamp after each commit of its
// matches; the changing part is fetched again when it differs from the one shown.
// EventSource reconnects by itself.
"use strict";
(function () {
  const server = document.getElementById("server");
  if (!server) return;

  function current() { const p = server.querySelector(".server-part"); return p ? p.dataset.stamp : ""; }

  let fetching = null;
  let wanted = null;
  async function refresh(stamp) {
    wanted = stamp;
    if (fetching) return; // the fetch under way is followed by one more if needed
    while (wanted !== null && wanted !== current()) {
      wanted = null;
      fetching = fetch(server.dataset.part, { headers: { Accept: "text/html" } });
      try {
        const answer = await fetching;
        if (!answer.ok) break;
        const parsed = new DOMParser().parseFromString(await answer.text(), "text/html");
        const part = parsed.querySelector(".server-part");
        if (part) server.replaceChildren(document.importNode(part, true));
      } catch (error) { break; /* the next event tries again */ }
      finally { fetching = null; }
    }
  }

  // A stream the server refused to reopen: the page is gone (its pages were turned off)
  // when the part is gone too, and the reload shows so; else try again in a while.
  async function reopen() {
    try {
      const answer = await fetch(server.dataset.part, { headers: { Accept: "text/html" } });
      if (answer.status === 404) { window.location.reload(); return; }
    } catch (error) { /* offline: try again below */ }
    setTimeout(listen, 5000);
  }

  function listen() {
    const source = new EventSource(server.dataset.events);
    source.addEventListener("version", function (event) { refresh(String(event.data)); });
    source.addEventListener("error", function () {
      if (source.readyState === EventSource.CLOSED) reopen();
    });
  }

  if (window.EventSource) listen();
})();
