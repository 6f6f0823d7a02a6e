import { useCallback, useMemo, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import { useErrorAlert } from '../../../components/dialogs.tsx';
import { FieldErrorsError } from '../../../components/form/useZodForm.ts';
import { useToast } from '../../../components/toasts.tsx';
import { useGranted } from '../../../data/auth/queries.ts';
import { fieldErrorsOf, messageOf, type Schemas } from '../../../data/client.ts';
import { jobTopic, type JobKind } from '../../../data/jobs/keys.ts';
import { useCreateJob, useCreateTemplate, useUpdateJob, useUpdateTemplate } from '../../../data/jobs/mutations.ts';
import { useJob, useJobTemplate } from '../../../data/jobs/queries.ts';
import { useLiveUpdates } from '../../../data/live.ts';
import { useSystemInfo } from '../../../data/system/queries.ts';
import { usePageTitle } from '../../../shell/breadcrumbs.tsx';
import '../../../styles/job-edit.css';
import '../../../styles/job-edit-items.css';
import { JOB_KINDS, jobGrants, jobPaths } from '../jobLabels.ts';
import { insightTabs } from '../logs/insightTabs.ts';
import { BatchResultsTab } from '../tabs/BatchResultsTab.tsx';
import { LogsTab } from '../tabs/LogsTab.tsx';
import { MonitorTab } from '../tabs/MonitorTab.tsx';
import { CommentsPanel } from './CommentsPanel.tsx';
import { JobEditContext, type JobEditContextValue } from './context.ts';
import { devLinks, FooterBar, jobTitle } from './FooterBar.tsx';
import { JobDetails, SUB_TAB_FIELDS, subTabsOf, type SubTab } from './JobDetails.tsx';
import { jobSchema, newJobValues, toPayload, valuesOf, withTemplate, type JobFormValues } from './jobFormModel.ts';
import { StatusHeader } from './StatusHeader.tsx';
import { TemplateMenu } from './TemplateMenu.tsx';
import { useJobForm } from './useJobForm.ts';

type Job = Schemas['Job'];
type Tab = 'details' | 'logs' | 'batch-results' | 'monitor';
const TAB_LABELS: Record<Tab, string> = { details: 'Details', logs: 'Logs', 'batch-results': 'Batch Results', monitor: 'Monitor' };
const FORM_ID = 'job-form';

/** The screen's tab from the address: #logs opens the Logs tab (spec 01 §2.4). */
function useTab(): [Tab, (tab: Tab) => void] {
  const { hash, pathname, search } = useLocation();
  const navigate = useNavigate();
  const named = hash.replace(/^#/, '') as Tab;
  const tab = named in TAB_LABELS ? named : 'details';
  return [tab, (next) => navigate({ pathname, search, hash: next === 'details' ? '' : next }, { replace: true })];
}

function JobEditor({ kind, template, job }: { kind: JobKind; template: boolean; job: Job | undefined }) {
  const granted = useGranted();
  const grants = jobGrants(kind, granted);
  const { data: info } = useSystemInfo();
  const navigate = useNavigate();
  const toast = useToast();
  const showError = useErrorAlert();
  const [tab, setTab] = useTab();
  const [subTab, setSubTab] = useState<SubTab>('input');
  const create = useCreateJob(kind);
  const createTemplate = useCreateTemplate(kind);
  const update = useUpdateJob(kind, job?.id ?? 0);
  const updateTemplate = useUpdateTemplate(kind, job?.id ?? 0);
  const noun = JOB_KINDS[kind].Noun;

  const schema = useMemo(() => jobSchema(kind), [kind]);
  const payloadOf = useCallback((values: JobFormValues) => toPayload(values, kind), [kind]);
  const form = useJobForm<JobFormValues>({ initial: job ? valuesOf(job) : newJobValues(), schema, toPayload: payloadOf, saved: Boolean(job) });

  const isNew = !job;
  // Templates: EDIT adds them, VIEW_EDIT edits them; jobs: EDIT or VIEW_EDIT (spec 01 §6).
  const canEdit = template ? (isNew ? grants.fullEdit : grants.templateEdit) : grants.edit;
  const readOnly = !canEdit;
  const title = jobTitle(kind, template, job);
  usePageTitle(title);

  const context: JobEditContextValue = {
    form,
    kind,
    isTemplate: template,
    isNew,
    disabled: readOnly || form.values.saved || form.saving,
    canFullEdit: grants.fullEdit,
    canEdit,
  };

  async function save(payload: unknown, restart: boolean): Promise<JobFormValues> {
    const body = payload as Schemas['JobWrite'];
    try {
      if (!job) {
        const created = template ? await createTemplate.mutateAsync(body) : await create.mutateAsync(body);
        toast.success(`${template ? 'Template' : noun} ${created.name} created.`);
        navigate(template ? jobPaths.templateEdit(kind, created.id) : jobPaths.edit(kind, created.id), { replace: true });
        return valuesOf(created);
      }
      const saved = template ? await updateTemplate.mutateAsync(body) : await update.mutateAsync({ body, restart });
      toast.success(`${template ? 'Template' : noun} ${saved.name} updated${restart ? ' and restarted' : ''}.`);
      return valuesOf(saved);
    } catch (error) {
      const fields = fieldErrorsOf(error);
      if (Object.keys(fields).length > 0) {
        toast.error(messageOf(error));
        throw new FieldErrorsError(messageOf(error), fields);
      }
      void showError(messageOf(error));
      throw error;
    }
  }

  const [unlocking, setUnlocking] = useState(false);
  /**
   * The Saved lock. Locking is part of the next Create/Update; a stored lock is lifted at once
   * (the server takes no other change to a locked job), keeping the stored settings.
   */
  async function changeLock(on: boolean) {
    if (on || !job?.saved || !form.values.saved) {
      form.set('saved', on);
      return;
    }
    setUnlocking(true);
    try {
      const body = toPayload({ ...valuesOf(job), saved: false }, kind);
      const unlocked = template ? await updateTemplate.mutateAsync(body) : await update.mutateAsync({ body });
      form.reset(valuesOf(unlocked));
    } catch (error) {
      void showError(messageOf(error));
    } finally {
      setUnlocking(false);
    }
  }

  /** A submit that finds something to correct opens the first sub-tab that holds it. */
  const revealErrors = () => {
    if (form.isValid) return;
    const keys = Object.keys(form.errors);
    const inCurrent = keys.some((key) => SUB_TAB_FIELDS[subTab].some((p) => key === p || key.startsWith(`${p}.`)));
    if (inCurrent) return;
    const first = subTabsOf(kind, form.values).find((t) => keys.some((key) => SUB_TAB_FIELDS[t.key].some((p) => key === p || key.startsWith(`${p}.`))));
    if (first) setSubTab(first.key);
    if (tab !== 'details') setTab('details');
  };
  const plain = form.submitWith((payload) => save(payload, false));
  const withRestart = form.submitWith((payload) => save(payload, true));
  const formProps = {
    ...plain.formProps,
    onSubmit: (event: React.FormEvent) => {
      revealErrors();
      plain.formProps.onSubmit(event);
    },
    onKeyDown: (event: React.KeyboardEvent<HTMLFormElement>) => {
      if (event.key === 'Enter') revealErrors();
      plain.formProps.onKeyDown(event);
    },
  };

  const visible = insightTabs(kind, job, granted);
  const tabs: Tab[] = ['details', ...(visible.logs ? (['logs'] as const) : []), ...(visible.batchResults ? (['batch-results'] as const) : []), ...(visible.monitor ? (['monitor'] as const) : [])];
  const currentTab = tabs.includes(tab) ? tab : 'details';

  const status = readOnly
    ? 'Read only: you may view it but not change it.'
    : form.saving
      ? 'Saving ...'
      : form.values.saved
        ? 'Saved: the fields are locked. Switch Saved off to change them.'
        : !isNew && form.isDirty
          ? 'Unsaved changes.'
          : job?.changedConfigSinceLastStart
            ? 'Running with an older configuration: Update & Restart applies the saved one.'
            : !isNew
              ? 'All changes saved.'
              : undefined;

  return (
    <JobEditContext.Provider value={context}>
      <div className="page job-edit" data-kind={kind}>
        <div className="job-edit-top">
          <div className="job-tabs" role="tablist" aria-label={title}>
            {tabs.map((t) => (
              <button key={t} type="button" role="tab" aria-selected={currentTab === t} className={`job-tab${currentTab === t ? ' is-current' : ''}`} onClick={() => setTab(t)}>
                {TAB_LABELS[t]}
              </button>
            ))}
          </div>
          {job && !template && <StatusHeader kind={kind} job={job} />}
        </div>

        {currentTab === 'details' && (
          <div className={`job-edit-layout${job && !template ? ' with-comments' : ''}`}>
            <form id={FORM_ID} className="form job-form" aria-label={title} {...formProps}>
              <JobDetails subTab={subTab} onSubTab={setSubTab} lockDisabled={readOnly || form.saving || unlocking} onLock={(on) => void changeLock(on)} />
            </form>
            {job && !template && <CommentsPanel kind={kind} job={job} canComment={grants.edit} />}
          </div>
        )}
        {currentTab === 'logs' && job && <LogsTab kind={kind} job={job} />}
        {currentTab === 'batch-results' && job && <BatchResultsTab kind={kind} job={job} />}
        {currentTab === 'monitor' && job && <MonitorTab kind={kind} job={job} />}

        <FooterBar
          backTo={template ? `${JOB_KINDS[kind].base}/templates` : JOB_KINDS[kind].base}
          title={title}
          status={status}
          readOnly={readOnly}
          isNew={isNew}
          canSubmit={form.canSubmit && currentTab === 'details'}
          saving={form.saving}
          showUpdateRestart={Boolean(job?.active) && !template && grants.restart}
          onUpdateRestart={() => {
            revealErrors();
            void withRestart.run();
          }}
          formId={FORM_ID}
          templateMenu={
            template || (!grants.fullEdit && !canEdit) ? undefined : (
              <TemplateMenu kind={kind} job={job} canSave={grants.fullEdit} canLoad={canEdit} dirty={!isNew && form.isDirty} onLoad={(loaded) => form.replace(withTemplate(form.values, loaded))} />
            )
          }
          devMenu={info?.devMode && !template ? devLinks(kind, job?.id) : undefined}
        />
      </div>
    </JobEditContext.Provider>
  );
}

function ExistingJob({ kind, template, id }: { kind: JobKind; template: boolean; id: number }) {
  const job = useJob(kind, template ? undefined : id);
  const stored = useJobTemplate(kind, template ? id : undefined);
  const query = template ? stored : job;
  // Status, comments and changes by others arrive live.
  useLiveUpdates(useMemo(() => [jobTopic(kind)], [kind]));

  if (query.isPending) return <div className="page-loading">Loading ...</div>;
  if (query.isError)
    return (
      <div className="page">
        <div className="notice notice-error" role="alert">
          {query.error.message} <Link to={template ? `${JOB_KINDS[kind].base}/templates` : JOB_KINDS[kind].base}>Back</Link>
        </div>
      </div>
    );
  return <JobEditor kind={kind} template={template} job={query.data} />;
}

/**
 * /my/{relays|encodings}/edit[/{id}] and /my/{relays|encodings}/templates/edit[/{id}]: one form,
 * configured by the kind and whether it edits a template.
 */
export default function JobEditPage({ kind, template = false }: { kind: JobKind; template?: boolean }) {
  const { id } = useParams();
  if (id === undefined) return <JobEditor key={`${kind}-${template}-new`} kind={kind} template={template} job={undefined} />;
  const numeric = Number(id);
  if (!Number.isInteger(numeric) || numeric <= 0) return <div className="notice notice-error">No such {template ? 'template' : JOB_KINDS[kind].noun}.</div>;
  return <ExistingJob key={`${kind}-${template}-${numeric}`} kind={kind} template={template} id={numeric} />;
}
