CREATE TABLE `deleted_files` (
	`file_key` text PRIMARY KEY NOT NULL,
	`due_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `sources` ADD `lease` text;--> statement-breakpoint
-- Hand-written: every deleted source leaves its file key behind, also when it goes by cascade
-- (its thread, user or organisation deleted), so its stored file can be removed after the commit.
CREATE TRIGGER `sources_file_deleted` AFTER DELETE ON `sources` BEGIN
	INSERT OR IGNORE INTO `deleted_files` (`file_key`, `due_at`) VALUES (old.`file_key`, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));
END;
