import { ROLE_NAMES, UserCreate, UserUpdate } from '../../../../openapi/schemas/users.ts';
import { fieldErrorsOf, messageOf, type Schemas } from '../../data/client.ts';
import { Field } from '../../components/form/Field.tsx';
import { FormFooter, SubmitButton } from '../../components/form/FormFooter.tsx';
import { FieldErrorsError, useZodForm } from '../../components/form/useZodForm.ts';
import { useErrorAlert } from '../../components/dialogs.tsx';
import { Card } from '../../components/Page.tsx';
import { Switch } from '../../components/Switch.tsx';
import { useCurrentUser, useGranted } from '../../data/auth/queries.ts';
import { useFeatures } from '../../data/system/queries.ts';
import { PermissionsBlock } from './PermissionsBlock.tsx';
import { isAdminRole, refineUpdate, toNewUserPayload, toUpdatePayload, type LimitField, type UserFormValues } from './userFormModel.ts';

export interface UserFormProps {
  initial: UserFormValues;
  isNew: boolean;
  readOnly: boolean;
  /** Saves the payload; returns the values the form holds afterwards. */
  save: (payload: Schemas['UserCreate'] | Schemas['UserUpdate']) => Promise<UserFormValues | void>;
}

const ROLE_OPTIONS = Object.entries(ROLE_NAMES) as [Schemas['RoleName'], string][];

/** The user form: the account fields, then the permissions block (hidden for ADMIN). */
export function UserForm({ initial, isNew, readOnly, save }: UserFormProps) {
  const me = useCurrentUser();
  const granted = useGranted();
  const features = useFeatures();
  const showError = useErrorAlert();
  const editorIsAdmin = isAdminRole(me.role.value);
  const form = useZodForm<UserFormValues>({
    initial,
    schema: isNew ? UserCreate : UserUpdate,
    toPayload: isNew ? toNewUserPayload : toUpdatePayload,
    refine: isNew ? undefined : refineUpdate,
    saved: !isNew,
  });
  const { values, set, touch, errorOf } = form;

  const submit = form.formProps(async (payload) => {
    try {
      return await save(payload as Schemas['UserCreate']);
    } catch (error) {
      const fields = fieldErrorsOf(error);
      if (Object.keys(fields).length > 0) throw new FieldErrorsError(messageOf(error), fields);
      void showError(messageOf(error));
      throw error;
    }
  });

  const text = (field: 'username' | 'email' | 'phoneNumber' | 'password' | 'confirm', type = 'text', autoComplete = 'off') => (
    <input
      name={field}
      type={type}
      autoComplete={autoComplete}
      value={values[field]}
      onChange={(e) => set(field, e.target.value)}
      onBlur={() => touch(field)}
    />
  );

  return (
    <form className="form" {...submit} aria-label={isNew ? 'Add user' : `User ${initial.username}`}>
      <fieldset className="form-fieldset" disabled={readOnly}>
        <Card title="Account">
          <div className="form-grid">
            <Field label="Username" required error={errorOf('username')}>
              {text('username', 'text', 'off')}
            </Field>
            <Field label="Role" required error={errorOf('role')}>
              <select name="role" value={values.role} onChange={(e) => set('role', e.target.value as UserFormValues['role'])} onBlur={() => touch('role')}>
                <option value="">Select role</option>
                {ROLE_OPTIONS.map(([value, name]) => (
                  <option key={value} value={value} disabled={isAdminRole(value) && !editorIsAdmin}>
                    {name}
                  </option>
                ))}
              </select>
            </Field>
            <Field label="E-mail" error={errorOf('email')}>
              {text('email', 'email')}
            </Field>
            <Field label="Phone number" error={errorOf('phoneNumber')}>
              {text('phoneNumber', 'tel')}
            </Field>
            <Field label="Password" required={isNew} error={errorOf('password')} hint={isNew ? undefined : 'Leave empty to keep the current password.'}>
              {text('password', 'password', 'new-password')}
            </Field>
            <Field label="Confirm password" required={isNew || values.password !== ''} error={errorOf('confirm')}>
              {text('confirm', 'password', 'new-password')}
            </Field>
            <div className="field field-switch">
              <span className="field-label">
                Enabled
              </span>
              <Switch checked={values.enabled} onChange={(on) => set('enabled', on)} label="Enabled" />
            </div>
          </div>
        </Card>

        {!isAdminRole(values.role) && (
          <Card title="Permissions and limits" className="permissions-card">
            <PermissionsBlock
              permissions={values.permissions}
              onChange={(permissions) => set('permissions', permissions)}
              limits={values as unknown as Record<LimitField, string>}
              onLimitChange={(field, value) => set(field, value)}
              onLimitBlur={touch}
              limitError={errorOf}
              features={features}
              editorIsAdmin={editorIsAdmin}
              editorGranted={granted}
              disabled={readOnly}
            />
          </Card>
        )}
      </fieldset>

      <FormFooter
        backTo="/my/users"
        status={
          readOnly ? 'Read only: you may view users but not change them.' : form.saving ? 'Saving ...' : !isNew && !form.isDirty ? 'All changes saved.' : form.isDirty && !isNew ? 'Unsaved changes.' : undefined
        }
      >
        {!readOnly && <SubmitButton isNew={isNew} saving={form.saving} disabled={!form.canSubmit} />}
      </FormFooter>
    </form>
  );
}
