/** Links out of a reply or a tool result: a new tab that learns nothing of Kontor and lends it no rank. */
export const EXTERNAL_REL = 'noopener noreferrer nofollow'

/** The quiet underline of links in replies and tool results. */
export const LINK_UNDERLINE = 'underline decoration-foreground/30 underline-offset-[3px] hover:decoration-foreground'
