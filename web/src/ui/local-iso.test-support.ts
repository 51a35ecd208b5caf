/**
 * An instant given on the test machine's local clock (month from 0, as `Date` takes it), as the ISO
 * string the server sends: the expected Spanish texts then read the same in any time zone. Tests only.
 */
export const localIso = (
  year: number,
  month: number,
  day: number,
  hours: number,
  minutes: number,
  seconds: number,
) => new Date(year, month, day, hours, minutes, seconds).toISOString();
