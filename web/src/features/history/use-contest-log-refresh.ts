import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { EVENTS, decodeBoardFrame, type BoardFrame } from '@concurso/shared';
import { acquireLiveSocket } from '../../api/live-socket';
import { listenTo } from '../../api/socket-listeners';
import { getToken } from '../../api/token-storage';
import { CONTEST_LOG_KEY } from './contest-log-query';
import { logMayHaveChanged } from './contest-log-rows';
import { throttle } from './throttle';

/** At most one refetch of the log every this many ms while boards push (issue 13). */
export const CONTEST_LOG_REFRESH_MS = 2_000;

/**
 * Keeps /bitacora current while mounted: holds the tab's shared live socket and, when boards push a
 * change the log may show (a `board.frame` row whose attempts or status changed, `logMayHaveChanged`;
 * `team.removed`; `board.reset`, e.g. another contest activated), refetches the log, at most once every
 * `CONTEST_LOG_REFRESH_MS`.
 */
export function useContestLogRefresh(): void {
  const client = useQueryClient();
  useEffect(() => {
    const token = getToken();
    if (!token) return;
    const refetch = throttle(() => {
      void client.invalidateQueries({ queryKey: [CONTEST_LOG_KEY] });
    }, CONTEST_LOG_REFRESH_MS);
    const known = new Map<number, string>();
    const lease = acquireLiveSocket(token);
    const detach = listenTo(lease.socket, {
      [EVENTS.boardFrame]: (frame: BoardFrame) => {
        if (logMayHaveChanged(known, decodeBoardFrame(frame).teams)) refetch.request();
      },
      [EVENTS.teamRemoved]: () => refetch.request(),
      [EVENTS.boardReset]: () => refetch.request(),
    });
    return () => {
      refetch.cancel();
      detach();
      lease.release();
    };
  }, [client]);
}
