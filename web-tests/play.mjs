// Browser test of the ddz page (docs/web.md): starts `ddz serve` (with a database in a
// temporary directory), drives Debian's chromium with playwright-core and plays whole games
// against two robots from the page:
//
// - classic on a desktop screen (1280x800, keys, English) and on a phone-sized one (390x844,
//   taps, Chinese, reduced motion), then `huanle` on a desktop in Chinese and on a phone in
//   English (showing at the first window with cards, doubling by the button with the largest
//   factor, the multiplier panel checked);
// - in each: the lobby offers every robot of the server, the levels first (`level:8`), each with a line
//   about it; every card face drawn (the hand at every turn, the replay's deal: all 54 cards)
//   keeps its corner index legible and inside the part of the card left visible by the next
//   one (a condensed "10", jokers as upright 大王/小王 or JOKER, a star on small English
//   faces); the bids shown at the seats; the game-over panel; the replay viewer;
// - a seeded room created through the API, played by auto-play (托管) from start to end and
//   watched by a spectator: the seat is marked auto-played for everyone, the 报单/报双
//   warnings appear, the spectator sees every seat's count and every hand at game over;
// - the stored games (GET /v1/games) opened in the replay viewer; the sound switch kept
//   across a reload; an unknown room and a wrong seat token give their message, not an
//   endless reconnection;
// - a refused play (a pass while leading) shown from the refusal's code in English and in
//   Chinese;
// - the lobby's results per robot after each game, and the suggestion of the next level
//   after a run of wins (results answered by the test) in the lobby with its button, in both
//   languages, and in the game-over panel;
// - the analysis of each game played (复盘) over the replay: the chart of the landlord's
//   chance, a play's verdict in the page's language, the better play on demand.
//
// Fails on any console error or page error. Screenshots go to web-tests/screenshots/
// (gitignored).
//
//   node web-tests/play.mjs [path/to/ddz]      (default: target/debug/ddz)
//   CHROMIUM=/usr/bin/chromium                 (default)
//   DDZ_WEB_ONLY=auto-play,lobby               (only these parts, while working on the page)
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { stopped } from "./server.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const ddz = resolve(process.argv[2] ?? join(here, "..", "target", "debug", "ddz"));
const shots = join(here, "screenshots");
mkdirSync(shots, { recursive: true });
const dbDir = mkdtempSync(join(tmpdir(), "ddz-web-test-"));

function startServer() {
  return new Promise((ok, fail) => {
    const child = spawn(ddz, ["serve", "--addr", "127.0.0.1:0", "--db", join(dbDir, "games.sqlite3"),
      "--robot-delay-ms", "40", "--turn-seconds", "60", "--analysis-iters", "8"], { stdio: ["ignore", "ignore", "pipe"] });
    let text = "";
    const timer = setTimeout(() => fail(new Error(`ddz serve did not start: ${text}`)), 15000);
    child.stderr.on("data", (d) => {
      text += d;
      const m = text.match(/listening on (http:\/\/\S+)\r?\n/);
      if (m) { clearTimeout(timer); ok({ child, url: m[1] }); }
    });
    child.on("exit", (code) => fail(new Error(`ddz serve exited with ${code}: ${text}`)));
  });
}

