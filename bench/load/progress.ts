/** One line of a load run's progress or warnings, on stderr (`[bench] …`): stdout stays free. */
export const log = (line: string): void => {
  process.stderr.write(`[bench] ${line}\n`);
};
