-- The schema the migrations build, for a fresh database to begin from in one step (db/migrate.ts).
-- Written by `npx bun db/baseline.ts`; do not edit. A database begun from it is recorded as migrated up to:
-- covers: 0035_ended_replies_swept_together

CREATE TABLE `organizations` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL
, `api_access` integer DEFAULT true NOT NULL, `chat_retention_days` integer, `file_retention_days` integer, `require_two_factor` integer DEFAULT false NOT NULL);
CREATE TABLE `accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`provider_id` text NOT NULL,
	`user_id` text NOT NULL,
	`access_token` text,
	`refresh_token` text,
	`id_token` text,
	`access_token_expires_at` integer,
	`refresh_token_expires_at` integer,
	`scope` text,
	`password` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`token` text NOT NULL,
	`expires_at` integer NOT NULL,
	`ip_address` text,
	`user_agent` text,
	`user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`email_verified` integer DEFAULT false NOT NULL,
	`image` text,
	`organization_id` text NOT NULL,
	`role` text DEFAULT 'user' NOT NULL,
	`locale` text DEFAULT 'de' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL, `theme` text, `scim_external_id` text, `deactivated_at` integer, `two_factor_enabled` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
CREATE TABLE `verifications` (
	`id` text PRIMARY KEY NOT NULL,
	`identifier` text NOT NULL,
	`value` text NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
CREATE TABLE `outbox_emails` (
	`id` text PRIMARY KEY NOT NULL,
	`to` text NOT NULL,
	`subject` text NOT NULL,
	`text` text NOT NULL,
	`html` text NOT NULL,
	`status` text NOT NULL,
	`error` text,
	`created_at` integer NOT NULL
);
CREATE TABLE `rate_limits` (
	`key` text PRIMARY KEY NOT NULL,
	`count` integer NOT NULL,
	`reset_at` integer NOT NULL
);
CREATE TABLE `invites` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`email` text NOT NULL,
	`role` text NOT NULL,
	`locale` text NOT NULL,
	`token_hash` text NOT NULL,
	`invited_by_id` text,
	`created_at` integer NOT NULL,
	`sent_at` integer NOT NULL,
	`accepted_at` integer,
	`accepted_user_id` text,
	`revoked_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invited_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`accepted_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
CREATE TABLE `model_endpoints` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`name` text NOT NULL,
	`base_url` text NOT NULL,
	`api_key_encrypted` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
CREATE TABLE `model_settings` (
	`organization_id` text PRIMARY KEY NOT NULL,
	`default_model_id` text,
	`embedding_model_id` text,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`default_model_id`) REFERENCES `permitted_models`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`embedding_model_id`) REFERENCES `permitted_models`(`id`) ON UPDATE no action ON DELETE set null
);
CREATE TABLE `permitted_models` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`provider_id` text NOT NULL,
	`model` text NOT NULL,
	`embedding` integer NOT NULL,
	`created_at` integer NOT NULL, `restricted` integer DEFAULT false NOT NULL, `price_input` real, `price_output` real,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
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
CREATE TABLE `user_model_defaults` (
	`user_id` text PRIMARY KEY NOT NULL,
	`model_id` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`model_id`) REFERENCES `permitted_models`(`id`) ON UPDATE no action ON DELETE cascade
);
CREATE TABLE `agents` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`instructions` text NOT NULL,
	`model_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL, `tools` text DEFAULT '["internet_search","website_content","source_query","send_email"]' NOT NULL, `shared_with_organization` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`model_id`) REFERENCES `permitted_models`(`id`) ON UPDATE no action ON DELETE set null
);
CREATE TABLE `messages` (
	`id` text PRIMARY KEY NOT NULL,
	`thread_id` text NOT NULL,
	`seq` integer NOT NULL,
	`role` text NOT NULL,
	`content` text DEFAULT '' NOT NULL,
	`reasoning` text DEFAULT '' NOT NULL,
	`parts` text DEFAULT '[]' NOT NULL,
	`status` text NOT NULL,
	`error_code` text,
	`model` text,
	`input_tokens` integer,
	`output_tokens` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL, `lease_owner` text, `lease_until` integer, `parent_id` text, `on_branch` integer DEFAULT true NOT NULL, `shown_at` integer, `stop_requested_at` integer,
	FOREIGN KEY (`thread_id`) REFERENCES `threads`(`id`) ON UPDATE no action ON DELETE cascade
);
CREATE TABLE `threads` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`user_id` text NOT NULL,
	`title` text,
	`model_id` text,
	`agent_id` text,
	`created_at` integer NOT NULL,
	`last_message_at` integer NOT NULL, `pinned_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`model_id`) REFERENCES `permitted_models`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE set null
);
CREATE TABLE `prompts` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`user_id` text NOT NULL,
	`title` text NOT NULL,
	`content` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL, `shared_with_organization` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
