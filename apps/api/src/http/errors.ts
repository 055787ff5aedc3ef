import { statusTexts } from '@betdesk/contract';

export type FieldErrors = Record<string, string[]>;

/**
 * A refusal the user should read: the status picks the spec's default text, `info` says exactly
 * what is wrong. Services throw these; the error handler turns them into the response envelope.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly info: string,
    readonly options: { errors?: FieldErrors; code?: string; popup?: boolean } = {},
  ) {
    super(info);
  }
}

export const notFound = (info: string = statusTexts[404]) => new AppError(404, info);
export const forbidden = (info: string = statusTexts[403]) => new AppError(403, info);
export const conflict = (info: string, code?: string) => new AppError(409, info, code ? { code } : {});
export const tooManyRequests = (info: string) => new AppError(429, info);

/** 422 naming the field(s), as a form shows them. */
export function invalid(errors: FieldErrors, info: string = statusTexts[422]): AppError {
  return new AppError(422, info, { errors });
}

export function fieldError(field: string, message: string): AppError {
  return invalid({ [field]: [message] }, message);
}
