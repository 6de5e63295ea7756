// What the browser tests read from the page's table, and how they play from it.

/** Collects the page's console errors and page errors into `problems`. */
export function watchPage(page, problems) {
  page.on("console", (msg) => {
    if (msg.type() === "error") problems.push(`console error: ${msg.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
}

/** What the table shows: phase, whose turn, step, the game-over panel, the hand's card ids. */
export async function tableState(page) {
  return page.evaluate(() => {
    const table = document.getElementById("table");
    const dialog = document.getElementById("dialog");
    const overlay = document.getElementById("overlay");
    return {
      phase: table.dataset.phase, myTurn: table.dataset.myTurn === "1", step: table.dataset.step,
      dialog: overlay.hidden ? null : dialog.dataset.name,
      hand: [...document.querySelectorAll("#hand .card")].map((c) => c.dataset.id).join(","),
    };
  });
}

/**
 * Plays from the page with keys (bids: the highest offered; plays: the first hint) until
 * `stop` holds for the table at seat 0's turn, or the game is over; the number of actions.
 */
export async function play(page, stop) {
  let actions = 0;
  for (let guard = 0; guard < 400; guard += 1) {
    await page.waitForFunction(() => {
      const table = document.getElementById("table");
      const overlay = document.getElementById("overlay");
      return table.dataset.myTurn === "1" || !overlay.hidden || table.dataset.phase === "over";
    }, null, { timeout: 30000 });
    const st = await tableState(page);
    if (st.dialog === "over" || st.phase === "over") return actions;
    if (st.dialog === "readings") {
      await page.keyboard.press("Enter");
    } else {
      if (stop(st, actions)) return actions;
      if (st.phase === "bidding") {
        const bids = await page.locator("#actions button").all();
        await bids[bids.length - 1].click();
      } else {
        await page.keyboard.press("h");
        await page.waitForFunction(() => /\d+\/\d+/.test(document.getElementById("status").textContent), null, { timeout: 10000 });
        await page.keyboard.press("Enter");
      }
      actions += 1;
    }
    await page.waitForFunction((s) => {
      const table = document.getElementById("table");
      const overlay = document.getElementById("overlay");
      return table.dataset.step !== s || !overlay.hidden;
    }, st.step, { timeout: 20000 });
  }
  throw new Error("the game did not end");
}
