import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Contest } from '../contests/index.js';
import { Team } from '../teams/index.js';

/**
 * `captures`: one stored screen capture (README.md). The image is a file under `DATA_DIR/captures`
 * named by `sha256` (while `imageKept`); `eventId` (an attempt's) or `requestId` (a «Ver pantalla» request's) says what it
 * belongs to, '' in the other. `takenAt` is the agent's clock, `receivedAt` the server's.
 */
export const Capture = defineEntity({
  name: 'Capture',
  tableName: 'captures',
  properties: {
    id: p.integer().primary().autoincrement(),
    contest: () => p.manyToOne(Contest).fieldName('contests_id').deleteRule('cascade'),
    team: () => p.manyToOne(Team).fieldName('teams_id').deleteRule('cascade'),
    eventId: p.string().length(64).default('').fieldName('event_id'),
    requestId: p.string().length(36).default('').fieldName('request_id'),
    hostname: p.string().length(255).default(''),
    /** A `CaptureMoment`. */
    moment: p.string().length(8),
    sha256: p.string().length(64),
    bytes: p.integer().unsigned(),
    width: p.smallint().unsigned(),
    height: p.smallint().unsigned(),
    takenAt: p.datetime(3).fieldName('taken_at'),
    receivedAt: p.datetime(3).fieldName('received_at'),
    /** False once the per-team bound dropped its image (the row stays: it is a link of the contest's chain). */
    imageKept: p.boolean().default(true).fieldName('image_kept'),
  },
});
export type ICapture = InferEntity<typeof Capture>;
