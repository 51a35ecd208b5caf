import { describe, expect, it } from 'vitest';
import { encodeBoardRow, type BoardFrame, type BoardTeam } from '@concurso/shared';
import { FrameReader, countFrameRows, eventName, parseFrameHeader, splitFrame } from './frame-header.js';

const team = (id: number, version: number, name = `Equipo ${id}`): BoardTeam => ({
  id,
  name,
  levels_id: 1 + (id % 3),
  number_attempts: version * 2,
  status_team: { id: 1, status: 'Activo' },
  agent_online: true,
  agent_alert: null,
  version,
});

/** A `board.frame` exactly as socket.io writes it on the websocket (`42` + JSON array). */
const wire = (frame: BoardFrame) => Buffer.from(`42${JSON.stringify(['board.frame', frame])}`, 'utf8');

describe('parseFrameHeader', () => {
  it('reads seq and committed_at from the first bytes and counts the rows', () => {
    const message = wire([12, 1763830000123.4, [encodeBoardRow(team(5, 17)), encodeBoardRow(team(6, 2))]]);
    const header = parseFrameHeader(message);
    expect(header).toMatchObject({ seq: 12, committedAt: 1763830000123.4 });
    expect(countFrameRows(message, header!.rowsAt)).toBe(2);
  });

  it('counts one row, many rows and none', () => {
    for (const n of [0, 1, 3, 250]) {
      const rows = Array.from({ length: n }, (_, i) => encodeBoardRow(team(i + 1, i + 7, `Banco ab12 ${i}`)));
      const message = wire([1, 99.5, rows]);
      expect(countFrameRows(message, parseFrameHeader(message)!.rowsAt)).toBe(n);
    }
  });

  it('counts rows whose names hold brackets, commas and accents', () => {
    const rows = [encodeBoardRow(team(1, 1, 'Año [2], «uno»')), encodeBoardRow(team(2, 1, 'ñ,"x"]'))];
    const message = wire([3, 10, rows]);
    expect(countFrameRows(message, parseFrameHeader(message)!.rowsAt)).toBe(2);
  });

  it('answers null for other events and malformed headers', () => {
    expect(parseFrameHeader(Buffer.from('42["team.removed",{"id":1,"levels_id":1}]'))).toBeNull();
    expect(parseFrameHeader(Buffer.from('42["board.frame",[x,1,[]]]'))).toBeNull();
    expect(parseFrameHeader(Buffer.from('42["board.frame",[1,2]]'))).toBeNull();
    expect(parseFrameHeader(Buffer.from('2'))).toBeNull();
  });
});

describe('FrameReader', () => {
  it('reads each copy of a frame, tells a catch-up frame of the same seq apart, and parses no other event', () => {
    const reader = new FrameReader(4);
    const tick = wire([7, 100.5, [encodeBoardRow(team(1, 2))]]);
    const catchUp = wire([7, 100.5, [encodeBoardRow(team(1, 2)), encodeBoardRow(team(2, 9))]]);
    expect(reader.read(tick)).toEqual({ seq: 7, committedAt: 100.5, rows: 1 });
    expect(reader.read(catchUp)).toEqual({ seq: 7, committedAt: 100.5, rows: 2 });
    // Another screen's copy of the same frame, in a buffer of its own.
    expect(reader.read(Buffer.from(tick))).toEqual({ seq: 7, committedAt: 100.5, rows: 1 });
    expect(reader.read(Buffer.from('42["board.reset"]'))).toBeNull();
  });

  it('never takes a frame of the same length for a known one when its header differs', () => {
    const reader = new FrameReader(4);
    const first = wire([8, 200.25, [encodeBoardRow(team(1, 2))]]);
    const other = wire([9, 200.25, [encodeBoardRow(team(1, 2))]]);
    const later = wire([8, 300.25, [encodeBoardRow(team(1, 2))]]);
    expect(other.length).toBe(first.length);
    expect(later.length).toBe(first.length);
    expect(reader.read(first)!.seq).toBe(8);
    expect(reader.read(other)!.seq).toBe(9);
    expect(reader.read(later)).toEqual({ seq: 8, committedAt: 300.25, rows: 1 });
  });

  it('keeps what it read when the bytes it was given are overwritten (a shared read buffer)', () => {
    const reader = new FrameReader(2);
    const frame = wire([10, 400, [encodeBoardRow(team(3, 4))]]);
    const shared = Buffer.from(frame);
    expect(reader.read(shared)!.seq).toBe(10);
    shared.fill(0x20);
    expect(reader.read(shared)).toBeNull();
    expect(reader.read(frame)).toEqual({ seq: 10, committedAt: 400, rows: 1 });
  });
});

describe('splitFrame', () => {
  it('gives back the same bytes with another committed_at stamped in', () => {
    const frame: BoardFrame = [41, 1763830000123.4, [encodeBoardRow(team(9, 3, 'Año 9'))]];
    const split = splitFrame(wire(frame))!;
    expect(split).toMatchObject({ committedAt: 1763830000123.4, rows: 1 });
    expect(split.prefix + String(1763830000123.4) + split.suffix).toBe(wire(frame).toString('utf8'));
    const restamped = JSON.parse((split.prefix + '555.25' + split.suffix).slice(2)) as [string, BoardFrame];
    expect(restamped).toEqual(['board.frame', [41, 555.25, frame[2]]]);
  });
});

describe('eventName', () => {
  it('names socket.io events and nothing else', () => {
    expect(eventName(Buffer.from('42["board.reset"]'))).toBe('board.reset');
    expect(eventName(Buffer.from('42["team.removed",{"id":1}]'))).toBe('team.removed');
    expect(eventName(Buffer.from('40{"sid":"x"}'))).toBeNull();
    expect(eventName(Buffer.from('3'))).toBeNull();
  });
});
