// What the browser tests share about the `ddz serve` process they start.

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
