-- Sessions ended on the server: each token carries the user's session version (claim `sv`) and is accepted only while
-- it matches. Every user starts at 0, and a token issued before this migration (no `sv`) counts as version 0, so the
-- sessions open at deploy time keep working until that user's next logout or password change.
ALTER TABLE `users` ADD `session_version` integer DEFAULT 0 NOT NULL;