CREATE TABLE `subscriptions` (
	`organization_id` text PRIMARY KEY NOT NULL,
	`seats` integer NOT NULL,
	`started_at` integer NOT NULL,
	`next_renewal_at` integer NOT NULL,
	`cancelled_at` integer,
	`company_name` text NOT NULL,
	`sub_text` text,
	`street` text NOT NULL,
	`house_number` text NOT NULL,
	`postal_code` text NOT NULL,
	`city` text NOT NULL,
	`country` text NOT NULL,
	`vat_number` text,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
CREATE TABLE `trial_usage` (
	`organization_id` text PRIMARY KEY NOT NULL,
	`messages` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`event` text NOT NULL,
	`payload` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`locked_until` integer,
	`last_status` integer,
	`last_error` text,
	`created_at` integer NOT NULL,
	`delivered_at` integer
);
CREATE TABLE `source_chunks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`source_id` text NOT NULL,
	`seq` integer NOT NULL,
	`content` text NOT NULL,
	`heading_path` text DEFAULT '' NOT NULL,
	`page` integer,
	`page_end` integer,
	`embedding` F32_BLOB NOT NULL, `recognised` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`source_id`) REFERENCES `sources`(`id`) ON UPDATE no action ON DELETE cascade
);
CREATE VIRTUAL TABLE `source_chunks_fts` USING fts5(`content`, `heading_path`, content='source_chunks', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
CREATE TABLE `deleted_files` (
	`file_key` text PRIMARY KEY NOT NULL,
	`due_at` integer NOT NULL
);
CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`config_id` text DEFAULT 'default' NOT NULL,
	`name` text,
	`start` text,
	`prefix` text,
	`key` text NOT NULL,
	`reference_id` text NOT NULL,
	`refill_interval` integer,
	`refill_amount` integer,
	`last_refill_at` integer,
	`enabled` integer DEFAULT true,
	`rate_limit_enabled` integer DEFAULT true,
	`rate_limit_time_window` integer,
	`rate_limit_max` integer,
	`request_count` integer DEFAULT 0,
	`remaining` integer,
	`last_request` integer,
	`expires_at` integer,
	`permissions` text,
	`metadata` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`reference_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
CREATE TABLE `group_members` (
	`group_id` text NOT NULL,
	`user_id` text NOT NULL,
	PRIMARY KEY(`group_id`, `user_id`),
	FOREIGN KEY (`group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
CREATE TABLE `groups` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL, `scim_external_id` text,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
CREATE TABLE `model_group_access` (
	`model_id` text NOT NULL,
	`group_id` text NOT NULL,
	PRIMARY KEY(`model_id`, `group_id`),
	FOREIGN KEY (`model_id`) REFERENCES `permitted_models`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE cascade
);
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
CREATE TABLE `chat_search_docs` (
	`id` integer PRIMARY KEY NOT NULL,
	`thread_id` text NOT NULL,
	`message_id` text
);
CREATE TABLE `chat_search_owners` (
	`n` integer PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
CREATE VIRTUAL TABLE `chat_search` USING fts5(`title`, `body`, content='chat_search_content', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE `chat_search_terms` USING fts5vocab(`chat_search`, 'row');
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
CREATE TABLE `sso_domains` (
	`domain` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`verification_token` text NOT NULL,
	`verified_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
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
CREATE TABLE `budget_alerts` (
	`organization_id` text NOT NULL,
	`month` text NOT NULL,
	`threshold` integer NOT NULL,
	`sent_at` integer NOT NULL,
	PRIMARY KEY(`organization_id`, `month`, `threshold`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
CREATE TABLE `budget_reservations` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`user_id` text NOT NULL,
	`cost` real NOT NULL,
	`tokens` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
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
CREATE TABLE `chat_share_groups` (
	`share_id` text NOT NULL,
	`group_id` text NOT NULL,
	PRIMARY KEY(`share_id`, `group_id`),
	FOREIGN KEY (`share_id`) REFERENCES `chat_shares`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE cascade
);
CREATE TABLE `chat_shares` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`user_id` text NOT NULL,
	`thread_id` text NOT NULL,
	`title` text NOT NULL,
	`messages` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`thread_id`) REFERENCES `threads`(`id`) ON UPDATE no action ON DELETE cascade
);
CREATE TABLE `scim_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`name` text NOT NULL,
	`token_hash` text NOT NULL,
	`start` text NOT NULL,
	`created_by` text,
	`created_at` integer NOT NULL,
	`last_used_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
CREATE TABLE `mcp_servers` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`name` text NOT NULL,
	`url` text NOT NULL,
	`headers_encrypted` text,
	`header_names` text DEFAULT '[]' NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
CREATE TABLE `mcp_tool_agents` (
	`tool_id` text NOT NULL,
	`agent_id` text NOT NULL,
	PRIMARY KEY(`tool_id`, `agent_id`),
	FOREIGN KEY (`tool_id`) REFERENCES `mcp_tools`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE cascade
);
CREATE TABLE `mcp_tool_groups` (
	`tool_id` text NOT NULL,
	`group_id` text NOT NULL,
	PRIMARY KEY(`tool_id`, `group_id`),
	FOREIGN KEY (`tool_id`) REFERENCES `mcp_tools`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE cascade
);
CREATE TABLE `mcp_tools` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`server_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`input_schema` text NOT NULL,
	`scope` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`server_id`) REFERENCES `mcp_servers`(`id`) ON UPDATE no action ON DELETE cascade
);
CREATE TABLE `agent_collections` (
	`agent_id` text NOT NULL,
	`collection_id` text NOT NULL,
	PRIMARY KEY(`agent_id`, `collection_id`),
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`collection_id`) REFERENCES `collections`(`id`) ON UPDATE no action ON DELETE cascade
);
CREATE TABLE `collection_groups` (
	`collection_id` text NOT NULL,
	`group_id` text NOT NULL,
	`role` text NOT NULL,
	PRIMARY KEY(`collection_id`, `group_id`),
	FOREIGN KEY (`collection_id`) REFERENCES `collections`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE cascade
);
CREATE TABLE `collections` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`organization_role` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
CREATE TABLE `thread_collections` (
	`thread_id` text NOT NULL,
	`collection_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`thread_id`, `collection_id`),
	FOREIGN KEY (`thread_id`) REFERENCES `threads`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`collection_id`) REFERENCES `collections`(`id`) ON UPDATE no action ON DELETE cascade
);
CREATE TABLE "sources" (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`thread_id` text,
	`collection_id` text,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`file_name` text NOT NULL,
	`kind` text NOT NULL,
	`mime_type` text NOT NULL,
	`size` integer NOT NULL,
	`file_key` text NOT NULL,
	`status` text NOT NULL,
	`error` text,
	`pages` integer,
	`chunk_count` integer DEFAULT 0 NOT NULL,
	`embedding_model` text,
	`dimensions` integer,
	`attempts` integer DEFAULT 0 NOT NULL,
	`lease` text,
	`locked_until` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`thread_id`) REFERENCES `threads`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`collection_id`) REFERENCES `collections`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CHECK ((`thread_id` IS NULL) <> (`collection_id` IS NULL))
);
CREATE TABLE `agent_groups` (
	`agent_id` text NOT NULL,
	`group_id` text NOT NULL,
	PRIMARY KEY(`agent_id`, `group_id`),
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE cascade
);
CREATE TABLE `prompt_groups` (
	`prompt_id` text NOT NULL,
	`group_id` text NOT NULL,
	PRIMARY KEY(`prompt_id`, `group_id`),
	FOREIGN KEY (`prompt_id`) REFERENCES `prompts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE cascade
);
CREATE TABLE `passkeys` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text,
	`public_key` text NOT NULL,
	`user_id` text NOT NULL,
	`credential_id` text NOT NULL,
	`counter` integer NOT NULL,
	`device_type` text NOT NULL,
	`backed_up` integer NOT NULL,
	`transports` text,
	`aaguid` text,
	`created_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
CREATE TABLE `two_factors` (
	`id` text PRIMARY KEY NOT NULL,
	`secret` text NOT NULL,
	`backup_codes` text NOT NULL,
	`user_id` text NOT NULL,
	`verified` integer DEFAULT true,
	`failed_verification_count` integer DEFAULT 0,
	`locked_until` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
CREATE VIRTUAL TABLE `source_chunks_fts_vocab` USING fts5vocab(`source_chunks_fts`, 'row');
CREATE TABLE `source_vector_moves` (
	`source_id` text PRIMARY KEY NOT NULL REFERENCES `sources`(`id`) ON DELETE cascade
);
CREATE TABLE `chat_search_waiting` (
	`message_id` text PRIMARY KEY NOT NULL
);
CREATE TABLE `streaming_replies` (
	`n` integer PRIMARY KEY NOT NULL,
	`message_id` text NOT NULL, `ended` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE cascade
);
CREATE TABLE "reply_chunks" (
	`reply_n` integer NOT NULL,
	`seq` integer NOT NULL,
	`content` text DEFAULT '' NOT NULL,
	`reasoning` text DEFAULT '' NOT NULL,
	PRIMARY KEY(`reply_n`, `seq`),
	FOREIGN KEY (`reply_n`) REFERENCES `streaming_replies`(`n`) ON UPDATE no action ON DELETE cascade
);
CREATE TABLE `context_version` (
	`id` integer PRIMARY KEY NOT NULL,
	`n` integer NOT NULL
);
CREATE VIEW `chat_search_content` AS
SELECT d.`id` AS `id`,
	CASE WHEN d.`message_id` IS NULL THEN t.`title` ELSE '' END AS `title`,
	CASE WHEN d.`message_id` IS NULL THEN '' ELSE m.`content` END AS `body`
FROM `chat_search_docs` d
LEFT JOIN `threads` t ON d.`message_id` IS NULL AND t.`id` = d.`thread_id`
LEFT JOIN `messages` m ON m.`id` = d.`message_id`;
CREATE VIEW `chat_search_next_ids` AS
SELECT o.`user_id` AS `user_id`,
	coalesce((SELECT max(d.`id`) FROM `chat_search_docs` d WHERE d.`id` > o.`n` * 4294967296 AND d.`id` < (o.`n` + 1) * 4294967296), o.`n` * 4294967296) + 1 AS `id`
FROM `chat_search_owners` o;
CREATE INDEX `accounts_user_idx` ON `accounts` (`user_id`);
CREATE UNIQUE INDEX `sessions_token_unique` ON `sessions` (`token`);
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);
CREATE INDEX `users_organization_idx` ON `users` (`organization_id`);
CREATE INDEX `verifications_identifier_idx` ON `verifications` (`identifier`);
CREATE UNIQUE INDEX `invites_token_hash_unique` ON `invites` (`token_hash`);
CREATE INDEX `invites_organization_idx` ON `invites` (`organization_id`);
CREATE INDEX `invites_email_idx` ON `invites` (`email`);
CREATE INDEX `model_endpoints_organization_idx` ON `model_endpoints` (`organization_id`);
CREATE UNIQUE INDEX `permitted_models_unique` ON `permitted_models` (`organization_id`,`provider_id`,`model`);
CREATE INDEX `agents_user_idx` ON `agents` (`user_id`);
CREATE UNIQUE INDEX `messages_thread_seq_idx` ON `messages` (`thread_id`,`seq`);
CREATE UNIQUE INDEX `messages_one_streaming_idx` ON `messages` (`thread_id`) WHERE status = 'streaming';
CREATE INDEX `prompts_user_idx` ON `prompts` (`user_id`,`updated_at`);
CREATE INDEX `webhook_deliveries_due_idx` ON `webhook_deliveries` (`status`,`next_attempt_at`);
CREATE INDEX `webhook_deliveries_org_idx` ON `webhook_deliveries` (`organization_id`,`created_at`);
CREATE INDEX `source_chunks_source_idx` ON `source_chunks` (`source_id`,`seq`);
CREATE INDEX `api_keys_key_idx` ON `api_keys` (`key`);
CREATE INDEX `api_keys_reference_idx` ON `api_keys` (`reference_id`);
CREATE INDEX `group_members_user_idx` ON `group_members` (`user_id`);
CREATE UNIQUE INDEX `groups_name_unique` ON `groups` (`organization_id`,`name`);
CREATE INDEX `model_group_access_group_idx` ON `model_group_access` (`group_id`);
CREATE INDEX `usage_events_organization_idx` ON `usage_events` (`organization_id`,`created_at`);
CREATE UNIQUE INDEX `chat_search_docs_message_idx` ON `chat_search_docs` (`message_id`);
CREATE UNIQUE INDEX `chat_search_docs_title_idx` ON `chat_search_docs` (`thread_id`) WHERE message_id IS NULL;
CREATE UNIQUE INDEX `chat_search_owners_user_id_unique` ON `chat_search_owners` (`user_id`);
CREATE INDEX `audit_entries_org_time` ON `audit_entries` (`organization_id`,`created_at`);
CREATE INDEX `audit_entries_time` ON `audit_entries` (`created_at`);
CREATE UNIQUE INDEX `sso_providers_provider_id_unique` ON `sso_providers` (`provider_id`);
CREATE UNIQUE INDEX `sso_providers_organization_id_unique` ON `sso_providers` (`organization_id`);
CREATE INDEX `budget_reservations_organization_idx` ON `budget_reservations` (`organization_id`,`created_at`);
CREATE UNIQUE INDEX `budgets_target_idx` ON `budgets` (`organization_id`,`scope`,`target_id`);
CREATE INDEX `chat_shares_thread_idx` ON `chat_shares` (`thread_id`);
CREATE UNIQUE INDEX `scim_tokens_token_hash_unique` ON `scim_tokens` (`token_hash`);
CREATE INDEX `scim_tokens_organization_idx` ON `scim_tokens` (`organization_id`);
CREATE INDEX `mcp_servers_organization_idx` ON `mcp_servers` (`organization_id`);
CREATE UNIQUE INDEX `mcp_servers_name_unique` ON `mcp_servers` (`organization_id`,`name`);
CREATE INDEX `mcp_tool_agents_agent_idx` ON `mcp_tool_agents` (`agent_id`);
CREATE INDEX `mcp_tool_groups_group_idx` ON `mcp_tool_groups` (`group_id`);
CREATE UNIQUE INDEX `mcp_tools_server_name_unique` ON `mcp_tools` (`server_id`,`name`);
CREATE INDEX `mcp_tools_organization_idx` ON `mcp_tools` (`organization_id`);
CREATE INDEX `agent_collections_collection_idx` ON `agent_collections` (`collection_id`);
CREATE INDEX `collection_groups_group_idx` ON `collection_groups` (`group_id`);
CREATE INDEX `collections_organization_idx` ON `collections` (`organization_id`,`name`);
CREATE INDEX `collections_user_idx` ON `collections` (`user_id`);
CREATE INDEX `thread_collections_collection_idx` ON `thread_collections` (`collection_id`);
CREATE INDEX `sources_thread_idx` ON `sources` (`thread_id`,`created_at`);
CREATE INDEX `sources_collection_idx` ON `sources` (`collection_id`,`file_name`);
CREATE INDEX `sources_status_idx` ON `sources` (`status`,`locked_until`);
CREATE INDEX `threads_organization_activity_idx` ON `threads` (`organization_id`,`last_message_at`);
CREATE INDEX `sources_organization_created_idx` ON `sources` (`organization_id`,`created_at`);
CREATE INDEX `agent_groups_group_idx` ON `agent_groups` (`group_id`);
CREATE INDEX `prompt_groups_group_idx` ON `prompt_groups` (`group_id`);
CREATE INDEX `prompts_organization_idx` ON `prompts` (`organization_id`,`updated_at`);
CREATE INDEX `passkeys_user_idx` ON `passkeys` (`user_id`);
CREATE INDEX `passkeys_credential_idx` ON `passkeys` (`credential_id`);
CREATE INDEX `two_factors_user_idx` ON `two_factors` (`user_id`);
CREATE INDEX `threads_user_list_idx` ON `threads` (`user_id`,`pinned_at`,`last_message_at`,`id`);
CREATE UNIQUE INDEX `streaming_replies_message_id_unique` ON `streaming_replies` (`message_id`);
CREATE INDEX `messages_thread_branch_idx` ON `messages` (`thread_id`,`on_branch`,`seq`);
CREATE INDEX `messages_thread_parent_idx` ON `messages` (`thread_id`,`parent_id`,`on_branch`);
CREATE INDEX `streaming_replies_ended_idx` ON `streaming_replies` (`n`) WHERE "streaming_replies"."ended" = 1;
CREATE TRIGGER `source_chunks_fts_insert` AFTER INSERT ON `source_chunks` BEGIN
	INSERT INTO `source_chunks_fts` (rowid, `content`, `heading_path`) VALUES (new.`id`, new.`content`, new.`heading_path`);
END;
CREATE TRIGGER `source_chunks_fts_delete` AFTER DELETE ON `source_chunks` BEGIN
	INSERT INTO `source_chunks_fts` (`source_chunks_fts`, rowid, `content`, `heading_path`) VALUES ('delete', old.`id`, old.`content`, old.`heading_path`);
END;
CREATE TRIGGER `chat_search_message_insert` AFTER INSERT ON `messages` WHEN NEW.`status` <> 'streaming' BEGIN
	INSERT OR IGNORE INTO `chat_search_owners` (`user_id`) SELECT `user_id` FROM `threads` WHERE `id` = NEW.`thread_id`;
	INSERT INTO `chat_search_docs` (`id`, `thread_id`, `message_id`) SELECT x.`id`, t.`id`, NEW.`id` FROM `threads` t JOIN `chat_search_next_ids` x ON x.`user_id` = t.`user_id` WHERE t.`id` = NEW.`thread_id`;
	INSERT INTO `chat_search` (rowid, `title`, `body`) SELECT `id`, '', NEW.`content` FROM `chat_search_docs` WHERE `message_id` = NEW.`id`;
END;
CREATE TRIGGER `chat_search_message_delete` AFTER DELETE ON `messages` WHEN OLD.`status` <> 'streaming' BEGIN
	INSERT INTO `chat_search` (`chat_search`, rowid, `title`, `body`) SELECT 'delete', `id`, '', OLD.`content` FROM `chat_search_docs` WHERE `message_id` = OLD.`id`;
	DELETE FROM `chat_search_docs` WHERE `message_id` = OLD.`id`;
END;
CREATE TRIGGER `chat_search_title_insert` AFTER INSERT ON `threads` WHEN NEW.`title` IS NOT NULL BEGIN
	INSERT OR IGNORE INTO `chat_search_owners` (`user_id`) VALUES (NEW.`user_id`);
	INSERT INTO `chat_search_docs` (`id`, `thread_id`) SELECT `id`, NEW.`id` FROM `chat_search_next_ids` WHERE `user_id` = NEW.`user_id`;
	INSERT INTO `chat_search` (rowid, `title`, `body`) SELECT `id`, NEW.`title`, '' FROM `chat_search_docs` WHERE `thread_id` = NEW.`id` AND `message_id` IS NULL;
END;
CREATE TRIGGER `chat_search_title_update` AFTER UPDATE OF `title` ON `threads` BEGIN
	INSERT INTO `chat_search` (`chat_search`, rowid, `title`, `body`) SELECT 'delete', `id`, OLD.`title`, '' FROM `chat_search_docs` WHERE `thread_id` = OLD.`id` AND `message_id` IS NULL AND OLD.`title` IS NOT NULL;
	DELETE FROM `chat_search_docs` WHERE `thread_id` = OLD.`id` AND `message_id` IS NULL AND NEW.`title` IS NULL;
	INSERT OR IGNORE INTO `chat_search_owners` (`user_id`) SELECT NEW.`user_id` WHERE NEW.`title` IS NOT NULL;
	INSERT OR IGNORE INTO `chat_search_docs` (`id`, `thread_id`) SELECT `id`, NEW.`id` FROM `chat_search_next_ids` WHERE `user_id` = NEW.`user_id` AND NEW.`title` IS NOT NULL;
	INSERT INTO `chat_search` (rowid, `title`, `body`) SELECT `id`, NEW.`title`, '' FROM `chat_search_docs` WHERE `thread_id` = NEW.`id` AND `message_id` IS NULL AND NEW.`title` IS NOT NULL;
END;
CREATE TRIGGER `chat_search_title_delete` AFTER DELETE ON `threads` WHEN OLD.`title` IS NOT NULL BEGIN
	INSERT INTO `chat_search` (`chat_search`, rowid, `title`, `body`) SELECT 'delete', `id`, OLD.`title`, '' FROM `chat_search_docs` WHERE `thread_id` = OLD.`id` AND `message_id` IS NULL;
	DELETE FROM `chat_search_docs` WHERE `thread_id` = OLD.`id` AND `message_id` IS NULL;
END;
CREATE TRIGGER `audit_entries_append_only` BEFORE UPDATE ON `audit_entries` BEGIN SELECT RAISE(ABORT, 'audit entries are append-only'); END;
CREATE TRIGGER `sources_file_deleted` AFTER DELETE ON `sources` BEGIN
	INSERT OR IGNORE INTO `deleted_files` (`file_key`, `due_at`) VALUES (old.`file_key`, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));
