ALTER TABLE `threads` ADD `pinned_at` integer;--> statement-breakpoint
CREATE INDEX `threads_user_pinned_idx` ON `threads` (`user_id`,`pinned_at`);