import { z } from 'zod';
import { MESSAGES } from '../messages.js';
import { agentEventIdSchema } from './agent.js';
import { printableText } from './common.js';

/**
 * Screen captures (server/src/modules/captures/README.md): an agent uploads a capture of the
 * machine's screen before and after it ends a blocked program (the contest's «Capturar la pantalla en
 * cada intento») and when a judge asks for one («Ver pantalla»).
 */

/** Largest decoded image an agent may upload, in bytes (200 KiB). */
export const CAPTURE_MAX_BYTES = 200 * 1024;
/** Widest image an agent should send and the server stores, in pixels (wider ones are scaled down). */
export const CAPTURE_MAX_WIDTH = 1280;
/** Longest base64 text of a {@link CAPTURE_MAX_BYTES} image (4 characters per 3 bytes, padded). */
export const CAPTURE_MAX_BASE64_LENGTH = 4 * Math.ceil(CAPTURE_MAX_BYTES / 3);
/** The image formats an agent may upload. */
export const CAPTURE_MIMES = ['image/jpeg', 'image/webp'] as const;
export type CaptureMime = (typeof CAPTURE_MIMES)[number];

/**
 * When a capture was taken: `antes` (the blocked program was found, before ending it), `despues`
 * (after ending it), `pedida` (a judge asked for it with «Ver pantalla»).
 */
export const captureMomentSchema = z.enum(['antes', 'despues', 'pedida'], {
  error: 'moment: antes, despues o pedida',
});
export type CaptureMoment = z.infer<typeof captureMomentSchema>;

/**
 * How long after its attempt was stored a capture for it is accepted, in ms (10 minutes): an agent
 * uploads its `antes`/`despues` captures right after the attempt, or after its outbox waited out a
 * short outage; older uploads are refused (404).
 */
export const CAPTURE_ATTEMPT_WINDOW_MS = 10 * 60_000;

/**
 * Per agent key (team): at most `perMinute` uploads in a sliding minute (429 with `Retry-After`
 * past it), and at most `perTeam` captures kept per team and contest (past it the oldest `pedida`
 * ones are dropped first; see server/src/modules/captures/README.md).
 */
export const CAPTURE_LIMITS = { perMinute: 60, perTeam: 300 } as const;

/** How long a «Ver pantalla» request accepts its capture, in ms. */
export const CAPTURE_REQUEST_TTL_MS = 30_000;

/** A «Ver pantalla» request's id (`agent.capture.request`), a UUID chosen by the server. */
export const captureRequestIdSchema = z.uuid({ error: 'request_id: UUID no válido' });

/** A character outside base64's alphabet and its padding. */
const NOT_BASE64 = /[^A-Za-z0-9+/=]/;

/**
 * Whether `text` is base64 as `/^[A-Za-z0-9+/]+={0,2}$/` says (the alphabet, then at most two `=` at
 * the end), checked as one search for a character outside the alphabet and a look at the padding:
 * that regex took about 2 ms of the server's main thread on a 270 KB image (bench/BENCHMARKS.md,
 * captures through the route), this about 0.3 ms.
 */
function isBase64(text: string): boolean {
  if (NOT_BASE64.test(text)) return false;
  const pad = text.indexOf('=');
  if (pad === -1) return true;
  return pad > 0 && pad >= text.length - 2 && text.endsWith('='.repeat(text.length - pad));
}

/**
 * Body of `POST /api/agent/capture`: one image, for one attempt (`event_id`, the attempt's, sent
 * with `moment` `antes` or `despues`) or for one «Ver pantalla» request (`request_id`, with `moment`
 * `pedida`): exactly one of the two. `taken_at`: the agent's clock (ISO 8601 with offset). `image`:
 * the bytes in base64, at most {@link CAPTURE_MAX_BYTES} decoded; the server decodes and re-encodes
 * it, so only a real JPEG or WebP image is stored.
 */
