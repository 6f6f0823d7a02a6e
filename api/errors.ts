/** The error types services throw; the error handler turns each into `{ code, message, details? }`. */

export interface FieldIssue {
  path: string;
  message: string;
  code?: string;
}

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: FieldIssue[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends AppError {
  constructor(message: string, details?: FieldIssue[]) {
    super(400, 'VALIDATION_FAILED', message, details);
  }
  /** A single field breaks a rule: the message names both. */
  static field(path: string, message: string): ValidationError {
    return new ValidationError(`${path}: ${message}`, [{ path, message }]);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Sign in to continue.', code = 'UNAUTHORIZED') {
    super(401, code, message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'You do not have the permission this needs.', code = 'FORBIDDEN') {
    super(403, code, message);
  }
}

export class NotFoundError extends AppError {
  constructor(what: string, id?: string | number) {
    super(404, 'NOT_FOUND', id === undefined ? `${what} not found.` : `${what} ${id} not found.`);
  }
}

export class ConflictError extends AppError {
  constructor(message: string, code = 'CONFLICT', details?: FieldIssue[]) {
    super(409, code, message, details);
  }
}

export class TooManyRequestsError extends AppError {
  constructor(message: string, retryAfterSeconds: number) {
    super(429, 'TOO_MANY_ATTEMPTS', message, undefined, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}
