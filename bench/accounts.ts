/** The accounts the generator creates and the bench signs in with (a bench database only). */
export const BENCH_ADMIN_EMAIL = 'bench-admin@betdesk.local';
/** The staff user who looks after every 20th client (~10,000 at scale 1). */
export const BENCH_STAFF_EMAIL = 'bench-staff@betdesk.local';
export const BENCH_PASSWORD = 'bench-password';
