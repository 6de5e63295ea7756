// Browser test of two `ddz serve` instances on one PostgreSQL (issue 50, docs/web.md "Several
// instances on one PostgreSQL"): a room created on instance B is opened from a page served by
// instance A; A answers the page's WebSocket with `moved` and the page follows it to B by
// itself. After two plays B is killed (SIGKILL); the page goes back to A, which sends it to B
// while B's lease lives and takes the room over once it expires: the table must be back at the
// same step with the same hand, and the game finishes on A. Needs DDZ_TEST_POSTGRES (a
// PostgreSQL server's URL; CI starts one) and psql; without it the test says so and passes,
// unless DDZ_REQUIRE_POSTGRES=1 (CI). Fails on any page error or console error.
//
//   node web-tests/instances.mjs [path/to/ddz]   (default: target/debug/ddz)
import { spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startServe, stopped } from "./server.mjs";
import { play, tableState, watchPage } from "./table.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const ddz = resolve(process.argv[2] ?? join(here, "..", "target", "debug", "ddz"));
const server = process.env.DDZ_TEST_POSTGRES;
if (!server) {
  if (process.env.DDZ_REQUIRE_POSTGRES === "1") {
    console.log("browser instances: FAILED: DDZ_REQUIRE_POSTGRES=1 but DDZ_TEST_POSTGRES is not set");
    process.exit(1);
  }
  console.log("browser instances: DDZ_TEST_POSTGRES is not set: not tested");
  process.exit(0);
}
// A fresh database on that server.
const name = `ddz_web_instances_${process.pid}`;
for (const sql of [`DROP DATABASE IF EXISTS ${name}`, `CREATE DATABASE ${name}`]) {
  const out = spawnSync("psql", [server, "-v", "ON_ERROR_STOP=1", "-qc", sql], { encoding: "utf8" });
  if (out.status !== 0) throw new Error(`psql ${sql}: ${out.stderr}`);
}
const dbUrl = new URL(server);
dbUrl.pathname = `/${name}`;
const db = dbUrl.toString();

// A free loopback port.
function freePort() {
  return new Promise((ok) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => ok(port));
    });
  });
}

// Instance `port` on the database, advertising its address, the other's page allowed.
function startInstance(port, other) {
  return startServe(ddz, ["--addr", `127.0.0.1:${port}`, "--db", db,
    "--advertise", `http://127.0.0.1:${port}`, "--allow-origin", `http://127.0.0.1:${other}`,
    "--lease-seconds", "2", "--robot-delay-ms", "40", "--turn-seconds", "60"]);
}

const [portA, portB] = [await freePort(), await freePort()];
const a = await startInstance(portA, portB);
let b = await startInstance(portB, portA);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"],
});
const problems = [];
let failed = false;
let page = null;
try {
  // The room is B's; the page is A's.
  const created = await (await fetch(`${b.url}/v1/rooms`, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ seats: ["human", "value", "value"] }),
  })).json();
  if (!created.room) throw new Error(`no room: ${JSON.stringify(created)}`);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
  watchPage(page, problems);
  const sockets = [];
  const frames = [];
  page.on("websocket", (ws) => {
    sockets.push(ws.url());
    ws.on("framesent", (f) => frames.push(`> ${ws.url()} ${String(f.payload).slice(0, 80)}`));
    ws.on("framereceived", (f) => frames.push(`< ${ws.url()} ${String(f.payload).slice(0, 80)}`));
    ws.on("close", () => frames.push(`closed ${ws.url()}`));
  });
  // Shown when the test fails.
  globalThis.frames = frames;
  await page.goto(`${a.url}/#room=${created.room}&token=${created.seats[0].token}`);
  await page.waitForSelector("#table:not([hidden])");
  let played = 0;
  await play(page, (st) => {
    if (st.phase === "playing") played += 1;
    return played > 2;
  });
  const before = await tableState(page);
  if (before.phase !== "playing") throw new Error(`the game ended early: ${JSON.stringify(before)}`);
  const atB = `ws://127.0.0.1:${portB}/v1/rooms/${created.room}/ws`;
  if (!sockets.includes(atB)) throw new Error(`the page did not follow moved to ${atB}: ${sockets}`);

  // B dies; A takes the room over once B's lease has expired, and the page finds it there.
  b.child.kill("SIGKILL");
  const killed = Date.now();
  // Welcomed at A (which sent only moved before), then the table shows the room again.
  const welcomedAtA = () => frames.some((f) => f.startsWith(`< ws://127.0.0.1:${portA}/`) && f.includes('"type":"welcome"'));
  while (!welcomedAtA()) {
    if (Date.now() - killed > 20000) throw new Error("the page was not welcomed at A within 20 s of the kill");
    await new Promise((r) => setTimeout(r, 50));
  }
  await page.waitForFunction((s) => document.getElementById("table").dataset.step === s
    && !/connect/.test(document.getElementById("status").textContent), before.step, { timeout: 20000 });
  const after = await tableState(page);
  if (after.hand !== before.hand || !after.myTurn) {
    throw new Error(`the table after the takeover differs: before ${JSON.stringify(before)}, after ${JSON.stringify(after)}`);
  }
  const tookOver = Date.now() - killed;
  const actions = await play(page, () => false);
  await page.waitForSelector("#dialog[data-name=over] #over-title", { timeout: 10000 });
  const title = await page.locator("#over-title").textContent();
  await context.close();
  console.log(`instances: the page followed moved to B, B killed, back at step ${before.step} on A after ${tookOver} ms, ${actions} more actions: ${title}`);
} catch (e) {
  failed = true;
  const status = await page?.evaluate(() => document.getElementById("status").textContent).catch(() => "?");
  await page?.screenshot({ path: join(here, "screenshots", "instances-failed.png") }).catch(() => {});
  console.log(`instances: FAILED: ${e.stack ?? e}\nthe page's status: ${status}\n${(globalThis.frames ?? []).slice(-30).join("\n")}\nA: ${a.stderr()}\nB: ${b.stderr()}`);
} finally {
  await browser.close();
  await stopped(a.child);
  await stopped(b.child);
}
// The browser logs each refused connection to the killed B: expected, not the page's error.
const refusedAtB = (p) => p.includes(`ws://127.0.0.1:${portB}/`) && p.includes("ERR_CONNECTION_REFUSED");
const pageProblems = problems.filter((p) => !refusedAtB(p));
for (const p of pageProblems) console.log(p);
if (pageProblems.length) failed = true;
console.log(`browser instances: ${failed ? "FAILED" : "passed"}`);
process.exit(failed ? 1 : 0);
