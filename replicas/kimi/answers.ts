/**
 * The replica's deterministic answers: the same prompt and mode always give
 * the same reasoning, Markdown text with Kimi's `[^n^]` citation marks,
 * search results (title, URL, site name, icon) and follow-up questions.
 */
import { createHash } from 'node:crypto';
import { piecesOf } from '../common/answer-text.js';

export interface ReplicaResult {
  title: string;
  url: string;
  siteName: string;
  icon: string;
}

export interface ReplicaAnswer {
  think: string;
  text: string;
  results: ReplicaResult[];
  suggestions: string[];
}

export interface ReplicaMode {
  thinking: boolean;
  search: boolean;
}

/** The prompt without replica directives, as the answer quotes it. */
export const topicOf = (prompt: string) => prompt.replace(/#replica:[a-z0-9_]+/g, '').trim();

export function replicaAnswer(prompt: string, mode: ReplicaMode, siteUrl: string): ReplicaAnswer {
  const topic = topicOf(prompt);
  const n = parseInt(createHash('sha256').update(topic).digest('hex').slice(0, 8), 16);
  const results: ReplicaResult[] = mode.search
    ? [
        {
          title: `${topic} - 百度百科`,
          url: `https://baike.baidu.com/item/${encodeURIComponent(topic)}`,
          siteName: '百度百科',
          icon: `${siteUrl}/static/icons/baike.svg`,
        },
        {
          title: `如何看待${topic}？ - 知乎`,
          url: `https://www.zhihu.com/question/${600_000_000 + (n % 99_999_999)}`,
          siteName: '知乎',
          icon: `${siteUrl}/static/icons/zhihu.svg`,
        },
        {
          title: `${topic}最新进展`,
          url: `https://news.sina.com.cn/c/2026-11-${10 + (n % 18)}/doc-${n.toString(36)}.shtml`,
          siteName: '新浪新闻',
          icon: `${siteUrl}/static/icons/sina.svg`,
        },
      ]
    : [];
  const cite = (i: number) => (mode.search ? `[^${i}^]` : '');
  const text = [
    `## 关于「${topic}」`,
    `**${topic}**有三个要点值得关注${cite(1)}。`,
    `1. 背景：相关讨论已持续 ${2 + (n % 7)} 年${cite(1)}。\n2. 现状：市场规模约 ${100 + (n % 900)} 亿元${cite(3)}。\n3. 展望：预计保持增长。`,
    `总结：以上信息仅供参考。`,
  ].join('\n\n');
  return {
    think: mode.thinking
      ? `用户想了解「${topic}」。我先梳理背景，再看现状和趋势。\n\n需要给出清晰的要点。`
      : '',
    text,
    results,
    suggestions: [
      `${topic}的发展历史是怎样的？`,
      `${topic}有哪些代表企业？`,
      `${topic}未来趋势如何？`,
    ],
  };
}

/** The text in pieces, as the site streams it. */
export const pieces = (text: string, size = 16): string[] => piecesOf(text, size);
