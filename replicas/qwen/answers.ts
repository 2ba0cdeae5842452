/**
 * What the Qwen replica answers, deterministic per (prompt, mode): the
 * reasoning when 深度思考 is on; when 联网搜索 is on, the web-search sources
 * (url, title, snippet, hostname, hostlogo, date, as chat.qwen.ai lists
 * them) and the answer's `[[N]]` markers naming the N-th source.
 */
import type { Mode } from '../../services/shared/platforms.js';
import { answerTag, piecesOf, searches, thinks } from '../common/answer-text.js';

export { searches, thinks };

export interface ReplicaSource {
  url: string;
  title: string;
  snippet: string;
  hostname: string;
  hostlogo: string;
  date: string;
}

/** A piece of answer text, or a citation of the source at that place in the list. */
export type Piece = string | { cite: number };

export interface ReplicaAnswer {
  thinking: string[];
  sources: ReplicaSource[];
  pieces: Piece[];
}

const HOSTS = ['www.zhihu.com', 'baike.baidu.com', 'www.36kr.com', 'news.cctv.com', 'www.sohu.com'];

export const topicOf = (prompt: string) => prompt.replace(/#replica:[a-z0-9_]+/g, '').trim();

/** Splits text into short pieces, as the site streams it. */
export const chunks = (text: string, size = 6): string[] => piecesOf(text, size);

export function replicaAnswer(prompt: string, mode: Mode): ReplicaAnswer {
  const topic = topicOf(prompt);
  const tag = answerTag(topic, mode);
  const search = searches(mode);
  const sources: ReplicaSource[] = search
    ? HOSTS.map((host, i) => ({
        url: `https://${host}/qwen-${tag}-${i + 1}`,
        title: `${topic}：${host} 的第 ${i + 1} 篇`,
        snippet: `关于${topic}的要点 ${i + 1}。`,
        hostname: host,
        hostlogo: `https://img.alicdn.com/imgextra/favicon-${i + 1}.png`,
        date: ` (2026-11-0${i + 1})`,
      }))
    : [];
  const cite = (n: number): Piece[] => (search ? [{ cite: n }] : []);
  return {
    thinking: thinks(mode) ? chunks(`用户想了解「${topic}」。先梳理要点，再给出结论。`, 8) : [],
    sources,
    pieces: [
      ...chunks(`## 关于「${topic}」\n\n结论：千问复制站点的确定回答（${tag}）。`),
      ...cite(1),
      ...chunks(`\n\n- **要点一**：${mode}模式下的主要事实。`),
      ...cite(3),
      ...chunks(`\n- **要点二**：再比较各方说法。\n\n以上仅供参考。`),
    ],
  };
}