const problems = [];
// `allowed`: console errors the browser itself writes for a request the test means to fail
// (the WebSocket and the probe of an unknown room get 404).
function watch(page, label, allowed = null) {
  page.on("console", (msg) => {
    if (msg.type() === "error" && !(allowed && allowed.test(msg.text()))) problems.push(`${label}: console error: ${msg.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`${label}: page error: ${e.message}`));
}

// Every 报单/报双 badge the page ever shows, recorded as it appears (robots play fast), and
// how many plays slid in.
const recordWarnings = () => {
  window.__warnings = [];
  window.__slides = 0;
  new MutationObserver(() => {
    for (const b of document.querySelectorAll(".badge.warn")) {
      const key = `${b.dataset.seat}:${b.dataset.left}:${b.textContent}`;
      if (!window.__warnings.includes(key)) window.__warnings.push(key);
    }
    window.__slides += document.querySelectorAll(".cards.fly").length;
  }).observe(document, { subtree: true, childList: true });
};

async function newPage(browser, label, viewport, tap, lang, extra = {}, allowed = null) {
  const context = await browser.newContext({ viewport, hasTouch: tap, isMobile: tap, deviceScaleFactor: 1, ...extra });
  await context.addInitScript((l) => {
    if (!localStorage.getItem("ddz-lang")) localStorage.setItem("ddz-lang", l);
  }, lang);
  await context.addInitScript(recordWarnings);
  const page = await context.newPage();
  watch(page, label, allowed);
  return { context, page };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Checks every card face under the selectors: the corner index's lines are horizontal text
// of 9 px or more, inside the card and left of the next overlapping card; the index says the
// card (10, 大王/小王 or JOKER, a star on small English joker faces). Counts jokers and 10s.
async function checkFaces(page, selector, lang, label) {
  const r = await page.evaluate(([sel, zh]) => {
    const bad = [];
    let jokers = 0;
    let tens = 0;
    let cards = 0;
    for (const row of document.querySelectorAll(sel)) {
      const all = [...row.querySelectorAll(".card[data-rank]")];
      all.forEach((c, i) => {
        cards += 1;
        const box = c.getBoundingClientRect();
        let right = box.right;
        const next = all[i + 1];
        if (next && next.parentElement === c.parentElement) {
          const n = next.getBoundingClientRect();
          if (n.left < right && n.left > box.left) right = n.left;
        }
        const rank = c.dataset.rank;
        const lines = [...c.querySelectorAll(".idx .gl")].filter((g) => getComputedStyle(g).display !== "none");
        const text = lines.map((g) => g.textContent).join("");
        let want;
        if (rank === "T") { tens += 1; want = /^10[♥♦♠♣]?$/; } else if (rank === "B" || rank === "R") {
          jokers += 1;
          want = zh ? (rank === "R" ? /^大王$/ : /^小王$/) : /^(JOKER|★)$/;
          if (c.classList.contains("red") !== (rank === "R")) bad.push(`${rank}: the big joker is red, the small one black`);
        } else want = new RegExp(`^${rank}[♥♦♠♣]?$`);
        if (!want.test(text)) bad.push(`${rank}: the corner says "${text}"`);
        for (const g of lines) {
          const s = getComputedStyle(g);
          const b = g.getBoundingClientRect();
          if (s.writingMode !== "horizontal-tb") bad.push(`${rank}: ${s.writingMode} text`);
          if (parseFloat(s.fontSize) < 9) bad.push(`${rank}: "${g.textContent}" at ${s.fontSize}`);
          if (b.left < box.left - 0.5 || b.right > right + 0.5 || b.top < box.top - 0.5 || b.bottom > box.bottom + 0.5) {
            bad.push(`${rank}: "${g.textContent}" [${b.left.toFixed(1)}, ${b.right.toFixed(1)}] x [${b.top.toFixed(1)}, ${b.bottom.toFixed(1)}] outside the visible part [${box.left.toFixed(1)}, ${right.toFixed(1)}] x [${box.top.toFixed(1)}, ${box.bottom.toFixed(1)}] (${row.id || row.className})`);
          }
        }
      });
    }
    return { bad, jokers, tens, cards };
  }, [selector, lang === "zh"]);
  if (r.bad.length) throw new Error(`${label}: unreadable cards in ${selector}: ${[...new Set(r.bad)].slice(0, 8).join("; ")}`);
  return r;
}

// Whose move it is, the step, and whether the game-over panel is up.
async function tableState(page) {
  return page.evaluate(() => {
    const table = document.getElementById("table");
    const dialog = document.getElementById("dialog");
    const overlay = document.getElementById("overlay");
    return {
      phase: table.dataset.phase, myTurn: table.dataset.myTurn === "1", step: table.dataset.step,
      dialog: overlay.hidden ? null : dialog.dataset.name,
    };
  });
}

async function waitChange(page, step) {
  await page.waitForFunction((s) => {
    const table = document.getElementById("table");
    const overlay = document.getElementById("overlay");
    return table.dataset.step !== s || !overlay.hidden;
  }, step, { timeout: 20000 });
}

// The bids at the seats: every bid of this deal is shown at its seat.
async function checkBidTags(page) {
  const r = await page.evaluate(() => [...document.querySelectorAll(".badge.bidtag")].map((b) => b.textContent));
  return r.length;
}

// Plays one game to the end from the page; `tap` uses the buttons and taps cards, else keys.
async function playGame(page, label, tap, lang, decided = {}) {
  let actions = 0;
  let shotTaken = false;
  let bidTags = 0;
  for (let guard = 0; guard < 400; guard += 1) {
    await page.waitForFunction(() => {
      const table = document.getElementById("table");
      const overlay = document.getElementById("overlay");
      return table.dataset.myTurn === "1" || !overlay.hidden || table.dataset.phase === "over";
    }, null, { timeout: 30000 });
    const st = await tableState(page);
    if (st.dialog === "over" || st.phase === "over") return { actions, bidTags };
    if (st.dialog === "readings") {
      await (tap ? page.locator("#dialog .reading").first().click() : page.keyboard.press("Enter"));
      await waitChange(page, st.step);
      continue;
    }
    await checkFaces(page, "#hand, .played .cards, #info .cards, .shown .cards", lang, label);
    if (decided.shown !== undefined && st.phase === "playing" && !decided.checked) {
      // The multiplier panel and the log of the show and the doubling.
      const mult = await page.locator("#multipliers").textContent();
      if (!/×\d+/.test(mult)) throw new Error(`${label}: no multiplier panel: ${mult}`);
      // Checked now, not at game over: the page shows only the log's last 40 lines.
      const log = await page.locator("#log").textContent();
      const words = lang === "zh" ? ["明牌", "加倍"] : ["shows the cards", "doubl"];
      for (const w of words) if (!log.includes(w)) throw new Error(`${label}: the log lacks "${w}": ${log}`);
      const stake = await page.locator("#stake").textContent();
      if (!(lang === "zh" ? /底分 \d+ × 倍数 \d+/ : /base \d+ × multiplier \d+/).test(stake)) throw new Error(`${label}: the stake reads "${stake}"`);
      decided.checked = true;
    }
    if (decided.counter === false && st.phase === "playing") {
      // The card counter: still out by rank, what the two opponents hold between them.
      await page.locator("#btn-counter").click();
      const c = await page.evaluate(() => {
        const out = [...document.querySelectorAll("#counter tr[data-row=out] td")].reduce((a, td) => a + Number(td.textContent), 0);
        const rows = [...document.querySelectorAll("#counter tr[data-row^=played-]")].length;
        const opp = [...document.querySelectorAll(".opp .count b")].reduce((a, b) => a + Number(b.textContent), 0);
        const box = document.getElementById("counter").getBoundingClientRect();
        const table = document.querySelector("#counter table").getBoundingClientRect();
        return { out, rows, opp, fits: table.width <= box.width + 0.5 };
      });
      if (c.out !== c.opp || c.rows !== 2 || !c.fits) throw new Error(`${label}: the card counter: ${JSON.stringify(c)}`);
      await page.screenshot({ path: join(shots, `${label}-counter.png`) });
      await page.locator("#btn-counter").click();
      await page.evaluate(() => document.activeElement?.blur());
      decided.counter = true;
    }
    if (!shotTaken && st.phase === "playing" && actions >= 3) {
      await page.screenshot({ path: join(shots, `${label}-table.png`) });
      shotTaken = true;
    }
    if (await page.locator("#btn-show").count() > 0) {
      // Huanle: show at the first window with cards (6 or more received), not before.
      const cards = await page.locator("#hand .card").count();
      const show = !decided.shown && cards > 0;
      await page.locator(show ? "#btn-show" : "#btn-noshow").click();
      if (show) decided.shown = true;
    } else if (await page.locator("#actions button[id^=double-]").count() > 0) {
      // Double with the largest factor offered; its button carries the factor.
      const buttons = await page.locator("#actions button[id^=double-]").all();
      const last = buttons[buttons.length - 1];
      const text = await last.textContent();
      if (!/×\d/.test(text)) throw new Error(`${label}: a doubling button without its factor: ${text}`);
      await last.click();
      decided.doubled = true;
    } else if (st.phase === "bidding") {
      bidTags = Math.max(bidTags, await checkBidTags(page));
      const bids = await page.locator("#actions button").all();
      // Bid the highest allowed in the first game, pass in the second.
      const pick = tap ? bids[0] : bids[bids.length - 1];
      await pick.click();
    } else if (tap) {
      await page.locator("#btn-hint").click();
      await page.waitForFunction(() => /\d+\/\d+/.test(document.getElementById("status").textContent), null, { timeout: 10000 });
      const status = await page.locator("#status").textContent();
      if (/enter|回车/i.test(status)) throw new Error(`${label}: a phone is told to press Enter: ${status}`);
      // Tap one hinted card off and on again, to use the taps.
      const selected = page.locator("#hand .card.sel");
      if (await selected.count() > 0) {
        const id = await selected.first().getAttribute("data-id");
        await selected.first().click({ position: { x: 6, y: 30 } });
        await page.locator(`#hand .card[data-id="${id}"]`).click({ position: { x: 6, y: 30 } });
      }
      await page.locator("#btn-play").click();
    } else {
      await page.keyboard.press("h");
      await page.waitForFunction(() => /\d+\/\d+/.test(document.getElementById("status").textContent), null, { timeout: 10000 });
      await page.keyboard.press("Enter");
    }
    actions += 1;
    await waitChange(page, st.step);
  }
  throw new Error(`${label}: the game did not end`);
}

