/**
 * What the Yuanbao replica answers, deterministic per (prompt, mode, model):
 * the chain of thought when 深度思考 is on; when 联网搜索 is on, the search
 * document list (`searchGuid` docs), WeChat official-account articles first,
 * as Yuanbao's own search favours them, and the answer's `[citation:N]`
 * markers naming the docs' `index`. The model (混元 or DeepSeek inside
 * Yuanbao) changes the wording, so a test sees which one ran.
 */
import { createHash } from 'node:crypto';
import type { Mode } from '../../services/shared/platforms.js';
import { piecesOf, searches, thinks } from '../common/answer-text.js';

export { searches, thinks };

export type Model = 'hunyuan' | 'deepseek';

export interface ReplicaDoc {
  index: number;
  url: string;
  title: string;
  quote: string;
  web_site_name: string;
  publish_time: string;
}

/** A piece of answer text, or a citation of the doc with that `index`. */
export type Piece = string | { cite: number };

export interface ReplicaAnswer {
  thinking: string[];
  docs: ReplicaDoc[];
  pieces: Piece[];
}

/** WeChat articles (公众号 names as the site) and web pages, in the list's order. */
const SOURCES = [
  ['https://mp.weixin.qq.com/s/', '腾讯科技'],
  ['https://mp.weixin.qq.com/s/', '36氪'],
  ['https://www.sohu.com/a/', '搜狐'],
  ['https://mp.weixin.qq.com/s/', '新华社'],
  ['https://baike.baidu.com/item/', '百度百科'],
] as const;

export const topicOf = (prompt: string) => prompt.replace(/#replica:[a-z_]+/g, '').trim();

/** Splits text into short pieces, as the site streams it. */
export const chunks = (text: string, size = 6): string[] => piecesOf(text, size);

export function replicaAnswer(prompt: string, mode: Mode, model: Model): ReplicaAnswer {
  const topic = topicOf(prompt);
  const tag = createHash('sha256').update(`${topic}|${mode}|${model}`).digest('hex').slice(0, 8);
  const search = searches(mode);
  const docs: ReplicaDoc[] = search
    ? SOURCES.map(([base, site], i) => ({
        index: i + 1,
        url: `${base}${tag}-${i + 1}`,
        title: `${topic}：${site}的第 ${i + 1} 篇文章`,
        quote: `关于${topic}的要点 ${i + 1}。`,
        web_site_name: site,
        publish_time: `2026-11-0${i + 1} 08:00:00`,
      }))
    : [];
  const cite = (n: number): Piece[] => (search ? [{ cite: n }] : []);
  const by = model === 'deepseek' ? 'DeepSeek' : '混元';
  return {
    thinking: thinks(mode) ? chunks(`用户问的是「${topic}」。我先回顾资料，再给出结论。`, 8) : [],
    docs,
    pieces: [
      ...chunks(`## 关于「${topic}」\n\n结论：元宝复制站点由${by}给出的确定回答（${tag}）。`),
      ...cite(1),
      ...chunks(`\n\n- **要点一**：${mode}模式下的主要事实。`),
      ...cite(4),
      ...chunks(`\n- **要点二**：再比较各方说法。\n\n以上仅供参考。`),
    ],
  };
}
