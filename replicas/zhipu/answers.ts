/**
 * What the ChatGLM replica answers, deterministic per (prompt, mode): the
 * chain of thought when 深度思考 is on; when 联网搜索 is on, the search
 * results (each with the `match_key` its citations name) and the answer's
 * citation marks. The topic drops every `#replica:` directive, so a
 * variant answers the plain prompt's words.
 */
import type { Mode } from '../../services/shared/platforms.js';
import { answerTag, piecesOf, searches, thinks, topicOf } from '../common/answer-text.js';

export { searches, thinks, topicOf };

export interface ReplicaSource {
  title: string;
  url: string;
  site_name: string;
  match_key: string;
  text: string;
}

/** A piece of answer text, or a citation of the source at that 0-based place. */
export type Piece = string | { cite: number };

export interface ReplicaAnswer {
  thinking: string[];
  sources: ReplicaSource[];
  pieces: Piece[];
}

const SITES = [
  ['https://www.zhihu.com/question/', '知乎'],
  ['https://baike.baidu.com/item/', '百度百科'],
  ['https://www.36kr.com/p/', '36氪'],
  ['https://news.sina.com.cn/c/', '新浪新闻'],
] as const;

/** Splits text into short pieces, as the site grows its snapshots. */
export const chunks = (text: string, size = 6): string[] => piecesOf(text, size);

export function replicaAnswer(prompt: string, mode: Mode): ReplicaAnswer {
  const topic = topicOf(prompt);
  const tag = answerTag(topic, mode);
  const search = searches(mode);
  const sources: ReplicaSource[] = search
    ? SITES.map(([base, site], i) => ({
        title: `${topic}：${site}第 ${i + 1} 条结果`,
        url: `${base}${tag}-${i + 1}`,
        site_name: site,
        match_key: `turn0search${i}`,
        text: `关于${topic}的摘要 ${i + 1}。`,
      }))
    : [];
  const cite = (n: number): Piece[] => (search ? [{ cite: n }] : []);
  return {
    thinking: thinks(mode) ? chunks(`用户想了解「${topic}」。先梳理要点，再作答。`, 8) : [],
    sources,
    pieces: [
      ...chunks(`## 「${topic}」概览\n\n智谱清言复制站点的确定回答（${tag}）。`),
      ...cite(0),
      ...chunks(`\n\n- **第一点**：${mode}模式的主要事实。`),
      ...cite(2),
      ...chunks(`\n- **第二点**：各方观点的比较。\n\n仅供参考。`),
    ],
  };
}
