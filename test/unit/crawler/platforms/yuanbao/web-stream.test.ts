/**
 * Yuanbao's chat stream parser over every frame shape: the replica's streams
 * (each kind, each mode, both models), fed whole, cut at every byte and byte
 * by byte with CRLF line ends; hand-written frames for what the replica does
 * not send; the conversation detail's docs; and the chat call's JSON errors,
 * each the signal it means.
 */
import t from 'tap';
import { buildAnswer } from '../../../../../crawler/platforms/common/raw-answer.js';
import { PlatformError, type WebAnswer } from '../../../../../crawler/platforms/types.js';
import { YuanbaoStream, frameText } from '../../../../../crawler/platforms/yuanbao/web/stream.js';
import { docsOfDetail } from '../../../../../crawler/platforms/yuanbao/web/detail.js';
import { chatCallFailure } from '../../../../../crawler/platforms/yuanbao/web/envelope.js';
import { chatFrames, conversationDetail } from '../../../../../replicas/yuanbao/frames.js';
import { expectedWebAnswer } from '../../../../../replicas/yuanbao/expected.js';
import { MODES } from '../../../../../services/shared/platforms.js';

type Outcome =
  | { finished: boolean; trailing: number; answer: ReturnType<typeof buildAnswer>; refusal: string }
  | { error: string; status: string; retryable: boolean; account: string | undefined };

function run(chunks: readonly (string | Uint8Array)[]): Outcome & { frames?: string[] } {
  const p = new YuanbaoStream();
  const frames: string[] = [];
  try {
    const take = (events: ReturnType<YuanbaoStream['push']>) => {
      for (const e of events) {
        frames.push(frameText(e));
        p.apply(e);
      }
    };
    for (const c of chunks) take(p.push(c));
    take(p.end());
  } catch (err) {
    if (!(err instanceof PlatformError)) throw err;
    return {
      error: err.message,
      status: err.status,
      retryable: err.retryable,
      account: err.account?.state,
    };
  }
  const raw = p.result();
  return {
    finished: p.finished,
    trailing: p.trailing,
    answer: buildAnswer(raw),
    refusal: raw.refusal,
  };
}

const answerOf = (o: Outcome) => ('answer' in o ? o.answer : o);
const expectedFields = (
  prompt: string,
  mode: (typeof MODES)[number],
  model: 'hunyuan' | 'deepseek',
) => {
  const fields: Partial<WebAnswer> = { ...expectedWebAnswer(prompt, mode, model) };
  delete fields.effectiveMode;
  delete fields.formatVersion;
  // Which witness answered is the kit's, not the parser's.
  delete fields.answerSource;
  // The stream names no model: the driver reads the page's label.
  delete fields.modelReported;
  return fields;
};

t.test('every mode and model: the exact fields, the end marker seen', async (t) => {
  for (const model of ['hunyuan', 'deepseek'] as const) {
    for (const mode of MODES) {
      const o = run(chatFrames('新能源汽车', mode, model, 'normal'));
      t.same(answerOf(o), expectedFields('新能源汽车', mode, model), `${model} ${mode}`);
      t.equal('finished' in o && o.finished, true);
    }
  }
});

t.test('cut at every byte, and byte by byte, with CRLF line ends: the same answer', async (t) => {
  const whole = chatFrames('公众号文章', 'reasoning_search', 'hunyuan', 'normal')
    .join('')
    .replace(/\n/g, '\r\n');
  const bytes = Buffer.from(whole, 'utf8');
  const want = expectedFields('公众号文章', 'reasoning_search', 'hunyuan');
  for (let cut = 1; cut < bytes.length; cut += 7) {
    t.same(answerOf(run([bytes.subarray(0, cut), bytes.subarray(cut)])), want, `cut at ${cut}`);
  }
  t.same(answerOf(run([...bytes].map((b) => Uint8Array.of(b)))), want, 'byte by byte');
});

t.test('WeChat articles keep their official account as the site', async (t) => {
  const o = run(chatFrames('小程序', 'search', 'hunyuan', 'normal'));
  const refs = answerOf(o) as ReturnType<typeof buildAnswer>;
  const wechat = refs.referenceList.filter((r) => r.url.startsWith('https://mp.weixin.qq.com/'));
  t.same(
    wechat.map((r) => r.site),
    ['腾讯科技', '36氪', '新华社'],
  );
  t.same(
    refs.citationList.map((r) => r.index),
    [1, 4],
  );
});

t.test('frames after the end marker are recorded, never the answer', async (t) => {
  const o = run(chatFrames('茶叶', 'search', 'hunyuan', 'late_events'));
  t.same(answerOf(o), expectedFields('茶叶', 'search', 'hunyuan'));
  t.equal('trailing' in o && o.trailing, 2);
});

t.test(
  'unknown frames without text before the end are kept aside; a renamed text field still reads',
  async (t) => {
    t.same(
      answerOf(run(chatFrames('茶叶', 'standard', 'hunyuan', 'early_events'))),
      expectedFields('茶叶', 'standard', 'hunyuan'),
    );
    t.same(
      answerOf(run(chatFrames('茶叶', 'search', 'deepseek', 'renamed_field'))),
      expectedFields('茶叶', 'search', 'deepseek'),
    );
  },
);

