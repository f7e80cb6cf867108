// The turn's deadline counting down in a live part (templates/live.html): each part says the
// server's time when it was drawn (data-now on .match), so a viewer's wrong clock does not
// matter. `learn()` after a new part is shown; the count goes on every second by itself.
export class Deadlines {
  constructor(container) {
    this.container = container;
    this.offset = 0; // the server's clock minus ours, in ms
    setInterval(() => this.tick(), 1000);
  }

  learn() {
    const match = this.container.querySelector(".match");
    if (match && match.dataset.now) this.offset = Number(match.dataset.now) * 1000 - Date.now();
    this.tick();
  }

  tick() {
    const now = Date.now() + this.offset;
    for (const el of this.container.querySelectorAll("time.deadline")) {
      const left = Math.max(0, Math.round((Number(el.dataset.due) * 1000 - now) / 1000));
      const h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
      el.textContent = (h ? h + ":" + twoDigits(m) : String(m)) + ":" + twoDigits(s);
    }
  }
}

function twoDigits(n) { return String(n).padStart(2, "0"); }
