import { Chart, useChart } from '@chakra-ui/charts';
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { AttemptsChartPoint } from './stats-chart-data';

/** The attempts per minute of the contest as a line, one point per minute (or wider point). */
export function AttemptsChart({ points }: { points: AttemptsChartPoint[] }) {
  const chart = useChart({
    data: points,
    series: [{ name: 'attempts', color: 'blue.solid', label: 'Intentos' }],
  });
  return (
    <Chart.Root chart={chart} aspectRatio="auto" h="60">
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={chart.data} margin={{ left: 0, right: 16, top: 8, bottom: 0 }}>
          <CartesianGrid stroke={chart.color('border')} vertical={false} />
          <XAxis dataKey={chart.key('label')} tickLine={false} minTickGap={24} />
          <YAxis allowDecimals={false} tickLine={false} axisLine={false} width={40} />
          <Tooltip animationDuration={100} cursor={false} content={<Chart.Tooltip />} />
          {chart.series.map((item) => (
            <Line
              key={item.name}
              type="monotone"
              dataKey={chart.key(item.name)}
              stroke={chart.color(item.color)}
              strokeWidth={2}
              dot={false}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </Chart.Root>
  );
}
