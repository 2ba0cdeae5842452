/**
 * The insights of a task's visibility (docs/insights.md) as export rows, pure:
 * the discovered brands table (one row per brand) and the citation
 * opportunities table (one row per domain). CSV and the XLSX sheets
 * "discovered" and "opportunities" share them; NDJSON writes the visibility's
 * own records. A cell holding a list has one item a line, in the
 * visibility's order, so a spreadsheet shows it as a short column and no
 * separator can clash with a prompt's commas.
 */
import type { CitationOpportunity, DiscoveredBrand } from '../../shared/contracts/brand.js';
import type { Cell } from './csv.js';

/** `sandbox`, `sandbox web`, `sandbox web search`: a place as the rows name it. */
function placeName(p: { platform: string; channel?: string; mode?: string }): string {
  return [p.platform, p.channel, p.mode].filter(Boolean).join(' ');
}

const lines = (items: readonly string[]): string => items.join('\n');

export const DISCOVERED_HEADER = [
  'name',
  'answers',
  'share',
  'average position',
  'best position',
  'places',
  'example subTaskId',
  'example platform',
  'example prompt',
];

/** `places`: one line per place, `<platform> [channel] [mode]: <answers> (<share>)`. */
export function discoveredRow(d: DiscoveredBrand): Cell[] {
  return [
    d.name,
    d.answers,
    d.share,
    d.averagePosition,
    d.bestPosition,
    lines(d.places.map((p) => `${placeName(p)}: ${p.answers} (${p.share})`)),
    d.example.subTaskId,
    d.example.platform,
    d.example.prompt,
  ];
}

export const OPPORTUNITY_HEADER = [
  'domain',
  'tag',
  'keyword',
  'answers',
  'user answers',
  'retrieved answers',
  'competitors',
  'page URLs',
  'page titles',
  'retrieved URLs',
  'retrieved titles',
  'prompts',
  'places',
];

/** URLs and titles in two cells of as many lines, the n-th title the n-th URL's. */
export function opportunityRow(o: CitationOpportunity): Cell[] {
  return [
    o.domain,
    o.tag,
    o.keyword ?? null,
    o.answers,
    o.userAnswers,
    o.retrievedAnswers,
    lines(o.competitors),
    lines(o.pages.map((p) => p.url)),
    lines(o.pages.map((p) => p.title)),
    lines(o.retrieved.map((p) => p.url)),
    lines(o.retrieved.map((p) => p.title)),
    lines(o.prompts),
    lines(o.places.map(placeName)),
  ];
}
