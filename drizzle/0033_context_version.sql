-- Hand-written after drizzle-kit: every write to a table a chat's reply context is read from
-- changes the context version, so that a server process may keep a context while the version is
-- the same (src/api/chat/reply-context.ts, docs/decisions/0126-reply-context-kept-while-unchanged.md).
-- The version is a random number, not a count: a row deleted by hand or a database restored from
-- a backup does not bring back a number a process kept contexts under. The row is written by the
-- first such write, in two statements neither of which can meet a conflict (a trigger's statement
-- takes the conflict policy of the statement that fired it). A file's processing renews its lease
-- and counts its attempts as it goes: only the columns of `sources` the reading reads change the
-- version. src/api/chat/reply-context.test.ts checks that every table the reading reads is here;
-- a later migration that rebuilds one of these tables must create its triggers again.
CREATE TABLE `context_version` (
	`id` integer PRIMARY KEY NOT NULL,
	`n` integer NOT NULL
);
--> statement-breakpoint
CREATE TRIGGER `agent_collections_context_insert` AFTER INSERT ON `agent_collections` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `agent_collections_context_update` AFTER UPDATE ON `agent_collections` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `agent_collections_context_delete` AFTER DELETE ON `agent_collections` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `agent_groups_context_insert` AFTER INSERT ON `agent_groups` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `agent_groups_context_update` AFTER UPDATE ON `agent_groups` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `agent_groups_context_delete` AFTER DELETE ON `agent_groups` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `agents_context_insert` AFTER INSERT ON `agents` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `agents_context_update` AFTER UPDATE ON `agents` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `agents_context_delete` AFTER DELETE ON `agents` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `collection_groups_context_insert` AFTER INSERT ON `collection_groups` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `collection_groups_context_update` AFTER UPDATE ON `collection_groups` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `collection_groups_context_delete` AFTER DELETE ON `collection_groups` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `collections_context_insert` AFTER INSERT ON `collections` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `collections_context_update` AFTER UPDATE ON `collections` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `collections_context_delete` AFTER DELETE ON `collections` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `group_members_context_insert` AFTER INSERT ON `group_members` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `group_members_context_update` AFTER UPDATE ON `group_members` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `group_members_context_delete` AFTER DELETE ON `group_members` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `mcp_servers_context_insert` AFTER INSERT ON `mcp_servers` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `mcp_servers_context_update` AFTER UPDATE ON `mcp_servers` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `mcp_servers_context_delete` AFTER DELETE ON `mcp_servers` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `mcp_tool_agents_context_insert` AFTER INSERT ON `mcp_tool_agents` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `mcp_tool_agents_context_update` AFTER UPDATE ON `mcp_tool_agents` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `mcp_tool_agents_context_delete` AFTER DELETE ON `mcp_tool_agents` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `mcp_tool_groups_context_insert` AFTER INSERT ON `mcp_tool_groups` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `mcp_tool_groups_context_update` AFTER UPDATE ON `mcp_tool_groups` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `mcp_tool_groups_context_delete` AFTER DELETE ON `mcp_tool_groups` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `mcp_tools_context_insert` AFTER INSERT ON `mcp_tools` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `mcp_tools_context_update` AFTER UPDATE ON `mcp_tools` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `mcp_tools_context_delete` AFTER DELETE ON `mcp_tools` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `model_endpoints_context_insert` AFTER INSERT ON `model_endpoints` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `model_endpoints_context_update` AFTER UPDATE ON `model_endpoints` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `model_endpoints_context_delete` AFTER DELETE ON `model_endpoints` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `model_group_access_context_insert` AFTER INSERT ON `model_group_access` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `model_group_access_context_update` AFTER UPDATE ON `model_group_access` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `model_group_access_context_delete` AFTER DELETE ON `model_group_access` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `model_settings_context_insert` AFTER INSERT ON `model_settings` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `model_settings_context_update` AFTER UPDATE ON `model_settings` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `model_settings_context_delete` AFTER DELETE ON `model_settings` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `permitted_models_context_insert` AFTER INSERT ON `permitted_models` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `permitted_models_context_update` AFTER UPDATE ON `permitted_models` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `permitted_models_context_delete` AFTER DELETE ON `permitted_models` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `permitted_providers_context_insert` AFTER INSERT ON `permitted_providers` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `permitted_providers_context_update` AFTER UPDATE ON `permitted_providers` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `permitted_providers_context_delete` AFTER DELETE ON `permitted_providers` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `sources_context_insert` AFTER INSERT ON `sources` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `sources_context_update` AFTER UPDATE OF `id`, `organization_id`, `thread_id`, `collection_id`, `user_id`, `name`, `description`, `file_name`, `kind`, `mime_type`, `size`, `status`, `error`, `pages`, `chunk_count`, `created_at` ON `sources` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `sources_context_delete` AFTER DELETE ON `sources` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `thread_collections_context_insert` AFTER INSERT ON `thread_collections` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `thread_collections_context_update` AFTER UPDATE ON `thread_collections` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `thread_collections_context_delete` AFTER DELETE ON `thread_collections` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `budgets_context_insert` AFTER INSERT ON `budgets` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `budgets_context_update` AFTER UPDATE ON `budgets` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `budgets_context_delete` AFTER DELETE ON `budgets` BEGIN
	UPDATE `context_version` SET `n` = random() >> 11 WHERE `id` = 1;
	INSERT INTO `context_version` (`id`, `n`) SELECT 1, random() >> 11 WHERE NOT EXISTS (SELECT 1 FROM `context_version` WHERE `id` = 1);
END;
