export * from './users.ts';
export * from './system.ts';
export * from './sms.ts';
