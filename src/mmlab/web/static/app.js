// mmlab's page: plays both roles through the JSON API under /api, nothing else.
"use strict";

const $ = (id) => document.getElementById(id);
// Colours 1..16 as in the terminal (red, green, yellow, blue, magenta, cyan, white, ...); more by hue.
const PALETTE = ["#d62828", "#2f9e44", "#f5c518", "#1c64d1", "#b4369f", "#22b8cf", "#f1f3f5", "#ff6b6b",
                 "#8ce99a", "#74a7ff", "#e599f7", "#99e9f2", "#e8590c", "#7048e8", "#adb5bd", "#fab005"];
// Colours that need white digits, 4.5 times as light as the peg at least (WCAG AA); the others take
// near-black ones (white digits on green 2 and orange 13 had 3.5 to 1).
const DARK_INK = new Set([1, 4, 5, 14]);

let state = null;     // the game on screen, as the API last described it
let splitTimer = null;
let splitSeq = 0;     // drops answers to partition requests that a newer one replaced
let busyGame = null;  // the id of the game that a move or hint is on its way for
let busyTimer = null;
// The controls whose clicks would be ignored while a move or hint is on its way: disabled meanwhile.
const WAITING = "#guess-form button, #breaker-actions button, #answer-form button, #maker .actions button, " +
                "#board-body button";
let serverInfo = null;  // the server's limits (GET /api/info), once known

function onScreen(id) { return state !== null && state.id === id; }

// Ask the server something about the game on screen that holds it for a while (a move, a hint,
// the codes left), once at a time, saying `what` it does if it takes a moment: resolves to the
// answer, or to null when the request is ignored because one is already on its way, or when the
// answer (or error) comes for a game that is no longer on screen (the player started another).
async function working(what, request) {
  const id = state.id;
  if (busyGame === id) return null;
  setBusy(id, what);
  try {
    const answer = await request(id);
    return onScreen(id) ? answer : null;
  } catch (error) {
    if (onScreen(id)) throw error;
    return null;
  } finally {
    if (busyGame === id) setBusy(null);
  }
}

// Make a move (guess, answer, correction, undo, give up), telling the server how many moves this
// page has seen, so that a double click or a second tab cannot move twice.
async function move(path, body, what) {
  const seen = state.moves.length;
  return working(what, (id) => api("POST", `/games/${id}/${path}`, { ...body, seen_moves: seen }));
}

// Show that the page waits for the server about game `id` (null: it waits no more): the controls
// that would be ignored meanwhile are disabled at once, and `what` it waits for is said after a
// moment (most answers come sooner). It is said in a status that is there all along, empty meanwhile:
// a hidden one, shown as its text came, was not always read by a screen reader.
function setBusy(id, what = "") {
  busyGame = id;
  clearTimeout(busyTimer);
  if (id !== null) {
    busyTimer = setTimeout(() => { $("busy").textContent = what; }, 300);
  } else {
    $("busy").textContent = "";
  }
  showBusy();
}

// Disable the controls of the game on screen while the page waits for the server about it; the one
// with the focus (the button pressed) is only marked unavailable (aria-disabled), its presses ignored
// (working), since a disabled button drops the focus to the page's top.
function showBusy() {
  const busy = state !== null && busyGame === state.id;
  const focused = document.activeElement;
  $("game").setAttribute("aria-busy", String(busy));
  document.querySelectorAll(WAITING).forEach((control) => {
    control.disabled = busy && control !== focused;
    if (busy && control === focused) control.setAttribute("aria-disabled", "true");
    else control.removeAttribute("aria-disabled");
  });
}

class ApiError extends Error {
  constructor(message, kind, status) { super(message); this.kind = kind; this.status = status; }
}

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch("/api" + path, options);
  } catch (e) {
    throw new ApiError("cannot reach the mmlab server: is 'mmlab serve' still running?", "Network", 0);
  }
  const data = response.status === 204 ? null : await response.json().catch(() => null);
  if (!response.ok) {
    throw new ApiError((data && data.detail) || `${response.status} ${response.statusText}`,
                       data && data.error, response.status);
  }
  return data;
}

// ------------------------------------------------------------------ drawing codes
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== null && value !== undefined && value !== false) node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

function digitsOf(code) {
  const text = String(code).trim();
  return text.includes(" ") ? text.split(/\s+/) : [...text];
}

function colourOf(digit) {
  const i = Number(digit);
  if (i >= 1 && i <= PALETTE.length) return PALETTE[i - 1];
  return `hsl(${Math.round(((i - 1) * 137.508) % 360)} 70% 72%)`;
}

function peg(digit) {
  const p = el("span", { class: "peg" }, digit);
  p.style.background = colourOf(digit);
  p.style.color = DARK_INK.has(Number(digit)) ? "#fff" : "#111";
  return p;
}

function codeEl(code) {
  return el("span", { class: "code", "data-code": code, title: `code ${code}` }, digitsOf(code).map(peg));
}

function answerEl(black, white) {
  const keys = el("span", { class: "keys", "aria-hidden": "true" });
  keys.style.minWidth = `${0.72 * state.pegs}em`;
  for (let i = 0; i < black; i++) keys.append(el("span", { class: "key black" }));
  for (let i = 0; i < white; i++) keys.append(el("span", { class: "key white" }));
  return el("span", { class: "answer" }, keys, el("span", {}, answerText(black, white)));
}

// Whether the game on screen answers black pegs only (as 'mmlab play --black-only').
function blackOnly() { return state.feedback === "black"; }

// "1 black, 2 white", or "1 black" in a game that answers black pegs only.
function answerText(black, white) {
  return blackOnly() ? `${black} black` : `${black} black, ${white} white`;
}

