CREATE TABLE `chat_share_groups` (
	`share_id` text NOT NULL,
	`group_id` text NOT NULL,
	PRIMARY KEY(`share_id`, `group_id`),
	FOREIGN KEY (`share_id`) REFERENCES `chat_shares`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `chat_shares` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`user_id` text NOT NULL,
	`thread_id` text NOT NULL,
	`title` text NOT NULL,
	`messages` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`thread_id`) REFERENCES `threads`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `chat_shares_thread_idx` ON `chat_shares` (`thread_id`);--> statement-breakpoint
ALTER TABLE `messages` ADD `parent_id` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `on_branch` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `messages` ADD `shown_at` integer;--> statement-breakpoint
CREATE INDEX `messages_thread_parent_idx` ON `messages` (`thread_id`,`parent_id`);--> statement-breakpoint
-- Hand-written: existing chats are one branch, each message following the one before it
-- (docs/decisions/0060-reply-versions.md).
UPDATE `messages` SET `parent_id` = (
	SELECT p.`id` FROM `messages` p WHERE p.`thread_id` = `messages`.`thread_id` AND p.`seq` < `messages`.`seq` ORDER BY p.`seq` DESC LIMIT 1
);--> statement-breakpoint
-- The search index holds the branch shown: a version leaves it when another is shown and comes
-- back when it is shown again (messages are written on the branch; a streaming one is never off it).
CREATE TRIGGER `chat_search_message_branch` AFTER UPDATE OF `on_branch` ON `messages`
WHEN OLD.`on_branch` <> NEW.`on_branch` AND NEW.`status` <> 'streaming' BEGIN
	INSERT INTO `chat_search` (`chat_search`, rowid, `title`, `body`) SELECT 'delete', `id`, '', OLD.`content` FROM `chat_search_docs` WHERE `message_id` = OLD.`id` AND NEW.`on_branch` = 0;
	DELETE FROM `chat_search_docs` WHERE `message_id` = OLD.`id` AND NEW.`on_branch` = 0;
	INSERT OR IGNORE INTO `chat_search_owners` (`user_id`) SELECT `user_id` FROM `threads` WHERE `id` = NEW.`thread_id` AND NEW.`on_branch` = 1;
	INSERT OR IGNORE INTO `chat_search_docs` (`id`, `thread_id`, `message_id`) SELECT x.`id`, t.`id`, NEW.`id` FROM `threads` t JOIN `chat_search_next_ids` x ON x.`user_id` = t.`user_id` WHERE t.`id` = NEW.`thread_id` AND NEW.`on_branch` = 1;
	INSERT INTO `chat_search` (rowid, `title`, `body`) SELECT `id`, '', NEW.`content` FROM `chat_search_docs` WHERE `message_id` = NEW.`id` AND NEW.`on_branch` = 1;
END;