END;
CREATE TRIGGER `source_chunks_fts_update` AFTER UPDATE OF `content`, `heading_path` ON `source_chunks` BEGIN
	INSERT INTO `source_chunks_fts` (`source_chunks_fts`, rowid, `content`, `heading_path`) VALUES ('delete', old.`id`, old.`content`, old.`heading_path`);
	INSERT INTO `source_chunks_fts` (rowid, `content`, `heading_path`) VALUES (new.`id`, new.`content`, new.`heading_path`);
END;
CREATE TRIGGER `chat_search_message_branch` AFTER UPDATE OF `on_branch` ON `messages`
WHEN OLD.`on_branch` <> NEW.`on_branch` AND NEW.`status` <> 'streaming' BEGIN
	INSERT INTO `chat_search` (`chat_search`, rowid, `title`, `body`) SELECT 'delete', `id`, '', OLD.`content` FROM `chat_search_docs` WHERE `message_id` = OLD.`id` AND NEW.`on_branch` = 0
		AND NOT EXISTS (SELECT 1 FROM `messages` s WHERE s.`thread_id` = NEW.`thread_id` AND s.`status` = 'streaming');
	DELETE FROM `chat_search_docs` WHERE `message_id` = OLD.`id` AND NEW.`on_branch` = 0
		AND NOT EXISTS (SELECT 1 FROM `messages` s WHERE s.`thread_id` = NEW.`thread_id` AND s.`status` = 'streaming');
	-- Back on the branch: a version still in the index (its leaving deferred) is put in anew, once.
	INSERT INTO `chat_search` (`chat_search`, rowid, `title`, `body`) SELECT 'delete', `id`, '', OLD.`content` FROM `chat_search_docs` WHERE `message_id` = OLD.`id` AND NEW.`on_branch` = 1;
	DELETE FROM `chat_search_docs` WHERE `message_id` = OLD.`id` AND NEW.`on_branch` = 1;
	INSERT OR IGNORE INTO `chat_search_owners` (`user_id`) SELECT `user_id` FROM `threads` WHERE `id` = NEW.`thread_id` AND NEW.`on_branch` = 1;
	INSERT OR IGNORE INTO `chat_search_docs` (`id`, `thread_id`, `message_id`) SELECT x.`id`, t.`id`, NEW.`id` FROM `threads` t JOIN `chat_search_next_ids` x ON x.`user_id` = t.`user_id` WHERE t.`id` = NEW.`thread_id` AND NEW.`on_branch` = 1;
	INSERT INTO `chat_search` (rowid, `title`, `body`) SELECT `id`, '', NEW.`content` FROM `chat_search_docs` WHERE `message_id` = NEW.`id` AND NEW.`on_branch` = 1;
