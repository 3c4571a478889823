-- Chunk vectors move to one table per dimension with libSQL's vector index (source_vectors_<n>,
-- created on first use by src/api/sources/vectors.ts; decision 0075). source_chunks.embedding
-- keeps the vectors of files stored before; the sources upkeep moves them and empties the column.
-- The term statistics of the full-text index, to leave out terms most chunks have.
CREATE VIRTUAL TABLE `source_chunks_fts_vocab` USING fts5vocab(`source_chunks_fts`, 'row');--> statement-breakpoint
-- Emptying a chunk's embedding must not re-index its text.
DROP TRIGGER `source_chunks_fts_update`;--> statement-breakpoint
CREATE TRIGGER `source_chunks_fts_update` AFTER UPDATE OF `content`, `heading_path` ON `source_chunks` BEGIN
	INSERT INTO `source_chunks_fts` (`source_chunks_fts`, rowid, `content`, `heading_path`) VALUES ('delete', old.`id`, old.`content`, old.`heading_path`);
	INSERT INTO `source_chunks_fts` (rowid, `content`, `heading_path`) VALUES (new.`id`, new.`content`, new.`heading_path`);
END;
--> statement-breakpoint
-- Files whose vectors are still in source_chunks.embedding, for the upkeep to move (src/api/sources/reembed.ts).
CREATE TABLE `source_vector_moves` (
	`source_id` text PRIMARY KEY NOT NULL REFERENCES `sources`(`id`) ON DELETE cascade
);--> statement-breakpoint
INSERT INTO `source_vector_moves` (`source_id`) SELECT `id` FROM `sources` WHERE `status` = 'ready';
