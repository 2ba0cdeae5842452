import t from 'tap';
import { asReport } from '../../../services/proxies/report.js';

const port = {
  key: 'proxy.example:8001',
  port: 8001,
  province: '上海市',
  city: '上海市',
  regionCode: ['310000', '310100'],
  outIp: '203.0.113.7',
  active: true,
  checkedAt: 1,
  observedIp: null,
  error: null,
};

t.test('a well-formed report passes unchanged', async (t) => {
  const report = { node: 'c1', ports: [port] };
  t.equal(asReport(report), report);
  t.same(asReport({ node: 'c1', ports: [] }), { node: 'c1', ports: [] });
});

t.test('a malformed report is refused whole', async (t) => {
  const bad: unknown[] = [
    null,
    'report',
    { ports: [port] },
    { node: 'c1' },
    { node: 'c1', ports: {} },
    { node: 'c1', ports: [port, null] },
    { node: 'c1', ports: [{ ...port, key: 1 }] },
    { node: 'c1', ports: [{ ...port, port: '8001' }] },
    { node: 'c1', ports: [{ ...port, regionCode: [] }] },
    { node: 'c1', ports: [{ ...port, regionCode: '310100' }] },
    { node: 'c1', ports: [{ ...port, active: 'yes' }] },
    { node: 'c1', ports: [{ ...port, outIp: undefined }] },
  ];
  for (const value of bad) t.equal(asReport(value), undefined, JSON.stringify(value));
});
