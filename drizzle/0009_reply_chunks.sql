CREATE TABLE `reply_chunks` (
	`message_id` text NOT NULL,
	`seq` integer NOT NULL,
	`content` text DEFAULT '' NOT NULL,
	`reasoning` text DEFAULT '' NOT NULL,
	PRIMARY KEY(`message_id`, `seq`),
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- A reply that stops streaming has its text in its own row: its appended parts go.
CREATE TRIGGER `reply_chunks_after_reply` AFTER UPDATE OF `status` ON `messages`
WHEN OLD.`status` = 'streaming' AND NEW.`status` <> 'streaming'
BEGIN
  DELETE FROM `reply_chunks` WHERE `message_id` = NEW.`id`;
END;
