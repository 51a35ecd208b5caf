import { describe, expect, it } from 'vitest';
import { CaptureGate } from './capture-gate.js';

describe('CaptureGate', () => {
  it('lets `atOnce` in, gives a freed turn to the oldest waiter, and refuses one that waited too long', async () => {
    const gate = new CaptureGate(2, 50);
    expect(await gate.enter()).toBe(true);
    expect(await gate.enter()).toBe(true);
    const order: string[] = [];
    const first = gate.enter().then((got) => void order.push(`first ${got}`));
    const second = gate.enter().then((got) => void order.push(`second ${got}`));
    gate.leave();
    await first;
    expect(order).toEqual(['first true']);
    await second;
    expect(order).toEqual(['first true', 'second false']);
    // Two holders again (the first waiter took the freed turn); leaving both frees the gate.
    gate.leave();
    gate.leave();
    expect(await gate.enter()).toBe(true);
    expect(await gate.enter()).toBe(true);
  });

  it("gives a freed turn to a waiting «Ver pantalla» capture before the attempts' captures", async () => {
    const gate = new CaptureGate(1, 60_000);
    expect(await gate.enter()).toBe(true);
    const order: string[] = [];
    const attempt = gate.enter().then(() => void order.push('attempt'));
    const view = gate.enter(true).then(() => void order.push('pedida'));
    gate.leave();
    await view;
    gate.leave();
    await attempt;
    gate.leave();
    expect(order).toEqual(['pedida', 'attempt']);
  });
});
