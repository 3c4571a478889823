ALTER TABLE `organizations` ADD `chat_retention_days` integer;--> statement-breakpoint
ALTER TABLE `organizations` ADD `file_retention_days` integer;--> statement-breakpoint
CREATE INDEX `threads_organization_activity_idx` ON `threads` (`organization_id`,`last_message_at`);--> statement-breakpoint
CREATE INDEX `sources_organization_created_idx` ON `sources` (`organization_id`,`created_at`);