CREATE TABLE `audit_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`actor_id` text,
	`actor_name` text,
	`actor_email` text,
	`action` text NOT NULL,
	`target_type` text,
	`target_id` text,
	`target_label` text,
	`details` text DEFAULT '{}' NOT NULL,
	`address` text,
	`request_id` text,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `audit_entries_org_time` ON `audit_entries` (`organization_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `audit_entries_time` ON `audit_entries` (`created_at`);--> statement-breakpoint
CREATE TRIGGER `audit_entries_append_only` BEFORE UPDATE ON `audit_entries` BEGIN SELECT RAISE(ABORT, 'audit entries are append-only'); END;
