CREATE TABLE `agent_collections` (
	`agent_id` text NOT NULL,
	`collection_id` text NOT NULL,
	PRIMARY KEY(`agent_id`, `collection_id`),
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`collection_id`) REFERENCES `collections`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `agent_collections_collection_idx` ON `agent_collections` (`collection_id`);--> statement-breakpoint
CREATE TABLE `collection_groups` (
	`collection_id` text NOT NULL,
	`group_id` text NOT NULL,
	`role` text NOT NULL,
	PRIMARY KEY(`collection_id`, `group_id`),
	FOREIGN KEY (`collection_id`) REFERENCES `collections`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `collection_groups_group_idx` ON `collection_groups` (`group_id`);--> statement-breakpoint
CREATE TABLE `collections` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`organization_role` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `collections_organization_idx` ON `collections` (`organization_id`,`name`);--> statement-breakpoint
CREATE INDEX `collections_user_idx` ON `collections` (`user_id`);--> statement-breakpoint
CREATE TABLE `thread_collections` (
	`thread_id` text NOT NULL,
	`collection_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`thread_id`, `collection_id`),
	FOREIGN KEY (`thread_id`) REFERENCES `threads`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`collection_id`) REFERENCES `collections`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `thread_collections_collection_idx` ON `thread_collections` (`collection_id`);--> statement-breakpoint
DROP INDEX `source_chunks_thread_idx`;--> statement-breakpoint
ALTER TABLE `source_chunks` DROP COLUMN `thread_id`;--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_sources` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`thread_id` text,
	`collection_id` text,
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
	`lease` text,
	`locked_until` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`thread_id`) REFERENCES `threads`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`collection_id`) REFERENCES `collections`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CHECK ((`thread_id` IS NULL) <> (`collection_id` IS NULL))
);
--> statement-breakpoint
INSERT INTO `__new_sources`("id", "organization_id", "thread_id", "collection_id", "user_id", "name", "description", "file_name", "kind", "mime_type", "size", "file_key", "status", "error", "pages", "chunk_count", "embedding_model", "dimensions", "attempts", "lease", "locked_until", "created_at", "updated_at") SELECT "id", "organization_id", "thread_id", NULL, "user_id", "name", "description", "file_name", "kind", "mime_type", "size", "file_key", "status", "error", "pages", "chunk_count", "embedding_model", "dimensions", "attempts", "lease", "locked_until", "created_at", "updated_at" FROM `sources`;--> statement-breakpoint
-- Dropping the table drops its trigger too; it is made again below. (The migrator runs with foreign keys off.)
DROP TABLE `sources`;--> statement-breakpoint
ALTER TABLE `__new_sources` RENAME TO `sources`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `sources_thread_idx` ON `sources` (`thread_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `sources_collection_idx` ON `sources` (`collection_id`,`file_name`);--> statement-breakpoint
CREATE INDEX `sources_status_idx` ON `sources` (`status`,`locked_until`);--> statement-breakpoint
CREATE TRIGGER `sources_file_deleted` AFTER DELETE ON `sources` BEGIN
	INSERT OR IGNORE INTO `deleted_files` (`file_key`, `due_at`) VALUES (old.`file_key`, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));
END;
