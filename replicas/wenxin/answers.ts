/**
 * What the Yiyan replica answers, deterministic per (prompt, mode, model):
 * the thinking model's thought when 深度思考 is on; when 联网搜索 is on, the
 * citation list (`searchCitations.list`), Baijiahao articles first, as
 * Baidu's own search favours them, and the answer's `^[N]^` markers naming
 * the citations' `index`. The ERNIE version changes the wording, so a test
 * sees which one ran.
 */
import { createHash } from 'node:crypto';
import type { Mode } from '../../services/shared/platforms.js';
import { piecesOf, searches, thinks } from '../common/answer-text.js';

export { searches, thinks };

/** The ERNIE versions the page offers: 文心4.5 Turbo, 文心5.0, the thinking 文心X1 Turbo. */
export type Model = 'EB45T' | 'EB5' | 'X1T';

export const MODEL_LABELS: Readonly<Record<Model, string>> = {
  EB45T: '文心4.5 Turbo',
  EB5: '文心5.0',
  X1T: '文心X1 Turbo',
};

export interface ReplicaCitation {
  index: string;
  title: string;
  url: string;
  site: string;
  wild_abstract: string;
}

/** A piece of answer text, or a citation of the one with that `index`. */
export type Piece = string | { cite: number };

export interface ReplicaAnswer {
  thinking: string[];
  citations: ReplicaCitation[];
  pieces: Piece[];
}

const SOURCES = [
  ['https://baijiahao.baidu.com/s?id=', '百家号'],
  ['https://baike.baidu.com/item/', '百度百科'],
  ['https://www.thepaper.cn/newsDetail_forward_', '澎湃新闻'],
  ['https://baijiahao.baidu.com/s?id=', '央视网'],
  ['https://zhidao.baidu.com/question/', '百度知道'],
] as const;

export const topicOf = (prompt: string) => prompt.replace(/ ?#replica:[a-z0-9_]+/g, '').trim();

/** Splits text into short pieces, as the site streams it. */
export const chunks = (text: string, size = 6): string[] => piecesOf(text, size);

export function replicaAnswer(prompt: string, mode: Mode, model: Model): ReplicaAnswer {
  const topic = topicOf(prompt);
  const tag = createHash('sha256').update(`${topic}|${mode}|${model}`).digest('hex').slice(0, 8);
  const search = searches(mode);
  const citations: ReplicaCitation[] = search
    ? SOURCES.map(([base, site], i) => ({
        index: String(i + 1),
        title: `${topic}｜${site}第 ${i + 1} 篇`,
        url: `${base}${tag}${i + 1}`,
        site,
        wild_abstract: `关于${topic}的摘要 ${i + 1}。`,
      }))
    : [];
  const cite = (n: number): Piece[] => (search ? [{ cite: n }] : []);
  return {
    thinking: thinks(mode) ? chunks(`用户想了解「${topic}」。先梳理已知信息，再组织回答。`, 8) : [],
    citations,
    pieces: [
      ...chunks(
        `## ${topic}\n\n结论：文心复制站点由${MODEL_LABELS[model]}给出的确定回答（${tag}）。`,
      ),
      ...cite(1),
      ...chunks(`\n\n- **第一点**：${mode}模式下的主要事实。`),
      ...cite(3),
      ...chunks(`\n- **第二点**：各方观点的比较。\n\n以上内容仅供参考。`),
    ],
  };
}
