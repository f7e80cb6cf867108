// The Discord Activity (templates/activity.html, bot/web/activity.py). Discord's SDK does the
// handshake with the Discord client around this frame; the page asks it to authorize the app,
// has the server exchange the code for an access token, authenticates the SDK with it, and
// gets a session for this user in this activity's channel. Then it shows the channel's match
// (the live page's part, refreshed at each version the event stream tells) and, for a seated
// player, their own hand and a way to move: Reversi's legal squares to click, or the move's
// notation as the slash command takes it. Once the match is over the page asks the server
// again every AFTER_MATCH ms, so the next match opened in the channel (a rematch, a new lobby)
// is shown without a reload (a channel has one open match at a time: none can start before).
import { DiscordSDK } from "./activity-sdk.js";
import { Deadlines } from "./deadlines.js";

const root = document.getElementById("activity");
const notice = document.getElementById("notice");
const live = document.getElementById("live");
const seatBox = document.getElementById("seat");
const hand = document.getElementById("hand");
const mine = document.getElementById("mine");
const squares = document.getElementById("squares");
const grid = document.getElementById("grid");
const form = document.getElementById("move");
const answerBox = document.getElementById("answer");
const deadlines = new Deadlines(live);
const lang = root.dataset.lang;
const COLUMNS = "abcdefgh";
const AFTER_MATCH = 5000;

let session = null;
let token = null;
let source = null;
let shownVersion = -1;
let refreshing = Promise.resolve();
let nextMatch = null;

class Refusal extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

async function call(path, body) {
  const headers = { Accept: "application/json" };
  if (session) headers.Authorization = "Bearer " + session;
  const options = { method: body === undefined ? "GET" : "POST", headers };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const answer = await fetch(path + "?lang=" + encodeURIComponent(lang), options);
  let read = {};
  try { read = await answer.json(); } catch (error) { /* no JSON: said below */ }
  if (!answer.ok) throw new Refusal(read.error || String(answer.status), answer.status);
  return read;
}

async function showPart() {
  const answer = await fetch("m/" + token + "/live?lang=" + encodeURIComponent(lang),
                             { headers: { Accept: "text/html" } });
  if (!answer.ok) return;
  const parsed = new DOMParser().parseFromString(await answer.text(), "text/html");
  const part = parsed.querySelector(".match");
  if (part && Number(part.dataset.version) > shownVersion) {
    live.replaceChildren(document.importNode(part, true));
    shownVersion = Number(part.dataset.version);
    deadlines.learn();
  }
}

function showGrid(seat) {
  const legal = new Set(seat.squares);
  grid.replaceChildren();
  for (let index = 0; index < 64; index++) {
    const name = COLUMNS[index % 8] + String(Math.floor(index / 8) + 1);
    const cell = seat.cells[index];
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.square = name;
    button.setAttribute("aria-label", name);
    if (cell === "B") button.classList.add("black");
    if (cell === "W") button.classList.add("white");
    button.disabled = !legal.has(name);
    button.addEventListener("click", () => play(name));
    grid.append(button);
  }
  squares.hidden = legal.size === 0;
}

function showSeat(seat) {
  seatBox.hidden = seat === null;
  if (seat === null) {
    notice.textContent = root.dataset.watching;
    return;
  }
  notice.textContent = "";
  hand.textContent = seat.hand || "";
  hand.hidden = !seat.hand;
  // The seat's own picture (a rack, a hand), as its DMs show it; a new address per version.
  if (seat.picture) {
    if (mine.getAttribute("src") !== seat.picture) mine.src = seat.picture;
    mine.alt = seat.alt;
  } else {
    mine.removeAttribute("src");
  }
  mine.hidden = !seat.picture;
  if (seat.game === "reversi") {
    form.hidden = true;
    if (seat.cells) showGrid(seat); else squares.hidden = true;
  } else {
    squares.hidden = true;
    form.hidden = false;
  }
}

function listen() {
  if (source) source.close();
  source = new EventSource("m/" + token + "/events");
  source.addEventListener("version", (event) => {
    if (Number(event.data) > shownVersion) refresh();
  });
}

function refresh() {
  refreshing = refreshing.then(async () => {
    try {
      const state = await call("match");
      if (state.token !== token) {
        token = state.token;
        shownVersion = -1;
        listen();
      }
      await showPart();
      showSeat(state.seat);
      awaitNextMatch(!state.open);
    } catch (error) {
      notice.textContent = error instanceof Refusal ? error.message : String(error);
      // No match yet, or a passing failure: ask again later (not when signed out).
      awaitNextMatch(!(error instanceof Refusal) || error.status === 404 || error.status >= 500);
    }
  });
  return refreshing;
}

function awaitNextMatch(over) {
  if (over && nextMatch === null) {
    nextMatch = setTimeout(() => { nextMatch = null; refresh(); }, AFTER_MATCH);
  } else if (!over && nextMatch !== null) {
    clearTimeout(nextMatch);
    nextMatch = null;
  }
}

async function play(text) {
  answerBox.textContent = "";
  for (const button of grid.querySelectorAll("button")) button.disabled = true;
  try {
    const done = await call("act", { move: text });
    answerBox.textContent = done.said;
    form.reset();
  } catch (error) {
    answerBox.textContent = error instanceof Refusal ? error.message : String(error);
  }
  await refresh();
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  const text = document.getElementById("move-text").value.trim();
  if (text) play(text);
});

async function start() {
  const clientId = root.dataset.clientId;
  const sdk = new DiscordSDK(clientId, { disableConsoleLogOverride: true });
  await sdk.ready();
  notice.textContent = root.dataset.signingIn;
  const { code } = await sdk.commands.authorize({
    client_id: clientId, response_type: "code", state: "", prompt: "none", scope: ["identify"],
  });
  const { access_token: accessToken } = await call("token", { code });
  await sdk.commands.authenticate({ access_token: accessToken });
  const signed = await call("session", { access_token: accessToken, instance_id: sdk.instanceId });
  session = signed.session;
  root.dataset.signedIn = "true";
  await refresh();
}

start().catch((error) => {
  notice.textContent = error instanceof Refusal ? error.message : String(error.message || error);
});
