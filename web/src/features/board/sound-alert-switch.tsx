import { Switch } from '@chakra-ui/react';
import { unlockAlertTone } from './alert-tone';
import { useAttemptAlert } from './use-attempt-alert';
import { useSoundAlertOn } from './use-sound-alert-on';

/**
 * The judge board's "Alerta sonora" switch (/home and /homeJuez): off by default and
 * remembered per browser (`useSoundAlertOn`); while on, a short tone plays when a team's attempts grow
 * (`useAttemptAlert`).
 */
export function SoundAlertSwitch() {
  const [on, setOn] = useSoundAlertOn();
  useAttemptAlert(on);
  return (
    <Switch.Root
      size="sm"
      colorPalette="blue"
      checked={on}
      onCheckedChange={(details) => {
        // The click is what lets the browser play sound later.
        if (details.checked) unlockAlertTone();
        setOn(details.checked);
      }}
      data-testid="sound-alert"
    >
      <Switch.HiddenInput />
      <Switch.Control>
        <Switch.Thumb />
      </Switch.Control>
      <Switch.Label>Alerta sonora</Switch.Label>
    </Switch.Root>
  );
}