// The replay viewer's deal: all 54 cards (three hands and the kitty), both jokers and four 10s.
async function checkReplayDeal(page, lang, label) {
  await page.locator("#r-first").click();
  const faces = await checkFaces(page, "#r-seats .cards, #r-step .cards", lang, `${label} replay`);
  if (faces.cards !== 54 || faces.jokers !== 2 || faces.tens !== 4) {
    throw new Error(`${label}: the replay's deal shows ${faces.cards} cards, ${faces.jokers} jokers, ${faces.tens} tens`);
  }
  await page.screenshot({ path: join(shots, `${label}-deal.png`) });
}

// A huanle game's scores by seat, worked out from its record's actions alone by RULES.md
// section 7 (shuffled deal, base 1, no cap), apart from the engine: P = show x 2^robs x
// 2^(bombs + rockets) x spring; each farmer settled against the landlord at P x d_L x d_F.
function handScores(record) {
  const landlord = record.landlord;
  const show = Math.max(1, ...record.shows.map(([, f]) => f));
  const calls = record.bids.filter(([, b]) => b > 0).length;
  const robs = Math.max(0, calls - 1);
  const played = [0, 0, 0];
  const plays = [0, 0, 0];
  let bombs = 0;
  for (const [seat, cards] of record.plays) {
    if (cards === "pass") continue;
    played[seat] += [...cards].length;
    plays[seat] += 1;
    if ((cards.length === 4 && [...cards].every((c) => c === cards[0])) || cards === "BR") bombs += 1;
  }
  const size = (seat) => (seat === landlord ? 20 : 17);
  const out = [0, 1, 2].find((s) => played[s] === size(s));
  if (out === undefined) throw new Error(`nobody went out: ${JSON.stringify(record)}`);
  const landlordWon = out === landlord;
  const farmers = [(landlord + 1) % 3, (landlord + 2) % 3];
  const spring = landlordWon ? farmers.every((f) => plays[f] === 0) : plays[landlord] === 1;
  const table = show * 2 ** robs * 2 ** bombs * (spring ? 2 : 1);
  const doubled = [1, 1, 1];
  for (const [seat, d] of record.doublings) doubled[seat] = d;
  const scores = [0, 0, 0];
  for (const f of farmers) {
    const stake = table * doubled[landlord] * doubled[f];
    scores[f] = landlordWon ? -stake : stake;
    scores[landlord] -= scores[f];
  }
  return scores;
}