// Whether the game on screen is of MathMind (Reddi's variant), whose answers are no pegs.
function isMathMind() { return ["higher-lower", "euclidean", "manhattan"].includes(state.feedback); }

// The MathMind menu's name of the game's answers ("Euclidean distance").
function mathmindName() { return document.querySelector(`#mathmind option[value="${state.feedback}"]`).textContent; }

// What a MathMind game's answers tell, said as it starts.
const MATHMIND_RULES = {
  "higher-lower": "The colours are values: each answer gives the black pegs (right value, right place), then " +
                  "how many of the other pegs must go higher; the rest must go lower.",
  euclidean: "The colours are values: each answer is the squared distance between your guess and the secret, " +
             "the sum of the squares of the pegs' differences.",
  manhattan: "The colours are values: each answer is the distance between your guess and the secret, the sum " +
             "of the pegs' differences (each counted as positive).",
};

// A move's or an answer class's answer: pegs with their words, or (MathMind) the words alone, with
// "distance²" read out as "squared distance".
function replyEl(answer) {
  if (!isMathMind()) return answerEl(answer.black, answer.white);
  if (!answer.reply.startsWith("distance² ")) return el("span", { class: "answer" }, answer.reply);
  return el("span", { class: "answer" }, el("span", { "aria-hidden": "true" }, answer.reply),
            el("span", { class: "visually-hidden" }, replyText(answer)));
}
function replyText(answer) {
  return isMathMind() ? answer.reply.replace("distance² ", "squared distance ") : answerText(answer.black, answer.white);
}

// "fit" the answers, or "fits" when one code does.
function fits() { return state.remaining === 1 ? "fits" : "fit"; }

function plural(n, word) {
  return `${n.toLocaleString()} ${n === 1 ? word : word.endsWith("s") ? word + "es" : word + "s"}`;
}

// ------------------------------------------------------------------ messages
function say(text) { $("message").textContent = text; }

// What the page says of an error: the server's words, except of a game it no longer holds, whose
// words are for the API's clients ("start a new game (POST /api/games)").
function messageOf(error) {
  if (error.kind !== "GameNotFound") return error.message;
  const minutes = state ? state.idle_minutes : serverInfo && serverInfo.idle_minutes;
  return "This game is no longer on the server: it was left, it expired after " +
    (minutes ? `${plural(minutes, "minute")} unused` : "a while unused") +
    ", or the server was restarted. Start a new game.";
}

function fail(error, fixing = false) {
  if (error.kind === "StaleRequest") {
    catchUp();
    return;
  }
  let text = messageOf(error);
  if (error.kind === "InconsistentFeedback") {
    const next = !fixing ? ". Answer this guess again, or correct an earlier answer with its Correct button."
      : state.won ? ". The answers stay as they were: correct another with its Correct button, or Undo."
      : ". The answers stay as they were: answer this guess, or correct another with its Correct button.";
    text = text[0].toUpperCase() + text.slice(1) + next;
  }
  $("error").textContent = text;
}
function clearError() { $("error").textContent = ""; }

// Say `text` in the status `id` ("" says nothing): #hint-said, #candidates-said, each absent from a
// page cached from before them.
function sayIn(id, text) {
  const said = $(id);
  if (said) said.textContent = text;
}

// Say that the codes that fit are listed (in a status of its own, as a hint is said), or "" nothing.
function sayCandidates(text) { sayIn("candidates-said", text); }

function clearCandidates() {
  $("candidates").replaceChildren();
  sayCandidates("");
}

// A move refused because the game moved on meanwhile (in another tab, whose moves this page has not
// seen): the page shows the game as the server holds it now, and says so; the server's words tell an
// API client to fetch the game again, which is what this does.
async function catchUp() {
  const id = state.id;
  try {
    const game = await working("Fetching the game as it stands…", () => api("GET", `/games/${id}`));
    if (!game) return;
    state = game;
    clearCandidates();
    resetHint();
    render();
    $("error").textContent = "This game moved on in another tab or window, so that move was not made: the " +
      `board now shows its ${plural(state.moves.length, "move")}. Play on from here.`;
  } catch (error) { fail(error); }
}

// ------------------------------------------------------------------ starting and loading
async function startGame(event) {
  event.preventDefault();
  $("setup-error").textContent = "";
  const role = new FormData($("new-game")).get("role");
  // (?.: a page cached from before has no such box)
  const feedback = $("mathmind")?.value || ($("black-only")?.checked ? "black" : "black-white");
  const body = { size: $("size").value.trim() || "4x6", role, repeats: $("repeats").checked, feedback };
  const strategy = $("strategy").value.trim();
  if (strategy) body.strategy = strategy;
  const secret = $("secret").value.trim();
  if (secret && role === "codebreaker") body.secret = secret;
  const old = state;
  let left = false;
  $("start-btn").disabled = true;  // (a double click starts one game)
  try {
    let game;
    try {
      game = await api("POST", "/games", body);
    } catch (error) {
      if (error.kind !== "TooManyGames" || !old) throw error;
      // The server holds as many games as it may: this page's game, which it leaves anyway, makes
      // room (it is left only now, so that a new game refused for another reason, such as a typo in
      // the size, leaves the player their game).
      await leave(old);
      left = true;
      game = await api("POST", "/games", body);
    }
    if (old && !left) leave(old);
    state = game;
    setBusy(null);  // (an answer still on its way for the old game is ignored)
    splitSeq++;
    history.replaceState(null, "", `#game=${game.id}`);
    $("secret").value = "";
    showGame(true);
  } catch (error) {
    if (left && onScreen(old.id)) closeGame();
    $("setup-error").textContent = error.kind === "TooManyGames" ? serverFull() : error.message;
  } finally {
    $("start-btn").disabled = false;
    // (disabled, the pressed button lost the focus: a game refused leaves it there, not at the page's top)
    if (document.activeElement === null || document.activeElement === document.body) $("start-btn").focus();
  }
}

