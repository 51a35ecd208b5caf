import { useEffect, useState } from 'react';
import { Text } from '@chakra-ui/react';

const FORMAT = new Intl.DateTimeFormat('es-MX', {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** The hall clock, HH:MM:SS; its own component so its 1-second ticks re-render nothing else. */
export function ProjectorClock() {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 1_000);
    return () => clearInterval(timer);
  }, []);
  return (
    <Text data-testid="projector-clock" fontSize="var(--projector-title)" fontVariantNumeric="tabular-nums">
      {FORMAT.format(now)}
    </Text>
  );
}
