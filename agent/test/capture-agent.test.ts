import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { decode } from 'jpeg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPTURE_MAX_BYTES, CAPTURE_MAX_WIDTH, type AgentCapture, type AgentMessage } from '@concurso/shared';
import { startXvfb, type VirtualDisplay } from '@concurso/testkit';
import { CAPTURE_NOTICE_TEXT } from '../src/capture-notice.js';
import { xwdGrabber } from '../src/capture-screen.js';
import type { MessageScreen } from '../src/message-screen.js';
import { useFakeAgentBed } from './helpers/fake-agent-bed.js';
import { blockedBinary, running, spawnProcess, uniqueName, within } from './helpers/processes.js';

const { fakeServer, agent } = useFakeAgentBed({ pollMs: 200 });

/**
 * The colour of a capture's JPEG as [r, g, b], read a tenth of the way in from the top left: the test's
 * window covers the whole display, and a dialog another test's real agent may open on the first X
 * display it finds is centred, so the centre is not the test's to read.
 */
function sample(capture: AgentCapture): number[] {
  const image = decode(Buffer.from(capture.image, 'base64'), { useTArray: true });
  const at = (Math.floor(image.height / 10) * image.width + Math.floor(image.width / 10)) * 4;
  return [image.data[at]!, image.data[at + 1]!, image.data[at + 2]!];
}

const near = (a: number[], b: number[]) => a.every((value, i) => Math.abs(value - b[i]!) <= 6);