// Leave a game on the server, freeing its place; it may already be gone (left, or expired).
async function leave(game) {
  await api("DELETE", `/games/${game.id}`).catch(() => {});
}

// Take a game that was left off the screen.
function closeGame() {
  state = null;
  setBusy(null);
  splitSeq++;
  history.replaceState(null, "", location.pathname);
  $("game").hidden = true;
}

function serverFull() {
  const idle = serverInfo ? ` (after ${plural(serverInfo.idle_minutes, "minute")} unused)` : "";
  return "This server is already playing as many games as it may, those of other players. Try again in a " +
    `while: a game is dropped once it is idle${idle}.`;
}

// The game named in the address, after a reload; one busy with a request made before the reload (a
// hint, mmlab's move) is asked for again each second until it answers, and not dropped.
async function resume() {
  const match = location.hash.match(/game=([\w-]+)/);
  if (!match) return;
  while (state === null) {  // (until a game is on screen: this one, or one started meanwhile)
    try {
      const game = await api("GET", `/games/${match[1]}`);
      if (state !== null) return;
      state = game;
      $("setup-error").textContent = "";
      showGame(false);
    } catch (error) {
      if (state !== null) return;
      if (error.kind === "GameBusy") {
        $("setup-error").textContent = "This game is still busy with a request made before the reload (a hint, " +
          "or mmlab's move); it will show once that is done.";
        await new Promise((resolve) => setTimeout(resolve, 1000));
        continue;
      }
      $("setup-error").textContent = messageOf(error);
      history.replaceState(null, "", location.pathname);
      return;
    }
  }
}

function showGame(fresh) {
  $("game").hidden = false;
  say(fresh ? (state.role === "codebreaker"
    ? `I have chosen a secret of ${plural(state.pegs, "peg")} from the colours 1-${state.colours}` +
      (state.repeats ? ", repeats allowed." : ", no colour twice.") +
      (isMathMind() ? ` ${MATHMIND_RULES[state.feedback]}` : "") +
      (blackOnly() ? " Each answer counts only the pegs of the right colour in the right place (black); pegs " +
                     "of a right colour in a wrong place are not counted." : "")
    : `Choose a secret of ${plural(state.pegs, "peg")} from the colours 1-${state.colours}` +
      `${state.repeats ? "" : ", no colour twice,"} and keep it to yourself.` +
      (blackOnly() ? " Answer each guess with its black pegs only (right colour, right place)."
                   : " Answer each guess with its black and white pegs."))
      : isMathMind() ? MATHMIND_RULES[state.feedback] : "");  // (a reload: what the answers tell, again)
  clearError();
  clearCandidates();
  resetHint();
  render();
  (state.role === "codebreaker" ? $("guess") : $("black")).focus();
}

// ------------------------------------------------------------------ drawing the game
function render() {
  const breaker = state.role === "codebreaker";
  const rules = [state.repeats ? null : "no repeats", blackOnly() ? "black pegs only" : null,
                 isMathMind() ? `MathMind: ${mathmindName()}` : null].filter(Boolean);
  $("game-title").textContent = `${breaker ? "You guess" : "You keep the secret"} · ${state.size}` +
    `${rules.length ? ` (${rules.join(", ")})` : ""} · ${state.strategy}`;
  $("remaining-count").textContent = state.remaining.toLocaleString();
  $("remaining-text").textContent = state.remaining === 1 ? "code fits the answers so far"
                                                          : "codes fit the answers so far";
  $("game").classList.toggle("long-codes", state.pegs >= 7);
  $("breaker").hidden = !breaker;
  $("maker").hidden = breaker;
  $("hint").hidden = !breaker;
  $("path").hidden = breaker;
  document.querySelectorAll(".maker-only").forEach((n) => { n.hidden = breaker; });
  renderLegend();
  renderBoard();
  if (breaker) renderBreaker(); else renderMaker();
  showBusy();
}

function renderLegend() {
  const items = [];
  for (let c = 1; c <= state.colours; c++) items.push(peg(String(c)));
  $("legend").replaceChildren(el("span", { class: "muted" }, "Colours "), ...items);
}

function renderBoard() {
  const rows = state.moves.map((m) => {
    const row = el("tr", {}, el("td", {}, m.move), el("td", {}, codeEl(m.guess)),
                   el("td", { class: "answer-cell" }, replyEl(m)),
                   el("td", {}, m.remaining.toLocaleString()));
    if (state.role === "codemaker") {
      const fix = el("button", { type: "button", class: "small", "aria-label": `Correct the answer to guess ${m.move}`,
                                 "data-move": m.move,
                                 onclick: () => editAnswer(row, m) }, "Correct");
      row.append(el("td", {}, fix));
    }
    return row;
  });
  if (state.role === "codemaker" && !state.won) {
    rows.push(el("tr", { class: "pending-row" }, el("td", {}, state.moves.length + 1),
                 el("td", {}, codeEl(state.next_guess)), el("td", { colspan: 3, class: "muted" }, "awaiting your answer")));
  }
  if (!rows.length) rows.push(el("tr", {}, el("td", { colspan: 5, class: "muted" }, "No guesses yet.")));
  $("board-body").replaceChildren(...rows);
}

