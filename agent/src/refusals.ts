/**
 * Reading a 422 answer to `POST /api/agent/attempts`: the server's error handler keys each field's
 * messages by the field's path in the body, so `attempts.3.occurred_at` is the fourth attempt of the
 * batch. Pure functions only: the outbox and the delivery decide what to do with the answer.
 */

/** One attempt's path in the body, with or without a field after it: `attempts.3`, `attempts.3.occurred_at`. */
const ATTEMPT_KEY = /^attempts\.(\d+)(?:\.|$)/;

/**
 * The attempts a 422 names, by their index in the batch sent, each with the server's messages for it
 * (in the order given, without repeats). Keys that name no attempt (`_`, `attempts`, other fields),
 * indexes outside the batch (`batchLength` attempts) and values that are not lists of strings are
 * ignored. An empty map means the answer names no attempt of the batch: the whole body was refused.
 */
export function refusedIndexes(errors: unknown, batchLength: number): Map<number, string[]> {
  const refused = new Map<number, string[]>();
  if (!errors || typeof errors !== 'object' || Array.isArray(errors)) return refused;
  for (const [key, value] of Object.entries(errors)) {
    const match = ATTEMPT_KEY.exec(key);
    if (!match) continue;
    const index = Number(match[1]);
    if (!Number.isSafeInteger(index) || index >= batchLength) continue;
    const messages = refused.get(index) ?? [];
    for (const message of messagesOf(value)) if (!messages.includes(message)) messages.push(message);
    refused.set(index, messages);
  }
  return refused;
}

/**
 * The messages of a 422 that are not about one attempt (`_`, `attempts`, ...), without repeats: why
 * the whole body was refused. Empty when there are none.
 */
export function bodyMessages(errors: unknown): string[] {
  const messages: string[] = [];
  if (!errors || typeof errors !== 'object' || Array.isArray(errors)) return messages;
  for (const [key, value] of Object.entries(errors)) {
    if (ATTEMPT_KEY.test(key)) continue;
    for (const message of messagesOf(value)) if (!messages.includes(message)) messages.push(message);
  }
  return messages;
}

/** The non-empty strings of one `errors` entry (a list of messages, or a lone message). */
function messagesOf(value: unknown): string[] {
  const list = Array.isArray(value) ? (value as unknown[]) : [value];
  return list.filter((m): m is string => typeof m === 'string' && m.trim() !== '').map((m) => m.trim());
}
