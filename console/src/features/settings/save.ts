import { FieldErrorsError } from '../../components/form/useZodForm.ts';
import { fieldErrorsOf, messageOf } from '../../data/client.ts';

/** Server field errors go under their fields; any other error to the alert and the caller. */
export async function saveWith<T>(save: () => Promise<T>, showError: (message: string) => unknown): Promise<T> {
  try {
    return await save();
  } catch (error) {
    const fields = fieldErrorsOf(error);
    if (Object.keys(fields).length > 0) throw new FieldErrorsError(messageOf(error), fields);
    void showError(messageOf(error));
    throw error;
  }
}
