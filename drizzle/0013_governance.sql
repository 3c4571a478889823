CREATE TABLE `group_members` (
	`group_id` text NOT NULL,
	`user_id` text NOT NULL,
	PRIMARY KEY(`group_id`, `user_id`),
	FOREIGN KEY (`group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `group_members_user_idx` ON `group_members` (`user_id`);--> statement-breakpoint
CREATE TABLE `groups` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `groups_name_unique` ON `groups` (`organization_id`,`name`);--> statement-breakpoint
CREATE TABLE `model_group_access` (
	`model_id` text NOT NULL,
	`group_id` text NOT NULL,
	PRIMARY KEY(`model_id`, `group_id`),
	FOREIGN KEY (`model_id`) REFERENCES `permitted_models`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `model_group_access_group_idx` ON `model_group_access` (`group_id`);--> statement-breakpoint
CREATE TABLE `usage_daily` (
	`organization_id` text NOT NULL,
	`day` text NOT NULL,
	`user_id` text NOT NULL,
	`model_ref` text NOT NULL,
	`calls` integer NOT NULL,
	`estimated_calls` integer NOT NULL,
	`input_tokens` integer NOT NULL,
	`output_tokens` integer NOT NULL,
	`cost` real NOT NULL,
	PRIMARY KEY(`organization_id`, `day`, `user_id`, `model_ref`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `usage_events` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`user_id` text NOT NULL,
	`thread_id` text,
	`model_ref` text NOT NULL,
	`kind` text NOT NULL,
	`input_tokens` integer NOT NULL,
	`output_tokens` integer NOT NULL,
	`estimated` integer NOT NULL,
	`cost` real NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `usage_events_organization_idx` ON `usage_events` (`organization_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `permitted_models` ADD `restricted` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `permitted_models` ADD `price_input` real;--> statement-breakpoint
ALTER TABLE `permitted_models` ADD `price_output` real;