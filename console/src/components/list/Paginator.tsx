import { useId } from 'react';
import { Icon } from '../icons.tsx';
import { PAGE_SIZES } from './useListState.ts';

/** Page numbers around the current one, with gaps: 1 … 4 5 [6] 7 8 … 20. */
function pageWindow(page: number, pages: number): (number | 'gap')[] {
  const wanted = new Set([1, pages, page - 2, page - 1, page, page + 1, page + 2].filter((p) => p >= 1 && p <= pages));
  const sorted = [...wanted].sort((a, b) => a - b);
  const out: (number | 'gap')[] = [];
  sorted.forEach((p, i) => {
    if (i > 0 && p - sorted[i - 1] > 1) out.push('gap');
    out.push(p);
  });
  return out;
}

export function ItemsPerPage({ size, onChange }: { size: number; onChange: (size: number) => void }) {
  const id = useId();
  return (
    <div className="items-per-page">
      <label htmlFor={id}>Items per page</label>
      <select id={id} value={size} onChange={(e) => onChange(Number(e.target.value))}>
        {PAGE_SIZES.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
    </div>
  );
}

export function Paginator({ page, size, total, onPage }: { page: number; size: number; total: number; onPage: (page: number) => void }) {
  const pages = Math.max(1, Math.ceil(total / size));
  const first = total === 0 ? 0 : (page - 1) * size + 1;
  const last = Math.min(total, page * size);
  const go = (p: number) => onPage(Math.min(pages, Math.max(1, p)));
  return (
    <nav className="paginator" aria-label="Pages">
      <span className="paginator-range">
        {first}–{last} of {total}
      </span>
      <button type="button" className="icon-button" aria-label="First page" disabled={page <= 1} onClick={() => go(1)}>
        <Icon name="chevronsLeft" size={14} />
      </button>
      <button type="button" className="icon-button" aria-label="Previous page" disabled={page <= 1} onClick={() => go(page - 1)}>
        <Icon name="chevronLeft" size={14} />
      </button>
      {pageWindow(page, pages).map((p, i) =>
        p === 'gap' ? (
          <span key={`gap-${i}`} className="paginator-gap">
            …
          </span>
        ) : (
          <button key={p} type="button" className={`page-button${p === page ? ' is-current' : ''}`} aria-current={p === page ? 'page' : undefined} aria-label={`Page ${p}`} onClick={() => go(p)}>
            {p}
          </button>
        ),
      )}
      <button type="button" className="icon-button" aria-label="Next page" disabled={page >= pages} onClick={() => go(page + 1)}>
        <Icon name="chevronRight" size={14} />
      </button>
      <button type="button" className="icon-button" aria-label="Last page" disabled={page >= pages} onClick={() => go(pages)}>
        <Icon name="chevronsRight" size={14} />
      </button>
    </nav>
  );
}
