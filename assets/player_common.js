/*
  The toolkit the three players share (knn_player.html, perceptron_player.html, tree_player.html):
  class markers on a canvas and in a legend, axis ticks, the theme's colours as CSS variables,
  and the one play loop with its keys. pages/widgets/players.py puts this file in front of each
  player's own module script, so a player is still one self-contained component: nothing is
  fetched at run time. Every colour comes from classic.viz.theme, through the player's data.
*/

// A class's marker (theme.PLAYER_MARKERS) as a canvas path centred on (x, y): the caller fills
// and strokes it. Each class has its own shape, so colour is never the only cue.
function markerPath(ctx, shape, x, y, r) {
  ctx.beginPath();
  if (shape === "square") ctx.rect(x - r * 0.85, y - r * 0.85, r * 1.7, r * 1.7);
  else if (shape === "triangle") { ctx.moveTo(x, y - r * 1.1); ctx.lineTo(x + r, y + r * 0.8); ctx.lineTo(x - r, y + r * 0.8); ctx.closePath(); }
  else if (shape === "triangle-down") { ctx.moveTo(x, y + r * 1.1); ctx.lineTo(x + r, y - r * 0.8); ctx.lineTo(x - r, y - r * 0.8); ctx.closePath(); }
  else if (shape === "diamond") { ctx.moveTo(x, y - r * 1.15); ctx.lineTo(x + r, y); ctx.lineTo(x, y + r * 1.15); ctx.lineTo(x - r, y); ctx.closePath(); }
  else ctx.arc(x, y, r, 0, 2 * Math.PI);
}

// The same marker, filled, as a legend's 24 × 14 SVG (optionally on a swatch of the class's shade).
const MARKER_SVG = {
  circle: '<circle cx="12" cy="7" r="5"/>', square: '<rect x="7.5" y="2.5" width="9" height="9"/>',
  triangle: '<path d="M12 1.5l6 10.5H6z"/>', "triangle-down": '<path d="M12 12.5l6-10.5H6z"/>',
  diamond: '<path d="M12 1l6 6-6 6-6-6z"/>',
};
function markerSvg(shape, fill, stroke, shade) {
  const back = shade ? `<rect x="1" y="1" width="22" height="12" fill="${shade}"/>` : "";
  return `<svg viewBox="0 0 24 14">${back}<g fill="${fill}" stroke="${stroke}">${MARKER_SVG[shape] || MARKER_SVG.circle}</g></svg>`;
}

// A legend below the figure (so it hides nothing): rows of [our own SVG, text set as text].
function fillLegend(legend, rows) {
  legend.replaceChildren();
  for (const [svg, text] of rows) {
    const item = document.createElement("span");
    item.innerHTML = svg;  // a fixed drawing coloured from the theme, never data from the page
    item.append(document.createTextNode(text));
    legend.append(item);
  }
}

// About five round tick values (steps of 1, 2, 2.5 or 5 times a power of ten) in [low, high].
function ticks(low, high) {
  const raw = (high - low) / 5, power = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw);
  const out = [];
  for (let t = Math.ceil(low / step) * step; t <= high + 1e-12; t += step) out.push(+t.toFixed(10));
  return out;
}
const tickText = (v) => (Math.abs(v) < 1e-12 ? "0" : String(+v.toPrecision(4)).replace("-", "−"));

// The theme's colours for the player's chrome, as CSS variables on its root (--name: colour).
function themeVariables(root, colours) {
  for (const [name, value] of Object.entries(colours)) root.style.setProperty("--" + name, value);
}