END;
CREATE TRIGGER `chat_search_replaced_versions` AFTER UPDATE OF `status` ON `messages`
WHEN OLD.`status` = 'streaming' AND NEW.`status` <> 'streaming' BEGIN
	INSERT INTO `chat_search` (`chat_search`, rowid, `title`, `body`) SELECT 'delete', d.`id`, '', m.`content` FROM `messages` m JOIN `chat_search_docs` d ON d.`message_id` = m.`id`
		WHERE m.`thread_id` = NEW.`thread_id` AND m.`parent_id` IS NEW.`parent_id` AND m.`on_branch` = 0;
	DELETE FROM `chat_search_docs` WHERE `message_id` IN (SELECT `id` FROM `messages` WHERE `thread_id` = NEW.`thread_id` AND `parent_id` IS NEW.`parent_id` AND `on_branch` = 0);
END;
CREATE TRIGGER `chat_search_message_update` AFTER UPDATE OF `content`, `status` ON `messages`
WHEN OLD.`status` <> 'streaming' OR NEW.`status` <> 'streaming' BEGIN
	INSERT INTO `chat_search` (`chat_search`, rowid, `title`, `body`) SELECT 'delete', `id`, '', OLD.`content` FROM `chat_search_docs` WHERE `message_id` = OLD.`id` AND OLD.`status` <> 'streaming';
	DELETE FROM `chat_search_docs` WHERE `message_id` = OLD.`id` AND NEW.`status` = 'streaming';
	INSERT OR IGNORE INTO `chat_search_waiting` (`message_id`) SELECT NEW.`id` WHERE OLD.`status` = 'streaming';
	INSERT OR IGNORE INTO `chat_search_owners` (`user_id`) SELECT `user_id` FROM `threads` WHERE `id` = NEW.`thread_id` AND OLD.`status` <> 'streaming' AND NEW.`status` <> 'streaming';
	INSERT OR IGNORE INTO `chat_search_docs` (`id`, `thread_id`, `message_id`) SELECT x.`id`, t.`id`, NEW.`id` FROM `threads` t JOIN `chat_search_next_ids` x ON x.`user_id` = t.`user_id` WHERE t.`id` = NEW.`thread_id` AND OLD.`status` <> 'streaming' AND NEW.`status` <> 'streaming';
	INSERT INTO `chat_search` (rowid, `title`, `body`) SELECT `id`, '', NEW.`content` FROM `chat_search_docs` WHERE `message_id` = NEW.`id` AND OLD.`status` <> 'streaming' AND NEW.`status` <> 'streaming';
