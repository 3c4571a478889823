CREATE TABLE `model_endpoints` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`name` text NOT NULL,
	`base_url` text NOT NULL,
	`api_key_encrypted` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `model_endpoints_organization_idx` ON `model_endpoints` (`organization_id`);--> statement-breakpoint
CREATE TABLE `model_settings` (
	`organization_id` text PRIMARY KEY NOT NULL,
	`default_model_id` text,
	`embedding_model_id` text,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`default_model_id`) REFERENCES `permitted_models`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`embedding_model_id`) REFERENCES `permitted_models`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `permitted_models` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`provider_id` text NOT NULL,
	`model` text NOT NULL,
	`embedding` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `permitted_models_unique` ON `permitted_models` (`organization_id`,`provider_id`,`model`);--> statement-breakpoint
CREATE TABLE `permitted_providers` (
	`organization_id` text NOT NULL,
	`provider_id` text NOT NULL,
	`terms_version` text NOT NULL,
	`accepted_by_id` text,
	`accepted_by_name` text NOT NULL,
	`accepted_at` integer NOT NULL,
	PRIMARY KEY(`organization_id`, `provider_id`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`accepted_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `user_model_defaults` (
	`user_id` text PRIMARY KEY NOT NULL,
	`model_id` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`model_id`) REFERENCES `permitted_models`(`id`) ON UPDATE no action ON DELETE cascade
);
