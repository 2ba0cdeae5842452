/** Previous / page n of m / next, for a paged list. */
import { useT } from '../i18n.js';

interface Props {
  page: number;
  pages: number;
  onPage: (page: number) => void;
}

export function Pager({ page, pages, onPage }: Props) {
  const t = useT();
  return (
    <div class="row pager">
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('previous')}
      </button>
      <span>{t('pageOf', { page, pages })}</span>
      <button type="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t('next')}
      </button>
    </div>
  );
}
