import { useState } from 'react';
import { StreampoolServerInput } from '../../../../openapi/schemas/settings.ts';
import { useErrorAlert } from '../../components/dialogs.tsx';
import { Field } from '../../components/form/Field.tsx';
import { issuesByPath } from '../../components/form/useZodForm.ts';
import { Modal } from '../../components/Modal.tsx';
import { useToast } from '../../components/toasts.tsx';
import { fieldErrorsOf, messageOf } from '../../data/client.ts';
import { useSaveStreampoolServer } from '../../data/settings/mutations.ts';
import type { StreampoolServer } from '../../data/settings/queries.ts';

type Values = { alias: string; publishAddress: string; playbackAddress: string; apiKey: string };

/**
 * The streampool server modal: alias, publish address, playback address and API key, Create or
 * Update and Close. An existing key shows masked (hiddenApiKey: its last 9 characters); typing a
 * new one replaces it. The API key is required: the form submits only when valid.
 */
export function StreampoolServerModal({ server, readOnly, onClose }: { server?: StreampoolServer; readOnly: boolean; onClose: () => void }) {
  const save = useSaveStreampoolServer();
  const toast = useToast();
  const showError = useErrorAlert();
  const [values, setValues] = useState<Values>({ alias: server?.alias ?? '', publishAddress: server?.publishAddress ?? '', playbackAddress: server?.playbackAddress ?? '', apiKey: server?.apiKey ?? '' });
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const errors: Record<string, string> = { ...issuesByPath(StreampoolServerInput, values), ...(values.apiKey.trim() ? {} : { apiKey: 'API key is required' }) };
  const valid = Object.keys(errors).length === 0;
  const errorOf = (field: keyof Values) => serverErrors[field] ?? (touched[field] ? errors[field] : undefined);
  const set = (field: keyof Values, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setServerErrors(({ [field]: _gone, ...rest }) => rest);
  };

  async function submit() {
    setTouched({ alias: true, publishAddress: true, playbackAddress: true, apiKey: true });
    if (!valid || save.isPending || readOnly) return;
    try {
      await save.mutateAsync({ id: server?.id, body: values });
      toast.success(server ? `Streampool server ${values.alias || server.id} updated.` : 'Streampool server created.');
      onClose();
    } catch (error) {
      const fields = fieldErrorsOf(error);
      if (Object.keys(fields).length > 0) setServerErrors(fields);
      else void showError(messageOf(error));
    }
  }

  const input = (field: keyof Values, label: string, placeholder: string, required = false) => (
    <Field label={label} required={required} error={errorOf(field)}>
      <input
        name={field}
        autoComplete="off"
        spellCheck={false}
        placeholder={placeholder}
        value={values[field]}
        readOnly={readOnly}
        onFocus={(e) => field === 'apiKey' && server && values.apiKey === server.apiKey && e.target.select()}
        onChange={(e) => set(field, e.target.value)}
        onBlur={() => setTouched((t) => ({ ...t, [field]: true }))}
      />
    </Field>
  );

  return (
    <Modal
      title={server ? `Streampool server ${server.alias || server.id}` : 'Add streampool server'}
      size="medium"
      onClose={onClose}
      onEnter={() => void submit()}
      footer={
        <>
          <button type="button" className="button button-secondary" onClick={onClose}>
            Close
          </button>
          {!readOnly && (
            <button type="button" className="button" disabled={!valid || save.isPending} onClick={() => void submit()}>
              {server ? 'Update' : 'Create'}
            </button>
          )}
        </>
      }
    >
      <div className="form-grid form-grid-single">
        {input('alias', 'Alias', 'eu-west-1')}
        {input('publishAddress', 'Publish address', 'rtmp://publish.example.com/live')}
        {input('playbackAddress', 'Playback address', 'https://play.example.com')}
        {input('apiKey', 'API key', 'API key', true)}
      </div>
    </Modal>
  );
}
