import type { Schemas } from '../../data/client.ts';
import { JobIcon } from './jobIcons.tsx';

type CommentLevel = Schemas['CommentLevel'];

const LEVEL_NAMES: Record<CommentLevel, string> = { NOTICE: 'notice', WARNING: 'warning', CRITICAL: 'critical' };

/** The comment icon beside a job's name, coloured by its most serious comment (spec 01 §2.5). */
export function CommentIcon({ level, count }: { level: CommentLevel | null; count: number }) {
  if (!level || count === 0) return null;
  const text = `${count} ${count === 1 ? 'comment' : 'comments'}, the most serious ${LEVEL_NAMES[level]}`;
  return (
    <span className={`comment-icon comment-${level.toLowerCase()}`} role="img" aria-label={text} title={text} data-level={level}>
      <JobIcon name="comment" size={14} />
    </span>
  );
}
