DROP INDEX `threads_user_activity_idx`;--> statement-breakpoint
DROP INDEX `threads_user_pinned_idx`;--> statement-breakpoint
CREATE INDEX `threads_user_list_idx` ON `threads` (`user_id`,`pinned_at`,`last_message_at`,`id`);