async function runGame(browser, url, label, viewport, tap, lang, rules = null, extra = {}) {
  const { context, page } = await newPage(browser, label, viewport, tap, lang, extra);
  await page.goto(url);
  // The lobby: every robot, the strongest first, each with its line.
  await page.waitForFunction(() => document.querySelectorAll("#f-seat1 option").length >= 6);
  const lobby = await page.evaluate(() => ({
    values: [...document.querySelectorAll("#f-seat1 option")].map((o) => o.value),
    level3: document.querySelector('#f-seat1 option[value="level:3"]')?.textContent ?? "",
    about: document.getElementById("f-seat1-about").textContent,
    placeholder: document.getElementById("f-watch").placeholder,
  }));
  const health = await (await fetch(`${url}/v1/health`)).json();
  // The levels first, strongest first, named in the page's language; then the robots by name.
  if (lobby.values[0] !== "level:8") throw new Error(`${label}: the lobby's first robot is ${lobby.values[0]}`);
  const level3 = lang === "zh" ? "3 级" : "level 3";
  if (!lobby.level3.includes(level3)) throw new Error(`${label}: level 3 reads "${lobby.level3}"`);
  for (const r of health.robots) if (!lobby.values.includes(r)) throw new Error(`${label}: the lobby lacks ${r}`);
  if (!lobby.about.trim()) throw new Error(`${label}: no line about the robot`);
  if (lang === "zh" && !/房间号/.test(lobby.placeholder)) throw new Error(`${label}: the room id placeholder is "${lobby.placeholder}"`);
  await page.screenshot({ path: join(shots, `${label}-lobby.png`) });
  if (rules) await page.locator("#f-rules").selectOption(rules);
  // Fast robots: the debug build's search takes seconds a move.
  await page.locator("#f-seat1").selectOption("value");
  await page.locator("#f-seat2").selectOption("ddzlib");
  await page.locator("#btn-start").click();
  await page.waitForSelector("#table:not([hidden])");
  const decided = rules === "huanle" ? { shown: false, doubled: false } : { counter: false };
  const { actions, bidTags } = await playGame(page, label, tap, lang, decided);
  if (rules === "huanle") {
    if (!decided.shown || !decided.doubled || !decided.checked) {
      throw new Error(`${label}: huanle game without a show, a doubling or the multipliers: ${JSON.stringify(decided)}`);
    }
  }
  if (!rules && bidTags === 0) {
    // Classic: someone bid before a later turn of ours, or we bid first: the tags are checked
    // where there were any (a first bidder who is us sees none).
    console.log(`${label}: no bids at the seats when it was our turn (we bid first)`);
  }
  await page.waitForSelector("#dialog[data-name=over] #over-title", { timeout: 10000 });
  const title = await page.locator("#over-title").textContent();
  const stake = await page.locator("#over-stake").textContent();
  if (!(lang === "zh" ? /底分 \d+ × 倍数 \d+/ : /base \d+ × multiplier \d+/).test(stake)) throw new Error(`${label}: game over reads "${stake}"`);
  await checkFaces(page, "#dialog .cards", lang, label);
  await page.screenshot({ path: join(shots, `${label}-over.png`) });
  // The replay viewer, from the game-over panel.
  await page.locator("#over-replay").click();
  await page.waitForSelector("#r-board:not([hidden])");
  await checkReplayDeal(page, lang, label);
  await page.locator("#r-last").click();
  const result = await page.locator("#r-result").textContent();
  if (!result.trim()) throw new Error(`${label}: the replay viewer shows no result`);
  await page.screenshot({ path: join(shots, `${label}-replay.png`) });
  await checkAnalysis(page, lang, label);
  // The lobby counts the game under this browser's identity (a new context: its first game),
  // against mixed robots (value and ddzlib), with the page's score.
  await page.locator("#btn-lobby").click();
  await page.waitForSelector("#results:not([hidden]) tr[data-robot=mixed]", { timeout: 10000 });
  const row = await page.evaluate(() => [...document.querySelectorAll("#results tr[data-robot=mixed] td")].map((td) => td.textContent));
  const mixed = lang === "zh" ? "不同机器人" : "mixed robots";
  const won = title.includes(lang === "zh" ? "你赢了" : "You win") ? "1" : "0";
  if (row[0] !== mixed || row[1] !== "1" || row[2] !== won) throw new Error(`${label}: the lobby's results read ${JSON.stringify(row)} after one game (${title})`);
  if (rules === "huanle") {
    // The scores the page shows equal the ones worked out by hand from the stored record.
    const list = await (await fetch(`${url}/v1/games?limit=1`)).json();
    const game = await (await fetch(`${url}/v1/games/${list.games[0].id}`)).json();
    const record = typeof game.record === "string" ? JSON.parse(game.record) : game.record;
    const expected = handScores(record);
    const shown = (result.split("·").pop().match(/[+-]?\d+/g) ?? []).map(Number);
    if (JSON.stringify(shown) !== JSON.stringify(expected)) {
      throw new Error(`${label}: the page shows scores ${shown}, worked out by hand ${expected}: ${JSON.stringify(record)}`);
    }
  }
  if (extra.reducedMotion === "reduce") {
    const animation = await page.evaluate(() => {
      const row = document.createElement("div");
      row.className = "cards fly from-left";
      document.body.append(row);
      const name = getComputedStyle(row).animationName;
      row.remove();
      return name;
    });
    if (animation !== "none") throw new Error(`${label}: plays move under prefers-reduced-motion (${animation})`);
  }
  const sounds = await page.evaluate(() => Number(document.body.dataset.sounds ?? 0));
  if (sounds < 3) throw new Error(`${label}: only ${sounds} sounds in a whole game`);
  const slides = await page.evaluate(() => window.__slides);
  if (slides === 0) throw new Error(`${label}: no play slid in`);
  await context.close();
  console.log(`${label}: game played (${actions} actions from the page, bids shown at seats: ${bidTags}): ${title}; replay: ${result}`);
}

