CREATE TABLE `source_chunks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`source_id` text NOT NULL,
	`thread_id` text NOT NULL,
	`seq` integer NOT NULL,
	`content` text NOT NULL,
	`heading_path` text DEFAULT '' NOT NULL,
	`page` integer,
	`page_end` integer,
	`embedding` F32_BLOB NOT NULL,
	FOREIGN KEY (`source_id`) REFERENCES `sources`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `source_chunks_source_idx` ON `source_chunks` (`source_id`,`seq`);--> statement-breakpoint
CREATE INDEX `source_chunks_thread_idx` ON `source_chunks` (`thread_id`);--> statement-breakpoint
CREATE TABLE `sources` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`thread_id` text NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`file_name` text NOT NULL,
	`kind` text NOT NULL,
	`mime_type` text NOT NULL,
	`size` integer NOT NULL,
	`file_key` text NOT NULL,
	`status` text NOT NULL,
	`error` text,
	`pages` integer,
	`chunk_count` integer DEFAULT 0 NOT NULL,
	`embedding_model` text,
	`dimensions` integer,
	`attempts` integer DEFAULT 0 NOT NULL,
	`locked_until` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`thread_id`) REFERENCES `threads`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sources_thread_idx` ON `sources` (`thread_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `sources_status_idx` ON `sources` (`status`,`locked_until`);--> statement-breakpoint
-- Hand-written: keyword search (BM25) over chunk text and headings, an external-content FTS5
-- table kept in step with source_chunks by triggers (which also fire on cascading deletes).
CREATE VIRTUAL TABLE `source_chunks_fts` USING fts5(`content`, `heading_path`, content='source_chunks', content_rowid='id', tokenize='unicode61 remove_diacritics 2');--> statement-breakpoint
CREATE TRIGGER `source_chunks_fts_insert` AFTER INSERT ON `source_chunks` BEGIN
	INSERT INTO `source_chunks_fts` (rowid, `content`, `heading_path`) VALUES (new.`id`, new.`content`, new.`heading_path`);
END;--> statement-breakpoint
CREATE TRIGGER `source_chunks_fts_delete` AFTER DELETE ON `source_chunks` BEGIN
	INSERT INTO `source_chunks_fts` (`source_chunks_fts`, rowid, `content`, `heading_path`) VALUES ('delete', old.`id`, old.`content`, old.`heading_path`);
END;--> statement-breakpoint
CREATE TRIGGER `source_chunks_fts_update` AFTER UPDATE ON `source_chunks` BEGIN
	INSERT INTO `source_chunks_fts` (`source_chunks_fts`, rowid, `content`, `heading_path`) VALUES ('delete', old.`id`, old.`content`, old.`heading_path`);
	INSERT INTO `source_chunks_fts` (rowid, `content`, `heading_path`) VALUES (new.`id`, new.`content`, new.`heading_path`);
END;
