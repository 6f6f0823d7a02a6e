import { InvalidArgumentError } from 'commander';

/** Commander parsers for option and argument values, so a typo fails before any request. */

export function integer(value: string): number {
  if (!/^-?\d+$/.test(value.trim())) throw new InvalidArgumentError('Not a whole number.');
  return Number.parseInt(value, 10);
}

export function positiveId(value: string): number {
  const id = integer(value);
  if (id < 1) throw new InvalidArgumentError('Not an id (a whole number from 1).');
  return id;
}

/** A role as the API names it; `admin` is read as ADMIN. */
export function role(value: string): 'ADMIN' | 'USER' {
  const upper = value.trim().toUpperCase();
  if (upper !== 'ADMIN' && upper !== 'USER') throw new InvalidArgumentError('Allowed roles are ADMIN and USER.');
  return upper;
}
