// Browser test of the ddz page (docs/web.md): starts `ddz serve`, drives Debian's chromium with
// playwright-core and plays whole games against two robots from the page, once on a desktop
// screen (1280x800, keys, English) and once on a phone-sized one (390x844, taps, Chinese), then
// the same under `huanle` (showing at the first window with cards, doubling by the button with
// the largest factor, the multiplier panel checked); opens the replay viewer from the
// game-over panel. Fails on any console error or page error. Screenshots go to
// web-tests/screenshots/ (gitignored).
//
//   node web-tests/play.mjs [path/to/ddz]      (default: target/debug/ddz)
//   CHROMIUM=/usr/bin/chromium                 (default)
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
const ddz = resolve(process.argv[2] ?? join(here, "..", "target", "debug", "ddz"));
const shots = join(here, "screenshots");
mkdirSync(shots, { recursive: true });

function startServer() {
  return new Promise((ok, fail) => {
    const child = spawn(ddz, ["serve", "--addr", "127.0.0.1:0", "--db", "none", "--robot-delay-ms", "40", "--turn-seconds", "60"],
      { stdio: ["ignore", "ignore", "pipe"] });
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
function watch(page, label) {
  page.on("console", (msg) => {
    if (msg.type() === "error") problems.push(`${label}: console error: ${msg.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`${label}: page error: ${e.message}`));
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

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

// Plays one game to the end from the page; `tap` uses the buttons and taps cards, else keys.
async function playGame(page, label, tap, decided = {}) {
  let actions = 0;
  let shotTaken = false;
  for (let guard = 0; guard < 400; guard += 1) {
    await page.waitForFunction(() => {
      const table = document.getElementById("table");
      const overlay = document.getElementById("overlay");
      return table.dataset.myTurn === "1" || !overlay.hidden || table.dataset.phase === "over";
    }, null, { timeout: 30000 });
    const st = await tableState(page);
    if (st.dialog === "over" || st.phase === "over") return actions;
    if (st.dialog === "readings") {
      await (tap ? page.locator("#dialog .reading").first().click() : page.keyboard.press("Enter"));
      await waitChange(page, st.step);
      continue;
    }
    if (decided.shown !== undefined && st.phase === "playing" && !decided.checked) {
      // The multiplier panel and the log of the show and the doubling.
      const mult = await page.locator("#multipliers").textContent();
      if (!/×\d+/.test(mult)) throw new Error(`${label}: no multiplier panel: ${mult}`);
      // Checked now, not at game over: the page shows only the log's last 40 lines.
      const log = await page.locator("#log").textContent();
      const words = tap ? ["明牌", "加倍"] : ["shows the cards", "doubl"];
      for (const w of words) if (!log.includes(w)) throw new Error(`${label}: the log lacks "${w}": ${log}`);
      decided.checked = true;
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
      const bids = await page.locator("#actions button").all();
      // Bid the highest allowed in the first game, pass in the second.
      const pick = tap ? bids[0] : bids[bids.length - 1];
      await pick.click();
    } else if (tap) {
      await page.locator("#btn-hint").click();
      await page.waitForFunction(() => /\d+\/\d+/.test(document.getElementById("status").textContent), null, { timeout: 10000 });
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

async function runGame(browser, url, label, viewport, tap, rules = null) {
  const context = await browser.newContext({ viewport, hasTouch: tap, isMobile: tap, deviceScaleFactor: 1 });
  const page = await context.newPage();
  watch(page, label);
  await page.goto(url);
  // The phone plays in Chinese.
  if (tap) await page.locator("#btn-lang").click();
  if (rules) await page.locator("#f-rules").selectOption(rules);
  await page.locator("#btn-start").click();
  await page.waitForSelector("#table:not([hidden])");
  const decided = rules === "huanle" ? { shown: false, doubled: false } : {};
  const actions = await playGame(page, label, tap, decided);
  if (rules === "huanle") {
    if (!decided.shown || !decided.doubled || !decided.checked) {
      throw new Error(`${label}: huanle game without a show, a doubling or the multipliers: ${JSON.stringify(decided)}`);
    }
  }
  await page.waitForSelector("#dialog[data-name=over] #over-title", { timeout: 10000 });
  const title = await page.locator("#over-title").textContent();
  await page.screenshot({ path: join(shots, `${label}-over.png`) });
  // The replay viewer, from the game-over panel.
  await page.locator("#over-replay").click();
  await page.waitForSelector("#r-board:not([hidden])");
  await page.locator("#r-last").click();
  const result = await page.locator("#r-result").textContent();
  if (!result.trim()) throw new Error(`${label}: the replay viewer shows no result`);
  await page.screenshot({ path: join(shots, `${label}-replay.png`) });
  await context.close();
  console.log(`${label}: game played (${actions} actions from the page): ${title}; replay: ${result}`);
}

const { child, url } = await startServer();
let failed = 0;
let passed = 0;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"],
});
try {
  for (const [label, viewport, tap, rules] of [
    ["desktop-1280x800", { width: 1280, height: 800 }, false, null],
    ["phone-390x844", { width: 390, height: 844 }, true, null],
    ["huanle-desktop", { width: 1280, height: 800 }, false, "huanle"],
    ["huanle-phone", { width: 390, height: 844 }, true, "huanle"],
  ]) {
    try {
      await runGame(browser, url, label, viewport, tap, rules);
      passed += 1;
    } catch (e) {
      failed += 1;
      console.log(`${label}: FAILED: ${e.stack ?? e}`);
    }
  }
} finally {
  await browser.close();
  child.kill();
}
for (const p of problems) console.log(p);
if (problems.length) failed += 1;
console.log(`browser: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
