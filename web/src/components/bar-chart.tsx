/**
 * One Chart.js bar chart on a canvas, rebuilt when its data changes, destroyed
 * on unmount; with `empty`, that sentence instead of a blank chart.
 */
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
  /** Why there is nothing to draw; the chart is drawn when absent. */
  empty?: string | null;
}

export function BarChart({ title, data, options, testId, empty }: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (empty) return;
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
  }, [data, options, empty]);
  return (
    <figure class="chart" data-testid={testId}>
      <figcaption>{title}</figcaption>
      {empty ? (
        <p class="chart-empty muted" data-testid={`${testId}-empty`}>
          {empty}
        </p>
      ) : (
        <div class="canvas-box">
          <canvas ref={canvas} role="img" aria-label={title} />
        </div>
      )}
    </figure>
  );
}
