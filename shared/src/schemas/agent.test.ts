import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AGENT_ATTEMPT_MAX_AGE_MS,
  AGENT_ATTEMPT_MAX_AHEAD_MS,
  agentAttemptSchema,
  agentAttemptsBodySchema,
  agentHeartbeatSchema,
} from './agent.js';
import { INPUT_MESSAGES } from './common.js';

const NOW = Date.parse('2026-11-21T17:00:00Z');
const attempt = (occurred_at: string) => ({ event_id: 'evt-00000001', process: 'Discord.exe', occurred_at });
const errorsOf = (value: unknown) => {
  const parsed = agentAttemptSchema.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((issue) => [issue.path.join('.'), issue.message]);
};

describe('agent attempts', () => {
  afterEach(() => vi.useRealTimers());

  it('accepts occurred_at within 30 days before and 1 day after the clock at parse time', () => {
    vi.useFakeTimers({ now: NOW });
    for (const at of [
      '2026-11-21T17:00:00Z',
      '2026-11-21T11:00:00-06:00',
      new Date(NOW - AGENT_ATTEMPT_MAX_AGE_MS + 1000).toISOString(),
      new Date(NOW + AGENT_ATTEMPT_MAX_AHEAD_MS - 1000).toISOString(),
    ]) {
      expect(errorsOf(attempt(at))).toEqual([]);
    }
  });

  it('refuses year 0000, 9999, too old, too far ahead and impossible dates, in Spanish', () => {
    vi.useFakeTimers({ now: NOW });
    expect(errorsOf(attempt('0000-01-01T00:00:00Z'))).toEqual([
      ['occurred_at', 'occurred_at: el intento tiene más de 30 días'],
    ]);
    expect(errorsOf(attempt('9999-12-31T23:59:59Z'))).toEqual([
      ['occurred_at', 'occurred_at: la fecha está más de un día adelante del reloj del servidor'],
    ]);
    expect(errorsOf(attempt(new Date(NOW - AGENT_ATTEMPT_MAX_AGE_MS - 1000).toISOString()))).toHaveLength(1);
    expect(errorsOf(attempt(new Date(NOW + AGENT_ATTEMPT_MAX_AHEAD_MS + 1000).toISOString()))).toHaveLength(
      1,
    );
    for (const at of ['2026-02-30T10:00:00Z', 'ayer', '2026-11-21', '2026-11-21T17:00:00']) {
      expect(errorsOf(attempt(at))).toEqual([
        ['occurred_at', 'occurred_at: fecha y hora ISO 8601 no válida'],
      ]);
    }
  });

  it('evaluates the window when parsing, not when the schema was built', () => {
    vi.useFakeTimers({ now: NOW });
    const at = new Date(NOW).toISOString();
    expect(errorsOf(attempt(at))).toEqual([]);
    vi.setSystemTime(NOW + AGENT_ATTEMPT_MAX_AGE_MS + 60_000);
    expect(errorsOf(attempt(at))).toHaveLength(1);
  });

  it('refuses an unprintable process name and malformed fields', () => {
    vi.useFakeTimers({ now: NOW });
    const at = new Date(NOW).toISOString();
    expect(errorsOf({ ...attempt(at), process: 'Disc\u0000ord.exe' })).toEqual([
      ['process', INPUT_MESSAGES.controlCharacters],
    ]);
    expect(errorsOf({ ...attempt(at), killed: 'yes' })).toHaveLength(1);
    expect(agentAttemptsBodySchema.safeParse({ attempts: [] }).success).toBe(false);
    expect(agentHeartbeatSchema.parse({ hostname: ' lab-07 ' })).toEqual({ hostname: 'lab-07' });
    expect(agentHeartbeatSchema.safeParse({ hostname: 'lab\n07' }).success).toBe(false);
  });
});
