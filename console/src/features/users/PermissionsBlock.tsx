import { useId } from 'react';
import { VIEW_SUB_FLAGS, type ResourceDefinition, type ResourceKey, type ResourcePermission, type UserPermissionMap } from '../../../../openapi/permissions.ts';
import {
  grantableFor,
  levelIn,
  resourcesShown,
  withAll,
  withLevel,
  type Grantable,
  type LimitField,
  type Level,
} from './userFormModel.ts';

interface PermissionsBlockProps {
  permissions: UserPermissionMap;
  onChange: (permissions: UserPermissionMap) => void;
  limits: Record<LimitField, string>;
  onLimitChange: (field: LimitField, value: string) => void;
  onLimitBlur: (field: LimitField) => void;
  limitError: (field: LimitField) => string | undefined;
  features: Record<string, boolean>;
  editorIsAdmin: boolean;
  editorGranted: ReadonlySet<string>;
  disabled?: boolean;
}

function Hidden({ children }: { children: string }) {
  return <span className="visually-hidden">{children} </span>;
}

/**
 * The permissions block of the user form (spec 03 §4): per resource a View/Edit level and a Hide
 * flag; Hide disables View and Edit; Edit clears the View sub-flags; the Limit shows only at Edit
 * (not hidden) for the job resources; the sub-flags only at View (not hidden). "View all", "Edit all" and
 * "Hide all" set every resource at once, and Hide all disables the other two.
 */
export function PermissionsBlock(props: PermissionsBlockProps) {
  const { permissions, onChange, features, editorIsAdmin, editorGranted, disabled } = props;
  const id = useId();
  const rows = resourcesShown(features)
    .map((resource) => ({ resource, can: grantableFor(resource, editorIsAdmin, editorGranted) }))
    .filter((row) => row.can.visible);
  const settable = rows.map((r) => r.resource);
  const permissionOf = (r: ResourceDefinition) => permissions[r.key as ResourceKey];

  const allHidden = rows.length > 0 && rows.every(({ resource }) => permissionOf(resource)?.hide);
  const someHidden = rows.some(({ resource }) => permissionOf(resource)?.hide);
  const allView = rows.length > 0 && rows.every(({ resource }) => levelIn(resource, permissionOf(resource)) === 'VIEW');
  const allEdit = rows.length > 0 && rows.every(({ resource, can }) => levelIn(resource, permissionOf(resource)) === (can.edit ? 'EDIT' : 'VIEW'));

  const setAllLevels = (level: Level) =>
    onChange(withAll(permissions, settable, (resource, permission) => withLevel(resource, permission, level === 'EDIT' && grantableFor(resource, editorIsAdmin, editorGranted).edit ? 'EDIT' : 'VIEW')));
  const setAllHidden = (hide: boolean) => onChange(withAll(permissions, settable, (resource, permission) => ({ ...withLevel(resource, permission, levelIn(resource, permission)), hide })));
  const setOne = (resource: ResourceDefinition, permission: ResourcePermission) => onChange({ ...permissions, [resource.key]: permission });

  return (
    <fieldset className="permissions" disabled={disabled}>
      <legend>Permissions</legend>
      {rows.length === 0 ? (
        <p className="muted">You hold no permissions to grant.</p>
      ) : (
        <table className="permissions-table">
          <thead>
            <tr>
              <th scope="col">Resource</th>
              <th scope="col">
                <span className="radio-label">
                  <input id={`${id}-all-view`} type="radio" name={`${id}-all`} checked={allView && !allHidden} disabled={allHidden} onChange={() => setAllLevels('VIEW')} />
                  <label htmlFor={`${id}-all-view`}>View all</label>
                </span>
              </th>
              <th scope="col">
                <span className="radio-label">
                  <input id={`${id}-all-edit`} type="radio" name={`${id}-all`} checked={allEdit && !allView && !allHidden} disabled={allHidden} onChange={() => setAllLevels('EDIT')} />
                  <label htmlFor={`${id}-all-edit`}>Edit all</label>
                </span>
              </th>
              <th scope="col">
                <span className="radio-label">
                  <input
                    id={`${id}-all-hide`}
                    type="checkbox"
                    checked={allHidden}
                    ref={(el) => {
                      if (el) el.indeterminate = !allHidden && someHidden;
                    }}
                    onChange={(e) => setAllHidden(e.target.checked)}
                  />
                  <label htmlFor={`${id}-all-hide`}>Hide all</label>
                </span>
              </th>
              <th scope="col" className="permissions-extra">
                Limit / View options
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ resource, can }) => (
              <ResourceRow key={resource.key} {...props} resource={resource} can={can} permission={permissionOf(resource)} onSet={(p) => setOne(resource, p)} />
            ))}
          </tbody>
        </table>
      )}
    </fieldset>
  );
}