// The analysis over the replay: the chart of the landlord's chance with a point a rated play,
// the verdict of a play in the page's language, the better play on demand, a click on the
// chart moving the replay.
async function checkAnalysis(page, lang, label) {
  await page.locator("#r-analyse").click();
  await page.waitForSelector("#r-chart:not([hidden]) svg polyline", { timeout: 60000 });
  const chart = await page.evaluate(() => {
    const line = document.querySelector("#r-chart polyline").getAttribute("points").trim();
    const svg = document.querySelector("#r-chart svg").getBoundingClientRect();
    return { points: line ? line.split(/\s+/).length : 0, marks: document.querySelectorAll("#r-chart .mk").length,
      title: document.querySelector(".r-chart-title").textContent, width: svg.width, inside: svg.right <= window.innerWidth + 1 };
  });
  if (chart.points < 3) throw new Error(`${label}: the analysis chart has ${chart.points} points`);
  if (chart.title !== (lang === "zh" ? "地主胜率" : "The landlord's chance of winning")) throw new Error(`${label}: the chart is titled "${chart.title}"`);
  if (!chart.inside || chart.width < 200) throw new Error(`${label}: the chart does not fit the screen: ${JSON.stringify(chart)}`);
  // The first rated play: its chance in words, and the better play when it was not the best.
  const steps = await page.evaluate(() => Number(document.getElementById("r-slider").max));
  let found = null;
  for (let i = 1; i <= steps && !found; i++) {
    await page.evaluate((k) => { const s = document.getElementById("r-slider"); s.value = String(k); s.dispatchEvent(new Event("input")); }, i);
    const text = await page.locator("#r-verdict").textContent();
    if (/Chance of winning after this play: \d+%|此手之后的胜率：\d+%/.test(text)) found = { i, text };
  }
  if (!found) throw new Error(`${label}: no step shows a play's chance of winning`);
  if (!(lang === "zh" ? /胜率/ : /Chance of winning/).test(found.text)) throw new Error(`${label}: the verdict reads "${found.text}"`);
  let better = 0;
  for (let i = found.i; i <= steps && better === 0; i++) {
    await page.evaluate((k) => { const s = document.getElementById("r-slider"); s.value = String(k); s.dispatchEvent(new Event("input")); }, i);
    if (await page.locator("#r-better").count()) {
      await page.locator("#r-better").click();
      const best = await page.locator("#r-best").textContent();
      if (!(lang === "zh" ? /搜索认为最好：.+（\d+%）/ : /Best by the search: .+ \(\d+%\)/).test(best)) throw new Error(`${label}: the better play reads "${best}"`);
      better = i;
    }
  }
  await page.screenshot({ path: join(shots, `${label}-analysis.png`) });
  // A click on the chart's left edge goes back to the start.
  const box = await page.locator("#r-chart svg").boundingBox();
  await page.mouse.click(box.x + 2, box.y + box.height / 2);
  const at = await page.evaluate(() => Number(document.getElementById("r-slider").value));
  if (at > 1) throw new Error(`${label}: a click at the chart's start moved the replay to step ${at}`);
  console.log(`${label}: analysis drawn (${chart.points} plays rated, ${chart.marks} marked; a better play shown at step ${better || "none"})`);
}

