import t from 'tap';
import fc from 'fast-check';
import { MODES } from '../../../services/shared/platforms.js';
import {
  brandsFor,
  hashString,
  modeFlags,
  modeFromFlags,
  mulberry32,
  sandboxAnswer,
  stripDirectives,
  topicOf,
} from '../../../sandbox/answers.js';
import { parseDirectives } from '../../../sandbox/directives.js';
import type { Answer } from '../../../services/shared/contracts/answer.js';

/** The properties every sandbox answer has; returns the failures. */
function check(a: Answer, mode: (typeof MODES)[number]): string[] {
  const bad: string[] = [];
  const { reasoning, search } = modeFlags(mode);
  if (!a.answerContent.trim()) bad.push('empty answer');
  if (reasoning !== (a.reasoningProcess !== null)) bad.push('reasoning presence');
  if (a.reasoningProcess && (!a.reasoningProcess.summary || !a.reasoningProcess.content))
    bad.push('reasoning fields');
  if (a.recommendedQuestions.length !== 3) bad.push('3 questions');
  if (
    a.mediaContent.length !== 1 ||
    a.mediaContent[0]!.type !== 'image' ||
    !a.mediaContent[0]!.title
  )
    bad.push('one titled image');
  const markers = [...a.answerContent.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
  if (!search) {
    if (a.referenceList.length || a.citationList.length) bad.push('sources outside search');
    if (markers.length) bad.push('markers outside search');
    return bad;
  }
  const n = a.referenceList.length;
  if (n < 4 || n > 6) bad.push(`reference count ${n}`);
  a.referenceList.forEach((r, i) => {
    if (r.index !== i + 1) bad.push('index from 1');
    if (r.url !== `https://${r.site}.example/${r.url.split('/').pop()}`) bad.push(`url ${r.url}`);
    if (r.icon !== `https://${r.site}.example/favicon.ico`) bad.push('icon');
    if (!r.title) bad.push('title');
  });
  if (new Set(a.referenceList.map((r) => r.url)).size !== n) bad.push('unique urls');
  const cited = a.citationList.map((r) => r.index);
  if (cited.length < 1 || cited.length >= n) bad.push('strict non-empty subset');
  for (const c of a.citationList) {
    const ref = a.referenceList.find((r) => r.index === c.index);
    if (JSON.stringify(ref) !== JSON.stringify(c)) bad.push('cited = referenced values');
  }
  if (JSON.stringify([...new Set(markers)].sort((x, y) => x - y)) !== JSON.stringify(cited))
    bad.push('markers = cited');
  return bad;
}

t.test('deterministic and per-mode field presence', async (t) => {
  for (const prompt of ['best CRM for startups', '推荐几款降噪耳机', 'x']) {
    for (const mode of MODES) {
      const a = sandboxAnswer(prompt, mode);
      t.same(sandboxAnswer(prompt, mode), a, `${mode} deterministic`);
      t.same(check(a, mode), [], `${mode} / ${prompt}`);
    }
  }
  const a = sandboxAnswer('best CRM for startups', 'standard');
  t.equal(a.reasoningProcess, null);
  t.same(a.referenceList, []);
  t.ok(sandboxAnswer('best CRM for startups', 'reasoning_search').reasoningProcess);
  t.ok(sandboxAnswer('best CRM for startups', 'reasoning_search').referenceList.length >= 4);
});

t.test('the same prompt mentions the same brands in every mode, English and Chinese', async (t) => {
  const brands = brandsFor('best CRM for startups');
  t.equal(brands.length, 3);
  for (const mode of MODES) {
    const text = sandboxAnswer('best CRM for startups', mode).answerContent;
    for (const b of brands) t.ok(text.includes(b.name), `${mode} mentions ${b.name}`);
    t.ok(text.includes(brands[0]!.zh), `${mode} mentions ${brands[0]!.zh}`);
  }
  const seen = new Set<string>();
  for (let i = 0; i < 40; i++) for (const b of brandsFor(`prompt ${i}`)) seen.add(b.name);
  t.ok(
    seen.has('Acme') && seen.has('Globex') && seen.has('Initech'),
    'brands vary with the prompt',
  );
  t.not(
    sandboxAnswer('prompt one', 'search').answerContent,
    sandboxAnswer('prompt two', 'search').answerContent,
  );
});

t.test('property: every prompt gives a well-formed answer in every mode', async (t) => {
  fc.assert(
    fc.property(fc.string({ maxLength: 80 }), fc.constantFrom(...MODES), (prompt, mode) => {
      const a = sandboxAnswer(prompt, mode);
      const bad = check(a, mode);
      if (bad.length) throw new Error(`${JSON.stringify(prompt)} ${mode}: ${bad.join(', ')}`);
      return true;
    }),
    { numRuns: 400 },
  );
  t.pass('holds');
});

t.test('directives are stripped before the answer is derived', async (t) => {
  t.equal(stripDirectives('best  CRM #fail:500x2 #latency:30'), 'best CRM');
  t.same(sandboxAnswer('best CRM #fail:500x2', 'search'), sandboxAnswer('best CRM', 'search'));
  t.equal(topicOf('  #fail:refuse '), 'your question');
  t.equal(topicOf('what is *bold* | [1] `code`?'), 'what is bold 1 code');
  t.equal(Array.from(topicOf('长'.repeat(100))).length, 60);
});

t.test('parseDirectives', async (t) => {
  t.same(parseDirectives('hello'), {});
  t.same(parseDirectives('x #fail:429'), { fail: { kind: '429' } });
  t.same(parseDirectives('x #fail:500x2'), { fail: { kind: '500', times: 2 } });
  t.same(parseDirectives('#FAIL:Timeout y'), { fail: { kind: 'timeout' } });
  t.same(parseDirectives('#fail:loginx1 #latency:250'), {
    fail: { kind: 'login', times: 1 },
    latencyMs: 250,
  });
  t.same(parseDirectives('#fail:404'), {}, 'unknown kinds are ignored');
  for (const kind of ['503', '401', 'empty', 'refuse'])
    t.same(parseDirectives(`#fail:${kind}`), { fail: { kind } });
});

t.test('helpers', async (t) => {
  t.equal(hashString(''), 0x811c9dc5);
  t.equal(hashString('a'), 0xe40c292c, 'FNV-1a reference value');
  const r1 = mulberry32(42);
  const r2 = mulberry32(42);
  const xs = Array.from({ length: 5 }, () => r1());
  t.same(
    Array.from({ length: 5 }, () => r2()),
    xs,
  );
  t.ok(xs.every((x) => x >= 0 && x < 1));
  for (const mode of MODES) {
    const f = modeFlags(mode);
    t.equal(modeFromFlags(f.reasoning, f.search), mode);
  }
});
