/** The insight tables' texts (docs/insights.md), in English and Chinese; i18n.ts adds them to the dashboard's. */

export const insightsEn = {
  discoveredTitle: 'Brands the answers recommend that you do not watch',
  discoveredHint:
    'Named in recommendation lists, tables or in bold, matching none of your keyword groups.',
  brand: 'Brand',
  answersNaming: 'Answers',
  shareOfAnswers: 'Share',
  meanPosition: 'Mean position',
  bestPosition: 'Best',
  where: 'Where',
  example: 'Example',
  opportunitiesTitle: 'Sources cited where competitors are named and you are not',
  opportunitiesHint:
    'Answers naming a competitor but not your first brand cite these domains; "where you are named" counts the answers naming you that cite them.',
  domain: 'Domain',
  competitorAnswers: 'Answers without you',
  userAnswers: 'Where you are named',
  pages: 'Pages',
  retrievedPages: 'Retrieved, not cited',
  competitorsNamed: 'Competitors named',
  promptsAsked: 'Prompts',
  platformsSeen: 'Platforms',
  noDiscovered: 'No answer recommends a brand outside your groups yet.',
  noOpportunities: 'No answer cites a source where a competitor is named and you are not yet.',
};

export const insightsZh: typeof insightsEn = {
  discoveredTitle: '回答推荐了、但您未监测的品牌',
  discoveredHint: '出现在推荐列表、表格或加粗文字中，且不属于任何关键词组。',
  brand: '品牌',
  answersNaming: '回答数',
  shareOfAnswers: '占比',
  meanPosition: '平均位置',
  bestPosition: '最佳',
  where: '出现于',
  example: '示例',
  opportunitiesTitle: '提及竞品而未提及您的回答所引用的来源',
  opportunitiesHint:
    '提及竞品但未提及您的首个品牌的回答引用了这些域名；“提及您时”为提及您的回答中引用它的次数。',
  domain: '域名',
  competitorAnswers: '未提及您的回答',
  userAnswers: '提及您时',
  pages: '页面',
  retrievedPages: '检索但未引用',
  competitorsNamed: '提及的竞品',
  promptsAsked: '提示词',
  platformsSeen: '平台',
  noDiscovered: '暂无回答推荐您关键词组以外的品牌。',
  noOpportunities: '暂无提及竞品而未提及您的回答引用来源。',
};