function editAnswer(row, fixed) {
  const number = (value, name) => pegsBox({ value, "aria-label": `${name} for guess ${fixed.move}` });
  const black = number(fixed.black, "Black");
  const white = blackOnly() ? null : number(fixed.white, "White");
  const form = el("form", { class: "fix", novalidate: true, onsubmit: async (event) => {
    event.preventDefault();
    try {
      const answered = state.moves.length;
      const pegs = pegsOf(black, white);
      const next = await move("correct", { move: fixed.move, ...pegs }, "mmlab is checking the corrected answers…");
      if (!next) return;
      state = next;
      clearError();
      render();  // (before saying what the correction did: drawing a won game says "Aha!")
      if (state.won && state.moves.length < answered) {
        say(`Corrected the answer to guess ${fixed.move}: it is your secret, found in ` +
            `${plural(fixed.move, "guess")}, so the game ends there, and the answers to the later guesses, which ` +
            "fit it, are dropped.");
      } else if (!state.won) {
        say(`Corrected the answer to guess ${fixed.move}; ${plural(state.remaining, "code")} ${fits()} the answers.` +
            (state.improvised ? ` ${IMPROVISED}` : ""));
      }
      $(state.won ? "maker-undo-btn" : "black").focus();  // (the form is gone: the focus with it)
    } catch (error) {
      say("");  // (what it said of an earlier correction is no answer to this one)
      fail(error, true);
    }
  }, onkeydown: (event) => {
    if (event.key === "Escape" && !event.isComposing && busyGame !== state.id) {
      event.preventDefault();
      cancel();
    }
  } }, black, white, el("button", { type: "submit", class: "small" }, "Save"),
     el("button", { type: "button", class: "small", onclick: cancel }, "Cancel"));
  // Cancel (or Escape) puts the row back, and the focus on its Correct button, where it was.
  function cancel() {
    render();
    const again = $("board-body").querySelector(`button[data-move="${fixed.move}"]`);
    if (again) again.focus();
  }
  row.cells[2].replaceChildren(form);
  row.cells[4].replaceChildren();
  black.focus();
  black.select();  // (as Tab selects the white box's: a number typed replaces the answer, "1" is not "10")
}

// ------------------------------------------------------------------ codebreaker
// Say what a hint suggests, as the page says a move's answer (#message): the hint's table comes beside
// the board, and the focus stays on Hint. ("" says nothing.)
function sayHint(text) { sayIn("hint-said", text); }

function resetHint() {
  sayHint("");
  $("hint-body").replaceChildren(el("p", { class: "muted" }, "Ask for a hint to see the strategy's next guess."));
}

function renderBreaker() {
  const over = state.over;
  const letters = state.colours <= 26 ? ` or letters (${exampleCode(true)})` : "";
  $("guess-help").textContent = `Type ${state.colours > 9 ? "colours separated by spaces" : "digits"} ` +
    `(${exampleCode()})${letters}, or click the colours below; Enter plays it.`;
  for (const id of ["guess-form", "guess-help", "guess-preview", "palette", "breaker-actions"]) $(id).hidden = over;
  const palette = [];
  for (let c = 1; c <= state.colours; c++) {
    palette.push(el("button", { type: "button", class: "peg-button", "aria-label": `Add colour ${c}`, disabled: over,
                                onclick: () => addColour(c) }, peg(String(c))));
  }
  palette.push(el("button", { type: "button", class: "small", "aria-label": "Erase the last colour", disabled: over,
                              onclick: eraseColour }, "⌫ Erase"));
  $("palette").replaceChildren(...palette);
  // (MathMind: and how many guesses the hints' rule needs for it)
  const rule = state.rule_guesses ? ` ${state.strategy} finds it in ${plural(state.rule_guesses, "guess")}.` : "";
  if (state.won) {
    say(`You found it in ${plural(state.moves.length, "guess")}! The secret was ${state.secret}.${rule}`);
  } else if (state.gave_up) {
    say(`The secret was ${state.secret}.${rule}`);
  }
  if (over) {  // (nor a hint or a code left to use: given up, the game takes no guess)
    sayHint("");
    for (const id of ["split-body", "hint-body"]) {
      $(id).replaceChildren(el("p", { class: "muted" }, "The game is over: start a new one."));
    }
    clearCandidates();
  }
  updatePreview();
}

// A code of the game on screen, to show how to type one: 1234 (1 2 3 4 past 9 colours), or ABCD;
// it repeats no colour unless the game has fewer colours than pegs (and then allows repeats).
function exampleCode(letters = false) {
  const colours = Array.from({ length: state.pegs }, (_, i) => (i % state.colours) + 1);
  if (letters) return colours.map((c) => String.fromCharCode(64 + c)).join("");
  return colours.join(state.colours > 9 ? " " : "");
}

function addColour(c) {
  const input = $("guess");
  const sep = state.colours > 9 && input.value.trim() ? " " : "";
  input.value = input.value.trimEnd() + sep + c;
  input.focus();
  updatePreview();
}

function eraseColour() {
  const input = $("guess");
  const parts = digitsOf(input.value);
  parts.pop();
  input.value = state.colours > 9 ? parts.join(" ") : parts.join("");
  input.focus();
  updatePreview();
}

