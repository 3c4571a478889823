import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import { chatShareGroups, chatShares, groupMembers, groups, messages, threads, users } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { fail } from '../../lib/errors'
import { recordAudit, type AuditFrom } from '../audit/access'
import { groupsOfOrganization } from '../groups/access'
import { resolveDefaultModel } from '../models/access'
import { findOwnThread } from '../sources/access'
import { appendedText, toMessageView, withAppendedText } from '../threads/access'
import { titleFromMessage, type StoredMessageView, type ThreadSummary } from '../threads/schema'
import type { SharedChat, ShareView } from './schema'

type ShareRow = typeof chatShares.$inferSelect

/**
 * Shares one of the caller's chats (docs/decisions/0061-sharing-chats.md): a snapshot of the
 * branch shown, without a reply still being written, for the whole organisation or the given
 * groups of it.
 */
export async function shareThread(deps: AppDeps, caller: SessionUser, threadId: string, groupIds: string[], from: AuditFrom): Promise<ShareView> {
  const thread = await findOwnThread(deps, caller, threadId)
  const chosen = await groupsOfOrganization(deps, caller.organizationId, groupIds)
  const [rows, parts] = await deps.db.batch([
    deps.db.select().from(messages).where(and(eq(messages.threadId, threadId), eq(messages.onBranch, true))).orderBy(asc(messages.seq)),
    appendedText(deps, threadId),
  ])
  const snapshot = withAppendedText(rows, parts).filter((m) => m.status !== 'streaming').map(toMessageView)
  const title = thread.title ?? titleFromMessage(snapshot.find((m) => m.role === 'user')?.content ?? '')
  const id = crypto.randomUUID()
  const createdAt = new Date()
  await deps.db.batch([
    deps.db.insert(chatShares).values({ id, organizationId: caller.organizationId, userId: caller.id, threadId, title, messages: snapshot, createdAt }),
    ...(chosen.length ? [deps.db.insert(chatShareGroups).values(chosen.map((g) => ({ shareId: id, groupId: g.id })))] : []),
  ])
  await recordAudit(deps, caller, from, {
    action: 'chat.shared',
    target: { type: 'thread', id: threadId, label: title },
    details: { shareId: id, groups: chosen.map((g) => g.name), messages: snapshot.length },
  })
  return { id, threadId, title, groups: chosen, messageCount: snapshot.length, createdAt: createdAt.toISOString() }
}

/** The shares of one of the caller's chats, newest first. */
export async function sharesOfThread(deps: AppDeps, caller: SessionUser, threadId: string) {
  await findOwnThread(deps, caller, threadId)
  const rows = await deps.db.select().from(chatShares).where(and(eq(chatShares.threadId, threadId), eq(chatShares.userId, caller.id))).orderBy(sql`${chatShares.createdAt} DESC`)
  const limits = rows.length
    ? await deps.db
        .select({ shareId: chatShareGroups.shareId, id: groups.id, name: groups.name })
        .from(chatShareGroups)
        .innerJoin(groups, eq(groups.id, chatShareGroups.groupId))
        .where(inArray(chatShareGroups.shareId, rows.map((r) => r.id)))
    : []
  return {
    shares: rows.map((r) => ({
      id: r.id,
      threadId: r.threadId,
      title: r.title,
      groups: limits.filter((g) => g.shareId === r.id).map(({ id, name }) => ({ id, name })),
      messageCount: r.messages.length,
      createdAt: r.createdAt.toISOString(),
    })),
  }
}

/** Revokes one of the caller's shares: the link finds nothing from then on. */
export async function revokeShare(deps: AppDeps, caller: SessionUser, id: string, from: AuditFrom) {
  const [deleted] = await deps.db
    .delete(chatShares)
    .where(and(eq(chatShares.id, id), eq(chatShares.userId, caller.id)))
    .returning({ threadId: chatShares.threadId, title: chatShares.title })
  if (!deleted) fail('SHARE_NOT_FOUND')
  await recordAudit(deps, caller, from, { action: 'chat.share_revoked', target: { type: 'thread', id: deleted.threadId, label: deleted.title }, details: { shareId: id } })
}

/**
 * A share the caller may read: of their organisation, and when it is limited to groups, they are
 * in one of them (or shared it). Anything else is not found, as if it did not exist.
 */
async function visibleShare(deps: AppDeps, caller: SessionUser, id: string): Promise<ShareRow> {
  const inGroup = sql`EXISTS (SELECT 1 FROM ${chatShareGroups} sg JOIN ${groupMembers} gm ON gm.group_id = sg.group_id WHERE sg.share_id = ${chatShares.id} AND gm.user_id = ${caller.id})`
  const unlimited = sql`NOT EXISTS (SELECT 1 FROM ${chatShareGroups} sg WHERE sg.share_id = ${chatShares.id})`
  const [row] = await deps.db
    .select()
    .from(chatShares)
    .where(and(eq(chatShares.id, id), eq(chatShares.organizationId, caller.organizationId), sql`(${chatShares.userId} = ${caller.id} OR ${unlimited} OR ${inGroup})`))
  return row ?? fail('SHARE_NOT_FOUND')
}

export async function readShare(deps: AppDeps, caller: SessionUser, id: string): Promise<SharedChat> {
  const share = await visibleShare(deps, caller, id)
  const owner = await deps.db.query.users.findFirst({ where: eq(users.id, share.userId), columns: { name: true } })
  return {
    id: share.id,
    title: share.title,
    sharedBy: { name: owner?.name ?? '' },
    createdAt: share.createdAt.toISOString(),
    own: share.userId === caller.id,
    messages: share.messages as StoredMessageView[],
  }
}

/**
 * "Continue this chat": a new chat of the caller's with the shared messages, one branch, with
 * the caller's default model (none when they have none: they pick one).
 */
export async function continueShare(deps: AppDeps, caller: SessionUser, id: string): Promise<ThreadSummary> {
  const share = await visibleShare(deps, caller, id)
  const model = await resolveDefaultModel(deps, caller).catch(() => null)
  const shared = share.messages as StoredMessageView[]
  const threadId = crypto.randomUUID()
  const now = new Date()
  const ids = shared.map(() => crypto.randomUUID())
  await deps.db.batch([
    deps.db.insert(threads).values({ id: threadId, organizationId: caller.organizationId, userId: caller.id, title: share.title, modelId: model?.id ?? null, createdAt: now, lastMessageAt: now }),
    ...shared.map((m, i) =>
      deps.db.insert(messages).values({
        id: ids[i]!,
        threadId,
        seq: i + 1,
        parentId: i === 0 ? null : ids[i - 1]!,
        role: m.role,
        content: m.content,
        reasoning: m.reasoning,
        parts: m.parts,
        status: m.status === 'streaming' ? 'interrupted' : m.status,
        errorCode: m.errorCode,
        model: m.model,
        createdAt: new Date(m.createdAt),
        updatedAt: now,
        shownAt: now,
      }),
    ),
  ])
  return { id: threadId, title: share.title, modelId: model?.id ?? null, agentId: null, createdAt: now.toISOString(), lastMessageAt: now.toISOString(), pinnedAt: null }
}
