CREATE TABLE `sso_domains` (
	`domain` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`verification_token` text NOT NULL,
	`verified_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `sso_providers` (
	`id` text PRIMARY KEY NOT NULL,
	`provider_id` text NOT NULL,
	`issuer` text NOT NULL,
	`oidc_config` text,
	`saml_config` text,
	`user_id` text,
	`organization_id` text NOT NULL,
	`domain` text DEFAULT '' NOT NULL,
	`domain_verified` integer DEFAULT false NOT NULL,
	`default_role` text DEFAULT 'user' NOT NULL,
	`password_sign_in` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sso_providers_provider_id_unique` ON `sso_providers` (`provider_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `sso_providers_organization_id_unique` ON `sso_providers` (`organization_id`);