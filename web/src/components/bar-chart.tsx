/** One Chart.js bar chart on a canvas, rebuilt when its data changes, destroyed on unmount. */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  Tooltip,
  type ChartData,
  type ChartOptions,
} from 'chart.js';
import { useEffect, useRef } from 'preact/hooks';

// Only what bar charts need, so the bundle leaves out the other chart types.
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

interface Props {
  title: string;
  data: ChartData<'bar'>;
  options?: ChartOptions<'bar'>;
  testId: string;
}

export function BarChart({ title, data, options, testId }: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const chart = new Chart(canvas.current!, {
      type: 'bar',
      data,
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        plugins: { legend: { position: 'bottom' } },
        ...options,
      },
    });
    return () => chart.destroy();
  }, [data, options]);
  return (
    <figure class="chart" data-testid={testId}>
      <figcaption>{title}</figcaption>
      <div class="canvas-box">
        <canvas ref={canvas} role="img" aria-label={title} />
      </div>
    </figure>
  );
}