function ResourceRow({
  resource,
  can,
  permission,
  onSet,
  limits,
  onLimitChange,
  onLimitBlur,
  limitError,
}: PermissionsBlockProps & { resource: ResourceDefinition; can: Grantable; permission: ResourcePermission | undefined; onSet: (p: ResourcePermission) => void }) {
  const id = useId();
  const hidden = Boolean(permission?.hide);
  const level = levelIn(resource, permission);
  const label = resource.label;
  const limitField = resource.limitField;
  const showLimit = Boolean(limitField) && level === 'EDIT' && !hidden;
  const showSubFlags = Boolean(resource.subFlags) && level === 'VIEW' && !hidden;
  const limitMessage = limitField ? limitError(limitField) : undefined;

  return (
    <tr className={hidden ? 'is-hidden-resource' : undefined} data-resource={resource.key}>
      <th scope="row">{label}</th>
      <td>
        <span className="radio-label">
          <input id={`${id}-view`} type="radio" name={`${id}-level`} checked={level === 'VIEW'} disabled={hidden} onChange={() => onSet(withLevel(resource, permission, 'VIEW'))} />
          <label htmlFor={`${id}-view`}>
            <Hidden>{label}</Hidden>View
          </label>
        </span>
      </td>
      <td>
        {resource.viewOnly ? (
          <span className="muted" title="This resource has a View level only">
            —
          </span>
        ) : (
          <span className="radio-label">
            <input id={`${id}-edit`} type="radio" name={`${id}-level`} checked={level === 'EDIT'} disabled={hidden || !can.edit} onChange={() => onSet(withLevel(resource, permission, 'EDIT'))} />
            <label htmlFor={`${id}-edit`}>
              <Hidden>{label}</Hidden>Edit
            </label>
          </span>
        )}
      </td>
      <td>
        <span className="radio-label">
          <input id={`${id}-hide`} type="checkbox" checked={hidden} onChange={(e) => onSet({ ...withLevel(resource, permission, level), hide: e.target.checked })} />
          <label htmlFor={`${id}-hide`}>
            <Hidden>{label}</Hidden>Hide
          </label>
        </span>
      </td>
      <td className="permissions-extra">
        {showLimit && limitField && (
          <span className={`limit-field${limitMessage ? ' has-error' : ''}`}>
            <label htmlFor={`${id}-limit`}>
              <Hidden>{label}</Hidden>Limit
            </label>
            <input
              id={`${id}-limit`}
              type="number"
              min={0}
              max={1000}
              step={1}
              inputMode="numeric"
              value={limits[limitField]}
              aria-invalid={limitMessage ? true : undefined}
              aria-describedby={limitMessage ? `${id}-limit-message` : undefined}
              onChange={(e) => onLimitChange(limitField, e.target.value)}
              onBlur={() => onLimitBlur(limitField)}
            />
            {limitMessage && (
              <span id={`${id}-limit-message`} className="field-error" role="alert">
                {limitMessage}
              </span>
            )}
          </span>
        )}
        {showSubFlags && (
          <span className="sub-flags" role="group" aria-label={`${label} view options`}>
            {VIEW_SUB_FLAGS.map((flag) => (
              <span key={flag.key} className="radio-label">
                <input
                  id={`${id}-${flag.key}`}
                  type="checkbox"
                  checked={Boolean(permission?.[flag.key])}
                  disabled={!can.subFlag(flag.suffix)}
                  onChange={(e) => onSet({ ...withLevel(resource, permission, 'VIEW'), [flag.key]: e.target.checked })}
                />
                <label htmlFor={`${id}-${flag.key}`}>
                  <Hidden>{`${label} View`}</Hidden>
                  {flag.label}
                </label>
              </span>
            ))}
          </span>
        )}
      </td>
    </tr>
  );
}
