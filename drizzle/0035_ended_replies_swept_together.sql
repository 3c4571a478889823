-- Written by drizzle-kit (db/schema/chat.ts), the triggers and comments by hand: a reply that stops
-- streaming keeps its number and appended parts, marked ended, until they go together with those of
-- the other replies that ended meanwhile (src/api/search/index-later.ts). The parts a tick appends
-- for many replies at once share the table's pages, so deleting each reply's parts alone at its end
-- rewrote each of those pages once per reply (docs/decisions/0137-ended-replies-parts-go-together.md).
ALTER TABLE `streaming_replies` ADD `ended` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `streaming_replies_ended_idx` ON `streaming_replies` (`n`) WHERE "streaming_replies"."ended" = 1;--> statement-breakpoint
DROP TRIGGER `streaming_replies_end`;--> statement-breakpoint
-- A reply that stops streaming has its text in its own row: its number is marked ended, and no read
-- joins its parts any more.
CREATE TRIGGER `streaming_replies_end` AFTER UPDATE OF `status` ON `messages`
WHEN OLD.`status` = 'streaming' AND NEW.`status` <> 'streaming' BEGIN
	UPDATE `streaming_replies` SET `ended` = 1 WHERE `message_id` = NEW.`id`;
END;
--> statement-breakpoint
DROP TRIGGER `streaming_replies_again`;--> statement-breakpoint
-- A reply that streams again starts with no parts: those of its last run (ended, not yet gone) go first.
CREATE TRIGGER `streaming_replies_again` AFTER UPDATE OF `status` ON `messages`
WHEN OLD.`status` <> 'streaming' AND NEW.`status` = 'streaming' BEGIN
	DELETE FROM `reply_chunks` WHERE `reply_n` = (SELECT `n` FROM `streaming_replies` WHERE `message_id` = NEW.`id` AND `ended` = 1);
	DELETE FROM `streaming_replies` WHERE `message_id` = NEW.`id` AND `ended` = 1;
	INSERT OR IGNORE INTO `streaming_replies` (`message_id`) VALUES (NEW.`id`);
END;
