import { useId, useState, type FormEvent } from 'react';
import { CommentCreate } from '../../../../../openapi/schemas/job-api.ts';
import { useConfirmDelete, useErrorAlert } from '../../../components/dialogs.tsx';
import { Field } from '../../../components/form/Field.tsx';
import { issuesByPath } from '../../../components/form/useZodForm.ts';
import { formatDateTime } from '../../../components/format.ts';
import { Icon } from '../../../components/icons.tsx';
import { messageOf, type Schemas } from '../../../data/client.ts';
import type { JobKind } from '../../../data/jobs/keys.ts';
import { useAddComment, useDeleteComment } from '../../../data/jobs/mutations.ts';

type Level = Schemas['CommentLevel'];
const LEVELS: readonly Level[] = ['NOTICE', 'WARNING', 'CRITICAL'];
const LEVEL_CLASS: Record<Level, string> = { NOTICE: 'badge-primary', WARNING: 'badge-warning', CRITICAL: 'badge-danger' };

/** The notes on a job (spec 01 §2.4): NOTICE, WARNING or CRITICAL; added and deleted with an edit permission. */
export function CommentsPanel({ kind, job, canComment }: { kind: JobKind; job: Schemas['Job']; canComment: boolean }) {
  const add = useAddComment(kind, job.id);
  const remove = useDeleteComment(kind, job.id);
  const confirmDelete = useConfirmDelete();
  const showError = useErrorAlert();
  const [type, setType] = useState<Level>('NOTICE');
  const [comment, setComment] = useState('');
  const [tried, setTried] = useState(false);
  const [failure, setFailure] = useState<string | undefined>();
  const headingId = useId();
  const errors = issuesByPath(CommentCreate, { type, comment });
  const valid = Object.keys(errors).length === 0;

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    setTried(true);
    if (!valid || add.isPending) return;
    setFailure(undefined);
    try {
      await add.mutateAsync({ type, comment });
      setComment('');
      setTried(false);
    } catch (error) {
      setFailure(messageOf(error));
    }
  }

  async function deleteComment(id: number) {
    if (!(await confirmDelete('Delete this comment?'))) return;
    try {
      await remove.mutateAsync(id);
    } catch (error) {
      await showError(messageOf(error));
    }
  }

  return (
    <aside className="comments-panel card" aria-labelledby={headingId}>
      <div className="card-header">
        <h2 className="card-title" id={headingId}>
          Comments
        </h2>
        <span className="badge">{job.comments.length}</span>
      </div>
      <div className="card-body">
        {job.comments.length === 0 && <p className="muted">No comments.</p>}
        <ul className="comments">
          {job.comments.map((c) => (
            <li key={c.id} className={`comment comment-${c.type.toLowerCase()}`}>
              <div className="comment-head">
                <span className={`badge ${LEVEL_CLASS[c.type]}`}>{c.type}</span>
                <span className="comment-meta">
                  {c.createdBy ?? 'system'} · {formatDateTime(c.createdAt)}
                </span>
                {canComment && (
                  <button type="button" className="icon-button icon-button-danger" aria-label={`Delete comment: ${c.comment}`} title="Delete comment" onClick={() => void deleteComment(c.id)}>
                    <Icon name="trash" size={14} />
                  </button>
                )}
              </div>
              <p className="comment-text">{c.comment}</p>
            </li>
          ))}
        </ul>
        {canComment && (
          <form className="comment-form" onSubmit={(e) => void submit(e)} noValidate>
            <Field label="Type">
              <select value={type} onChange={(e) => setType(e.target.value as Level)}>
                {LEVELS.map((level) => (
                  <option key={level} value={level}>
                    {level}
                  </option>
                ))}
              </select>
            </Field>
            <Field label="Comment" error={tried ? errors.comment : undefined} hint="Ctrl+Enter adds it.">
              <textarea
                rows={3}
                value={comment}
                maxLength={2000}
                onChange={(e) => setComment(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void submit();
                }}
              />
            </Field>
            {failure && (
              <p className="field-error" role="alert">
                {failure}
              </p>
            )}
            <button type="submit" className="button button-secondary" disabled={add.isPending || (tried && !valid)} aria-busy={add.isPending || undefined}>
              Add comment
            </button>
          </form>
        )}
      </div>
    </aside>
  );
}
