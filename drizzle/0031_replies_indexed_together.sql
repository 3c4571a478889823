CREATE TABLE `chat_search_waiting` (
	`message_id` text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
-- Hand-written: a reply that ends (however: complete, stopped, failed, interrupted) is no longer
-- put in the search index by the statement that ends it; it waits in `chat_search_waiting` and is
-- indexed with the others that ended meanwhile, in one transaction, shortly after and at once
-- before a search (docs/decisions/0107-replies-indexed-together.md). Any other change of a message
-- that is not streaming is indexed at once, as before; what leaves the index still leaves at once.
DROP TRIGGER `chat_search_message_update`;--> statement-breakpoint
CREATE TRIGGER `chat_search_message_update` AFTER UPDATE OF `content`, `status` ON `messages`
WHEN OLD.`status` <> 'streaming' OR NEW.`status` <> 'streaming' BEGIN
	INSERT INTO `chat_search` (`chat_search`, rowid, `title`, `body`) SELECT 'delete', `id`, '', OLD.`content` FROM `chat_search_docs` WHERE `message_id` = OLD.`id` AND OLD.`status` <> 'streaming';
	DELETE FROM `chat_search_docs` WHERE `message_id` = OLD.`id` AND NEW.`status` = 'streaming';
	INSERT OR IGNORE INTO `chat_search_waiting` (`message_id`) SELECT NEW.`id` WHERE OLD.`status` = 'streaming';
	INSERT OR IGNORE INTO `chat_search_owners` (`user_id`) SELECT `user_id` FROM `threads` WHERE `id` = NEW.`thread_id` AND OLD.`status` <> 'streaming' AND NEW.`status` <> 'streaming';
	INSERT OR IGNORE INTO `chat_search_docs` (`id`, `thread_id`, `message_id`) SELECT x.`id`, t.`id`, NEW.`id` FROM `threads` t JOIN `chat_search_next_ids` x ON x.`user_id` = t.`user_id` WHERE t.`id` = NEW.`thread_id` AND OLD.`status` <> 'streaming' AND NEW.`status` <> 'streaming';
	INSERT INTO `chat_search` (rowid, `title`, `body`) SELECT `id`, '', NEW.`content` FROM `chat_search_docs` WHERE `message_id` = NEW.`id` AND OLD.`status` <> 'streaming' AND NEW.`status` <> 'streaming';
END;
