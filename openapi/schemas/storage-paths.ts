/**
 * Files a user names for a job (a subtitle file, a replacement video or audio file, the path of a
 * storage input) are paths inside a storage root (ARCHITECTURE, Security: "File paths from users
 * are resolved inside their storage root and refused outside it"). A path is written relative to
 * its root, so the same job reads the same file on whichever node runs it; the node resolves it
 * under its own root (`api/node/job-resolver.ts`) and checks again there.
 *
 * Shared by the API's write rules and the console's form, so both say the same.
 */

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Does the path stay inside its root once resolved: relative, on one line, no `..` segment, naming something? */
export function isStoragePath(value: string): boolean {
  if (CONTROL.test(value) || value.startsWith('/')) return false;
  const segments = value.split('/');
  if (segments.includes('..')) return false;
  return segments.some((segment) => segment !== '' && segment !== '.');
}

/** The rule's message, with the field's label: "Subtitle file must be a path inside the storage root ...". */
export function storagePathRule(label: string): string {
  return `${label} must be a path inside the storage root: relative (no leading "/") and without ".."`;
}
