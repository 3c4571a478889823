-- Hand-written after drizzle-kit: a streaming reply's appended parts are keyed by a small number
-- for the reply (`streaming_replies`) instead of its 36-character message id, so that the parts a
-- tick appends for many replies at once go into a small index (docs/decisions/0116-reply-chunks-by-number.md).
CREATE TABLE `streaming_replies` (
	`n` integer PRIMARY KEY NOT NULL,
	`message_id` text NOT NULL,
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `streaming_replies_message_id_unique` ON `streaming_replies` (`message_id`);--> statement-breakpoint
-- The replies streaming (or interrupted, not yet found) while the database is migrated keep their parts.
INSERT INTO `streaming_replies` (`message_id`) SELECT `id` FROM `messages` WHERE `status` = 'streaming' ORDER BY `created_at`;--> statement-breakpoint
DROP TRIGGER `reply_chunks_after_reply`;--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_reply_chunks` (
	`reply_n` integer NOT NULL,
	`seq` integer NOT NULL,
	`content` text DEFAULT '' NOT NULL,
	`reasoning` text DEFAULT '' NOT NULL,
	PRIMARY KEY(`reply_n`, `seq`),
	FOREIGN KEY (`reply_n`) REFERENCES `streaming_replies`(`n`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_reply_chunks` (`reply_n`, `seq`, `content`, `reasoning`)
	SELECT s.`n`, c.`seq`, c.`content`, c.`reasoning` FROM `reply_chunks` c JOIN `streaming_replies` s ON s.`message_id` = c.`message_id`;--> statement-breakpoint
DROP TABLE `reply_chunks`;--> statement-breakpoint
ALTER TABLE `__new_reply_chunks` RENAME TO `reply_chunks`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
-- A reply that begins streaming gets its number (a message is written as streaming when its reply begins).
CREATE TRIGGER `streaming_replies_begin` AFTER INSERT ON `messages` WHEN NEW.`status` = 'streaming' BEGIN
	INSERT OR IGNORE INTO `streaming_replies` (`message_id`) VALUES (NEW.`id`);
END;
--> statement-breakpoint
CREATE TRIGGER `streaming_replies_again` AFTER UPDATE OF `status` ON `messages`
WHEN OLD.`status` <> 'streaming' AND NEW.`status` = 'streaming' BEGIN
	INSERT OR IGNORE INTO `streaming_replies` (`message_id`) VALUES (NEW.`id`);
END;
--> statement-breakpoint
-- A reply that stops streaming has its text in its own row: its appended parts and its number go.
CREATE TRIGGER `streaming_replies_end` AFTER UPDATE OF `status` ON `messages`
WHEN OLD.`status` = 'streaming' AND NEW.`status` <> 'streaming' BEGIN
	DELETE FROM `reply_chunks` WHERE `reply_n` = (SELECT `n` FROM `streaming_replies` WHERE `message_id` = NEW.`id`);
	DELETE FROM `streaming_replies` WHERE `message_id` = NEW.`id`;
END;