// A seeded room (one person, robots `value`): the person turns auto-play on and the robot
// plays the whole game; a spectator sees the seat marked, the warnings, every count, every
// hand at game over. Seed 11 gives a game where seats get down to two cards and to one.
async function autoPlayGame(browser, url, label) {
  const res = await fetch(`${url}/v1/rooms`, {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ rules: "classic", seats: ["human", "value", "value"], seed: Number(process.env.DDZ_AUTO_SEED ?? 11), robot_delay_ms: 120, turn_seconds: 0 }),
  });
  const room = await res.json();
  if (res.status !== 201) throw new Error(`${label}: POST /v1/rooms: ${res.status} ${JSON.stringify(room)}`);
  const token = room.seats[0].token;
  const player = await newPage(browser, `${label}-player`, { width: 1280, height: 800 }, false, "zh");
  const watcher = await newPage(browser, `${label}-spectator`, { width: 390, height: 844 }, true, "en");
  // The results are answered by the test as after a third win in a row against level 3: the
  // game-over panel suggests level 4 once the game is counted.
  await player.page.route("**/v1/players/*/results", (route) => route.fulfill({
    status: 200, contentType: "application/json",
    body: JSON.stringify({ player: "0".repeat(32), robots: [], next_level: { robot: "level:4", after: "level:3", streak: 3 } }),
  }));
  await player.page.goto(`${url}/#room=${room.room}&token=${token}`);
  await watcher.page.goto(`${url}/#room=${room.room}`);
  await player.page.waitForSelector("#btn-auto");
  await watcher.page.waitForSelector("#my-line .count[data-seat='0']");
  await player.page.locator("#btn-auto").click();
  await watcher.page.waitForSelector("#my-line .badge.autob[data-seat='0']", { timeout: 10000 });
  await player.page.waitForSelector("#btn-auto[aria-pressed=true]");
  const note = await player.page.locator("#status").textContent();
  if (!note.includes("托管")) throw new Error(`${label}: the player is not told of auto-play: ${note}`);
  await player.page.waitForSelector("#dialog[data-name=over]", { timeout: 60000 });
  await player.page.waitForSelector("#dialog #over-next-level button", { timeout: 5000 });
  const suggestion = await player.page.locator("#over-next-level span").textContent();
  if (suggestion !== "对 3 级已连胜 3 局：挑战 4 级？") throw new Error(`${label}: game over suggests "${suggestion}"`);
  const log = await player.page.locator("#log").textContent();
  if (!/你 .*（托管）/.test(log)) throw new Error(`${label}: the log does not mark the auto-played moves: ${log}`);
  await watcher.page.waitForSelector("#dialog[data-name=over]", { timeout: 10000 });
  // Every seat's cards left are shown to the spectator at game over.
  const seen = await watcher.page.evaluate(() => ({
    counts: [0, 1, 2].map((s) => document.querySelector(`.count[data-seat='${s}'] b`)?.textContent),
    handCards: document.querySelectorAll("#dialog .over-hands .card").length,
    warnings: window.__warnings,
  }));
  const left = seen.counts.map(Number).reduce((a, b) => a + b, 0);
  if (seen.counts.some((c) => c === undefined) || seen.handCards !== left) {
    throw new Error(`${label}: the spectator sees counts ${seen.counts} and ${seen.handCards} cards at game over`);
  }
  const warnings = await player.page.evaluate(() => window.__warnings);
  const ones = (w, word) => w.filter((x) => x.includes(":1:") && x.endsWith(word)).length;
  const twos = (w, word) => w.filter((x) => x.includes(":2:") && x.endsWith(word)).length;
  if (!ones(warnings, "报单！") || !twos(warnings, "报双！")) throw new Error(`${label}: the player saw warnings ${warnings}`);
  if (!ones(seen.warnings, "1 card left!") || !twos(seen.warnings, "2 cards left!")) throw new Error(`${label}: the spectator saw warnings ${seen.warnings}`);
  await checkFaces(watcher.page, "#dialog .cards, #opp-left .cards, #opp-right .cards", "en", label);
  await watcher.page.screenshot({ path: join(shots, `${label}-spectator-over.png`) });
  // Taking the turns back.
  await player.page.locator("#over-close").click();
  await player.page.locator("#btn-auto").click();
  await player.page.waitForSelector("#btn-auto[aria-pressed=false]");
  await watcher.page.waitForFunction(() => !document.querySelector(".badge.autob"));
  // A wrong seat token for this room: its message, and the offer to watch.
  await watcher.page.goto(`${url}/#room=${room.room}&token=${"0".repeat(32)}`);
  await watcher.page.reload();
  await watcher.page.waitForFunction(() => document.getElementById("table").dataset.phase === "stopped", null, { timeout: 10000 });
  const bad = await watcher.page.locator("#status").textContent();
  if (!/not valid for the room/.test(bad)) throw new Error(`${label}: a wrong token reads "${bad}"`);
  await watcher.page.waitForSelector("#btn-watch-instead");
  await player.context.close();
  await watcher.context.close();
  console.log(`${label}: auto-play game over; warnings seen by the player ${warnings.join(" ")}, by the spectator ${seen.warnings.join(" ")}`);
}

