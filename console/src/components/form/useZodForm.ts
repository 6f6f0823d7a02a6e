import { useCallback, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { ZodType } from 'zod';

export type FieldErrors = Record<string, string>;

export interface ZodFormOptions<V> {
  /** The values as the inputs hold them. */
  initial: V;
  /** The SAME zod schema the API validates with; it checks toPayload(values). */
  schema: ZodType;
  toPayload: (values: V) => unknown;
  /** An existing item: the form starts saved (Update stays disabled until something changes). */
  saved: boolean;
  /** Extra checks that depend on the screen (e.g. confirm when a password is typed). */
  refine?: (values: V) => FieldErrors;
}

function isEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** zod issues by field path ("username", "permissions.relay.level"), the first message of each. */
export function issuesByPath(schema: ZodType, payload: unknown): FieldErrors {
  const result = schema.safeParse(payload);
  const errors: FieldErrors = {};
  if (result.success) return errors;
  for (const issue of result.error.issues) {
    const path = issue.path.map(String).join('.');
    if (!(path in errors)) errors[path] = issue.message;
  }
  return errors;
}

/**
 * The form conventions of the console:
 * - values are checked with the API's own zod schema; a field's message shows once it was left
 *   (or a submit was tried); a server's field error shows under its field until that field changes;
 * - the submit button (Create/Update) is disabled while saving, while invalid, and after a
 *   successful save until the form changes again;
 * - Enter in any input submits (and shows every message when the form is invalid).
 */
export function useZodForm<V extends Record<string, unknown>>({ initial, schema, toPayload, saved: startsSaved, refine }: ZodFormOptions<V>) {
  const [values, setValuesState] = useState<V>(initial);
  const [savedValues, setSavedValues] = useState<V | null>(startsSaved ? initial : null);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);
  const submitting = useRef(false);

  const errors = useMemo(() => ({ ...issuesByPath(schema, toPayload(values)), ...refine?.(values) }), [schema, toPayload, values, refine]);
  const isValid = Object.keys(errors).length === 0;
  const isDirty = savedValues === null || !isEqual(values, savedValues);

  const clearServerError = (field: string) =>
    setServerErrors((current) => {
      if (!(field in current)) return current;
      const { [field]: _dropped, ...rest } = current;
      return rest;
    });

  const set = useCallback(<K extends keyof V & string>(field: K, value: V[K]) => {
    setValuesState((current) => ({ ...current, [field]: value }));
    clearServerError(field);
  }, []);

  const setValues = useCallback((change: (current: V) => V) => setValuesState(change), []);
  const touch = useCallback((field: string) => setTouched((t) => (t[field] ? t : { ...t, [field]: true })), []);

  /** The message to show under a field, if any. */
  const errorOf = (field: string): string | undefined => serverErrors[field] ?? (touched[field] || submitted ? errors[field] : undefined);

  function submitWith(save: (payload: unknown, values: V) => Promise<V | void>) {
    const run = async () => {
      setSubmitted(true);
      if (!isValid || !isDirty || submitting.current) return;
      submitting.current = true;
      setSaving(true);
      try {
        const next = await save(toPayload(values), values);
        const after = next ?? values;
        setValuesState(after);
        setSavedValues(after);
        setServerErrors({});
        setSubmitted(false);
      } catch (error) {
        const fields = (error as { fieldErrors?: FieldErrors }).fieldErrors;
        if (fields) setServerErrors(fields);
      } finally {
        submitting.current = false;
        setSaving(false);
      }
    };
    return {
      onSubmit: (event: FormEvent) => {
        event.preventDefault();
        void run();
      },
      onKeyDown: (event: KeyboardEvent<HTMLFormElement>) => {
        const target = event.target as HTMLElement;
        if (event.key !== 'Enter' || target.tagName !== 'INPUT') return;
        const type = (target as HTMLInputElement).type;
        if (type === 'checkbox' || type === 'radio' || type === 'button' || type === 'submit') return;
        event.preventDefault();
        void run();
      },
      noValidate: true,
    };
  }

  return {
    values,
    set,
    setValues,
    touch,
    errorOf,
    errors,
    setServerErrors,
    isValid,
    isDirty,
    saving,
    /** Create/Update may be pressed. */
    canSubmit: isValid && isDirty && !saving,
    /** Spread on the <form>: submit on Enter and with the button. */
    formProps: submitWith,
  };
}

/** Thrown by a save function to put server field errors under their fields. */
export class FieldErrorsError extends Error {
  constructor(
    message: string,
    readonly fieldErrors: FieldErrors,
  ) {
    super(message);
  }
}