// The digit 0 of each script's decimal digits (each followed by 1-9), as the server reads them
// (errors.as_typed: Python's str.isdecimal and unicodedata.decimal, Unicode 14.0 in Python
// 3.11, the oldest mmlab runs on; a later Python reads the digits of scripts encoded since too, which
// the page shows as typed). Not the browser's \p{Nd}, which knows those (Chromium 156 has 770 digits
// to Python 3.11's 660) and so would show as pegs digits that such a server refuses; nor
// normalize("NFKC"), which leaves '١' as it is, and makes '²' and '①', no colours to the server, 2 and 1.
// Made by: [c for c in range(0x110000) if chr(c).isdecimal() and unicodedata.decimal(chr(c)) == 0]
const DIGIT_ZEROS = [
  0x30, 0x660, 0x6F0, 0x7C0, 0x966, 0x9E6, 0xA66, 0xAE6, 0xB66, 0xBE6, 0xC66, 0xCE6, 0xD66, 0xDE6, 0xE50,
  0xED0, 0xF20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80, 0x1A90, 0x1B50, 0x1BB0, 0x1C40,
  0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0, 0xFF10, 0x104A0, 0x10D30, 0x11066, 0x110F0,
  0x11136, 0x111D0, 0x112F0, 0x11450, 0x114D0, 0x11650, 0x116C0, 0x11730, 0x118E0, 0x11950, 0x11C50, 0x11D50,
  0x11DA0, 0x16A60, 0x16AC0, 0x16B50, 0x1D7CE, 0x1D7D8, 0x1D7E2, 0x1D7EC, 0x1D7F6, 0x1E140, 0x1E2F0, 0x1E950,
  0x1FBF0];

// What the server reads in a typed code: the digits of any script as ASCII digits (Arabic-Indic
// "١١٢٢" is 1122), and full-width forms (what an input method types in full-width mode: "１１２２",
// "ＡＢ，Ｃ", the ideographic space) as the ASCII they stand for.
function asTyped(text) {
  return text.replace(/[^\0-\x7F]/gu, (c) => {
    const code = c.codePointAt(0);
    if (code >= 0xFF01 && code <= 0xFF5E) return String.fromCodePoint(code - 0xFEE0);
    if (code === 0x3000) return " ";
    const zero = DIGIT_ZEROS.findLast((z) => z <= code);
    return code - zero < 10 ? String(code - zero) : c;
  });
}

// Spaces as the server reads them (Python's str.isspace, its \s and strip): JavaScript's \s and trim
// take U+FEFF too (a byte order mark, which a paste can bring), and not U+001C-001F or U+0085.
const SPACE = "\\t-\\r\\x1C-\\x20\\x85\\xA0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000";
const SPACES_AROUND = new RegExp(`^[${SPACE}]+|[${SPACE}]+$`, "g");
const SEPARATORS = new RegExp(`[${SPACE},;]+`);

// The colours of a typed guess, as the server splits them (game.rules.split_code).
function guessTokens(text) {
  const raw = asTyped(text).replace(SPACES_AROUND, "");
  if (!raw) return [];
  return SEPARATORS.test(raw) ? raw.split(SEPARATORS).filter(Boolean) : [...raw];
}

function updatePreview() {
  if (!state || state.role !== "codebreaker") return;
  const tokens = guessTokens($("guess").value).map((t) => /^[a-z]$/i.test(t) ? String(t.toUpperCase().charCodeAt(0) - 64) : t);
  $("guess-preview").replaceChildren(...tokens.map(peg));
  clearTimeout(splitTimer);
  splitSeq++;  // (the split of what the field held before, if still on its way, is dropped)
  if (state.over) return;
  if (tokens.length === state.pegs) {
    splitTimer = setTimeout(() => showSplit($("guess").value.trim(), "your guess"), 200);
  } else {
    $("split-body").replaceChildren(el("p", { class: "muted" },
      `Type a guess of ${plural(state.pegs, "colour")} to see how its answers would divide the codes that are ` +
      "still possible."));
  }
}

async function playGuess(event) {
  event.preventDefault();
  const typed = $("guess").value;
  const code = typed.trim();
  if (!code) {
    $("error").textContent = `Type a guess of ${plural(state.pegs, "colour")} first, e.g. ${exampleCode()}.`;
    return;
  }
  try {
    const next = await move("guess", { code }, "Playing your guess…");
    if (!next) return;
    state = next;
    clearError();
    const last = state.moves[state.moves.length - 1];
    say(`Guess ${last.move}, ${last.guess}: ${replyText(last)}.`);  // (a guess played again is said again)
    const now = $("guess").value;  // (what was typed while the guess was on its way stays)
    $("guess").value = now.startsWith(typed) ? now.slice(typed.length).trimStart() : now;
    clearCandidates();
    resetHint();
    render();
    (state.over ? $("new-btn") : $("guess")).focus();
  } catch (error) { fail(error); }
}

async function showHint() {
  try {
    const hint = await working(`${state.strategy} is choosing its suggestion…`, (id) => api("GET", `/games/${id}/hint`));
    if (!hint) return;
    clearError();
    const useButton = (code) => el("button", { type: "button", class: "small", "aria-label": `Use ${code}`, onclick: () => {
      $("guess").value = code; updatePreview(); $("guess").focus();
    } }, "Use");
    const rows = hint.options.map((o) => el("tr", {}, el("td", {}, codeEl(o.guess)), el("td", { class: "num" }, o.parts),
      el("td", { class: "num" }, o.largest.toLocaleString()), el("td", { class: "num" }, o.expected_size.toFixed(2)),
      el("td", {}, o.consistent ? "yes" : "no"), el("td", {}, useButton(o.guess))));
    const options = el("table", { class: "options" },
      el("caption", { class: "visually-hidden" }, "The strategy's best guesses compared"),
      el("thead", {}, el("tr", {}, ...["Guess", "Parts", "Largest", "Expected size", "May win"].map(
        (h) => el("th", { scope: "col" }, h)), el("th", { scope: "col" }, el("span", { class: "visually-hidden" }, "Use")))),
      el("tbody", {}, rows));
    const details = hint.options.map((o) => el("details", {},
      el("summary", {}, "Answers to ", codeEl(o.guess)), splitTable(o)));
    sayHint(`${hint.strategy} would play ${hint.suggestion}; ${plural(hint.remaining, "code")} left.`);
    $("hint-body").replaceChildren(
      el("p", {}, `${plural(hint.remaining, "code")} left. `, el("strong", {}, hint.strategy), " would play ",
         el("span", { class: "nowrap" }, codeEl(hint.suggestion), ".")),  // (the full stop on the code's line)
      el("div", { class: "table-wrap" }, options), ...details);  // (scrolls on a phone)
  } catch (error) { fail(error); }
}

