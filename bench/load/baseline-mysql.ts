/**
 * The durable-write baseline: a bare mysql2 loop doing what the server does per attempts POST, with
 * nothing else around it. On a scratch database (`concurso_bench_base_<random>`, dropped at the end)
 * with copies of the `teams` and `attempts` tables (same columns, unique key and foreign key), each of
 * `concurrency` loops takes the next free team and, in one transaction, locks the team row, inserts a
 * batch of `batchMin`..`batchMax` attempts (`insert ignore`) and adds the count to the team's counter.
 * As fast as it can for `durationS`: its attempts per second is this machine's limit for the writes.
 */
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import { dropDatabase, serverPart } from '@concurso/testkit/environment';

/** Baseline settings. */
export interface MysqlBaselineOptions {
  /** MySQL server URL (any database part is ignored). */
  mysqlServerUrl: string;
  teams: number;
  batchMin: number;
  batchMax: number;
  concurrency: number;
  durationS: number;
}

/** Baseline figures. */
export interface MysqlBaselineResult {
  attempts_per_s: number;
  transactions_per_s: number;
  attempts: number;
  /** Rows in the scratch attempts table equal the counters' sum and the attempts written. */
  consistent: boolean;
  concurrency: number;
}

const TEAMS_DDL = `create table teams (id int unsigned not null auto_increment primary key,
  created_at datetime not null default current_timestamp, updated_at datetime not null default current_timestamp,
  number_attempts int unsigned not null default 0, version int unsigned not null default 1,
  agent_last_seen datetime null, agent_online tinyint(1) not null default 0) engine = InnoDB`;
const ATTEMPTS_DDL = `create table attempts (id int unsigned not null auto_increment primary key,
  created_at datetime not null default current_timestamp, updated_at datetime not null default current_timestamp,
  teams_id int unsigned not null, contests_id int unsigned not null, process varchar(255) not null,
  killed tinyint(1) not null default 1, occurred_at datetime not null, received_at datetime not null,
  event_id varchar(64) not null, unique key attempts_teams_id_event_id_unique (teams_id, event_id),
  key attempts_contests_id_index (contests_id),
  constraint attempts_teams_id_foreign foreign key (teams_id) references teams (id) on update cascade on delete cascade)
  default character set utf8mb4 collate utf8mb4_unicode_ci engine = InnoDB`;

/** Runs the baseline; the scratch database is always dropped. */
export async function runMysqlBaseline(o: MysqlBaselineOptions): Promise<MysqlBaselineResult> {
  const database = `concurso_bench_base_${randomBytes(5).toString('hex')}`;
  const admin = await mysql.createConnection({ uri: serverPart(o.mysqlServerUrl) });
  try {
    await admin.query(`create database \`${database}\` character set utf8mb4 collate utf8mb4_unicode_ci`);
  } finally {
    await admin.end();
  }
  const pool = mysql.createPool({
    uri: `${serverPart(o.mysqlServerUrl)}${database}`,
    connectionLimit: o.concurrency,
    timezone: 'Z',
  });
  try {
    await pool.query(TEAMS_DDL);
    await pool.query(ATTEMPTS_DDL);
    await pool.query(`insert into teams (number_attempts) values ${Array(o.teams).fill('(0)').join(', ')}`);
    const busy = new Array<boolean>(o.teams).fill(false);
    let next = 0;
    let attempts = 0;
    let transactions = 0;
    const prefix = randomBytes(3).toString('hex');
    let seq = 0;
    const deadline = performance.now() + o.durationS * 1000;
    const started = performance.now();

    const loop = async () => {
      const conn = await pool.getConnection();
      try {
        while (performance.now() < deadline) {
          let team = -1;
          for (let step = 0; step < o.teams && team < 0; step++) {
            const i = (next + step) % o.teams;
            if (!busy[i]) team = i;
          }
          if (team < 0) {
            await new Promise((r) => setImmediate(r));
            continue;
          }
          next = (team + 1) % o.teams;
          busy[team] = true;
          const size = o.batchMin + Math.floor(Math.random() * (o.batchMax - o.batchMin + 1));
          const nowDate = new Date();
          const rows = Array.from({ length: size }, () => [
            team + 1,
            1,
            'chrome.exe',
            1,
            nowDate,
            nowDate,
            `${prefix}-${seq++}`,
            nowDate,
            nowDate,
          ]);
          try {
            await conn.beginTransaction();
            await conn.query('select id from teams where id = ? for update', [team + 1]);
            const [inserted] = await conn.query<mysql.ResultSetHeader>(
              'insert ignore into attempts (teams_id, contests_id, process, killed, occurred_at, received_at, event_id, created_at, updated_at) values ?',
              [rows],
            );
            await conn.query(
              'update teams set number_attempts = number_attempts + ?, version = version + 1, agent_last_seen = ?, agent_online = 1 where id = ?',
              [inserted.affectedRows, nowDate, team + 1],
            );
            await conn.commit();
            attempts += inserted.affectedRows;
            transactions++;
          } catch (err) {
            await conn.rollback().catch(() => undefined);
            throw err;
          } finally {
            busy[team] = false;
          }
        }
      } finally {
        conn.release();
      }
    };
    await Promise.all(Array.from({ length: o.concurrency }, loop));
    const seconds = (performance.now() - started) / 1000;
    const [[check]] = await pool.query<Array<mysql.RowDataPacket>>(
      'select (select count(*) from attempts) as n, (select sum(number_attempts) from teams) as total',
    );
    return {
      attempts_per_s: attempts / seconds,
      transactions_per_s: transactions / seconds,
      attempts,
      consistent: Number(check!.n) === attempts && Number(check!.total) === attempts,
      concurrency: o.concurrency,
    };
  } finally {
    await pool.end();
    await dropDatabase(`${serverPart(o.mysqlServerUrl)}${database}`);
  }
}
