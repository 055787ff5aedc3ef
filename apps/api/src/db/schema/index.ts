export * from './users.ts';
export * from './system.ts';
export * from './sms.ts';
export * from './clients.ts';
export * from './tips-core.ts';
export * from './money.ts';
export * from './mpesa.ts';
export * from './tips.ts';
