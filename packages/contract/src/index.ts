export * from './texts.ts';
export * from './constants.ts';
export * from './permissions.ts';
export * from './common.ts';
export * from './endpoint.ts';
export * from './auth.ts';
