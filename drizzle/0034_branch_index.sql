-- Written by drizzle-kit (db/schema/chat.ts), this comment by hand: the branch shown of a chat is
-- read by (thread, on the branch, order), so that the versions off the branch that every new reply
-- and every edit leave behind are not read to find it; the versions of one message keep an index of
-- their own, with whether each is on the branch (docs/decisions/0130-an-index-for-the-branch-shown.md).
DROP INDEX `messages_thread_parent_idx`;--> statement-breakpoint
CREATE INDEX `messages_thread_branch_idx` ON `messages` (`thread_id`,`on_branch`,`seq`);--> statement-breakpoint
CREATE INDEX `messages_thread_parent_idx` ON `messages` (`thread_id`,`parent_id`,`on_branch`);