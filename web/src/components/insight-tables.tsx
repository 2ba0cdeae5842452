/**
 * A task's two insights (docs/insights.md) as tables: the brands its answers
 * recommend that no group watches, each with an example answer to open, and
 * the domains cited where a competitor is named and the first group is not,
 * with their pages. Both scroll inside their own box on a phone.
 */
import { useT } from '../i18n.js';
import { percent, platformLabel } from '../format.js';
import { onLink, paths } from '../router.js';
import type { Visibility } from '../types.js';

type Discovered = Visibility['discovered'][number];
type Opportunity = Visibility['opportunities'][number];
type Page = Opportunity['pages'][number];

const position = (n: number): string => (Math.round(n * 10) / 10).toString();

function PageLinks({ pages, testId }: { pages: Page[]; testId: string }) {
  if (pages.length === 0) return <span class="muted">—</span>;
  return (
    <ul class="links" data-testid={testId}>
      {pages.map((p) => (
        <li>
          <a href={p.url} target="_blank" rel="noopener noreferrer" title={p.url}>
            {p.title || p.url}
          </a>
        </li>
      ))}
    </ul>
  );
}

const Lines = ({ items }: { items: string[] }) =>
  items.length === 0 ? (
    <span class="muted">—</span>
  ) : (
    <ul class="lines">
      {items.map((x) => (
        <li>{x}</li>
      ))}
    </ul>
  );

function DiscoveredTable({ taskId, brands }: { taskId: string; brands: Discovered[] }) {
  const t = useT();
  if (brands.length === 0) return <p class="muted">{t('noDiscovered')}</p>;
  return (
    <div class="grid-scroll">
      <table class="insights" data-testid="discovered">
        <thead>
          <tr>
            <th>{t('brand')}</th>
            <th>{t('answersNaming')}</th>
            <th>{t('shareOfAnswers')}</th>
            <th>{t('meanPosition')}</th>
            <th>{t('bestPosition')}</th>
            <th>{t('where')}</th>
            <th>{t('example')}</th>
          </tr>
        </thead>
        <tbody>
          {brands.map((d) => (
            <tr data-testid="discovered-row">
              <th class="name">{d.name}</th>
              <td class="num">{d.answers}</td>
              <td class="num">{percent(d.share)}</td>
              <td class="num">{position(d.averagePosition)}</td>
              <td class="num">{d.bestPosition}</td>
              <td>
                <Lines items={d.places.map((p) => `${platformLabel(p)}: ${p.answers}`)} />
              </td>
              <td class="example">
                <a
                  href={paths.answer(taskId, d.example.subTaskId)}
                  onClick={onLink}
                  title={d.example.prompt}
                  data-testid="discovered-example"
                >
                  {d.example.prompt || d.example.platform}
                </a>
                <small>{d.example.platform}</small>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function OpportunityTable({ domains }: { domains: Opportunity[] }) {
  const t = useT();
  if (domains.length === 0) return <p class="muted">{t('noOpportunities')}</p>;
  return (
    <div class="grid-scroll">
      <table class="insights" data-testid="opportunities">
        <thead>
          <tr>
            <th>{t('domain')}</th>
            <th>{t('competitorAnswers')}</th>
            <th>{t('userAnswers')}</th>
            <th>{t('pages')}</th>
            <th>{t('retrievedPages')}</th>
            <th>{t('competitorsNamed')}</th>
            <th>{t('promptsAsked')}</th>
            <th>{t('platformsSeen')}</th>
          </tr>
        </thead>
        <tbody>
          {domains.map((o) => (
            <tr data-testid="opportunity-row">
              <th class="name">
                {o.domain}
                {o.tag !== 'other' && <small>{o.keyword ? `${o.tag}: ${o.keyword}` : o.tag}</small>}
              </th>
              <td class="num">{o.answers}</td>
              <td class="num" data-testid="contrast">
                {o.userAnswers}
              </td>
              <td>
                <PageLinks pages={o.pages} testId="pages" />
              </td>
              <td>
                <PageLinks pages={o.retrieved} testId="retrieved" />
              </td>
              <td>
                <Lines items={o.competitors} />
              </td>
              <td>
                <Lines items={o.prompts} />
              </td>
              <td>
                <Lines items={o.places.map(platformLabel)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function InsightTables({ taskId, visibility }: { taskId: string; visibility: Visibility }) {
  const t = useT();
  return (
    <>
      <section class="card" data-testid="discovered-card">
        <h2>{t('discoveredTitle')}</h2>
        <p class="muted">{t('discoveredHint')}</p>
        <DiscoveredTable taskId={taskId} brands={visibility.discovered} />
      </section>
      <section class="card" data-testid="opportunities-card">
        <h2>{t('opportunitiesTitle')}</h2>
        <p class="muted">{t('opportunitiesHint')}</p>
        <OpportunityTable domains={visibility.opportunities} />
      </section>
    </>
  );
}
