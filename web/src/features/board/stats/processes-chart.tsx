import { Chart, useChart } from '@chakra-ui/charts';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ProcessAttempts } from '@concurso/shared';

/** The most attempted processes as horizontal bars, most first. */
export function ProcessesChart({ processes }: { processes: ProcessAttempts[] }) {
  const chart = useChart({
    data: processes,
    series: [{ name: 'attempts', color: 'orange.solid', label: 'Intentos' }],
  });
  return (
    <Chart.Root chart={chart} aspectRatio="auto" h="60">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={chart.data} layout="vertical" margin={{ left: 8, right: 16, top: 8, bottom: 0 }}>
          <CartesianGrid stroke={chart.color('border')} horizontal={false} />
          <XAxis type="number" allowDecimals={false} tickLine={false} />
          <YAxis type="category" dataKey={chart.key('process')} tickLine={false} width={120} />
          <Tooltip animationDuration={100} cursor={false} content={<Chart.Tooltip />} />
          {chart.series.map((item) => (
            <Bar
              key={item.name}
              dataKey={chart.key(item.name)}
              fill={chart.color(item.color)}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </Chart.Root>
  );
}