// The reader's system asks for reduced motion (prefers-reduced-motion): nothing may move unasked.
function reducedMotion() {
  return Boolean(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

// ---- the play loop: the same in every player -------------------------------------------------
// Playing follows the browser's clock at the speed control's value (frames a second): a slow
// frame is skipped, never queued, so the pace stays true whatever the machine. Play at the end
// starts again from the first frame; the end pauses. Nothing is sent while playing: `rest` runs
// when the player comes to rest (paused, or at the end), and reports the frame to the page.
// options: root, button, speed (an <input> or <select>), speedText (optional), first(), last(),
// get() the frame shown, show(frame) draws it, rest().
const PLAY_LOOK = '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M7 5v14l12-7z"/></svg>Play';
const PAUSE_LOOK = '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M6 5h4v14H6zM14 5h4v14h-4z"/></svg>Pause';
function playLoop(options) {
  const { root, button, speed, speedText } = options;
  const loop = { playing: false, startTime: 0, startFrame: 0 };
  // Asked for less motion, the player never starts by itself (loop.autoplay); Play still plays.
  if (reducedMotion()) {
    button.title += ". Plays only when you press Play";
    root.dataset.motion = "reduced";
  }
  const look = () => {
    button.innerHTML = loop.playing ? PAUSE_LOOK : PLAY_LOOK;
    root.dataset.playing = loop.playing ? "yes" : "no";
  };
  const restart = () => { loop.startTime = performance.now(); loop.startFrame = options.get(); };
  loop.stop = () => { loop.playing = false; look(); };  // quietly: a step or the scrubber follows
  loop.pause = () => { loop.stop(); options.rest(); };
  loop.play = () => {
    if (options.last() <= options.first()) return;
    if (options.get() >= options.last()) options.show(options.first());
    loop.playing = true;
    restart();
    look();
  };
  loop.toggle = () => (loop.playing ? loop.pause() : loop.play());
  loop.autoplay = () => { if (!reducedMotion()) loop.play(); };  // the page's choice, not the reader's
  loop.showSpeed = () => { if (speedText) speedText.textContent = speed.value + "/s"; };
  const tick = (now) => {
    if (!root.isConnected) return;
    if (loop.playing) {  // now may be a little earlier than the click that started playing
      const elapsed = Math.max(0, now - loop.startTime) / 1000;
      const frame = Math.min(options.last(), loop.startFrame + Math.floor(elapsed * Number(speed.value)));
      if (frame !== options.get()) options.show(frame);
      if (frame >= options.last()) loop.pause();
    }
    requestAnimationFrame(tick);
  };
  button.addEventListener("click", loop.toggle);
  speed.addEventListener("input", () => { loop.showSpeed(); if (loop.playing) restart(); });  // the pace, from here
  look();
  loop.showSpeed();
  requestAnimationFrame(tick);
  return loop;
}

// The frame players' transport (perceptron_player.html, tree_player.html), put at the front of
// the player's bar: Start, step back, play (its look is playLoop's), step forward, End.
const FRAME_BUTTONS = `
<button id="first" title="Start (Home)" aria-label="Start"><svg viewBox="0 0 24 24"><path d="M6 5h2v14H6zM20 5v14L9 12z"/></svg></button>
<button id="back" title="Step back (←)" aria-label="Step back"><svg viewBox="0 0 24 24"><path d="M16 5v14L5 12z"/><path d="M17 5h2v14h-2z"/></svg></button>
<button id="play" class="primary" title="Play or pause (space)"></button>
<button id="forward" title="Step forward (→)" aria-label="Step forward"><svg viewBox="0 0 24 24"><path d="M8 5v14l11-7z"/><path d="M5 5h2v14H5z"/></svg></button>
<button id="last" title="End (End)" aria-label="End"><svg viewBox="0 0 24 24"><path d="M4 5v14l11-7zM16 5h2v14h-2z"/></svg></button>`;
function frameButtons(bar) { bar.insertAdjacentHTML("afterbegin", FRAME_BUTTONS); }

// The player's keys once it (or a control in it) has the focus: space plays or pauses, ← → step,
// Home / End jump (actions maps each key to what it does). A slider or a menu keeps its own keys
// (a slider leaves space to the player).
function playerKeys(root, actions) {
  root.tabIndex = 0;
  root.addEventListener("keydown", (event) => {
    const tag = event.target.tagName;
    if (tag === "SELECT" || (tag === "INPUT" && event.key !== " ")) return;
    if (actions[event.key]) { event.preventDefault(); actions[event.key](); }
  });
}

// ---- the frame a player rests on, kept in the page's link (pages/widgets/players.frame_player) ----
// The player reports {at, n} when it comes to rest, never while playing; the page keeps the frame
// in the link and sends it back as data.start, with data.heard, the last report it heard. A start
// that changed while heard stayed the same is the page's own move (a Try-this setup, new
// settings); anything else is the echo of a report, which never moves the player back.
function frameLink(owner) {  // owner.send: the component's setTriggerValue
  const link = { reported: 0, n: 0 };
  link.report = (frame, data) => {
    if (data.report === false || frame === link.reported || !owner.send) return;
    link.reported = frame;
    link.n += 1;
    owner.send("frame", { at: frame, n: link.n });
  };
  // The page's data (after old): its start, clamped to 0 … last, and whether the page moved it.
  link.read = (data, old, last, oldLast) => {
    const clamp = (value, top) => Math.max(0, Math.min(top, Number(value) || 0));
    const start = clamp(data.start, last), heard = Number(data.heard) || 0;
    const moved = Boolean(old) && heard >= link.n && heard === (Number(old.heard) || 0) && start !== clamp(old.start, oldLast);
    if (heard >= link.n) link.reported = start;  // the page is up to date with every report
    link.n = Math.max(link.n, heard);
    return { start, moved };
  };
  return link;
}

// Presentation mode: the player takes the keyboard at once (space, ← →), unless the reader is
// already somewhere else (a sidebar control keeps its focus).
function takeKeys(root, present) {
  const active = document.activeElement;
  if (present && (!active || active === document.body)) root.focus({ preventScroll: true });
}

// The component's entry for a player that keeps its own state: one player per mounted element,
// made once by setUp(root) and kept across the page's reruns; each run hands it the page's data
// (player.load) and the component's setTriggerValue (player.send).
const PLAYERS = new WeakMap();
function mountPlayer(component, selector, setUp) {
  const { data, parentElement, setTriggerValue } = component;
  const root = parentElement.querySelector(selector);
  if (!data || !root) return;
  let player = PLAYERS.get(parentElement);
  if (!player) { player = setUp(root); PLAYERS.set(parentElement, player); }
  player.send = setTriggerValue;
  player.load(data);
}
