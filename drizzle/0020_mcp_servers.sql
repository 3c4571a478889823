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
--> statement-breakpoint
CREATE INDEX `mcp_servers_organization_idx` ON `mcp_servers` (`organization_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `mcp_servers_name_unique` ON `mcp_servers` (`organization_id`,`name`);--> statement-breakpoint
CREATE TABLE `mcp_tool_agents` (
	`tool_id` text NOT NULL,
	`agent_id` text NOT NULL,
	PRIMARY KEY(`tool_id`, `agent_id`),
	FOREIGN KEY (`tool_id`) REFERENCES `mcp_tools`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `mcp_tool_agents_agent_idx` ON `mcp_tool_agents` (`agent_id`);--> statement-breakpoint
CREATE TABLE `mcp_tool_groups` (
	`tool_id` text NOT NULL,
	`group_id` text NOT NULL,
	PRIMARY KEY(`tool_id`, `group_id`),
	FOREIGN KEY (`tool_id`) REFERENCES `mcp_tools`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `mcp_tool_groups_group_idx` ON `mcp_tool_groups` (`group_id`);--> statement-breakpoint
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
--> statement-breakpoint
CREATE UNIQUE INDEX `mcp_tools_server_name_unique` ON `mcp_tools` (`server_id`,`name`);--> statement-breakpoint
CREATE INDEX `mcp_tools_organization_idx` ON `mcp_tools` (`organization_id`);