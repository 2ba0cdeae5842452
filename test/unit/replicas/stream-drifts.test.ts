/**
 * The stream drifts every replica generates (replicas/common/drift.ts,
 * replicas/<site>/stream-drift.ts), in every mode, through each site's own
 * parser (pure: the replica's frames, no browser). Content-free sentinels
 * leave the exact answer and nothing unplaced; an unknown content-carrying
 * frame or a renamed text field leaves the stream's answer short and reports
 * the text it could not place, never quietly: the kit's witnesses then take
 * the page's answer or fail (site-contract.test.ts runs that in Chromium).
 */
import t from 'tap';
import { MODES, type Mode } from '../../../services/shared/platforms.js';
import { buildAnswer } from '../../../crawler/platforms/common/raw-answer.js';
import { hasReasoning, hasSearch } from '../../../crawler/platforms/common/answer.js';
import type { StreamReport } from '../../../crawler/platforms/common/ran-mode.js';
import { DeepseekStream } from '../../../crawler/platforms/deepseek/web/stream.js';
import { DoubaoStream } from '../../../crawler/platforms/doubao/web/stream.js';
import { KimiStreamParser } from '../../../crawler/platforms/kimi/web/stream.js';
import { YuanbaoStream } from '../../../crawler/platforms/yuanbao/web/stream.js';
import { QwenStream } from '../../../crawler/platforms/qwen/web/stream.js';
import { WenxinStream } from '../../../crawler/platforms/wenxin/web/stream.js';
import { PerplexityStream } from '../../../crawler/platforms/perplexity/web/stream.js';
import { STREAM_DRIFTS, type Drift } from '../../../replicas/common/drift.js';
import * as deepseek from '../../../replicas/deepseek/frames.js';
import { driftDeepseekStream } from '../../../replicas/deepseek/stream-drift.js';
import * as doubao from '../../../replicas/doubao/frames.js';
import { replicaAnswer as doubaoAnswer } from '../../../replicas/doubao/answers.js';
import { driftDoubaoStream } from '../../../replicas/doubao/stream-drift.js';
import * as kimi from '../../../replicas/kimi/frames.js';
import { driftKimiStream } from '../../../replicas/kimi/stream-drift.js';
import * as yuanbao from '../../../replicas/yuanbao/frames.js';
import { driftYuanbaoStream } from '../../../replicas/yuanbao/stream-drift.js';
import * as qwen from '../../../replicas/qwen/frames.js';
import { driftQwenStream } from '../../../replicas/qwen/stream-drift.js';
import * as wenxin from '../../../replicas/wenxin/frames.js';
import { driftWenxinStream } from '../../../replicas/wenxin/stream-drift.js';
import * as perplexity from '../../../replicas/perplexity/frames.js';
import { driftPerplexityStream } from '../../../replicas/perplexity/stream-drift.js';
import { connectEnvelope } from '../../helpers/connect-envelope.js';

const SITE_URL = 'http://127.0.0.1:1';
interface Parsed {
  content: string;
  report: StreamReport;
  done: boolean;
}

const sites: Record<string, (prompt: string, mode: Mode, drift: Drift) => Parsed> = {
  deepseek: (prompt, mode, drift) => {
    const body = { thinking_enabled: hasReasoning(mode), search_enabled: hasSearch(mode) };
    const p = new DeepseekStream();
    const frames = deepseek.chatFrames(prompt, mode, body, '2026', SITE_URL);
    for (const f of driftDeepseekStream(frames, drift)) p.feed(f);
    return { content: buildAnswer(p.result()).answerContent, report: p.report(), done: p.finished };
  },
  doubao: (prompt, mode, drift) => {
    const a = doubaoAnswer(prompt, { deepThink: hasReasoning(mode), webSearch: hasSearch(mode) });
    const c = { conversationId: '1', sectionId: '2', localConversationId: 'local_3' };
    const p = new DoubaoStream();
    for (const f of driftDoubaoStream(doubao.frames2026(prompt, a, c), drift)) p.push(f);
    return { content: p.result().answerContent, report: p.report(), done: p.done };
  },
  kimi: (prompt, mode, drift) => {
    const flags = { thinking: hasReasoning(mode), search: hasSearch(mode) };
    const p = new KimiStreamParser({ mimeType: 'application/connect+json' });
    const messages = kimi.connectMessages(prompt, flags, SITE_URL, undefined, false);
    for (const m of driftKimiStream(messages, drift))
      p.push(connectEnvelope(m.json, m.end ? 2 : 0));
    return { content: buildAnswer(p.raw()).answerContent, report: p.report(), done: p.done };
  },
  yuanbao: (prompt, mode, drift) => {
    const p = new YuanbaoStream();
    const frames = yuanbao.chatFrames(prompt, mode, 'hunyuan', 'normal');
    for (const f of driftYuanbaoStream(frames, drift)) p.feed(f);
    return { content: buildAnswer(p.result()).answerContent, report: p.report(), done: p.finished };
  },
  qwen: (prompt, mode, drift) => {
    const p = new QwenStream();
    for (const f of driftQwenStream(qwen.chatFrames(prompt, mode, 'normal'), drift)) p.feed(f);
    return { content: buildAnswer(p.result()).answerContent, report: p.report(), done: p.finished };
  },
  wenxin: (prompt, mode, drift) => {
    const p = new WenxinStream();
    const ids = { sessionId: 's', chatId: 'c' };
    const model = hasReasoning(mode) ? 'X1T' : 'EB45T';
    const frames = wenxin.chatFrames(prompt, mode, model, 'normal', ids);
    for (const f of driftWenxinStream(frames, drift)) p.feed(f);
    return { content: buildAnswer(p.result()).answerContent, report: p.report(), done: p.finished };
  },
  perplexity: (prompt, mode, drift) => {
    const p = new PerplexityStream();
    const frames = perplexity.chatFrames(prompt, mode, 'normal');
    for (const f of driftPerplexityStream(frames, drift)) p.feed(f);
    return { content: buildAnswer(p.result()).answerContent, report: p.report(), done: p.finished };
  },
};

for (const [site, parse] of Object.entries(sites)) {
  t.test(`${site}: every stream drift in every mode`, async (t) => {
    for (const mode of MODES) {
      const prompt = `新能源汽车的电池技术 ${mode}`;
      const plain = parse(prompt, mode, 'none');
      t.ok(plain.done && plain.content !== '', `${mode}: the plain stream answers`);
      for (const [drift, yields] of Object.entries(STREAM_DRIFTS) as [Drift, string][]) {
        const got = parse(prompt, mode, drift);
        const label = `${drift}, ${mode}`;
        t.ok(got.done, `${label}: the end marker`);
        if (yields === 'answer') {
          t.equal(got.content, plain.content, `${label}: the exact answer`);
          t.equal(got.report.unplaced, undefined, `${label}: nothing unplaced`);
          continue;
        }
        t.ok((got.report.unplaced ?? []).length > 0, `${label}: ${got.report.unplaced?.[0]}`);
        t.ok(got.content.length < plain.content.length, `${label}: the stream alone is short`);
      }
    }
  });
}
