/**
 * The "Alerta sonora" tone (issue 14): two short notes made with the Web Audio API, no audio file and
 * nothing downloaded. One `AudioContext` per tab, made on first use.
 *
 * Browsers start an `AudioContext` suspended unless a click or key press came first: the switch's own
 * click unlocks it ({@link unlockAlertTone}), and after a reload with the switch on the judge's first
 * click or key on the page does (`use-attempt-alert.ts`). Until then a tone is asked for but not heard.
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

/** Plays the tone once: 880 Hz then 1320 Hz, soft attack and release so it never clicks. */
export function playAlertTone(): void {
  const audio = audioContext();
  if (!audio) return;
  if (audio.state === 'suspended') void audio.resume().catch(() => undefined);
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