END;
CREATE TRIGGER `streaming_replies_begin` AFTER INSERT ON `messages` WHEN NEW.`status` = 'streaming' BEGIN
	INSERT OR IGNORE INTO `streaming_replies` (`message_id`) VALUES (NEW.`id`);
END;
CREATE TRIGGER `agent_collections_context_insert` AFTER INSERT ON `agent_collections` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `agent_collections_context_update` AFTER UPDATE ON `agent_collections` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `agent_collections_context_delete` AFTER DELETE ON `agent_collections` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `agent_groups_context_insert` AFTER INSERT ON `agent_groups` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `agent_groups_context_update` AFTER UPDATE ON `agent_groups` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `agent_groups_context_delete` AFTER DELETE ON `agent_groups` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `agents_context_insert` AFTER INSERT ON `agents` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `agents_context_update` AFTER UPDATE ON `agents` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `agents_context_delete` AFTER DELETE ON `agents` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `collection_groups_context_insert` AFTER INSERT ON `collection_groups` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `collection_groups_context_update` AFTER UPDATE ON `collection_groups` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `collection_groups_context_delete` AFTER DELETE ON `collection_groups` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `collections_context_insert` AFTER INSERT ON `collections` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `collections_context_update` AFTER UPDATE ON `collections` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `collections_context_delete` AFTER DELETE ON `collections` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `group_members_context_insert` AFTER INSERT ON `group_members` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `group_members_context_update` AFTER UPDATE ON `group_members` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `group_members_context_delete` AFTER DELETE ON `group_members` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `mcp_servers_context_insert` AFTER INSERT ON `mcp_servers` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `mcp_servers_context_update` AFTER UPDATE ON `mcp_servers` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `mcp_servers_context_delete` AFTER DELETE ON `mcp_servers` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `mcp_tool_agents_context_insert` AFTER INSERT ON `mcp_tool_agents` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `mcp_tool_agents_context_update` AFTER UPDATE ON `mcp_tool_agents` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `mcp_tool_agents_context_delete` AFTER DELETE ON `mcp_tool_agents` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `mcp_tool_groups_context_insert` AFTER INSERT ON `mcp_tool_groups` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `mcp_tool_groups_context_update` AFTER UPDATE ON `mcp_tool_groups` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `mcp_tool_groups_context_delete` AFTER DELETE ON `mcp_tool_groups` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `mcp_tools_context_insert` AFTER INSERT ON `mcp_tools` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `mcp_tools_context_update` AFTER UPDATE ON `mcp_tools` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `mcp_tools_context_delete` AFTER DELETE ON `mcp_tools` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `model_endpoints_context_insert` AFTER INSERT ON `model_endpoints` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `model_endpoints_context_update` AFTER UPDATE ON `model_endpoints` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `model_endpoints_context_delete` AFTER DELETE ON `model_endpoints` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `model_group_access_context_insert` AFTER INSERT ON `model_group_access` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `model_group_access_context_update` AFTER UPDATE ON `model_group_access` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `model_group_access_context_delete` AFTER DELETE ON `model_group_access` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `model_settings_context_insert` AFTER INSERT ON `model_settings` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `model_settings_context_update` AFTER UPDATE ON `model_settings` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `model_settings_context_delete` AFTER DELETE ON `model_settings` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `permitted_models_context_insert` AFTER INSERT ON `permitted_models` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `permitted_models_context_update` AFTER UPDATE ON `permitted_models` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `permitted_models_context_delete` AFTER DELETE ON `permitted_models` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `permitted_providers_context_insert` AFTER INSERT ON `permitted_providers` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `permitted_providers_context_update` AFTER UPDATE ON `permitted_providers` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `permitted_providers_context_delete` AFTER DELETE ON `permitted_providers` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `sources_context_insert` AFTER INSERT ON `sources` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `sources_context_update` AFTER UPDATE OF `id`, `organization_id`, `thread_id`, `collection_id`, `user_id`, `name`, `description`, `file_name`, `kind`, `mime_type`, `size`, `status`, `error`, `pages`, `chunk_count`, `created_at` ON `sources` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `sources_context_delete` AFTER DELETE ON `sources` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `thread_collections_context_insert` AFTER INSERT ON `thread_collections` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `thread_collections_context_update` AFTER UPDATE ON `thread_collections` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `thread_collections_context_delete` AFTER DELETE ON `thread_collections` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `budgets_context_insert` AFTER INSERT ON `budgets` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `budgets_context_update` AFTER UPDATE ON `budgets` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `budgets_context_delete` AFTER DELETE ON `budgets` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
CREATE TRIGGER `streaming_replies_end` AFTER UPDATE OF `status` ON `messages`
WHEN OLD.`status` = 'streaming' AND NEW.`status` <> 'streaming' BEGIN
	UPDATE `streaming_replies` SET `ended` = 1 WHERE `message_id` = NEW.`id`;
END;
CREATE TRIGGER `streaming_replies_again` AFTER UPDATE OF `status` ON `messages`
WHEN OLD.`status` <> 'streaming' AND NEW.`status` = 'streaming' BEGIN
	DELETE FROM `reply_chunks` WHERE `reply_n` = (SELECT `n` FROM `streaming_replies` WHERE `message_id` = NEW.`id` AND `ended` = 1);
	DELETE FROM `streaming_replies` WHERE `message_id` = NEW.`id` AND `ended` = 1;
	INSERT OR IGNORE INTO `streaming_replies` (`message_id`) VALUES (NEW.`id`);
END;
