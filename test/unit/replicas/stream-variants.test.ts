/**
 * Every stream drift variant of the DeepSeek, Doubao and Kimi replicas, in
 * every mode, through its site's parser (pure: the replica's frames, no
 * browser): an `answer` variant gives exactly the answer of the plain stream
 * and reports the mode that ran; a `drift` variant fails as an unrecognised
 * format, never retried; a `witness` variant reports the text it could not
 * place (the kit then compares the stream with the page). The browser-level run of the same variants is the
 * site-contract test's. Also the call drifts (replicas/common/drift.ts): each
 * moves a replica's chat call to where the replica does not make it, so a
 * replica gets only the one that changes its page, whose script runs before
 * the page's own (that the call really moves is the site contract's).
 */
import t from 'tap';
import { MODES, type Mode } from '../../../services/shared/platforms.js';
import { buildAnswer } from '../../../crawler/platforms/common/raw-answer.js';
import { hasReasoning, hasSearch } from '../../../crawler/platforms/common/answer.js';
import { effectiveModeOf } from '../../../crawler/platforms/common/ran-mode.js';
import { PlatformError } from '../../../crawler/platforms/types.js';
import { DeepseekStream } from '../../../crawler/platforms/deepseek/web/stream.js';
import { DoubaoStream } from '../../../crawler/platforms/doubao/web/stream.js';
import { KimiStreamParser } from '../../../crawler/platforms/kimi/web/stream.js';
import type { StreamReport } from '../../../crawler/platforms/common/ran-mode.js';
import type { Answer } from '../../../services/shared/contracts/answer.js';
import type { WebAnswer } from '../../../crawler/platforms/types.js';
import { connectEnvelope } from '../../helpers/connect-envelope.js';
import type { StreamVariant } from '../../../replicas/common/stream-variants.js';
import { callFromUnder, driftPage, driftsOf } from '../../../replicas/common/drift.js';
import * as deepseek from '../../../replicas/deepseek/frames.js';
import { expectedWebAnswer } from '../../../replicas/deepseek/expected.js';
import * as doubao from '../../../replicas/doubao/frames.js';
import { replicaAnswer as doubaoAnswer } from '../../../replicas/doubao/answers.js';
import { expectedAnswer as doubaoExpected } from '../../../replicas/doubao/expected.js';
import * as kimi from '../../../replicas/kimi/frames.js';

const SITE_URL = 'http://127.0.0.1:1';
type Parsed = { answer: Answer; report: StreamReport; version: string } | { error: PlatformError };

function parse(run: () => { answer: Answer; report: StreamReport; version: string }): Parsed {
  try {
    return run();
  } catch (err) {
    if (err instanceof PlatformError) return { error: err };
    throw err;
  }
}

const fieldsOf = ({
  effectiveMode: _m,
  formatVersion: _f,
  answerSource: _s,
  ...answer
}: WebAnswer): Answer => answer;

interface Site {
  name: string;
  variants: readonly StreamVariant[];
  parse(prompt: string, mode: Mode): Parsed;
  expected(prompt: string, mode: Mode): Answer;
  /** The mode the variant really runs (a silent fallback drops one), when not the one asked. */
  ran?(prompt: string, mode: Mode): Mode;
}

