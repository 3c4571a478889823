import { describe, expect, test } from 'bun:test'
import { Glob } from 'bun'
import { twMerge } from 'tailwind-merge'
import { cn } from './cn'

/** The class names written in web/ (string literals that look like Tailwind utilities). */
async function classesInWeb() {
  const found = new Set<string>()
  for await (const file of new Glob('web/**/*.tsx').scan(new URL('../..', import.meta.url).pathname)) {
    const text = await Bun.file(new URL(`../../${file}`, import.meta.url)).text()
    for (const [, , literal] of text.matchAll(/(['"`])((?:(?!\1)[^\n])*)\1/g)) {
      if (!/\b(?:flex|grid|text-|bg-|p[xytrbl]?-|m[xytrbl]?-|[wh]-|rounded|border|gap-)/.test(literal!)) continue
      for (const cls of literal!.split(/\s+/)) if (/^[!a-z\-[@*]/.test(cls) && !/[${}]/.test(cls)) found.add(cls)
    }
  }
  return [...found]
}

describe('cn', () => {
  test('a later utility replaces an earlier one that sets the same thing; others stay', () => {
    expect(cn('h-9 px-4 text-sm', 'h-8 p-2')).toBe('text-sm h-8 p-2')
    expect(cn('p-2', 'px-4')).toBe('p-2 px-4')
    expect(cn('text-sm text-muted-foreground', 'text-destructive')).toBe('text-sm text-destructive')
    expect(cn('border border-input', 'border-2 border-dashed')).toBe('border-input border-2 border-dashed')
    expect(cn('hover:focus:bg-accent bg-primary', 'focus:hover:bg-muted', 'md:flex hidden')).toBe('bg-primary focus:hover:bg-muted md:flex hidden')
    expect(cn('size-4', 'w-6', { 'rounded-md': true, 'rounded-full': false }, undefined)).toBe('size-4 w-6 rounded-md')
  })

  test("agrees with tailwind-merge on every two of the app's utilities with the same variants", async () => {
    const classes = await classesInWeb()
    expect(classes.length).toBeGreaterThan(500)
    const byVariant = new Map<string, string[]>()
    for (const cls of classes) {
      const variant = cls.slice(0, cls.lastIndexOf(':') + 1)
      byVariant.set(variant, [...(byVariant.get(variant) ?? []), cls])
    }
    const differ: string[] = []
    for (const group of byVariant.values()) {
      for (const a of group) for (const b of group) if (a !== b && cn(a, b) !== twMerge(a, b)) differ.push(`${a} ${b}: ${cn(a, b)} ≠ ${twMerge(a, b)}`)
    }
    expect(differ.slice(0, 40)).toEqual([])
  })
})
