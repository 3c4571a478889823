CREATE TABLE `budget_alerts` (
	`organization_id` text NOT NULL,
	`month` text NOT NULL,
	`threshold` integer NOT NULL,
	`sent_at` integer NOT NULL,
	PRIMARY KEY(`organization_id`, `month`, `threshold`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `budget_reservations` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`user_id` text NOT NULL,
	`cost` real NOT NULL,
	`tokens` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `budget_reservations_organization_idx` ON `budget_reservations` (`organization_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `budgets` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`scope` text NOT NULL,
	`target_id` text NOT NULL,
	`metric` text NOT NULL,
	`monthly_limit` real NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `budgets_target_idx` ON `budgets` (`organization_id`,`scope`,`target_id`);