export const agentCaptureSchema = z
  .object({
    event_id: agentEventIdSchema.optional(),
    request_id: captureRequestIdSchema.optional(),
    moment: captureMomentSchema,
    taken_at: z.iso.datetime({ offset: true, error: 'taken_at: fecha y hora ISO 8601 no válida' }),
    /** The machine's host name, as its heartbeat says it (absent: the team's only machine). */
    hostname: printableText(255).min(1).optional(),
    mime: z.enum(CAPTURE_MIMES, { error: 'mime: image/jpeg o image/webp' }),
    image: z
      .string({ error: MESSAGES.required })
      .min(4, { error: MESSAGES.required })
      .max(CAPTURE_MAX_BASE64_LENGTH, { error: MESSAGES.captureTooLarge })
      .refine(isBase64, { error: 'image: base64 no válido' }),
  })
  .superRefine((capture, ctx) => {
    const forAttempt = capture.event_id !== undefined;
    const forRequest = capture.request_id !== undefined;
    if (forAttempt === forRequest) {
      ctx.addIssue({
        code: 'custom',
        path: ['event_id'],
        message: 'Envíe event_id o request_id, uno de los dos',
      });
    } else if (forRequest !== (capture.moment === 'pedida')) {
      ctx.addIssue({
        code: 'custom',
        path: ['moment'],
        message: 'moment: pedida va con request_id; antes o despues, con event_id',
      });
    }
  });
export type AgentCapture = z.infer<typeof agentCaptureSchema>;

/** Payload of the agent socket event `agent.capture.request`: take a capture now and upload it with this id. */
export interface CaptureRequest {
  request_id: string;
  /**
   * The machine asked for, by its host name (its heartbeat's); absent: every machine of the team.
   * An agent on another machine ignores the request.
   */
  hostname?: string;
}

/**
 * A stored capture as the staff lists it: `event_id` (its attempt's) or `request_id` (its «Ver
 * pantalla»'s), the other null; `hostname` ('' when the agent did not say); `taken_at` the agent's clock
 * (ISO 8601, UTC); the image's `bytes` and size in pixels. The image is `GET /api/captures/{id}`.
 */
export const captureRowSchema = z.object({
  id: z.number().int(),
  teams_id: z.number().int(),
  event_id: z.string().nullable(),
  /** The id of the attempt of `event_id` (as the team's history and /bitacora list it), else null. */
  attempts_id: z.number().int().nullable(),
  request_id: z.string().nullable(),
  hostname: z.string(),
  moment: captureMomentSchema,
  taken_at: z.string(),
  bytes: z.number().int(),
  width: z.number().int(),
  height: z.number().int(),
});
export type CaptureRow = z.infer<typeof captureRowSchema>;

/**
 * Query of `GET /api/captureList`: a team's captures in the active contest, or one attempt's (by its
 * `event_id` or its row id `attempts_id`, as the history and /bitacora know it).
 */
export const captureListQuerySchema = z.object({
  teams_id: z.coerce.number().int().min(1),
  event_id: agentEventIdSchema.optional(),
  attempts_id: z.coerce.number().int().min(1).optional(),
});

/** Body of `POST /api/viewScreen` («Ver pantalla»): the team, and its machine (absent: every machine). */
export const viewScreenSchema = z.object({
  teams_id: z.number({ error: MESSAGES.required }).int().min(1, { error: MESSAGES.required }),
  hostname: printableText(255).min(1).optional(),
});
export type ViewScreenInput = z.infer<typeof viewScreenSchema>;

/** Answer data of `POST /api/viewScreen`: the request's id and the captures that arrived for it. */
export const viewScreenResultSchema = z.object({
  request_id: z.string(),
  captures: z.array(captureRowSchema),
});
export type ViewScreenResult = z.infer<typeof viewScreenResultSchema>;

/**
 * How long `POST /api/viewScreen` waits for the machines' captures, in ms: an agent answers in well
 * under a second (the display budget is 2 s); past this the call answers 504.
 */
export const VIEW_SCREEN_WAIT_MS = 4_000;
/** After the first capture of a team-wide request, how long the call waits for the other machines (ms). */
export const VIEW_SCREEN_OTHERS_MS = 400;
