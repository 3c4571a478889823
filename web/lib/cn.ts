import { clsx, type ClassValue } from 'clsx'

/**
 * Joins class names; of two Tailwind utilities that set the same thing (`h-9` and a caller's
 * `h-8`, `px-4` and `p-2`, `text-sm` and `text-xs`), the later one stays, as tailwind-merge does.
 * It knows the utilities this app uses, not all of Tailwind: a class it does not know is kept.
 * tailwind-merge itself (27 KB minified, on every page) is only the yardstick in cn.test.ts,
 * which compares the two on the utilities found in web/ (decision 0077).
 */
export const cn = (...inputs: ClassValue[]) => mergeClasses(clsx(inputs))

const SIZES = /^(?:xs|sm|base|md|lg|[2-9]?xl|none)$/
const LENGTH = /^\[(?:length:)?-?[\d.]+(?:px|r?em|%|vh|vw|ch)\]$/
const NUMBER = /^(?:\d+(?:\.\d+)?|px|\[[\d.]+(?:px|r?em)\])$/

/** A utility's group (what it sets), or undefined for one this function does not know. */
function groupOf(base: string): string | undefined {
  // An arbitrary property ([animation-delay:150ms]): the property.
  if (base.startsWith('[')) return /^\[([\w-]+):/.exec(base)?.[1]
  const fixed = FIXED[base]
  if (fixed) return fixed
  const dash = base.indexOf('-')
  const head = dash < 0 ? base : base.slice(0, dash)
  const rest = dash < 0 ? '' : base.slice(dash + 1)
  const after = (prefix: string) => (base.startsWith(prefix + '-') ? base.slice(prefix.length + 1) : undefined)
  switch (head) {
    case 'p': case 'px': case 'py': case 'ps': case 'pe': case 'pt': case 'pr': case 'pb': case 'pl':
    case 'm': case 'mx': case 'my': case 'ms': case 'me': case 'mt': case 'mr': case 'mb': case 'ml':
    case 'w': case 'h': case 'size': case 'z': case 'order': case 'basis': case 'top': case 'right': case 'bottom': case 'left':
    case 'start': case 'end': case 'opacity': case 'leading': case 'tracking': case 'cursor': case 'duration': case 'ease':
    case 'delay': case 'origin': case 'rotate': case 'scale': case 'aspect': case 'fill': case 'stroke':
    case 'columns': case 'indent': case 'accent': case 'caret':
      return rest ? head : undefined
    case 'min': case 'max': {
      const axis = rest.slice(0, 2)
      return axis === 'w-' || axis === 'h-' ? `${head}-${axis[0]}` : undefined
    }
    case 'inset': {
      const xy = after('inset-x') ? 'inset-x' : after('inset-y') ? 'inset-y' : 'inset'
      return rest ? xy : undefined
    }
    case 'gap': return after('gap-x') ? 'gap-x' : after('gap-y') ? 'gap-y' : rest ? 'gap' : undefined
    case 'space': return after('space-x') ? 'space-x' : after('space-y') ? 'space-y' : undefined
    case 'translate': return after('translate-x') ? 'translate-x' : after('translate-y') ? 'translate-y' : rest ? 'translate' : undefined
    case 'overflow': return after('overflow-x') ? 'overflow-x' : after('overflow-y') ? 'overflow-y' : rest ? 'overflow' : undefined
    case 'overscroll': return after('overscroll-x') ? 'overscroll-x' : after('overscroll-y') ? 'overscroll-y' : rest ? 'overscroll' : undefined
    case 'grow': case 'shrink': return rest === '' || /^\d+$/.test(rest) || rest.startsWith('[') ? head : undefined
    case 'flex':
      if (/^(?:row|col|row-reverse|col-reverse)$/.test(rest)) return 'flex-direction'
      if (/^(?:wrap|nowrap|wrap-reverse)$/.test(rest)) return 'flex-wrap'
      return rest ? 'flex' : 'display'
    case 'grid':
      if (after('grid-cols')) return 'grid-cols'
      if (after('grid-rows')) return 'grid-rows'
      if (after('grid-flow')) return 'grid-flow'
      return rest ? undefined : 'display'
    case 'col': case 'row':
      return after(`${head}-span`) || rest === 'auto' ? `${head}-span` : after(`${head}-start`) ? `${head}-start` : after(`${head}-end`) ? `${head}-end` : undefined
    case 'justify': return after('justify-items') ? 'justify-items' : after('justify-self') ? 'justify-self' : rest ? 'justify' : undefined
    case 'items': case 'self': case 'content': return rest ? `align-${head}` : undefined
    case 'place': return after('place-items') ? 'place-items' : after('place-self') ? 'place-self' : after('place-content') ? 'place-content' : undefined
    case 'whitespace': case 'select': case 'resize': case 'align':
      return rest ? head : undefined
    // tw-animate-css's animate-in / animate-out are no animation of their own: kept beside one.
    case 'animate': return /^(?:none|spin|ping|pulse|bounce|\[.*\])$/.test(rest) ? 'animate' : undefined
    case 'list': return /^(?:inside|outside)$/.test(rest) ? 'list-position' : rest ? 'list-type' : undefined
    case 'break': return /^(?:normal|words|all|keep)$/.test(rest) ? 'word-break' : undefined
    case 'underline': return after('underline-offset') ? 'underline-offset' : undefined
    case 'pointer': return after('pointer-events') ? 'pointer-events' : undefined
    case 'line': return after('line-clamp') ? 'line-clamp' : undefined
    case 'transition': return 'transition'
    case 'rounded': {
      const [side, size] = rest.split(/-(.*)/)
      if (side && /^(?:s|e|t|r|b|l|ss|se|ee|es|tl|tr|br|bl)$/.test(side)) return size === undefined || SIZES.test(size) || size === 'full' || size.startsWith('[') ? `rounded-${side}` : undefined
      return !rest || SIZES.test(rest) || rest === 'full' || rest.startsWith('[') ? 'rounded' : undefined
    }
    case 'border': {
      const [first, more] = rest.split(/-(.*)/)
      const side = first && /^(?:x|y|s|e|t|r|b|l)$/.test(first) ? `-${first}` : ''
      const value = side ? (more ?? '') : rest
      if (!value || NUMBER.test(value)) return `border-w${side}`
      if (!side && /^(?:solid|dashed|dotted|double|hidden|none)$/.test(value)) return 'border-style'
      if (!side && /^(?:collapse|separate)$/.test(value)) return 'border-collapse'
      return `border-color${side}`
    }
    case 'divide': return after('divide-x') ? 'divide-x' : after('divide-y') ? 'divide-y' : rest ? 'divide-color' : undefined
    case 'outline': {
      if (!rest || NUMBER.test(rest)) return 'outline-w'
      if (/^(?:none|hidden|solid|dashed|dotted|double)$/.test(rest)) return 'outline-style'
      return after('outline-offset') ? 'outline-offset' : 'outline-color'
    }
    case 'ring': {
      if (!rest || NUMBER.test(rest)) return 'ring-w'
      if (rest === 'inset') return 'ring-inset'
      const offset = after('ring-offset')
      if (offset !== undefined) return NUMBER.test(offset) ? 'ring-offset-w' : 'ring-offset-color'
      return 'ring-color'
    }
    case 'shadow': return !rest || SIZES.test(rest) || rest === 'inner' ? 'shadow' : 'shadow-color'
    case 'text': {
      const size = rest.split('/')[0]!
      if (SIZES.test(size) || LENGTH.test(size)) return 'font-size'
      if (/^(?:left|center|right|justify|start|end)$/.test(rest)) return 'text-align'
      if (/^(?:wrap|nowrap|balance|pretty)$/.test(rest)) return 'text-wrap'
      if (/^(?:ellipsis|clip)$/.test(rest)) return 'text-overflow'
      return rest ? 'text-color' : undefined
    }
    case 'font': {
      if (/^(?:thin|extralight|light|normal|medium|semibold|bold|extrabold|black|\[\d+\])$/.test(rest)) return 'font-weight'
      return rest ? 'font-family' : undefined
    }
    case 'bg': {
      if (/^(?:fixed|local|scroll)$/.test(rest)) return 'bg-attachment'
      if (/^(?:auto|cover|contain)$/.test(rest)) return 'bg-size'
      if (/^(?:repeat|no-repeat|repeat-x|repeat-y|repeat-round|repeat-space)$/.test(rest)) return 'bg-repeat'
      if (/^(?:bottom|center|left|left-bottom|left-top|right|right-bottom|right-top|top)$/.test(rest)) return 'bg-position'
      if (rest === 'none' || /^(?:linear|gradient|radial|conic)-/.test(rest)) return 'bg-image'
      return rest ? 'bg-color' : undefined
    }
  }
  return undefined
}

const FIXED: Record<string, string> = {}
for (const [group, names] of Object.entries({
  display: 'block inline-block inline flex inline-flex grid inline-grid contents hidden table table-row table-cell flow-root list-item',
  position: 'static fixed absolute relative sticky',
  visibility: 'visible invisible collapse',
  'sr-only': 'sr-only not-sr-only',
  'text-decoration': 'underline overline line-through no-underline',
  'text-transform': 'uppercase lowercase capitalize normal-case',
  'font-style': 'italic not-italic',
  'text-overflow': 'truncate text-ellipsis text-clip',
  'fvn-spacing': 'tabular-nums proportional-nums',
  'font-smoothing': 'antialiased subpixel-antialiased',
  isolation: 'isolate isolation-auto',
})) for (const name of names.split(' ')) FIXED[name] = group

/** Groups that a later class of the key group overrides as well (after tailwind-merge's defaults). */
const OVERRIDES: Record<string, string[]> = {
  overflow: ['overflow-x', 'overflow-y'],
  overscroll: ['overscroll-x', 'overscroll-y'],
  inset: ['inset-x', 'inset-y', 'start', 'end', 'top', 'right', 'bottom', 'left'],
  'inset-x': ['start', 'end', 'right', 'left'],
  'inset-y': ['top', 'bottom'],
  flex: ['basis', 'grow', 'shrink'],
  gap: ['gap-x', 'gap-y'],
  p: ['px', 'py', 'ps', 'pe', 'pt', 'pr', 'pb', 'pl'],
  px: ['ps', 'pe', 'pr', 'pl'],
  py: ['pt', 'pb'],
  m: ['mx', 'my', 'ms', 'me', 'mt', 'mr', 'mb', 'ml'],
  mx: ['ms', 'me', 'mr', 'ml'],
  my: ['mt', 'mb'],
  size: ['w', 'h'],
  'line-clamp': ['display', 'overflow'],
  rounded: ['rounded-s', 'rounded-e', 'rounded-t', 'rounded-r', 'rounded-b', 'rounded-l', 'rounded-ss', 'rounded-se', 'rounded-ee', 'rounded-es', 'rounded-tl', 'rounded-tr', 'rounded-br', 'rounded-bl'],
  'rounded-s': ['rounded-ss', 'rounded-es'],
  'rounded-e': ['rounded-se', 'rounded-ee'],
  'rounded-t': ['rounded-tl', 'rounded-tr'],
  'rounded-r': ['rounded-tr', 'rounded-br'],
  'rounded-b': ['rounded-br', 'rounded-bl'],
  'rounded-l': ['rounded-tl', 'rounded-bl'],
  'border-w': ['border-w-x', 'border-w-y', 'border-w-s', 'border-w-e', 'border-w-t', 'border-w-r', 'border-w-b', 'border-w-l'],
  'border-w-x': ['border-w-s', 'border-w-e', 'border-w-r', 'border-w-l'],
  'border-w-y': ['border-w-t', 'border-w-b'],
  'border-color': ['border-color-x', 'border-color-y', 'border-color-s', 'border-color-e', 'border-color-t', 'border-color-r', 'border-color-b', 'border-color-l'],
  'border-color-x': ['border-color-s', 'border-color-e', 'border-color-r', 'border-color-l'],
  'border-color-y': ['border-color-t', 'border-color-b'],
  translate: ['translate-x', 'translate-y'],
}

/** Variants, in a canonical order (`hover:focus:` = `focus:hover:`), and the utility after them. */
function split(cls: string) {
  const parts: string[] = []
  let depth = 0
  let from = 0
  for (let i = 0; i < cls.length; i++) {
    const c = cls[i]
    if (c === '[' || c === '(') depth++
    else if (c === ']' || c === ')') depth--
    else if (c === ':' && depth === 0) (parts.push(cls.slice(from, i)), (from = i + 1))
  }
  let base = cls.slice(from)
  const important = base.startsWith('!') || base.endsWith('!')
  base = base.replace(/^!|!$/g, '').replace(/^-/, '')
  // An arbitrary variant ([&>svg]:) depends on its position; the others do not.
  const variants = parts.some((p) => p.startsWith('[')) ? parts.join(':') : parts.sort().join(':')
  return { prefix: `${variants}${important ? '!' : ''}:`, base }
}

function mergeClasses(classes: string): string {
  const list = classes.split(/\s+/).filter(Boolean)
  const taken = new Set<string>()
  const kept: string[] = []
  for (let i = list.length - 1; i >= 0; i--) {
    const cls = list[i]!
    const { prefix, base } = split(cls)
    const group = groupOf(base)
    if (!group) {
      kept.push(cls)
      continue
    }
    if (taken.has(prefix + group)) continue
    taken.add(prefix + group)
    for (const other of OVERRIDES[group] ?? []) taken.add(prefix + other)
    // In Tailwind 4 a text size sets the line height too (`text-sm/6` an explicit one).
    if (group === 'font-size') taken.add(prefix + 'leading')
    kept.push(cls)
  }
  return kept.reverse().join(' ')
}
