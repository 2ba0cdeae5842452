/**
 * What the DeepSeek replica answers, deterministic per (prompt, mode): the
 * reasoning when 深度思考 is on; when 智能搜索 is on, the queries, five search
 * results (site name and icon each), the pages read (TOOL_OPEN) and the ones
 * the answer cites. DeepSeek shows no follow-up questions and no media, so the
 * replica has none either.
 */
import type { Mode } from '../../services/shared/platforms.js';
import { answerTag, piecesOf, searches, thinks } from '../common/answer-text.js';

export interface ReplicaSource {
  url: string;
  title: string;
  snippet: string;
  site_name: string;
  site_icon: string;
  published_at: number;
}

/** A piece of answer text, or a citation of `results[cite]`. */
export type Piece = string | { cite: number };

export interface ReplicaAnswer {
  thinking: string[];
  queries: string[];
  results: ReplicaSource[];
  /** Indices into results of the pages read, in reading order. */
  opened: number[];
  pieces: Piece[];
  title: string;
}

const SITES = [
  ['www.36kr.com', '36氪'],
  ['zhuanlan.zhihu.com', '知乎专栏'],
  ['www.sohu.com', '搜狐'],
  ['www.news.cn', '新华网'],
  ['baike.baidu.com', '百度百科'],
] as const;

/** Splits text into short pieces, as the site streams it. */
const chunks = (text: string, size = 7): string[] => piecesOf(text, size);

export function replicaAnswer(prompt: string, mode: Mode, siteUrl: string): ReplicaAnswer {
  const topic = prompt.replace(/#replica:[a-z_]+/g, '').trim();
  const tag = answerTag(topic, mode);
  const search = searches(mode);
  const results: ReplicaSource[] = search
    ? SITES.map(([host, name], i) => ({
        url: `https://${host}/p/${tag}-${i + 1}`,
        title: `${topic}：${name}的第 ${i + 1} 篇分析`,
        snippet: `关于${topic}的要点 ${i + 1}。`,
        site_name: name,
        site_icon: `${siteUrl}/site-icons/${host}`,
        published_at: 1_760_000_000 + i * 86_400,
      }))
    : [];
  const cite = (n: number): Piece[] => (search ? [{ cite: n }] : []);
  const pieces: Piece[] = [
    ...chunks(`## 关于「${topic}」\n\n结论：这是复制站点给出的确定回答（${tag}）。`),
    ...cite(1),
    ...chunks(`\n\n- **要点一**：先看${mode}模式下的主要事实。`),
    ...cite(4),
    ...chunks(`\n- **要点二**：再比较各方的说法。\n\n以上仅供参考。`),
  ];
  return {
    thinking: thinks(mode)
      ? chunks(`用户问的是「${topic}」。我先梳理已知信息，再组织结论。`, 9)
      : [],
    queries: search ? [topic, `${topic} 最新`] : [],
    results,
    opened: search ? [1, 3, 4] : [],
    pieces,
    title: topic.slice(0, 20),
  };
}