// A refused play shown from its code (docs/web.md, "Refusals"), in English and then in
// Chinese: in a seeded room the person bids the most, plays the hint until they lead, then
// passes while leading; the server refuses it (`pass_when_leading`) and the page says why in
// its own words, in the language chosen.
async function refusalChecks(browser, url, label) {
  const res = await fetch(`${url}/v1/rooms`, {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ rules: "classic", seats: ["human", "value", "value"], seed: 5, robot_delay_ms: 0, turn_seconds: 0 }),
  });
  const room = await res.json();
  if (res.status !== 201) throw new Error(`${label}: POST /v1/rooms: ${res.status} ${JSON.stringify(room)}`);
  const { context, page } = await newPage(browser, label, { width: 1280, height: 800 }, false, "en");
  await page.goto(`${url}/#room=${room.room}&token=${room.seats[0].token}`);
  let leading = false;
  for (let guard = 0; guard < 60 && !leading; guard += 1) {
    await page.waitForFunction(() => document.getElementById("table").dataset.myTurn === "1"
      || document.getElementById("table").dataset.phase === "over", null, { timeout: 30000 });
    const st = await tableState(page);
    if (st.phase === "over") break;
    if (st.phase === "bidding") {
      const bids = await page.locator("#actions button").all();
      await bids[bids.length - 1].click();
    } else if (await page.locator("#btn-pass").isDisabled()) {
      leading = true;
      break;
    } else {
      await page.keyboard.press("h");
      await page.waitForFunction(() => /\d+\/\d+/.test(document.getElementById("status").textContent), null, { timeout: 10000 });
      await page.keyboard.press("Enter");
    }
    await waitChange(page, st.step);
  }
  if (!leading) throw new Error(`${label}: the person never led a trick (seed 5)`);
  const shown = [];
  for (const [lang, want] of [["en", "You lead: you cannot pass."], ["zh", "该你先出：不能不出。"]]) {
    if (lang === "zh") {
      await page.locator("#btn-lang").click();
      await page.evaluate(() => document.activeElement?.blur());
    }
    await page.keyboard.press("p");
    await page.waitForFunction((w) => document.getElementById("status").textContent.includes(w), want, { timeout: 10000 });
    shown.push(await page.locator("#status").textContent());
  }
  await page.screenshot({ path: join(shots, `${label}.png`) });
  await context.close();
  console.log(`${label}: a pass while leading refused, shown as "${shown.join("\", then \"")}"`);
}

// An unknown room: the page says so and stops; the sound switch is kept across a reload;
// the stored games open in the replay viewer.
async function lobbyChecks(browser, url, label) {
  const unknown = /rooms\/0{32}\/ws.*404|status of 404/;
  const { context, page } = await newPage(browser, label, { width: 1280, height: 800 }, false, "zh", {}, unknown);
  await page.goto(`${url}/#room=${"0".repeat(32)}&token=${"1".repeat(32)}`);
  await page.waitForFunction(() => document.getElementById("table").dataset.phase === "stopped", null, { timeout: 10000 });
  const text = await page.locator("#status").textContent();
  if (!text.includes("没有这个房间")) throw new Error(`${label}: an unknown room reads "${text}"`);
  await sleep(1500);
  const still = await page.locator("#status").textContent();
  if (/重连/.test(still)) throw new Error(`${label}: the page reconnects to an unknown room: ${still}`);
  await page.screenshot({ path: join(shots, `${label}-unknown-room.png`) });
  await page.locator("#btn-back").click();
  // The sound switch.
  await page.locator("#btn-sound").click();
  await page.reload();
  const muted = await page.locator("#btn-sound").getAttribute("aria-pressed");
  if (muted !== "true") throw new Error(`${label}: the mute switch was not kept (${muted})`);
  // Stored games.
  await page.locator("#btn-games").click();
  await page.waitForSelector("#games-list .game-open", { timeout: 10000 });
  const listed = await page.locator("#games-list .game-open").count();
  await page.locator("#games-list .game-open").first().click();
  await page.waitForSelector("#r-board:not([hidden])");
  await page.locator("#r-last").click();
  const result = await page.locator("#r-result").textContent();
  if (!result.trim()) throw new Error(`${label}: a stored game shows no result`);
  await page.screenshot({ path: join(shots, `${label}-stored-game.png`) });
  await context.close();
  console.log(`${label}: unknown room refused, mute kept, ${listed} stored games listed, the newest replayed: ${result}`);
}

