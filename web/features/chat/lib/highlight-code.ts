import type { Element, Root } from 'hast'
import { toText } from 'hast-util-to-text'
import bash from 'highlight.js/lib/languages/bash'
import c from 'highlight.js/lib/languages/c'
import cpp from 'highlight.js/lib/languages/cpp'
import csharp from 'highlight.js/lib/languages/csharp'
import css from 'highlight.js/lib/languages/css'
import diff from 'highlight.js/lib/languages/diff'
import dockerfile from 'highlight.js/lib/languages/dockerfile'
import go from 'highlight.js/lib/languages/go'
import java from 'highlight.js/lib/languages/java'
import javascript from 'highlight.js/lib/languages/javascript'
import json from 'highlight.js/lib/languages/json'
import markdown from 'highlight.js/lib/languages/markdown'
import php from 'highlight.js/lib/languages/php'
import python from 'highlight.js/lib/languages/python'
import rust from 'highlight.js/lib/languages/rust'
import sql from 'highlight.js/lib/languages/sql'
import typescript from 'highlight.js/lib/languages/typescript'
import xml from 'highlight.js/lib/languages/xml'
import yaml from 'highlight.js/lib/languages/yaml'
import { createLowlight } from 'lowlight'
import { visit } from 'unist-util-visit'
import { codeLanguage } from './code-language'

// The languages chats mostly show; each grammar adds to the bundle, so not all of highlight.js.
// A chunk of its own: a chat's page loads it once it is interactive, or sooner when a reply it
// hydrates has code to highlight (markdown-renderer.tsx).
const lowlight = createLowlight({ bash, c, cpp, csharp, css, diff, dockerfile, go, java, javascript, json, markdown, php, python, rust, sql, typescript, xml, yaml })
lowlight.registerAlias({ bash: ['shell', 'console', 'zsh'], xml: ['html', 'svg', 'vue'], json: ['jsonc'] })

/**
 * A rehype plugin that highlights fenced code blocks of known languages. It only adds `span`
 * elements with `hljs-*` classes (no raw HTML); unknown languages stay plain text.
 */
export function rehypeHighlightCode() {
  return (tree: Root) => {
    visit(tree, 'element', (node, _index, parent) => {
      if (node.tagName !== 'code' || parent?.type !== 'element' || parent.tagName !== 'pre') return
      const language = codeLanguage(node)?.toLowerCase()
      if (!language || !lowlight.registered(language)) return
      try {
        const result = lowlight.highlight(language, toText(node, { whitespace: 'pre' }))
        node.children = result.children as Element['children']
      } catch {
        // a grammar that trips over odd input leaves the block plain
      }
    })
  }
}