async function showCandidates() {
  try {
    const found = await working("Listing the codes that fit…", (id) => api("GET", `/games/${id}/candidates`));
    if (!found) return;
    clearError();
    const items = found.codes.map((code) => el("li", {}, state.role === "codebreaker"
      ? el("button", { type: "button", class: "code-button", "aria-label": `Use ${code}`,
                       onclick: () => { $("guess").value = code; updatePreview(); $("guess").focus(); } }, codeEl(code))
      : codeEl(code)));
    const fit = `${plural(found.remaining, "code")} ${found.remaining === 1 ? "fits" : "fit"} the answers`;
    $("candidates").replaceChildren(el("p", {}, `${fit}:`), el("ul", {}, items));
    sayCandidates(`${fit}; they are listed after the buttons.`);  // (not the list itself, read as one long word)
  } catch (error) { fail(error); }
}

// What was taken back is named, so that two undos in a row say two things: a status that says the
// same again is not read again ("Took back the last guess." once, for two guesses taken back).
async function undo() {
  const last = state.moves[state.moves.length - 1];  // (none: the server says there is nothing to undo)
  try {
    const next = await move("undo", {}, "Taking back the last move…");
    if (!next) return;
    state = next;
    clearError();
    say(state.role === "codebreaker" ? `Took back the last guess, ${last.guess}.`
      : `Took back the last answer, ${answerText(last.black, last.white)} to ${last.guess}.`);
    clearCandidates();
    resetHint();
    render();
  } catch (error) { fail(error); }
}

async function giveUp() {
  try {
    const next = await move("give-up", {}, "Giving up…");
    if (!next) return;
    state = next;
    clearError();
    render();
    $("new-btn").focus();
  } catch (error) { fail(error); }
}

// ------------------------------------------------------------------ codemaker
const IMPROVISED = "The strategy cannot follow the corrected answers, so mmlab now plays codes that fit them.";

function renderMaker() {
  const won = state.won;
  $("answer-form").hidden = won;
  $("pending").replaceChildren(won ? "" : codeEl(state.next_guess));
  $("pending").closest("p").hidden = won;
  for (const id of ["black", "white"]) $(id).setAttribute("aria-valuemax", state.pegs);
  const whitePair = $("white-pair");  // (absent from a page cached from before black-only games)
  if (whitePair) whitePair.hidden = blackOnly();
  if (won) {
    const found = state.moves[state.moves.length - 1].guess;
    say(`Aha! Your secret is ${found}: found in ${plural(state.moves.length, "guess")}.`);
    $("split-body").replaceChildren(el("p", { class: "muted" }, "mmlab found your secret."));
  } else {
    if (state.improvised) say(IMPROVISED);
    showSplit(state.next_guess, "mmlab's guess");
  }
  showPath();
}

// The boxes of an answer's black and white pegs (the answer form's, and a correction's) are text
// boxes (a number pad on a phone: inputmode), read as the server reads a typed answer: the digits of
// any script and full-width forms as ASCII (asTyped), so '١' is 1. Not <input type=number>, whose
// value Chromium leaves empty when '١' is typed (the answer was "Give the number of black pegs"),
// though it takes '１'. They step as a number box did, with ArrowUp and ArrowDown (stepPegs), and
// are spin buttons to assistive technology, from aria-valuemin to aria-valuemax (the game's pegs).

// A number as a number box took it (HTML's floating-point numbers): 1, 01, 1.0, 1., -1, 1e0.
const NUMBER = /^-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$/;

// What a box of pegs holds, as the server reads it (spaces around dropped): "" for nothing, else a
// number, or NaN when it is none.
function pegsTyped(input) {
  const text = asTyped(input.value).replace(SPACES_AROUND, "");
  return text === "" ? "" : NUMBER.test(text) ? Number(text) : NaN;
}

// A box of pegs for a correction, as those of the answer form (index.html).
function pegsBox(attrs) {
  const box = el("input", { class: "pegs", inputmode: "numeric", autocomplete: "off", spellcheck: "false",
                            role: "spinbutton", "aria-valuemin": 0, "aria-valuemax": state.pegs, ...attrs });
  showPegs(box);
  return box;
}

// Tell assistive technology the number a box of pegs holds (aria-valuenow), when it holds one.
function showPegs(input) {
  const n = pegsTyped(input);
  if (Number.isFinite(n)) input.setAttribute("aria-valuenow", n); else input.removeAttribute("aria-valuenow");
}

// Put `value` in a box of pegs ("" to empty it).
function setPegs(input, value) {
  input.value = value;
  showPegs(input);
}

// ArrowUp and ArrowDown in a box of pegs step its number by one within 0 and the game's pegs, as in
// a number box: from nothing (or what is no number) to 1 and to 0, from 1.5 to 2 and to 1, and not
// at all past the end it steps to (5 stays 5 on ArrowUp in a game of 4 pegs, and goes to 4 on ArrowDown).
function stepPegs(event) {
  const input = event.target;
  if (!(event.key === "ArrowUp" || event.key === "ArrowDown") || !(input instanceof HTMLInputElement) ||
      !input.classList.contains("pegs") || event.altKey || event.ctrlKey || event.metaKey || event.isComposing) {
    return;
  }
  event.preventDefault();  // (nor the caret moved to the start or the end)
  const typed = pegsTyped(input);
  const n = Number.isFinite(typed) ? typed : 0;
  const up = event.key === "ArrowUp";
  const next = Math.min(state.pegs, Math.max(0, up ? Math.floor(n) + 1 : Math.ceil(n) - 1));
  if ((up ? next < n : next > n) || String(next) === input.value) return;
  setPegs(input, String(next));
  input.dispatchEvent(new Event("input", { bubbles: true }));  // (an edit, as a number box's step is)
}