t.test(
  'an unknown frame carrying text is reported as not applied; a bare sentinel is skipped',
  async (t) => {
    const o = new YuanbaoStream();
    for (const f of chatFrames('茶叶', 'standard', 'hunyuan', 'unknown_frame')) o.feed(f);
    t.same(o.report().unplaced, ['frame type "card" with text in "msg"'], 'for the witnesses');
    const plain = run(chatFrames('茶叶', 'standard', 'hunyuan', 'normal'));
    // Issue 29: public 2026 captures open the stream with a bare text frame.
    const sentinels = [
      'data: {"type":"text"}\n\n',
      ...chatFrames('茶叶', 'standard', 'hunyuan', 'normal'),
    ];
    const answerOf = (o: object) => ('answer' in o ? o.answer : o);
    t.same(answerOf(run(sentinels)), answerOf(plain), 'a bare {"type":"text"} is skipped');
    const s = new YuanbaoStream();
    s.feed('data: {"type":"text"}\n\ndata: {"type":"text","message":"字"}\n\n');
    t.same(s.report().ignored, ['a text frame without content']);
    t.same(s.report().unplaced, ['a text frame with text in "message"']);
    t.match(run(['data: {"type":"searchGuid","docs":"x"}\n\n']), {
      error: /searchGuid frame without docs/,
    });
    t.match(run(['data: <html>\n\n']), { error: /not JSON/ });
    t.match(run(['data: [1]\n\n']), { error: /not an object/ });
  },
);

t.test('the location-verification message: the account needs a person', async (t) => {
  t.match(run(chatFrames('茶叶', 'standard', 'hunyuan', 'location')), {
    error: /^location_verification: 为保障账号安全/,
    account: 'needs_human',
  });
  // Named by its words alone, in a frame type the parser has never seen.
  t.match(run(['data: {"type":"notice","msg":"请先进行位置验证"}\n\n']), {
    error: /^location_verification: 请先进行位置验证/,
    account: 'needs_human',
  });
});

t.test('a refusal is read as one, not as an answer', async (t) => {
  const o = run(chatFrames('茶叶', 'standard', 'hunyuan', 'refusal'));
  t.match(o, { refusal: /暂时无法回答/ });
  t.equal((answerOf(o) as ReturnType<typeof buildAnswer>).answerContent, '');
});

t.test('a stream cut before [DONE] is not finished; what ran comes from the stream', async (t) => {
  const p = new YuanbaoStream();
  p.feed(chatFrames('茶叶', 'reasoning', 'hunyuan', 'no_end').join(''));
  p.end().forEach((e) => p.apply(e));
  t.equal(p.finished, false);
  t.same(p.ran(), { thinking: true, search: false });
  const s = new YuanbaoStream();
  s.feed(chatFrames('茶叶', 'search', 'hunyuan', 'normal').join(''));
  t.same(s.ran(), { thinking: false, search: true });
});

t.test('docs the stream lacked come from the conversation detail', async (t) => {
  const p = new YuanbaoStream();
  p.feed(chatFrames('茶叶', 'search', 'deepseek', 'no_sources').join(''));
  t.equal(p.hasDocs, false);
  const docs = docsOfDetail(conversationDetail('c1', '茶叶', 'search', 'deepseek'));
  t.ok(docs);
  p.setDocs(docs!);
  t.same(buildAnswer(p.result()), expectedFields('茶叶', 'search', 'deepseek'));
  t.equal(docsOfDetail(conversationDetail('c1', '茶叶', 'standard', 'deepseek')), undefined);
  t.equal(docsOfDetail({ convs: 'x' }), undefined);
  t.equal(docsOfDetail(null), undefined);
});

t.test('the chat call JSON errors, each its signal', async (t) => {
  const err = (status: number, body: string) => {
    const e = chatCallFailure(status, body);
    return {
      message: e.message,
      status: e.status,
      retryable: e.retryable,
      account: e.account?.state,
    };
  };
  t.match(err(401, '{"error":{"code":"20003","message":"用户未注册"}}'), {
    message: /^login wall: HTTP 401/,
    account: 'needs_human',
  });
  t.match(err(403, '{"error":{"code":"20013","message":"请完成安全验证"}}'), {
    message: /^captcha: /,
    account: 'needs_human',
  });
  t.match(err(429, '{"error":{"code":"20029","message":"今日请求过频，请稍后再试"}}'), {
    message: /rate or quota limit on yuanbao/,
    status: 'error',
    account: 'cooling',
  });
  t.match(err(200, '{"error":{"code":"1","message":"请先完成位置验证"}}'), {
    message: /^location_verification/,
  });
  t.match(err(500, 'upstream down'), {
    message: /refused the chat call: HTTP 500 upstream down/,
    retryable: true,
    account: undefined,
  });
});
