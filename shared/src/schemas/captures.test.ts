import { describe, expect, it } from 'vitest';
import { CAPTURE_MAX_BASE64_LENGTH, CAPTURE_MAX_BYTES, agentCaptureSchema } from './captures.js';

const base = { taken_at: '2026-08-15T10:00:00-06:00', mime: 'image/jpeg', image: '/9j/4AAQ' } as const;

describe('agentCaptureSchema', () => {
  it('takes an attempt capture (event_id, antes/despues) or a requested one (request_id, pedida)', () => {
    expect(agentCaptureSchema.safeParse({ ...base, event_id: 'evt-00001', moment: 'antes' }).success).toBe(
      true,
    );
    const requested = { ...base, request_id: '3f1c2a4e-8b7d-4c3e-9a1f-0e2d3c4b5a69', moment: 'pedida' };
    expect(agentCaptureSchema.safeParse(requested).success).toBe(true);
  });

  it('refuses both ids, neither, and a moment that does not go with the id', () => {
    const requestId = '3f1c2a4e-8b7d-4c3e-9a1f-0e2d3c4b5a69';
    expect(agentCaptureSchema.safeParse({ ...base, moment: 'antes' }).success).toBe(false);
    expect(
      agentCaptureSchema.safeParse({
        ...base,
        event_id: 'evt-00001',
        request_id: requestId,
        moment: 'pedida',
      }).success,
    ).toBe(false);
    expect(agentCaptureSchema.safeParse({ ...base, event_id: 'evt-00001', moment: 'pedida' }).success).toBe(
      false,
    );
    expect(agentCaptureSchema.safeParse({ ...base, request_id: requestId, moment: 'despues' }).success).toBe(
      false,
    );
  });

  it('refuses another mime, text that is not base64 and an image past the decoded bound', () => {
    const attempt = { ...base, event_id: 'evt-00001', moment: 'antes' };
    expect(agentCaptureSchema.safeParse({ ...attempt, mime: 'image/svg+xml' }).success).toBe(false);
    expect(agentCaptureSchema.safeParse({ ...attempt, image: 'no es base64!' }).success).toBe(false);
    const largest = Buffer.alloc(CAPTURE_MAX_BYTES).toString('base64');
    expect(largest.length).toBe(CAPTURE_MAX_BASE64_LENGTH);
    expect(agentCaptureSchema.safeParse({ ...attempt, image: largest }).success).toBe(true);
    const tooLarge = Buffer.alloc(CAPTURE_MAX_BYTES + 3).toString('base64');
    expect(agentCaptureSchema.safeParse({ ...attempt, image: tooLarge }).success).toBe(false);
  });
});