// The suggestion of the next level after a run of wins (the results answered by the test, as
// the server sends them after three wins against level 3): the lobby and its button choose
// level 4 for both robot seats, in English on a desktop and in Chinese on a phone.
async function nextLevelChecks(browser, url, label) {
  for (const [lang, viewport, tap, text] of [
    ["en", { width: 1280, height: 800 }, false, "3 wins in a row against level 3: ready for level 4?"],
    ["zh", { width: 390, height: 844 }, true, "对 3 级已连胜 3 局：挑战 4 级？"],
  ]) {
    const { context, page } = await newPage(browser, `${label}-${lang}`, viewport, tap, lang);
    let asked = null;
    await page.route("**/v1/players/*/results", (route) => {
      asked = route.request().url();
      route.fulfill({
        status: 200, contentType: "application/json",
        body: JSON.stringify({
          player: "0".repeat(32),
          robots: [{ robot: "level:3", games: 4, wins: 3, losses: 1, points: 4, streak: 3, latest_game: 7 }],
          next_level: { robot: "level:4", after: "level:3", streak: 3 },
        }),
      });
    });
    await page.goto(url);
    await page.waitForSelector("#lobby-next-level button", { timeout: 10000 });
    const id = await page.evaluate(() => localStorage.getItem("ddz-player"));
    if (!/^[0-9a-f]{32}$/.test(id ?? "") || !asked.includes(`/v1/players/${id}/results`)) {
      throw new Error(`${label}: the page's identity ${id} and its request ${asked}`);
    }
    const line = await page.locator("#lobby-next-level span").textContent();
    if (line !== text) throw new Error(`${label}: the suggestion reads "${line}"`);
    const cells = await page.evaluate(() => [...document.querySelectorAll("#results tr[data-robot='level:3'] td")].map((td) => td.textContent));
    if (cells.join("|") !== `${lang === "zh" ? "3 级" : "level 3"}|4|3|1|+4|3`) throw new Error(`${label}: the results row reads ${cells}`);
    await page.screenshot({ path: join(shots, `${label}-${lang}.png`) });
    await page.locator("#lobby-next-level button").click();
    const chosen = await page.evaluate(() => [...document.querySelectorAll(".seat-choice")].map((s) => s.value));
    if (chosen.join() !== "level:4,level:4") throw new Error(`${label}: the button chose ${chosen}`);
    await context.close();
  }
  console.log(`${label}: the next level suggested and chosen in both languages`);
}

const started = Date.now();
const { child, url } = await startServer();
let failed = 0;
let passed = 0;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"],
});
const runs = [
  ["desktop-1280x800", (b) => runGame(b, url, "desktop-1280x800", { width: 1280, height: 800 }, false, "en")],
  ["phone-390x844", (b) => runGame(b, url, "phone-390x844", { width: 390, height: 844 }, true, "zh", null, { reducedMotion: "reduce" })],
  ["huanle-desktop", (b) => runGame(b, url, "huanle-desktop", { width: 1280, height: 800 }, false, "zh", "huanle")],
  ["huanle-phone", (b) => runGame(b, url, "huanle-phone", { width: 390, height: 844 }, true, "en", "huanle")],
  ["auto-play", (b) => autoPlayGame(b, url, "auto-play")],
  ["lobby", (b) => lobbyChecks(b, url, "lobby")],
  ["next-level", (b) => nextLevelChecks(b, url, "next-level")],
  ["refusal", (b) => refusalChecks(b, url, "refusal")],
];
try {
  for (const [label, run] of runs) {
    if (process.env.DDZ_WEB_ONLY && !process.env.DDZ_WEB_ONLY.split(",").includes(label)) continue;
    try {
      await run(browser);
      passed += 1;
    } catch (e) {
      failed += 1;
      console.log(`${label}: FAILED: ${e.stack ?? e}`);
    }
  }
} finally {
  await browser.close();
  // The server saves its rooms as it shuts down: let it finish writing before the
  // directory goes (removing it under a writer fails with ENOTEMPTY).
  await stopped(child);
  rmSync(dbDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}
for (const p of problems) console.log(p);
if (problems.length) failed += 1;
console.log(`browser: ${passed} passed, ${failed} failed (${((Date.now() - started) / 1000).toFixed(1)} s)`);
process.exit(failed ? 1 : 0);
