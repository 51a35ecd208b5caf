/**
 * Polls `GET /api/health` of `url` every 20 ms until stopped, a new check every time whether or not the last
 * one answered, and answers each check's wait (ms): how long an upload or a flood keeps another screen
 * waiting (docs/design.md section 6a "Uploads": the event loop never blocks for more than ~100 ms). A check
 * cut by the server's close is no wait.
 */
export function healthPoller(url: string): { stop(): Promise<number[]> } {
  const waits: number[] = [];
  const pending = new Set<Promise<void>>();
  const timer = setInterval(() => {
    const sent = performance.now();
    const probe = fetch(`${url}/api/health`)
      .then((res) => res.arrayBuffer())
      .then(
        () => void waits.push(performance.now() - sent),
        () => undefined,
      );
    pending.add(probe);
    void probe.finally(() => pending.delete(probe));
  }, 20);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(pending);
      return waits;
    },
  };
}
