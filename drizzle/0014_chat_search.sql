CREATE TABLE `chat_search_docs` (
	`id` integer PRIMARY KEY NOT NULL,
	`thread_id` text NOT NULL,
	`message_id` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `chat_search_docs_message_idx` ON `chat_search_docs` (`message_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `chat_search_docs_title_idx` ON `chat_search_docs` (`thread_id`) WHERE message_id IS NULL;--> statement-breakpoint
CREATE TABLE `chat_search_owners` (
	`n` integer PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `chat_search_owners_user_id_unique` ON `chat_search_owners` (`user_id`);--> statement-breakpoint
-- Hand-written: full-text search over the titles and message text of a user's chats
-- (docs/decisions/0051-chat-search-index.md). An external-content FTS5 table reads the text
-- through a view, so it is stored once. Its rowids are chat_search_docs ids: a user's lie in
-- their own range (n × 2³² + 1, + 2, … in the order they were indexed), so a search reads the
-- caller's range only. A streaming reply is indexed once, when it ends, not at every write.
CREATE VIEW `chat_search_content` AS
SELECT d.`id` AS `id`,
	CASE WHEN d.`message_id` IS NULL THEN t.`title` ELSE '' END AS `title`,
	CASE WHEN d.`message_id` IS NULL THEN '' ELSE m.`content` END AS `body`
FROM `chat_search_docs` d
LEFT JOIN `threads` t ON d.`message_id` IS NULL AND t.`id` = d.`thread_id`
LEFT JOIN `messages` m ON m.`id` = d.`message_id`;--> statement-breakpoint
CREATE VIRTUAL TABLE `chat_search` USING fts5(`title`, `body`, content='chat_search_content', content_rowid='id', tokenize='unicode61 remove_diacritics 2');--> statement-breakpoint
-- The index's words with the number of rows holding each: a word being typed stands for the
-- commonest words that begin with it.
CREATE VIRTUAL TABLE `chat_search_terms` USING fts5vocab(`chat_search`, 'row');--> statement-breakpoint
-- The id the next row of each owner gets.
CREATE VIEW `chat_search_next_ids` AS
SELECT o.`user_id` AS `user_id`,
	coalesce((SELECT max(d.`id`) FROM `chat_search_docs` d WHERE d.`id` > o.`n` * 4294967296 AND d.`id` < (o.`n` + 1) * 4294967296), o.`n` * 4294967296) + 1 AS `id`
FROM `chat_search_owners` o;--> statement-breakpoint
CREATE TRIGGER `chat_search_message_insert` AFTER INSERT ON `messages` WHEN NEW.`status` <> 'streaming' BEGIN
	INSERT OR IGNORE INTO `chat_search_owners` (`user_id`) SELECT `user_id` FROM `threads` WHERE `id` = NEW.`thread_id`;
	INSERT INTO `chat_search_docs` (`id`, `thread_id`, `message_id`) SELECT x.`id`, t.`id`, NEW.`id` FROM `threads` t JOIN `chat_search_next_ids` x ON x.`user_id` = t.`user_id` WHERE t.`id` = NEW.`thread_id`;
	INSERT INTO `chat_search` (rowid, `title`, `body`) SELECT `id`, '', NEW.`content` FROM `chat_search_docs` WHERE `message_id` = NEW.`id`;
END;--> statement-breakpoint
-- The index holds what a message said when it was indexed; that text leaves it exactly as it went in.
CREATE TRIGGER `chat_search_message_update` AFTER UPDATE OF `content`, `status` ON `messages`
WHEN OLD.`status` <> 'streaming' OR NEW.`status` <> 'streaming' BEGIN
	INSERT INTO `chat_search` (`chat_search`, rowid, `title`, `body`) SELECT 'delete', `id`, '', OLD.`content` FROM `chat_search_docs` WHERE `message_id` = OLD.`id` AND OLD.`status` <> 'streaming';
	DELETE FROM `chat_search_docs` WHERE `message_id` = OLD.`id` AND NEW.`status` = 'streaming';
	INSERT OR IGNORE INTO `chat_search_owners` (`user_id`) SELECT `user_id` FROM `threads` WHERE `id` = NEW.`thread_id` AND NEW.`status` <> 'streaming';
	INSERT OR IGNORE INTO `chat_search_docs` (`id`, `thread_id`, `message_id`) SELECT x.`id`, t.`id`, NEW.`id` FROM `threads` t JOIN `chat_search_next_ids` x ON x.`user_id` = t.`user_id` WHERE t.`id` = NEW.`thread_id` AND NEW.`status` <> 'streaming';
	INSERT INTO `chat_search` (rowid, `title`, `body`) SELECT `id`, '', NEW.`content` FROM `chat_search_docs` WHERE `message_id` = NEW.`id` AND NEW.`status` <> 'streaming';
END;--> statement-breakpoint
CREATE TRIGGER `chat_search_message_delete` AFTER DELETE ON `messages` WHEN OLD.`status` <> 'streaming' BEGIN
	INSERT INTO `chat_search` (`chat_search`, rowid, `title`, `body`) SELECT 'delete', `id`, '', OLD.`content` FROM `chat_search_docs` WHERE `message_id` = OLD.`id`;
	DELETE FROM `chat_search_docs` WHERE `message_id` = OLD.`id`;
END;--> statement-breakpoint
CREATE TRIGGER `chat_search_title_insert` AFTER INSERT ON `threads` WHEN NEW.`title` IS NOT NULL BEGIN
	INSERT OR IGNORE INTO `chat_search_owners` (`user_id`) VALUES (NEW.`user_id`);
	INSERT INTO `chat_search_docs` (`id`, `thread_id`) SELECT `id`, NEW.`id` FROM `chat_search_next_ids` WHERE `user_id` = NEW.`user_id`;
	INSERT INTO `chat_search` (rowid, `title`, `body`) SELECT `id`, NEW.`title`, '' FROM `chat_search_docs` WHERE `thread_id` = NEW.`id` AND `message_id` IS NULL;
END;--> statement-breakpoint
CREATE TRIGGER `chat_search_title_update` AFTER UPDATE OF `title` ON `threads` BEGIN
	INSERT INTO `chat_search` (`chat_search`, rowid, `title`, `body`) SELECT 'delete', `id`, OLD.`title`, '' FROM `chat_search_docs` WHERE `thread_id` = OLD.`id` AND `message_id` IS NULL AND OLD.`title` IS NOT NULL;
	DELETE FROM `chat_search_docs` WHERE `thread_id` = OLD.`id` AND `message_id` IS NULL AND NEW.`title` IS NULL;
	INSERT OR IGNORE INTO `chat_search_owners` (`user_id`) SELECT NEW.`user_id` WHERE NEW.`title` IS NOT NULL;
	INSERT OR IGNORE INTO `chat_search_docs` (`id`, `thread_id`) SELECT `id`, NEW.`id` FROM `chat_search_next_ids` WHERE `user_id` = NEW.`user_id` AND NEW.`title` IS NOT NULL;
	INSERT INTO `chat_search` (rowid, `title`, `body`) SELECT `id`, NEW.`title`, '' FROM `chat_search_docs` WHERE `thread_id` = NEW.`id` AND `message_id` IS NULL AND NEW.`title` IS NOT NULL;
END;--> statement-breakpoint
CREATE TRIGGER `chat_search_title_delete` AFTER DELETE ON `threads` WHEN OLD.`title` IS NOT NULL BEGIN
	INSERT INTO `chat_search` (`chat_search`, rowid, `title`, `body`) SELECT 'delete', `id`, OLD.`title`, '' FROM `chat_search_docs` WHERE `thread_id` = OLD.`id` AND `message_id` IS NULL;
	DELETE FROM `chat_search_docs` WHERE `thread_id` = OLD.`id` AND `message_id` IS NULL;
END;--> statement-breakpoint
-- Existing chats: every title and every message that is not streaming, oldest first in each
-- owner's range, then the index built from them.
INSERT INTO `chat_search_owners` (`user_id`) SELECT DISTINCT `user_id` FROM `threads`;--> statement-breakpoint
INSERT INTO `chat_search_docs` (`id`, `thread_id`, `message_id`)
SELECT o.`n` * 4294967296 + row_number() OVER (PARTITION BY o.`n` ORDER BY x.`at`, x.`seq`), x.`thread_id`, x.`message_id`
FROM (
	SELECT `user_id`, `id` AS `thread_id`, NULL AS `message_id`, `created_at` AS `at`, 0 AS `seq` FROM `threads` WHERE `title` IS NOT NULL
	UNION ALL
	SELECT t.`user_id`, t.`id`, m.`id`, m.`created_at`, m.`seq` FROM `messages` m JOIN `threads` t ON t.`id` = m.`thread_id` WHERE m.`status` <> 'streaming'
) x JOIN `chat_search_owners` o ON o.`user_id` = x.`user_id`;--> statement-breakpoint
INSERT INTO `chat_search` (`chat_search`) VALUES ('rebuild');
