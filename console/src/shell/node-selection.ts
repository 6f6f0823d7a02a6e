import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';

/**
 * The node the dashboard shows, kept in the URL (`/my?node=3`) so it survives reloads and can be
 * shared; absent means the node the console is served from.
 */
export function useSelectedNode(): [number | undefined, (id: number | undefined) => void] {
  const [params, setParams] = useSearchParams();
  const raw = Number.parseInt(params.get('node') ?? '', 10);
  const selected = Number.isInteger(raw) && raw > 0 ? raw : undefined;
  const select = useCallback(
    (id: number | undefined) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (id === undefined) next.delete('node');
          else next.set('node', String(id));
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [selected, select];
}
