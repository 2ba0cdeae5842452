import t from 'tap';
import { processFigures, resourceLine } from '../../../../bench/soak/report.js';
import type { Sample, Series } from '../../../../bench/soak/sampler.js';

const MB = 1024 * 1024;
const MIN = 60_000;

/** A sample a minute for `minutes`, RSS and heap growing by `perHour` MB/h, fds by `fdStep` a sample. */
function series(minutes: number, perHour: number, fdStep = 0, heap = true): Series {
  const samples: Sample[] = Array.from({ length: minutes + 1 }, (_, i) => ({
    at: i * MIN,
    rss: (150 + (perHour * i) / 60) * MB,
    treeRss: 0,
    fds: 30 + fdStep * i,
    heapUsed: heap ? (60 + (perHour * i) / 60) * MB : NaN,
    heapTotal: NaN,
    external: NaN,
    loopP99Ms: 10 + (i % 3),
    loopMaxMs: 40,
    gcMs: 5,
  }));
  return { name: 'api', pid: 1, samples };
}

t.test('a flat process over an hour passes; the warm-up is left out', async (t) => {
  const s = series(60, 0);
  s.samples[0]!.rss = 10 * MB; // the first minute, not counted after a 5 min warm-up
  const p = processFigures(s, 'api', 5 * MIN)!;
  t.equal(p.rss.first, 150);
  t.equal(Math.round(p.spanMs / MIN), 55);
  const v = resourceLine(p, true);
  t.ok(v.ok);
  t.match(
    v.line,
    /^api: RSS 150 → 150 MB \(0\.0 MB\/h\), heap 60 → 60 MB \(0\.0 MB\/h\), fds 30 → 30/,
  );
  t.match(v.line, /event-loop p99 11\.0 ms \(max 40 ms\) over 55\.0 min PASS$/);
});

t.test('growth of 30 MB/h, or fds that climb, fail a long run', async (t) => {
  const grows = resourceLine(processFigures(series(60, 30), 'api', 5 * MIN)!, true);
  t.notOk(grows.ok);
  t.match(grows.line, /\(30\.0 MB\/h\).* FAIL$/);
  const fds = resourceLine(processFigures(series(60, 0, 1), 'api', 5 * MIN)!, true);
  t.notOk(fds.ok, 'one more fd a minute');
  t.ok(resourceLine(processFigures(series(60, 19), 'api', 5 * MIN)!, true).ok, '19 MB/h passes');
});

t.test('a short run, or a server that is not judged, is printed only', async (t) => {
  const short = resourceLine(processFigures(series(10, 300), 'api', 0)!, true);
  t.ok(short.ok);
  t.match(short.line, /\[not judged: too short\]$/);
  const jvm = resourceLine(processFigures(series(60, 300, 0, false), 'mongo-server', 0)!, false);
  t.ok(jvm.ok);
  t.match(jvm.line, /heap -, .*\[not judged: no target\]$/);
  t.equal(processFigures(series(10, 0), 'api', 11 * MIN), undefined, 'no sample after the warm-up');
});

t.test('an RSS growing over a flat heap is named by the part that grows', async (t) => {
  const s = series(60, 0);
  s.samples.forEach((x, i) => {
    x.rss = (150 + i / 2) * MB; // 30 MB/h, all of it native
    x.heapTotal = 80 * MB;
    x.external = 10 * MB;
  });
  const v = resourceLine(processFigures(s, 'api', 5 * MIN)!, true);
  t.notOk(v.ok);
  t.match(
    v.line,
    /; of RSS: V8 heap 80 → 80 MB \(0\.0 MB\/h\), buffers 10 → 10 MB \(0\.0 MB\/h\), native 63 → 90 MB \(30\.0 MB\/h\) FAIL$/,
  );
});