// An echo of what was typed, its middle elided past 58 characters, as the server's (errors.shown_number).
function shownTyped(text) {
  const chars = [...text];  // (characters, not UTF-16 halves)
  return chars.length > 58 ? `${chars.slice(0, 27).join("")}...${chars.slice(-28).join("")}` : text;
}

// The number of pegs typed in the `input` of the answer's black or white pegs (empty: 0); a number
// that is not whole is refused here, in words, and the server says what else is wrong.
function pegsIn(input, name) {
  const n = pegsTyped(input);
  if (n === "") return 0;
  if (!Number.isInteger(n)) {
    throw new ApiError(`${name}: give a whole number of pegs, from 0 to ${state.pegs}, ` +
                       `not ${shownTyped(input.value.replace(SPACES_AROUND, ""))}.`, "BadFeedback", 0);
  }
  return n;
}

// The answer typed in the inputs of its black and `white` pegs (null in a game of black pegs only,
// whose answers are sent without white).
function pegsOf(black, white) {
  return white ? { black: pegsIn(black, "Black"), white: pegsIn(white, "White") } : { black: pegsIn(black, "Black") };
}

async function answer(event) {
  event.preventDefault();
  const white = blackOnly() ? null : $("white");
  const empty = (input) => !input || pegsTyped(input) === "";
  if (empty($("black")) && empty(white)) {
    $("error").textContent = white ? "Give the number of black pegs and of white pegs (0 if none)."
                                   : "Give the number of black pegs (0 if none).";
    return;
  }
  try {
    const pegs = pegsOf($("black"), white);
    const next = await move("answer", pegs, "mmlab is choosing its next guess…");
    if (!next) return;
    state = next;
    clearError();
    if (!state.won) say(`${plural(state.remaining, "code")} ${fits()} your answers. mmlab guesses ${state.next_guess}.`);
    setPegs($("black"), "");
    setPegs($("white"), "");
    clearCandidates();
    render();
    $(state.won ? "maker-undo-btn" : "black").focus();
  } catch (error) { fail(error); }
}

async function showPath() {
  const body = $("path-body");
  if (!state.deterministic) {
    body.replaceChildren(el("p", { class: "muted" },
      `${state.strategy} draws at random, so it has no single decision tree; choose a deterministic strategy ` +
      "(knuth, most-parts, ...) to see the path."));
    return;
  }
  const id = state.id;
  try {
    const path = await api("GET", `/games/${id}/path`);
    if (!onScreen(id)) return;
    const items = path.nodes.map((node) => el("li", { class: node.strategy_move ? "" : "off-tree" },
      el("span", { class: "node-count" }, plural(node.remaining, "code")), " → ",
      node.strategy_move ? `${path.strategy} plays ` : "mmlab played ", codeEl(node.guess),
      el("span", { class: "muted" }, ` (${plural(node.parts, "part")})`), " → ",
      node.answer ? answerEl(node.answer.black, node.answer.white) : el("em", {}, "awaiting your answer"),
      node.strategy_move ? null : el("span", { class: "note" }, " not the strategy's move after the corrected answers")));
    const note = path.on_tree ? `Each step is a node of ${path.strategy}'s decision tree: the codes still possible, ` +
      "the guess played there, and your answer, which picks the branch."
      : "An earlier answer was corrected, so later guesses leave the strategy's tree.";
    body.replaceChildren(el("p", { class: "muted" }, note), el("ol", { class: "path" }, items));
  } catch (error) {
    if (onScreen(id)) body.replaceChildren(el("p", { class: "muted" }, messageOf(error)));
  }
}

// ------------------------------------------------------------------ partition tables
async function showSplit(code, who) {
  const seq = ++splitSeq;
  try {
    const table = await api("GET", `/games/${state.id}/partition?guess=${encodeURIComponent(code)}`);
    if (seq !== splitSeq) return;
    $("split-body").replaceChildren(el("p", { class: "muted" }, `How ${who} would split the codes left:`), splitTable(table));
  } catch (error) {
    if (seq === splitSeq) $("split-body").replaceChildren(el("p", { class: "error" }, messageOf(error)));
  }
}

function splitTable(t) {
  const shown = t.classes.filter((c) => c.codes > 0);
  const biggest = Math.max(1, ...shown.map((c) => c.codes));
  const rows = shown.map((c) => {
    const bar = el("span", { class: "bar", "aria-hidden": "true" });
    bar.style.width = `${Math.max(2, (100 * c.codes) / biggest)}%`;
    return el("tr", { class: c.win ? "win" : "" }, el("td", {}, replyEl(c)),
              el("td", { class: "num" }, c.codes.toLocaleString()), el("td", { class: "bar-cell" }, bar));
  });
  const summary = el("p", { class: "summary" }, codeEl(t.guess), " splits ", plural(t.candidates, "code"), " into ",
    el("strong", {}, plural(t.parts, "part")), `; largest ${t.largest.toLocaleString()}, expected size ` +
    `${t.expected_size.toFixed(2)}, ${t.entropy_bits.toFixed(2)} bits; ` +
    (t.consistent ? "it fits every answer, so it may win now." : "it cannot be the secret."));
  const table = el("table", { class: "split" },
    el("caption", { class: "visually-hidden" }, `Answers to ${t.guess} and the codes that would give each`),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Answer"), el("th", { scope: "col" }, "Codes"),
                           el("th", { scope: "col" }, el("span", { class: "visually-hidden" }, "Share")))),
    el("tbody", {}, rows));
  return el("div", { class: "split-table" }, summary, table);
}

