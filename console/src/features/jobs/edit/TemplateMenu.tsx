import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { CreateFromTemplateRequest } from '../../../../../openapi/schemas/job-api.ts';
import { Field } from '../../../components/form/Field.tsx';
import { issuesByPath } from '../../../components/form/useZodForm.ts';
import { Modal } from '../../../components/Modal.tsx';
import { useToast } from '../../../components/toasts.tsx';
import { api, fieldErrorsOf, messageOf, unwrap, type Schemas } from '../../../data/client.ts';
import { jobKeys, type JobKind } from '../../../data/jobs/keys.ts';
import { useCreateFromTemplate } from '../../../data/jobs/mutations.ts';
import { jobPaths as apiPaths } from '../../../data/jobs/paths.ts';
import { useJobTemplates, type JobSummary } from '../../../data/jobs/queries.ts';
import { JOB_KINDS, jobPaths } from '../jobLabels.ts';
import { SaveAsTemplateModal } from '../SaveAsTemplateModal.tsx';
import { DropdownMenu } from './DropdownMenu.tsx';

const TEMPLATE_CHOICES = { size: 500, sort: 'name', order: 'asc' } as const;

/**
 * Load a template. A new job is created from it on the server under the name given (and opened);
 * an existing job takes the template's configuration into its form, to be saved with Update.
 */
function LoadTemplateModal({ kind, isNew, onLoad, onClose }: { kind: JobKind; isNew: boolean; onLoad: (template: Schemas['Job']) => void; onClose: () => void }) {
  const templates = useJobTemplates(kind, TEMPLATE_CHOICES);
  const create = useCreateFromTemplate(kind);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const [templateId, setTemplateId] = useState('');
  const [name, setName] = useState('');
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | undefined>();
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const first = useRef<HTMLSelectElement>(null);
  const errors: Record<string, string | undefined> = {
    templateId: templateId ? undefined : 'Template is required',
    ...(isNew ? { name: issuesByPath(CreateFromTemplateRequest, { name }).name } : {}),
    ...serverErrors,
  };
  const valid = !errors.templateId && !errors.name;

  async function submit() {
    setTried(true);
    if (!valid || busy) return;
    setBusy(true);
    setFailure(undefined);
    try {
      if (isNew) {
        const job = await create.mutateAsync({ templateId: Number(templateId), name: name.trim() });
        toast.success(`${JOB_KINDS[kind].Noun} ${job.name} created from the template.`);
        onClose();
        navigate(jobPaths.edit(kind, job.id), { replace: true });
      } else {
        const id = Number(templateId);
        const template = await queryClient.fetchQuery({
          queryKey: jobKeys.template(kind, id),
          queryFn: () => unwrap(api.GET(apiPaths(kind).template, { params: { path: { id } } })),
        });
        onLoad(template);
        toast.info(`Template ${template.name} loaded: Update saves it.`);
        onClose();
      }
    } catch (error) {
      setServerErrors(Object.fromEntries(Object.entries(fieldErrorsOf(error)).filter(([key]) => key === 'name')));
      setFailure(messageOf(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      title="Load template"
      size="medium"
      onClose={onClose}
      onEnter={() => void submit()}
      initialFocus={first}
      footer={
        <>
          <button type="button" className="button button-secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="button" disabled={busy || (tried && !valid)} aria-busy={busy || undefined} onClick={() => void submit()}>
            {isNew ? 'Create' : 'Load'}
          </button>
        </>
      }
    >
      <div className="modal-fields">
        <Field label="Template" required error={tried ? errors.templateId : undefined}>
          <select ref={first} value={templateId} onChange={(e) => setTemplateId(e.target.value)}>
            <option value="">{templates.isPending ? 'Loading ...' : templates.data?.items.length ? 'Select template' : 'No templates'}</option>
            {(templates.data?.items ?? []).map((template) => (
              <option key={template.id} value={template.id}>
                {template.name} (id:{template.id})
              </option>
            ))}
          </select>
        </Field>
        {isNew && (
          <Field label="Name" required error={tried || serverErrors.name ? errors.name : undefined} hint={`The name of the new ${JOB_KINDS[kind].noun}.`}>
            <input value={name} maxLength={100} onChange={(e) => (setName(e.target.value), setServerErrors({}))} />
          </Field>
        )}
        {!isNew && <p className="field-hint">The template's settings replace those in the form; the name stays. Nothing is saved until Update.</p>}
        {failure && (
          <p className="field-error" role="alert">
            {failure}
          </p>
        )}
      </div>
    </Modal>
  );
}

/** The footer's Template dropdown: save the job as a template (CREATE or UPDATE), load a template. */
export function TemplateMenu({
  kind,
  job,
  canSave,
  canLoad,
  dirty,
  onLoad,
}: {
  kind: JobKind;
  /** The stored job; absent for a new one (it cannot be saved as a template yet). */
  job: Schemas['Job'] | undefined;
  canSave: boolean;
  canLoad: boolean;
  dirty: boolean;
  onLoad: (template: Schemas['Job']) => void;
}) {
  const [open, setOpen] = useState<'save' | 'load' | null>(null);
  return (
    <>
      <DropdownMenu
        label="Template"
        items={[
          {
            label: 'Save as template',
            disabled: !job || !canSave || dirty,
            hint: !job ? `Create the ${JOB_KINDS[kind].noun} first.` : dirty ? 'Update first: the template takes the saved settings.' : 'Needs the EDIT permission.',
            onSelect: () => setOpen('save'),
          },
          { label: 'Load template', disabled: !canLoad, hint: 'Needs an edit permission.', onSelect: () => setOpen('load') },
        ]}
      />
      {/* The row menu's modal: it reads the job's kind, id and name. */}
      {open === 'save' && job && <SaveAsTemplateModal job={job as unknown as JobSummary} onClose={() => setOpen(null)} />}
      {open === 'load' && <LoadTemplateModal kind={kind} isNew={!job} onLoad={onLoad} onClose={() => setOpen(null)} />}
    </>
  );
}
