/**
 * The "Alerta sonora" tone: two short notes made with the Web Audio API, no audio file and
 * nothing downloaded. One `AudioContext` per tab, made on first use.
 *
 * Browsers start an `AudioContext` suspended unless a click or key press came first: the switch's own
 * click unlocks it ({@link unlockAlertTone}), and after a reload with the switch on the judge's first
 * click or key on the page does (`use-attempt-alert.ts`). Until then a tone is dropped.
 */

let context: AudioContext | null = null;

/** The tab's audio context, or null where the browser has no Web Audio. */
function audioContext(): AudioContext | null {
  if (context) return context;
  if (typeof AudioContext === 'undefined') return null;
  try {
    context = new AudioContext();
  } catch {
    return null;
  }
  return context;
}

/** Lets the tone be heard: call it inside a click or key press (the browsers' autoplay rule). */
export function unlockAlertTone(): void {
  const audio = audioContext();
  if (audio?.state === 'suspended') void audio.resume().catch(() => undefined);
}

/** Length of the tone, seconds. */
const TONE_S = 0.28;

/** A tone the browser could not play within this many ms (no click on the page yet) is dropped. */
const STALE_MS = 1000;

/** Schedules the tone now on a running context: 880 Hz then 1320 Hz, soft attack and release. */
function scheduleTone(audio: AudioContext): void {
  const start = audio.currentTime;
  const oscillator = audio.createOscillator();
  const gain = audio.createGain();
  oscillator.type = 'sine';
  oscillator.frequency.setValueAtTime(880, start);
  oscillator.frequency.setValueAtTime(1320, start + TONE_S / 2);
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(0.25, start + 0.02);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + TONE_S);
  oscillator.connect(gain).connect(audio.destination);
  oscillator.onended = () => {
    oscillator.disconnect();
    gain.disconnect();
  };
  oscillator.start(start);
  oscillator.stop(start + TONE_S);
}

/**
 * Plays the tone once. A suspended context is resumed first; when the browser lets it run only later
 * (after the judge's first click), the tone is dropped rather than heard late for an old attempt.
 */
export function playAlertTone(): void {
  const audio = audioContext();
  if (!audio) return;
  if (audio.state === 'running') {
    scheduleTone(audio);
    return;
  }
  const askedAt = performance.now();
  audio.resume().then(
    () => {
      if (performance.now() - askedAt <= STALE_MS) scheduleTone(audio);
    },
    () => undefined,
  );
}
