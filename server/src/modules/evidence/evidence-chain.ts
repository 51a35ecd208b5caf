import type { EntityManager } from '@mikro-orm/mysql';
import { chainVerdictText } from '@concurso/shared';
import { chainHead, verifyChain } from '../chain/index.js';

/** The contest chain's head at export time: how many links and the last link's hash (hex). */
export interface ChainHead {
  count: number;
  hash: string;
}

/** The chain's verification at export time, with the sentence /bitacora shows for it. */
export interface ChainCheck {
  ok: boolean;
  count: number;
  text: string;
}

/**
 * Contest `contestId`'s chain head, then its verification (server/src/modules/chain/README.md): the
 * head is read first, so a row chained meanwhile makes the verification count more links, never fewer.
 */
export async function readChain(
  em: EntityManager,
  contestId: number,
): Promise<{ head: ChainHead; check: ChainCheck }> {
  const head = await chainHead(em, contestId);
  const verdict = await verifyChain(em, contestId);
  return {
    head,
    check: {
      ok: verdict.ok,
      count: verdict.count,
      text: chainVerdictText({ contests_id: contestId, ...verdict }),
    },
  };
}

/** `cadena.txt`: the chain's head and its verification at export time, in Spanish. */
export function chainText(
  contest: { id: number; calendar: string; date: string },
  chain: { head: ChainHead; check: ChainCheck },
  exportedAt: Date,
): string {
  return [
    `Concurso: ${contest.calendar} del ${contest.date} (id ${contest.id})`,
    `Exportado: ${exportedAt.toISOString()}`,
    `Cabeza de la cadena: ${chain.head.count} eslabones`,
    `Hash de la cabeza: ${chain.head.hash}`,
    `Verificación al exportar: ${chain.check.ok ? 'correcta' : 'INCORRECTA'} — ${chain.check.text}`,
    '',
  ].join('\n');
}
