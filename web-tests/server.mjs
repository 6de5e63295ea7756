// What the browser tests share about the `ddz serve` process they start.

import { spawn } from "node:child_process";

/** Stops a child process (SIGTERM) and waits for it to exit, at most 10 s. */
export function stopped(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(resolve, 10000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill();
  });
}

/**
 * Starts `ddz serve` (the binary `ddz`) with `args`; resolves once it listens, with the child,
 * its URL and what it wrote to stderr so far (`stderr()`); rejects when it exits first or does
 * not listen within 15 s.
 */
export function startServe(ddz, args) {
  return new Promise((ok, fail) => {
    const child = spawn(ddz, ["serve", ...args], { stdio: ["ignore", "ignore", "pipe"] });
    let text = "";
    const timer = setTimeout(() => fail(new Error(`ddz serve did not start: ${text}`)), 15000);
    child.stderr.on("data", (d) => {
      text += d;
      const m = text.match(/listening on (http:\/\/\S+)\r?\n/);
      if (m) { clearTimeout(timer); ok({ child, url: m[1], stderr: () => text }); }
    });
    child.on("exit", (code) => fail(new Error(`ddz serve exited with ${code}: ${text}`)));
  });
}
