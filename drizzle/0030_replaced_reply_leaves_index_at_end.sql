-- A reply replaced by a new one (regenerate) leaves the search index when the new reply ends, in
-- the commit that puts the new one in, not in the one that begins it: taking a long reply's text
-- out of the index held back the new reply's first token. Until then search leaves it out (it is
-- off the branch). Any other version leaving the branch (no reply streams then) leaves at once.
DROP TRIGGER `chat_search_message_branch`;--> statement-breakpoint
CREATE TRIGGER `chat_search_message_branch` AFTER UPDATE OF `on_branch` ON `messages`
WHEN OLD.`on_branch` <> NEW.`on_branch` AND NEW.`status` <> 'streaming' BEGIN
	INSERT INTO `chat_search` (`chat_search`, rowid, `title`, `body`) SELECT 'delete', `id`, '', OLD.`content` FROM `chat_search_docs` WHERE `message_id` = OLD.`id` AND NEW.`on_branch` = 0
		AND NOT EXISTS (SELECT 1 FROM `messages` s WHERE s.`thread_id` = NEW.`thread_id` AND s.`status` = 'streaming');
	DELETE FROM `chat_search_docs` WHERE `message_id` = OLD.`id` AND NEW.`on_branch` = 0
		AND NOT EXISTS (SELECT 1 FROM `messages` s WHERE s.`thread_id` = NEW.`thread_id` AND s.`status` = 'streaming');
	-- Back on the branch: a version still in the index (its leaving deferred) is put in anew, once.
	INSERT INTO `chat_search` (`chat_search`, rowid, `title`, `body`) SELECT 'delete', `id`, '', OLD.`content` FROM `chat_search_docs` WHERE `message_id` = OLD.`id` AND NEW.`on_branch` = 1;
	DELETE FROM `chat_search_docs` WHERE `message_id` = OLD.`id` AND NEW.`on_branch` = 1;
	INSERT OR IGNORE INTO `chat_search_owners` (`user_id`) SELECT `user_id` FROM `threads` WHERE `id` = NEW.`thread_id` AND NEW.`on_branch` = 1;
	INSERT OR IGNORE INTO `chat_search_docs` (`id`, `thread_id`, `message_id`) SELECT x.`id`, t.`id`, NEW.`id` FROM `threads` t JOIN `chat_search_next_ids` x ON x.`user_id` = t.`user_id` WHERE t.`id` = NEW.`thread_id` AND NEW.`on_branch` = 1;
	INSERT INTO `chat_search` (rowid, `title`, `body`) SELECT `id`, '', NEW.`content` FROM `chat_search_docs` WHERE `message_id` = NEW.`id` AND NEW.`on_branch` = 1;
END;--> statement-breakpoint
-- When a reply ends (however: complete, stopped, failed, interrupted), the versions it replaced
-- (its siblings off the branch, also of a first message without a parent) that are still in the
-- index leave it.
CREATE TRIGGER `chat_search_replaced_versions` AFTER UPDATE OF `status` ON `messages`
WHEN OLD.`status` = 'streaming' AND NEW.`status` <> 'streaming' BEGIN
	INSERT INTO `chat_search` (`chat_search`, rowid, `title`, `body`) SELECT 'delete', d.`id`, '', m.`content` FROM `messages` m JOIN `chat_search_docs` d ON d.`message_id` = m.`id`
		WHERE m.`thread_id` = NEW.`thread_id` AND m.`parent_id` IS NEW.`parent_id` AND m.`on_branch` = 0;
	DELETE FROM `chat_search_docs` WHERE `message_id` IN (SELECT `id` FROM `messages` WHERE `thread_id` = NEW.`thread_id` AND `parent_id` IS NEW.`parent_id` AND `on_branch` = 0);
END;
