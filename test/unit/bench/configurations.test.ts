import t from 'tap';
import { availableConfigurations, packSubmissions } from '../../../bench/api/configurations.js';

const catalogue = [
  { platform: 'a', modes: ['standard', 'search'], available: true },
  { platform: 'b', modes: ['standard'], available: true },
  { platform: 'c', modes: ['standard'], available: false },
  { platform: 'd', modes: ['standard'], available: null },
];

t.test('every mode and screenshot variant of the available platforms only', async (t) => {
  const configs = availableConfigurations(catalogue);
  t.equal(configs.length, 9, '(2 + 1) modes × 3 variants');
  t.same(
    configs.filter((c) => c.platform === 'a').map((c) => `${c.mode}/${c.screenshot}`),
    ['standard/0', 'standard/1', 'standard/2', 'search/0', 'search/1', 'search/2'],
  );
  t.same(availableConfigurations(catalogue, [0]).length, 3);
});

t.test('submissions hold distinct platforms, lose nothing and respect the limit', async (t) => {
  const configs = availableConfigurations(catalogue);
  const packed = packSubmissions(configs, 50);
  t.equal(packed.length, 6, 'as many as the platform with most configurations');
  for (const s of packed) t.equal(new Set(s.map((c) => c.platform)).size, s.length);
  t.same(
    packed
      .flat()
      .map((c) => JSON.stringify(c))
      .sort(),
    configs.map((c) => JSON.stringify(c)).sort(),
  );
  const many = Array.from({ length: 5 }, (_, i) => ({
    platform: `p${i}`,
    mode: 'standard',
    screenshot: 0 as const,
  }));
  t.same(
    packSubmissions(many, 2).map((s) => s.length),
    [2, 2, 1],
  );
});
