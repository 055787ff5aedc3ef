/** The accounts the generator creates and the bench signs in with (a bench database only). */
export const BENCH_ADMIN_EMAIL = 'bench-admin@betdesk.local';
/** The staff user who looks after every 20th client (~10,000 at scale 1). */
export const BENCH_STAFF_EMAIL = 'bench-staff@betdesk.local';
/** A staff user with 1 % of the clients (every 100th), and one with none: scope where the rows are rare or absent. */
export const BENCH_RARE_STAFF_EMAIL = 'bench-staff-rare@betdesk.local';
export const BENCH_ABSENT_STAFF_EMAIL = 'bench-staff-none@betdesk.local';
/** One of the 19 other staff members: in the interleaved shape every 20th client, like the big one but another part of the ids. */
export const BENCH_OTHER_STAFF_EMAIL = 'bench-staff-1@betdesk.local';
/** A surname one person in 20,000 carries in the Kenyan name pool, none in the reference one: the rare search term. */
export const RARE_SURNAME = 'Lesiamon';
export const BENCH_PASSWORD = 'bench-password';
