CREATE TABLE `agent_groups` (
	`agent_id` text NOT NULL,
	`group_id` text NOT NULL,
	PRIMARY KEY(`agent_id`, `group_id`),
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `agent_groups_group_idx` ON `agent_groups` (`group_id`);--> statement-breakpoint
CREATE TABLE `prompt_groups` (
	`prompt_id` text NOT NULL,
	`group_id` text NOT NULL,
	PRIMARY KEY(`prompt_id`, `group_id`),
	FOREIGN KEY (`prompt_id`) REFERENCES `prompts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `prompt_groups_group_idx` ON `prompt_groups` (`group_id`);--> statement-breakpoint
ALTER TABLE `agents` ADD `shared_with_organization` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `prompts` ADD `shared_with_organization` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `prompts_organization_idx` ON `prompts` (`organization_id`,`updated_at`);