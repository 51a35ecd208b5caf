/**
 * `npm run bench -- --screens <N> --agents <M> --duration <s> [--processes <P>] [--url <server>] --out <file.json>`
 *
 * The load tester's entry (bench/README.md, "Load tester"): the command line is parsed by
 * load-options.ts (`--help` prints the options) and the run's named steps are load-run.ts's `runLoad`.
 * Exit code 0 after a run (whatever its figures), 1 when it failed, 2 for a wrong command line, 130
 * when stopped by SIGINT/SIGTERM.
 */
import { LOAD_USAGE, UsageError, parseLoadArgs, type LoadOptions } from './load-options.js';
import { runLoad } from './load-run.js';

const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

let options: LoadOptions | null = null;
try {
  options = parseLoadArgs(process.argv.slice(2));
} catch (err) {
  if (!(err instanceof UsageError)) throw err;
  process.stderr.write(`${err.message ? `${err.message}\n` : ''}${LOAD_USAGE}\n`);
  process.exitCode = err.exitCode;
}

if (options) {
  try {
    await runLoad(options);
  } catch (err) {
    log(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exitCode = 1;
  } finally {
    // Sockets or timers of a failed run must not keep the process alive.
    setTimeout(() => process.exit(), 500).unref();
  }
}
