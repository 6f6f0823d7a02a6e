import { useId } from 'react';
import { Icon } from '../../../components/icons.tsx';
import { Switch } from '../../../components/Switch.tsx';
import { LOG_LEVELS, LOG_LINE_CHOICES, type LogView } from './logQuery.ts';
import type { FollowState } from './useLogFollow.ts';

const FOLLOW_TEXT: Record<FollowState, string> = { off: 'Paused', connecting: 'Connecting ...', live: 'Live', interrupted: 'Reconnecting ...' };

export interface LogControlsProps {
  view: LogView;
  onChange: (change: Partial<LogView>) => void;
  filtersOpen: boolean;
  onToggleFilters: () => void;
  filterCount: number;
  filtersId: string;
  follow: boolean;
  onFollow: (on: boolean) => void;
  followState: FollowState;
  onRefresh: () => void;
  refreshing: boolean;
}

/** The bar above the log (spec 01 §2.9): level, the filter toggle, direction, last lines, the live follow. */
export function LogControls(props: LogControlsProps) {
  const { view, onChange, filtersOpen, onToggleFilters, filterCount, filtersId, follow, onFollow, followState, onRefresh, refreshing } = props;
  const levelId = useId();
  const linesId = useId();
  return (
    <div className="log-toolbar">
      <div className="log-control">
        <label htmlFor={levelId}>Log level</label>
        <select id={levelId} value={view.level} onChange={(e) => onChange({ level: e.target.value as LogView['level'] })}>
          <option value="">All</option>
          {LOG_LEVELS.map((level) => (
            <option key={level} value={level}>
              {level}
            </option>
          ))}
        </select>
      </div>

      <button
        type="button"
        className={`button button-secondary log-filter-toggle${filtersOpen ? ' is-open' : ''}`}
        aria-expanded={filtersOpen}
        aria-controls={filtersId}
        onClick={onToggleFilters}
      >
        <Icon name="filter" size={14} />
        Filters
        {filterCount > 0 && (
          <span className="badge badge-primary" aria-label={`${filterCount} active`}>
            {filterCount}
          </span>
        )}
      </button>

      <div className="log-direction" role="group" aria-label="Direction">
        {(['backward', 'forward'] as const).map((direction) => (
          <button
            key={direction}
            type="button"
            aria-pressed={view.direction === direction}
            className={view.direction === direction ? 'is-active' : undefined}
            title={direction === 'backward' ? 'Newest line first' : 'Oldest line first'}
            onClick={() => onChange({ direction })}
          >
            <Icon name={direction === 'backward' ? 'arrowUp' : 'arrowDown'} size={12} />
            {direction === 'backward' ? 'Backward' : 'Forward'}
          </button>
        ))}
      </div>

      <div className="log-control">
        <label htmlFor={linesId}>Last lines</label>
        <select id={linesId} value={view.lines} onChange={(e) => onChange({ lines: Number(e.target.value) as LogView['lines'] })}>
          {LOG_LINE_CHOICES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </div>

      <div className="log-toolbar-end">
        <span className={`log-follow-state is-${followState}`} data-testid="log-follow-state">
          <span className="log-follow-dot" aria-hidden="true" />
          {FOLLOW_TEXT[followState]}
        </span>
        <Switch checked={follow} onChange={onFollow} label="Live follow" />
        <span className="log-follow-label" aria-hidden="true">
          Live follow
        </span>
        <button type="button" className="icon-button" aria-label="Reload the log" title="Reload the log" disabled={refreshing} onClick={onRefresh}>
          <Icon name="refresh" size={14} />
        </button>
      </div>
    </div>
  );
}
