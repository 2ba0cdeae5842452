import fc from 'fast-check';
import t from 'tap';
import { parseJsonBody } from '../../../services/api/json-text.js';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

t.test('valid UTF-8 JSON parses as JSON.parse does', async (t) => {
  t.same(parseJsonBody(bytes('{"a":["é","😀","\\ud83d\\ude00"]}')), {
    ok: true,
    value: { a: ['é', '😀', '😀'] },
  });
  t.same(parseJsonBody(bytes([0xef, 0xbb, 0xbf], '{"a":1}')), { ok: true, value: { a: 1 } });
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      const parsed = parseJsonBody(Buffer.from(JSON.stringify(value)));
      return parsed.ok && JSON.stringify(parsed.value) === JSON.stringify(value);
    }),
  );
});

t.test('invalid UTF-8 names the field that holds it and its byte', async (t) => {
  const cases: [Buffer, string, number][] = [
    [bytes('{"prompts":["ok","bad', [0xff], '"]}'), 'prompts[1]', 21],
    [bytes('{"prompts":["', [0xc3], '"]}'), 'prompts[0]', 13],
    [bytes('{"a":{"b":"', [0xe0, 0x80, 0x80], '"}}'), 'a.b', 11],
    [bytes('{"a":"', [0xed, 0xa0, 0x80], '"}'), 'a', 6], // an encoded surrogate
    [bytes('{"a":"', [0xf4, 0x90, 0x80, 0x80], '"}'), 'a', 6], // above U+10FFFF
    [bytes('{"a":"x","b":"é', [0xe9], 'é"}'), 'b', 16],
    [bytes('{"k', [0x80], '":1}'), 'body', 3], // in a property name: the object holds it
    [bytes('{"a":1', [0xff], '}'), 'body', 6], // between tokens
    [bytes('{"a":"x"}', [0xe2, 0x82]), 'body', 9], // cut by the end
    [bytes([0xff]), 'body', 0],
  ];
  for (const [raw, field, at] of cases) {
    t.same(
      parseJsonBody(raw),
      { ok: false, errors: [{ field, message: `is not valid UTF-8 (byte ${at})` }] },
      raw.toString('hex'),
    );
  }
});

t.test('lone surrogates are refused wherever they are, pairs are fine', async (t) => {
  t.same(parseJsonBody(bytes('{"prompts":["ok","\\ud800"],"x":{"y":"a\\udfffb"}}')), {
    ok: false,
    errors: [
      { field: 'prompts[1]', message: 'contains a lone surrogate (not valid Unicode)' },
      { field: 'x.y', message: 'contains a lone surrogate (not valid Unicode)' },
    ],
  });
  t.same(parseJsonBody(bytes('{"a":{"\\udc00":1}}')), {
    ok: false,
    errors: [
      { field: 'a', message: 'has a property name with a lone surrogate (not valid Unicode)' },
    ],
  });
  t.same(parseJsonBody(bytes('"\\ude00\\ud83d"')), {
    ok: false,
    errors: [{ field: 'body', message: 'contains a lone surrogate (not valid Unicode)' }],
  });
  const many = JSON.stringify({ p: Array(500).fill('\\ud800') }).replaceAll('\\\\', '\\');
  const parsed = parseJsonBody(bytes(many));
  t.equal(parsed.ok ? 0 : parsed.errors.length, 50, 'at most 50 listed');
});

t.test('deep nesting neither overflows nor hides a surrogate', async (t) => {
  const depth = 200_000;
  const raw = bytes('['.repeat(depth), '"\\ud800"', ']'.repeat(depth));
  const parsed = parseJsonBody(raw);
  t.equal(parsed.ok, false);
  if (!parsed.ok) t.match(parsed.errors[0]!.field, /^\[0\]\[0\]/);
});
