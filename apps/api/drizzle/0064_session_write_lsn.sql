-- Decision 073: the WAL position of a session's last write, so that every API process sends its
-- reads to the primary until the replica has replayed past it (read-your-writes).
ALTER TABLE "sessions" ADD COLUMN "last_write_lsn" text;
