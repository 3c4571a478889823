ALTER TABLE `messages` ADD `lease_owner` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `lease_until` integer;