/** Waits (every 20 ms) until `find` answers something, at most `ms`. */
async function waitFor<T>(find: () => T | undefined, ms: number, what: string): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`${what}: no llegó en ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The state letter of `pid` in /proc (`T`: stopped), or `gone` (exited, or a zombie). */
function processState(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state === 'Z' || state === 'X' ? 'gone' : state;
  } catch {
    return 'gone';
  }
}

/** A screen that records the notices it is asked to show (and fails any judge's message). */
function recordingScreen(notices: AgentMessage[]): MessageScreen {
  return {
    show: () => ({ shown: Promise.resolve({ shown: false, reason: 'no' }), closed: Promise.resolve(false) }),
    notice(message) {
      notices.push(message);
      return { shown: Promise.resolve({ shown: true }), closed: Promise.resolve(false) };
    },
  };
}

/**
 * The real agent's captures against the fake server (agent/README.md, «Capturas de pantalla»): Xvfb
 * stands for the contestant's session, painted one colour by a window of the test; with the config's
 * `capture_screens` on, ending a program the test made (a copy of /bin/sleep under a unique name)
 * uploads «antes» and «despues» for its stored attempt, each a JPEG of that colour; a judge's
 * `agent.capture.request` on the push channel is answered with a «pedida» capture; the contestant is
 * told once. Prints the grab's time, how long the kill waited, and the bytes.
 */
describe('captures of the real agent (Xvfb, fake server)', () => {
  let screen: VirtualDisplay;
  const colour = [0x3c, 0xb3, 0x71];

  beforeAll(async () => {
    screen = await startXvfb();
    await screen.paint('#3cb371');
  }, 30_000);

  afterAll(() => {
    screen?.stop();
  });

  // Retried once: in two of four loaded full runs the «pedida» capture read another colour (36,182,133)
  // where the window is, the kill's two captures of the same window right; alone it never did. A broken
  // capture fails both runs.
  it(
    'a kill uploads «antes» and «despues» of its stored attempt; a request, «pedida»',
    { retry: 1, timeout: 60_000 },
    async () => {
      const name = uniqueName('capturado');
      const server = await fakeServer([name]);
      server.config.capture_screens = true;
      server.openPushChannel();
      const notices: AgentMessage[] = [];
      const grabber = xwdGrabber(screen.display);
      /** The blocked program's state (/proc) when each grab started: `T` is stopped. */
      const statesAtGrab: string[] = [];
      let watched: number | null = null;
      const { handle, lines } = await agent(server, {
        screenGrabber: () => {
          if (watched !== null) statesAtGrab.push(processState(watched));
          return grabber();
        },
        messageScreen: recordingScreen(notices),
      });
      await waitFor(() => (handle.stats.pushConnected ? true : undefined), 10_000, 'el canal de avisos');

      const program = await spawnProcess(await blockedBinary(name), ['300']);
      watched = program.pid;
      const started = Date.now();
      await within(10_000, program.exited, 'el programa bloqueado terminado');
      const endedAfter = Date.now() - started;
      expect(running(program)).toBe(false);

      const attempt = await waitFor(() => [...server.stored.values()][0], 10_000, 'el intento');
      const ofKill = (moment: string) =>
        server.captures.find((c) => c.event_id === attempt.event_id && c.moment === moment);
      const antes = await waitFor(() => ofKill('antes'), 15_000, 'la captura «antes»');
      const despues = await waitFor(() => ofKill('despues'), 15_000, 'la captura «despues»');
      for (const capture of [antes, despues]) {
        expect(capture.mime).toBe('image/jpeg');
        expect(near(sample(capture), colour), `color ${sample(capture)}`).toBe(true);
        expect(Buffer.from(capture.image, 'base64').length).toBeLessThanOrEqual(CAPTURE_MAX_BYTES);
      }
      // «antes» was read with the program stopped (SIGSTOP), «despues» after it was gone.
      expect(statesAtGrab.slice(0, 2)).toEqual(['T', 'gone']);
      expect(Date.parse(despues.taken_at)).toBeGreaterThan(Date.parse(antes.taken_at));
      const stats = handle.stats.captures!;
      expect(stats.lastKillWaitMs).not.toBeNull();
      // Encoded on the captures' own thread (capture-encoder.ts), not on the agent's.
      expect(stats.lastEncodedApart, lines.join('\n')).toBe(true);
      console.log(
        `captura al terminar: xwd ${stats.lastGrabMs} ms, el cierre esperó ${stats.lastKillWaitMs} ms por «antes», ` +
          `JPEG ${stats.lastBytes} bytes en ${stats.lastEncodeMs} ms; ` +
          `el programa terminó ${endedAfter} ms después de iniciarlo (sondeo de 200 ms, gracia de 500 ms)`,
      );

      // The contestant was told once (through the messages' screen).
      await waitFor(() => notices[0], 5_000, 'el aviso');
      expect(notices.map((n) => n.text)).toEqual([CAPTURE_NOTICE_TEXT]);

      // A judge's «Ver pantalla».
      const requestId = randomUUID();
      expect(await server.requestCapture(requestId)).toBe(1);
      const pedida = await waitFor(
        () => server.captures.find((c) => c.request_id === requestId),
        15_000,
        'la captura «pedida»',
      );
      expect(pedida.moment).toBe('pedida');
      expect(pedida.event_id).toBeUndefined();
      expect(near(sample(pedida), colour), `color ${sample(pedida)}`).toBe(true);
      const image = decode(Buffer.from(pedida.image, 'base64'), { useTArray: true });
      expect(image.width).toBeLessThanOrEqual(CAPTURE_MAX_WIDTH);
      expect(server.capturesRefused).toBe(0);
      expect(lines.filter((line) => line.includes('captura'))).toContain(
        'Un juez pidió ver la pantalla: se toma una captura.',
      );
    },
  );

  it('with capture_screens off (or absent), a kill uploads nothing and nothing is shown', async () => {
    const name = uniqueName('sincaptura');
    const server = await fakeServer([name]);
    const notices: AgentMessage[] = [];
    let grabs = 0;
    const grabber = xwdGrabber(screen.display);
    const { handle } = await agent(server, {
      screenGrabber: async () => {
        grabs += 1;
        return grabber();
      },
      messageScreen: recordingScreen(notices),
    });
    const program = await spawnProcess(await blockedBinary(name), ['300']);
    await within(10_000, program.exited, 'el programa bloqueado terminado');
    await waitFor(() => [...server.stored.values()][0], 10_000, 'el intento');
    await handle.flush();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(grabs).toBe(0);
    expect(server.captures).toEqual([]);
    expect(notices).toEqual([]);
  }, 30_000);
});
