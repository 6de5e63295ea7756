// Browser test of a server restart in the middle of a game (issue 20, docs/web.md "The
// database"): starts `ddz serve` with a database in a temporary directory, plays part of a game
// against two robots from the page (keys, English), stops the server with SIGTERM (the page
// must say the server is shutting down, the server must exit with code 0), starts it again on
// the same address with the same database; the page reconnects by itself (no reload) with the
// seat's token: the table must be back at the same step with the same hand. Then one more play
// and SIGKILL (issue 50: nothing saved at the end, every action told was committed before);
// started again, the page is back at the same step and finishes the game, which must then be
// listed by GET /v1/games. Fails on any page error
// or console error. Screenshots go to web-tests/screenshots/ (gitignored).
//
//   node web-tests/restart.mjs [path/to/ddz]   (default: target/debug/ddz)
//   CHROMIUM=/usr/bin/chromium                 (default)
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startServe, stopped } from "./server.mjs";
import { play, tableState, watchPage } from "./table.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const ddz = resolve(process.argv[2] ?? join(here, "..", "target", "debug", "ddz"));
const shots = join(here, "screenshots");
mkdirSync(shots, { recursive: true });
const dir = mkdtempSync(join(tmpdir(), "ddz-restart-"));
const db = join(dir, "games.sqlite3");

// `ddz serve` on `addr` with the test's database; resolves once it listens.
function startServer(addr) {
  return startServe(ddz, ["--addr", addr, "--db", db, "--robot-delay-ms", "40", "--turn-seconds", "60"]);
}

// Resolves once the server's stderr matches `pattern` (within 10 s).
async function waitLog(server, pattern) {
  for (let i = 0; i < 200 && !pattern.test(server.stderr()); i += 1) await new Promise((r) => setTimeout(r, 50));
  if (!pattern.test(server.stderr())) throw new Error(`ddz serve did not log ${pattern}: ${server.stderr()}`);
}

// Sends SIGTERM; resolves with the exit code.
function stopServer(child) {
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error("ddz serve still runs 10 s after SIGTERM")), 10000);
    child.on("exit", (code, signal) => { clearTimeout(timer); ok(code ?? signal); });
    child.kill("SIGTERM");
  });
}

// Sends SIGKILL; resolves once the process is gone.
function killServer(child) {
  return new Promise((ok) => {
    child.on("exit", () => ok());
    child.kill("SIGKILL");
  });
}

const problems = [];
const watch = (page) => watchPage(page, problems);

let server = await startServer("127.0.0.1:0");
const addr = new URL(server.url).host;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"],
});
let failed = false;
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  watch(page);
  await page.goto(server.url);
  // Fast robots: the lobby offers the search robot first, which takes seconds a move in a
  // debug build.
  await page.locator("#f-seat1").selectOption("value");
  await page.locator("#f-seat2").selectOption("value");
  await page.locator("#btn-start").click();
  await page.waitForSelector("#table:not([hidden])");
  const hash = new URLSearchParams(new URL(page.url()).hash.slice(1));
  const room = hash.get("room");
  if (!room || !hash.get("token")) throw new Error(`no room and token in the page's address ${page.url()}`);

  // Part of the game: the bidding and two plays from the page, stopping at our next turn.
  let played = 0;
  const before = await play(page, (st) => {
    if (st.phase === "playing") played += 1;
    return played > 2;
  }).then(() => tableState(page));
  if (before.phase !== "playing") throw new Error(`the game ended before the restart: ${JSON.stringify(before)}`);

  const code = await stopServer(server.child);
  if (code !== 0) throw new Error(`SIGTERM: ddz serve exited with ${code}: ${server.stderr()}`);
  await waitLog(server, /saved 1 rooms in progress/);
  await page.waitForFunction(() => /server is shutting down/.test(document.getElementById("status").textContent), null, { timeout: 10000 });
  await page.screenshot({ path: join(shots, "restart-closed.png") });

  // The same address and database; the page's address joins the seat again.
  server = await startServer(addr);
  await waitLog(server, /resumed 1 of the 1 rooms/);
  // No reload: the page keeps trying until the room is back.
  await page.waitForFunction((s) => document.getElementById("table").dataset.step === s
    && !/shutting down/.test(document.getElementById("status").textContent), before.step, { timeout: 20000 });
  const after = await tableState(page);
  if (after.hand !== before.hand || after.phase !== "playing" || !after.myTurn) {
    throw new Error(`the table after the restart differs: before ${JSON.stringify(before)}, after ${JSON.stringify(after)}`);
  }
  await page.screenshot({ path: join(shots, "restart-resumed.png") });

  // One more play, then SIGKILL: the server saves nothing as it dies, but every action the
  // page was told of was committed before (write-ahead, issue 50).
  let more = 0;
  await play(page, (st) => {
    if (st.phase === "playing") more += 1;
    return more > 1;
  });
  const beforeKill = await tableState(page);
  if (beforeKill.phase !== "playing") throw new Error(`the game ended before the kill: ${JSON.stringify(beforeKill)}`);
  await killServer(server.child);
  await page.waitForFunction(() => /connection lost|reconnect/.test(document.getElementById("status").textContent), null, { timeout: 10000 });
  server = await startServer(addr);
  await waitLog(server, /resumed 1 of the 1 rooms/);
  // Welcomed again: the status no longer says the connection is lost.
  await page.waitForFunction(() => !/connect/.test(document.getElementById("status").textContent), null, { timeout: 20000 });
  const afterKill = await tableState(page);
  if (afterKill.step !== beforeKill.step || afterKill.hand !== beforeKill.hand || !afterKill.myTurn) {
    throw new Error(`the table after SIGKILL differs: before ${JSON.stringify(beforeKill)}, after ${JSON.stringify(afterKill)}`);
  }
  await page.screenshot({ path: join(shots, "restart-killed.png") });
  const actions = await play(page, () => false);
  await page.waitForSelector("#dialog[data-name=over] #over-title", { timeout: 10000 });
  const title = await page.locator("#over-title").textContent();
  await page.screenshot({ path: join(shots, "restart-over.png") });

  const games = await (await fetch(`${server.url}/v1/games`)).json();
  // The list names a room by its label (the first 16 hex digits of its id's SHA-256).
  const label = createHash("sha256").update(room).digest("hex").slice(0, 16);
  const game = games.games.find((g) => g.room === label);
  if (!game) throw new Error(`the finished game is not in GET /v1/games: ${JSON.stringify(games)}`);
  await context.close();
  console.log(`restart: resumed at step ${before.step}, ${actions} more actions from the page: ${title}; game ${game.id} in the database`);
} catch (e) {
  failed = true;
  console.log(`restart: FAILED: ${e.stack ?? e}`);
} finally {
  await browser.close();
  // The server saves its rooms as it shuts down: let it finish writing before the
  // directory goes (removing it under a writer fails with ENOTEMPTY).
  await stopped(server.child);
  rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}
for (const p of problems) console.log(p);
if (problems.length) failed = true;
console.log(`browser restart: ${failed ? "FAILED" : "passed"}`);
process.exit(failed ? 1 : 0);