const sites: Site[] = [
  {
    name: 'deepseek',
    variants: deepseek.STREAM_VARIANTS,
    parse: (prompt, mode) =>
      parse(() => {
        const body = { thinking_enabled: hasReasoning(mode), search_enabled: hasSearch(mode) };
        const kind = deepseek.STREAM_VARIANTS.find((v) => prompt.includes(`#replica:${v.name}`));
        const p = new DeepseekStream();
        for (const f of deepseek.chatFrames(prompt, mode, body, kind?.name ?? '2026', SITE_URL))
          p.feed(f);
        if (!p.finished) throw new Error('no end marker');
        return { answer: buildAnswer(p.result()), report: p.report(), version: p.formatVersion };
      }),
    expected: (prompt, mode) => fieldsOf(expectedWebAnswer(prompt, mode, SITE_URL)),
    ran: (prompt, mode) => expectedWebAnswer(prompt, mode, SITE_URL).effectiveMode,
  },
  {
    name: 'doubao',
    variants: doubao.STREAM_VARIANTS,
    parse: (prompt, mode) =>
      parse(() => {
        const a = doubaoAnswer(prompt, {
          deepThink: hasReasoning(mode),
          webSearch: hasSearch(mode),
        });
        const c = { conversationId: '1', sectionId: '2', localConversationId: 'local_3' };
        const variant = doubao.STREAM_VARIANTS.find((v) => prompt.includes(`#replica:${v.name}`));
        const p = new DoubaoStream();
        for (const f of doubao.frames2026(prompt, a, c, { variant: variant?.name })) p.push(f);
        if (!p.done) throw new Error('no end marker');
        return { answer: p.result(), report: p.report(), version: p.version ?? '' };
      }),
    expected: (prompt, mode) => doubaoExpected(prompt, mode),
  },
  {
    name: 'kimi',
    variants: kimi.STREAM_VARIANTS,
    parse: (prompt, mode) =>
      parse(() => {
        const flags = { thinking: hasReasoning(mode), search: hasSearch(mode) };
        const variant = kimi.STREAM_VARIANTS.find((v) => prompt.includes(`#replica:${v.name}`));
        const p = new KimiStreamParser({ mimeType: 'application/connect+json' });
        for (const m of kimi.connectMessages(
          prompt,
          flags,
          SITE_URL,
          undefined,
          false,
          variant?.name,
        )) {
          p.push(connectEnvelope(m.json, m.end ? 2 : 0));
        }
        if (!p.done) throw new Error('no end marker');
        return { answer: buildAnswer(p.raw()), report: p.report(), version: p.formatVersion ?? '' };
      }),
    // The plain stream's answer: Kimi's replica has no expected-answer module.
    expected: (prompt, mode) => {
      const plain = sites[2]!.parse(prompt.replace(/#replica:[a-z0-9_]+/g, ''), mode);
      if ('error' in plain) throw plain.error;
      return plain.answer;
    },
  },
];

for (const site of sites) {
  t.test(`${site.name}: every stream variant in every mode`, async (t) => {
    t.ok(site.variants.length >= 3, 'events before and after the end, a renamed field');
    for (const v of site.variants) {
      for (const mode of MODES) {
        const prompt = `新能源汽车 #replica:${v.name}`;
        const got = site.parse(prompt, mode);
        const label = `${v.name} (${v.what}), ${mode}`;
        if (v.expect === 'drift') {
          t.match(
            'error' in got ? got.error : undefined,
            { message: new RegExp(`^unrecognised ${site.name} stream format`), retryable: false },
            label,
          );
          continue;
        }
        if ('error' in got) {
          t.fail(`${label}: ${got.error.message}`);
          continue;
        }
        if (v.expect === 'witness') {
          // The stream alone is short; the kit's witnesses decide (site-contract.test.ts).
          t.ok((got.report.unplaced ?? []).length > 0, `${label}: text reported as not applied`);
          t.not(got.answer.answerContent, site.expected(prompt, mode).answerContent, label);
          continue;
        }
        t.same(got.answer, site.expected(prompt, mode), `${label}: the exact answer`);
        const notes: string[] = [];
        const ran = effectiveModeOf(mode, got.report, () => mode, { note: (n) => notes.push(n) });
        const want = site.ran?.(prompt, mode) ?? mode;
        t.equal(ran, want, `${label}: the stream shows the mode that ran`);
        t.equal(
          notes.some((n) => n.startsWith('silent fallback')),
          want !== mode,
          `${label}: a fallback is noted, and only a fallback`,
        );
      }
    }
  });
}

t.test('a replica gets every drift but the move to where its call already runs', async (t) => {
  const page = driftsOf('page');
  const worker = driftsOf('worker');
  t.ok(page.includes('call_in_worker') && !page.includes('call_in_page'));
  t.ok(worker.includes('call_in_page') && !worker.includes('call_in_worker'));
  t.same(
    page.filter((d) => !worker.includes(d)),
    ['call_in_worker'],
    'the rest alike',
  );
});

t.test('where the drifted page makes its call', async (t) => {
  t.equal(callFromUnder('call_in_page', 'worker'), 'page');
  t.equal(callFromUnder('call_in_worker', 'page'), 'worker');
  t.equal(callFromUnder('renamed_classes', 'worker'), 'worker');
  t.equal(callFromUnder('none', 'page'), 'page');
});

t.test(
  'a call drift runs its script before the page’s own, and leaves a script file',
  async (t) => {
    const html = '<html><head><script>own()</script></head></html>';
    for (const drift of ['call_in_page', 'call_in_worker'] as const) {
      const drifted = driftPage(html, drift);
      t.ok(drifted.startsWith('<html><head><script>(() => {'), `${drift}: its script first`);
      t.ok(
        drifted.endsWith('<script>own()</script></head></html>'),
        `${drift}: the page's own after`,
      );
      t.equal(driftPage('own()', drift), 'own()', `${drift}: a script file as it was`);
    }
    t.match(driftPage(html, 'call_in_page'), /window\.SharedWorker = /);
    t.match(driftPage(html, 'call_in_worker'), /window\.fetch = /);
  },
);