// ------------------------------------------------------------------ wiring
function setRole() {
  const role = new FormData($("new-game")).get("role");
  $("secret-field").hidden = role !== "codebreaker";
  if (role === "codemaker" && $("mathmind")?.value) {  // (MathMind is played as codebreaker)
    $("mathmind").value = "";
    $("black-only").disabled = false;
    listStrategies();
  }
}

// MathMind is played as codebreaker, with answers of no pegs: choosing it chooses the codebreaker
// role, takes black pegs only off (unchecked, unavailable), and offers its rules for the hints.
function setMathMind() {
  const chosen = $("mathmind").value !== "";
  if (chosen) {
    document.querySelector("input[name=role][value=codebreaker]").checked = true;
    $("black-only").checked = false;
  }
  $("black-only").disabled = chosen;
  listStrategies();
  setRole();
}

// The strategies the Strategy box suggests: the server's, or MathMind's four rules.
const MATHMIND_RULE_NAMES = { knuth: "Knuth's largest class", irving: "Irving's expected size",
                              "most-parts": "Kooi's most parts", entropy: "Neuwirth's entropy" };
function listStrategies() {
  const strategies = $("mathmind").value ? Object.entries(MATHMIND_RULE_NAMES).map(([name, summary]) => ({ name, summary }))
                                         : serverInfo?.strategies ?? [];
  $("strategy-list").replaceChildren(...strategies.map((s) => el("option", { value: s.name }, s.summary)));
}

async function loadStrategies() {
  try {
    const info = await api("GET", "/info");
    serverInfo = info;
    listStrategies();
    const mathmind = info.max_mathmind_codes < info.max_codes
      ? ` (MathMind games: up to ${info.max_mathmind_codes.toLocaleString()})` : "";
    $("size-help").textContent +=
      ` This server plays games of up to ${info.max_codes.toLocaleString()} codes${mathmind}.`;
  } catch (error) { /* the form still works with typed names */ }
}

// The second click of a double click on a control that moves or waits (Undo, Guess, Answer, ...)
// is dropped: a person means one move, and the first click's answer may have come already, so that
// seen_moves would let the second through (two guesses taken back). So is that of "Start game",
// disabled only until its game has come, which the second click of a slow double click outlasts
// (it started a second game in place of the first).
const ONCE = `${WAITING}, #start-btn`;
function dropRepeatedClick(event) {
  if (event.detail > 1 && event.target.closest(ONCE)) {
    event.preventDefault();  // (no form submitted)
    event.stopPropagation();
  }
}

// Enter held down (the key's repeats) is one press, and so is Enter pressed again at once with no
// other key, click or edit between (a bounce, or a double press), as the second click of a double
// click is one click: the page moves the focus as a move or game comes back (to the new game's
// guess, to Undo after the winning answer, to New game after the winning guess), and the key went on
// to act on that control, which the person never chose (holding Enter on the winning answer took
// back every answer, on the winning guess started a new game). Enter pressed a moment later acts, as
// does one after another key, a click or an edit (the way back to "Start game", a guess typed). An
// Enter that ends an input method's composition ("１１２２") is no press of the page's.
const ONE_PRESS_MS = 500;  // (the usual longest double click)
let enterAt = -Infinity;  // when Enter was last pressed; -Infinity after another key, a click or an edit
function dropRepeatedEnter(event) {
  if (event.key !== "Enter" || event.isComposing || event.keyCode === 229) {
    enterAt = -Infinity;
    return;
  }
  const now = performance.now();
  const again = event.repeat || now - enterAt < ONE_PRESS_MS;
  enterAt = now;
  if (again) {
    event.preventDefault();  // (no form submitted, no button pressed)
    event.stopPropagation();
  }
}

document.addEventListener("DOMContentLoaded", () => {
  document.addEventListener("click", dropRepeatedClick, true);  // (capturing: before the control's own handler)
  document.addEventListener("keydown", dropRepeatedEnter, true);
  document.addEventListener("keydown", stepPegs);
  document.addEventListener("input", (event) => { if (event.target.matches?.("input.pegs")) showPegs(event.target); });
  for (const type of ["pointerdown", "input"]) {  // (a click, or an edit without keys: pasted, dictated)
    document.addEventListener(type, () => { enterAt = -Infinity; }, true);
  }
  $("new-game").addEventListener("submit", startGame);
  document.querySelectorAll("input[name=role]").forEach((r) => r.addEventListener("change", setRole));
  $("mathmind").addEventListener("change", setMathMind);
  $("guess-form").addEventListener("submit", playGuess);
  $("guess").addEventListener("input", updatePreview);
  $("answer-form").addEventListener("submit", answer);
  $("hint-btn").addEventListener("click", showHint);
  $("candidates-btn").addEventListener("click", showCandidates);
  $("maker-candidates-btn").addEventListener("click", showCandidates);
  $("undo-btn").addEventListener("click", undo);
  $("maker-undo-btn").addEventListener("click", undo);
  $("giveup-btn").addEventListener("click", giveUp);
  $("new-btn").addEventListener("click", () => {
    const still = matchMedia("(prefers-reduced-motion: reduce)").matches;  // (as the spinner stands still)
    $("setup").scrollIntoView({ behavior: still ? "auto" : "smooth" });
    $("size").focus();
  });
  setMathMind();  // (and the role: the form as the browser kept it over a reload)
  loadStrategies();
  resume();
});
