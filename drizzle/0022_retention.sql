ALTER TABLE `organizations` ADD `chat_retention_days` integer;--> statement-breakpoint
ALTER TABLE `organizations` ADD `file_retention_days` integer;