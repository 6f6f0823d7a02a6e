import { Endpoints } from '../../../../openapi/schemas/job-api.ts';
import { useErrorAlert } from '../../components/dialogs.tsx';
import { Field } from '../../components/form/Field.tsx';
import { FormFooter, SubmitButton } from '../../components/form/FormFooter.tsx';
import { FieldErrorsError, useZodForm } from '../../components/form/useZodForm.ts';
import { Card, PageHeader } from '../../components/Page.tsx';
import { useToast } from '../../components/toasts.tsx';
import { useCan } from '../../data/auth/queries.ts';
import { fieldErrorsOf, messageOf, type Schemas } from '../../data/client.ts';
import { useUpdateEndpoints } from '../../data/jobs/mutations.ts';
import { useEndpoints } from '../../data/jobs/queries.ts';
import { usePageTitle } from '../../shell/breadcrumbs.tsx';

/** Spec 01 §2.10: the page's title is in Russian ("Integration settings"). */
export const ENDPOINTS_TITLE = 'Настройки интеграции';

type Values = Schemas['Endpoints'];
const toPayload = (values: Values) => ({ runproxUrl: values.runproxUrl.trim(), astraUrl: values.astraUrl.trim() });

function EndpointsForm({ initial, readOnly }: { initial: Values; readOnly: boolean }) {
  const update = useUpdateEndpoints();
  const toast = useToast();
  const showError = useErrorAlert();
  const form = useZodForm<Values>({ initial, schema: Endpoints, toPayload, saved: true });
  const { values, set, touch, errorOf } = form;

  const submit = form.formProps(async (payload) => {
    try {
      const saved = await update.mutateAsync(payload as Values);
      toast.success('Endpoints updated.');
      return saved;
    } catch (error) {
      const fields = fieldErrorsOf(error);
      if (Object.keys(fields).length > 0) throw new FieldErrorsError(messageOf(error), fields);
      void showError(messageOf(error));
      throw error;
    }
  });

  const input = (field: keyof Values) => (
    <input name={field} type="url" inputMode="url" autoComplete="off" spellCheck={false} value={values[field]} onChange={(e) => set(field, e.target.value)} onBlur={() => touch(field)} />
  );

  return (
    <form className="form" {...submit} aria-label={ENDPOINTS_TITLE}>
      <fieldset className="form-fieldset" disabled={readOnly}>
        <Card>
          <div className="form-grid">
            <Field label="Runprox URL" required error={errorOf('runproxUrl')}>
              {input('runproxUrl')}
            </Field>
            <Field label="DVB URL" required error={errorOf('astraUrl')}>
              {input('astraUrl')}
            </Field>
          </div>
        </Card>
      </fieldset>
      <FormFooter
        backTo="/my"
        status={readOnly ? 'Read only: you may view the endpoints but not change them.' : form.saving ? 'Saving ...' : form.isDirty ? 'Unsaved changes.' : undefined}
      >
        {!readOnly && <SubmitButton isNew={false} saving={form.saving} disabled={!form.canSubmit} />}
      </FormFooter>
    </form>
  );
}

/** /my/endpoints (spec 01 §2.10): the two required integration URLs, Runprox and DVB, and Update. */
export default function EndpointsPage() {
  usePageTitle(ENDPOINTS_TITLE);
  const endpoints = useEndpoints();
  const canEdit = useCan('ENCODING_EDIT', 'SETTINGS_EDIT');
  return (
    <div className="page">
      <PageHeader title={ENDPOINTS_TITLE} />
      {endpoints.isPending ? (
        <div className="page-loading">Loading ...</div>
      ) : endpoints.isError ? (
        <div className="notice notice-error" role="alert">
          {endpoints.error.message}
        </div>
      ) : (
        <EndpointsForm initial={endpoints.data} readOnly={!canEdit} />
      )}
    </div>
  );
}
