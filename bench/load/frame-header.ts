/**
 * Reading a `board.frame` message as it comes off the wire, without JSON.parse (the lean
 * screens of the load tester): only the header, `seq` and `committed_at`, and how many rows follow.
 *
 * On the wire (Socket.IO v4 over Engine.IO v4, websocket transport, default namespace) a frame is the
 * text message `42["board.frame",[<seq>,<committed_at>,[[<row>],[<row>],…]]]` where each row is a
 * `BoardRowTuple` written by JSON.stringify (shared/src/board-frame.ts): no spaces, no nested arrays.
 * Rows are counted as one plus the number of `],[` after the rows' opening bracket; a team name that
 * itself contains `],[` would be miscounted (the load tester's names never do).
 */

/** The fixed start of every `board.frame` message. */
const FRAME_PREFIX = Buffer.from('42["board.frame",[', 'latin1');
const ROW_SEPARATOR = Buffer.from('],[', 'latin1');
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** A frame's header, read from its first bytes. */
export interface FrameHeader {
  seq: number;
  /** ms on the sending server's clock (`clockMs()`), when the oldest change in the frame was committed. */
  committedAt: number;
  /** Byte offset of the rows' opening `[`. */
  rowsAt: number;
}

/** Whether `message` is a `board.frame` event. */
function isBoardFrame(message: Buffer): boolean {
  return (
    message.length > FRAME_PREFIX.length &&
    message.compare(FRAME_PREFIX, 0, FRAME_PREFIX.length, 0, FRAME_PREFIX.length) === 0
  );
}

/**
 * The header of a `board.frame` message; null when `message` is not one or its header is malformed
 * (not two finite numbers followed by the rows' `[`).
 */
export function parseFrameHeader(message: Buffer): FrameHeader | null {
  if (!isBoardFrame(message)) return null;
  const seqAt = FRAME_PREFIX.length;
  const seqEnd = message.indexOf(COMMA, seqAt);
  if (seqEnd < 0) return null;
  const committedEnd = message.indexOf(COMMA, seqEnd + 1);
  if (committedEnd < 0 || message[committedEnd + 1] !== OPEN_BRACKET) return null;
  const seq = Number(message.toString('latin1', seqAt, seqEnd));
  const committedAt = Number(message.toString('latin1', seqEnd + 1, committedEnd));
  if (!Number.isFinite(seq) || !Number.isFinite(committedAt) || seqEnd === seqAt) return null;
  return { seq, committedAt, rowsAt: committedEnd + 1 };
}

/** How many rows a frame carries, from the rows' opening `[` at `rowsAt` (see the file comment). */
export function countFrameRows(message: Buffer, rowsAt: number): number {
  if (message[rowsAt + 1] === CLOSE_BRACKET) return 0;
  let rows = 1;
  let at = message.indexOf(ROW_SEPARATOR, rowsAt + 1);
  while (at >= 0) {
    rows++;
    at = message.indexOf(ROW_SEPARATOR, at + ROW_SEPARATOR.length);
  }
  return rows;
}

/** What a lean screen takes from a `board.frame`: its header and how many rows it carries. */
export interface FrameSummary {
  seq: number;
  /** ms on the sending server's clock (`clockMs()`), when the oldest change in the frame was committed. */
  committedAt: number;
  rows: number;
}

/**
 * Reads the `board.frame` messages of a tester process, parsing each distinct frame once: every screen of
 * a server process gets the same bytes per flush, so the first copy's header is parsed and its rows
 * counted, and every later copy is only compared with it byte for byte over its whole header (through
 * the rows' opening `[`: seq and committed_at) and by its length. Every screen's figure still comes from
 * its own bytes (a copy whose header or length differs is parsed on its own), and a screen's catch-up
 * frame of the same flush has other rows, hence another length (and usually another commit time). The
 * last `size` distinct frames are kept, newest first: with several server processes their frames
 * interleave.
 */
export class FrameReader {
  private readonly heads: Array<Buffer | null>;
  private readonly lengths: Int32Array;
  private readonly summaries: Array<FrameSummary | null>;
  private next = 0;

  constructor(private readonly size = 8) {
    this.heads = new Array<Buffer | null>(size).fill(null);
    this.lengths = new Int32Array(size).fill(-1);
    this.summaries = new Array<FrameSummary | null>(size).fill(null);
  }

  /** The summary of `message`; null when it is not a `board.frame` (`parseFrameHeader`). */
  read(message: Buffer): FrameSummary | null {
    for (let k = 1; k <= this.size; k++) {
      const i = (this.next - k + this.size) % this.size;
      const head = this.heads[i];
      if (
        head &&
        this.lengths[i] === message.length &&
        message.compare(head, 0, head.length, 0, head.length) === 0
      ) {
        return this.summaries[i]!;
      }
    }
    const header = parseFrameHeader(message);
    if (!header) return null;
    const summary = {
      seq: header.seq,
      committedAt: header.committedAt,
      rows: countFrameRows(message, header.rowsAt),
    };
    const i = this.next;
    this.next = (this.next + 1) % this.size;
    // A copy: `message` may be a view into a read buffer that the next read overwrites.
    this.heads[i] = Buffer.from(message.subarray(0, header.rowsAt + 1));
    this.lengths[i] = message.length;
    this.summaries[i] = summary;
    return summary;
  }
}

/**
 * A frame's text cut around its `committed_at`, for the bare-ws baseline to stamp its own send time
 * into the same bytes: `prefix + String(committedAt) + suffix` is the frame again.
 */
export interface SplitFrame {
  /** `42["board.frame",[<seq>,` */
  prefix: string;
  /** `,[[…]]]]` */
  suffix: string;
  committedAt: number;
  rows: number;
}

/** Splits a recorded `board.frame` message (see `SplitFrame`); null when it is not one. */
export function splitFrame(message: Buffer): SplitFrame | null {
  const header = parseFrameHeader(message);
  if (!header) return null;
  const committedStart = message.indexOf(COMMA, FRAME_PREFIX.length) + 1;
  return {
    prefix: message.toString('utf8', 0, committedStart),
    suffix: message.toString('utf8', header.rowsAt - 1),
    committedAt: header.committedAt,
    rows: countFrameRows(message, header.rowsAt),
  };
}

/** The name of a Socket.IO event message (`42["name",…]`), or null for anything else. */
export function eventName(message: Buffer): string | null {
  if (message[0] !== 0x34 /* 4 */ || message[1] !== 0x32 /* 2 */ || message[2] !== OPEN_BRACKET) return null;
  if (message[3] !== 0x22 /* " */) return null;
  const end = message.indexOf(0x22, 4);
  return end < 0 ? null : message.toString('utf8', 4, end);
}
