import { useRef, useState } from 'react';
import { Field } from '../../components/form/Field.tsx';
import { Modal } from '../../components/Modal.tsx';
import { useToast } from '../../components/toasts.tsx';
import { fieldErrorsOf, messageOf, type Schemas } from '../../data/client.ts';
import { useSaveAsTemplate } from '../../data/jobs/mutations.ts';
import { useJobTemplates } from '../../data/jobs/queries.ts';
import type { JobSummary } from '../../data/jobs/queries.ts';
import { JOB_KINDS } from './jobLabels.ts';

const TEMPLATE_CHOICES = { size: 500, sort: 'name', order: 'asc' } as const;
const NAME_MAX = 100;

/**
 * The rules of SaveAsTemplateRequest (openapi/schemas/job-api.ts), with its messages. Checked here
 * by hand: importing the job schemas would make every job list evaluate them before it shows.
 */
function check(request: Schemas['SaveAsTemplateRequest']): Record<string, string> {
  if (request.templateType === 'UPDATE') return request.templateId ? {} : { templateId: 'Template is required' };
  const name = (request.name ?? '').trim();
  if (!name) return { name: 'Name is required' };
  if (name.length > NAME_MAX) return { name: `Name must be at most ${NAME_MAX} characters` };
  return {};
}

/**
 * "Save as template" of a row's menu: a new template (CREATE) with a name, or over an existing
 * one (UPDATE). Checked with the API's own schema; Save is disabled while invalid or saving.
 * Spec 01 §6: adding a template needs the full EDIT (`canCreate`); VIEW_EDIT may only update one.
 */
export function SaveAsTemplateModal({ job, canCreate = true, onClose }: { job: JobSummary; canCreate?: boolean; onClose: () => void }) {
  const config = JOB_KINDS[job.kind];
  const save = useSaveAsTemplate(job.kind, job.id);
  const templates = useJobTemplates(job.kind, TEMPLATE_CHOICES);
  const toast = useToast();
  const [templateType, setTemplateType] = useState<'CREATE' | 'UPDATE'>(canCreate ? 'CREATE' : 'UPDATE');
  const [name, setName] = useState(job.name);
  const [templateId, setTemplateId] = useState('');
  const [touched, setTouched] = useState(false);
  const [failure, setFailure] = useState<string | undefined>();
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const nameInput = useRef<HTMLInputElement>(null);

  const payload: Schemas['SaveAsTemplateRequest'] = templateType === 'CREATE' ? { templateType, name: name.trim() } : { templateType, templateId: templateId ? Number(templateId) : undefined };
  const ruleErrors = check(payload);
  const errors = { ...ruleErrors, ...serverErrors };
  const valid = Object.keys(ruleErrors).length === 0;

  async function submit() {
    setTouched(true);
    if (!valid || save.isPending) return;
    setFailure(undefined);
    try {
      const template = await save.mutateAsync(payload);
      toast.success(`Template ${template.name} saved.`);
      onClose();
    } catch (error) {
      setServerErrors(fieldErrorsOf(error));
      setFailure(messageOf(error));
    }
  }

  return (
    <Modal
      title={`Save ${config.noun} ${job.name} as template`}
      onClose={onClose}
      onEnter={() => void submit()}
      initialFocus={nameInput}
      size="medium"
      footer={
        <>
          <button type="button" className="button button-secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="button" disabled={!valid || save.isPending} aria-busy={save.isPending || undefined} onClick={() => void submit()}>
            Save
          </button>
        </>
      }
    >
      <div className="template-choice" role="radiogroup" aria-label="Template">
        <label className="radio-label">
          <input type="radio" name="templateType" checked={templateType === 'CREATE'} disabled={!canCreate} onChange={() => setTemplateType('CREATE')} />
          New template
        </label>
        <label className="radio-label">
          <input type="radio" name="templateType" checked={templateType === 'UPDATE'} onChange={() => setTemplateType('UPDATE')} />
          Update a template
        </label>
      </div>
      {templateType === 'CREATE' ? (
        <Field label="Name" required error={touched || name !== job.name ? errors.name : undefined}>
          <input ref={nameInput} value={name} maxLength={NAME_MAX} onChange={(e) => (setName(e.target.value), setServerErrors({}))} onBlur={() => setTouched(true)} />
        </Field>
      ) : (
        <Field label="Template" required error={touched ? errors.templateId : undefined}>
          <select value={templateId} onChange={(e) => (setTemplateId(e.target.value), setServerErrors({}))} onBlur={() => setTouched(true)}>
            <option value="">{templates.isPending ? 'Loading ...' : 'Select template'}</option>
            {(templates.data?.items ?? []).map((template) => (
              <option key={template.id} value={template.id}>
                {template.name} (id:{template.id})
              </option>
            ))}
          </select>
        </Field>
      )}
      {failure && (
        <p className="field-error" role="alert">
          {failure}
        </p>
      )}
    </Modal>
  );
}
