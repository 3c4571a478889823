/**
 * The demo model's own answers: markdown that looks like a real assistant's (headings, a list,
 * a table, code and math) about the subject of the question, without repeating the question.
 * It knows no facts, and says so at the end of every answer.
 */
export type Language = 'en' | 'de'

/** German when the message reads German (a few very common words), else English. */
export function languageOf(text: string): Language {
  const hits = text.toLowerCase().match(/\b(der|die|das|und|ist|wie|was|bitte|ich|nicht|mit|für|eine?n?|können|schreibe?|erkläre?)\b/g)
  return (hits?.length ?? 0) >= 2 ? 'de' : 'en'
}

const LEADS = [
  /^(please|bitte),?\s+/i,
  /^(can|could|would|will) you\s+(please\s+)?/i,
  /^(kannst|könntest) du\s+(mir\s+)?/i,
  /^(explain|describe|summari[sz]e|tell me about|tell me|give me|show me|write|draft|compose|create|make|list|compare|search (the web|online|the internet) for|search for|look up|find|read|open)\s+/i,
  /^(erkläre?|beschreibe?|fasse|schreibe?|erstelle|vergleiche|suche( im web)? nach|zeige? mir|nenne)\s+(mir\s+)?/i,
  /^how (much|many|long|often)\s+(does|do|is|are|can|should)\s+(i\s+|we\s+)?/i,
  /^(what|who|how|why|when|where|which)\s+(is|are|was|were|do|does|did|can|should|would)\s+(i\s+|we\s+)?/i,
  /^(was|wer|wie|warum|wann|wo|welche[rs]?)\s+(ist|sind|war|kann|soll|muss)\s+(ich\s+|man\s+)?/i,
  /^(an?|the|ein(e|en)?|der|die|das)\s+/i,
]

/** The subject of a message: its first sentence without the polite lead-in and the question mark. */
export function subjectOf(message: string): string {
  let text = message.replace(/https?:\/\/\S+/g, '').split(/(?<=[.!?])\s|\n/)[0]!.trim()
  for (let changed = true; changed; ) {
    changed = false
    for (const lead of LEADS) {
      const next = text.replace(lead, '')
      if (next !== text) [text, changed] = [next, true]
    }
  }
  return text.replace(/[?!.:;,]+$/, '').trim()
}

/** A title as a person would write it: the subject, capitalised, cut at a word to at most 50 characters. */
export function titleOf(message: string, language: Language = languageOf(message)): string {
  let title = ''
  for (const word of subjectOf(message).split(/\s+/).filter(Boolean)) {
    if (`${title} ${word}`.trim().length > 50) break
    title = `${title} ${word}`.trim()
  }
  if (!title) return language === 'de' ? 'Neuer Chat' : 'New chat'
  return title.charAt(0).toUpperCase() + title.slice(1)
}

type Content = { points: string[]; rows: [string, string, string][] }
type Theme = { match: RegExp; en: Content; de: Content; code: { lang: string; body: string }; math: string }

const THEMES: Theme[] = [
  {
    match: /vector|embedding|search|retriev|rag|index|such|vektor/i,
    en: {
      points: ['Split the texts into passages of a few hundred words.', 'Embed each passage once and store the vector beside it.', 'Embed the question and rank passages by cosine similarity.', 'Add keyword search for names and numbers.'],
      rows: [['Vectors', 'Meaning', 'Finds paraphrases'], ['Keywords', 'Exact words', 'Finds names and numbers'], ['Hybrid', 'Both ranks merged', 'Most robust']],
    },
    de: {
      points: ['Texte in Abschnitte von einigen hundert Wörtern teilen.', 'Jeden Abschnitt einmal einbetten und den Vektor daneben speichern.', 'Die Frage einbetten und Abschnitte nach Kosinus-Ähnlichkeit ordnen.', 'Stichwortsuche für Namen und Zahlen ergänzen.'],
      rows: [['Vektoren', 'Bedeutung', 'Findet Umschreibungen'], ['Stichwörter', 'Genaue Wörter', 'Findet Namen und Zahlen'], ['Hybrid', 'Beide Ranglisten vereint', 'Am robustesten']],
    },
    code: { lang: 'sql', body: "SELECT id, content\nFROM chunks\nORDER BY vector_distance_cos(embedding, vector32(?))\nLIMIT 5;" },
    math: '\\cos(\\theta) = \\frac{a \\cdot b}{\\lVert a \\rVert \\, \\lVert b \\rVert}',
  },
  {
    match: /code|function|script|program|typescript|javascript|python|api|bug|test|funktion/i,
    en: {
      points: ['State what the function takes and returns.', 'Handle the empty and the invalid input first.', 'Keep the happy path short and readable.', 'Cover it with one test per case.'],
      rows: [['Input', 'Validated at the edge', 'Clear errors'], ['Logic', 'Small pure functions', 'Easy to test'], ['Output', 'One stable shape', 'Safe for callers']],
    },
    de: {
      points: ['Festhalten, was die Funktion nimmt und liefert.', 'Leere und ungültige Eingaben zuerst behandeln.', 'Den Normalfall kurz und lesbar halten.', 'Jeden Fall mit einem Test abdecken.'],
      rows: [['Eingabe', 'Am Rand geprüft', 'Klare Fehler'], ['Logik', 'Kleine reine Funktionen', 'Leicht zu testen'], ['Ausgabe', 'Eine feste Form', 'Sicher für Aufrufer']],
    },
    code: { lang: 'ts', body: "export function median(values: number[]): number {\n  if (values.length === 0) throw new Error('no values')\n  const sorted = [...values].sort((a, b) => a - b)\n  const mid = Math.floor(sorted.length / 2)\n  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2\n}" },
    math: '\\tilde{x} = \\begin{cases} x_{(n+1)/2} & n \\text{ odd} \\\\ \\tfrac{1}{2}(x_{n/2} + x_{n/2+1}) & n \\text{ even} \\end{cases}',
  },
  {
    match: /budget|cost|price|invest|interest|finance|money|salary|kosten|preis|geld|zins/i,
    en: {
      points: ['List the fixed costs first.', 'Estimate the variable costs per month.', 'Keep a reserve of about ten percent.', 'Compare the plan with the actual figures monthly.'],
      rows: [['Fixed costs', 'Rent, licences', 'Predictable'], ['Variable costs', 'Travel, usage', 'Watch monthly'], ['Reserve', '≈ 10 %', 'Absorbs surprises']],
    },
    de: {
      points: ['Zuerst die Fixkosten auflisten.', 'Die variablen Kosten pro Monat schätzen.', 'Eine Reserve von etwa zehn Prozent einplanen.', 'Plan und Ist-Zahlen monatlich vergleichen.'],
      rows: [['Fixkosten', 'Miete, Lizenzen', 'Planbar'], ['Variable Kosten', 'Reisen, Nutzung', 'Monatlich prüfen'], ['Reserve', '≈ 10 %', 'Fängt Überraschungen ab']],
    },
    code: { lang: 'python', body: "def future_value(principal, rate, years):\n    return principal * (1 + rate) ** years\n\nprint(round(future_value(10_000, 0.03, 5), 2))  # 11592.74" },
    math: 'FV = P \\, (1 + r)^{n}',
  },
]

const GENERAL: Theme = {
  match: /./,
  en: {
    points: ['Start from the goal and who it is for.', 'Break the work into steps that can each be checked.', 'Name the risks and who watches each.', 'Review the result with the people affected.'],
    rows: [['Goal', 'One sentence', 'Keeps focus'], ['Steps', 'Small and checkable', 'Shows progress'], ['Review', 'With those affected', 'Catches gaps early']],
  },
  de: {
    points: ['Vom Ziel ausgehen und davon, für wen es ist.', 'Die Arbeit in Schritte teilen, die sich einzeln prüfen lassen.', 'Risiken benennen und wer sie im Blick behält.', 'Das Ergebnis mit den Betroffenen durchgehen.'],
    rows: [['Ziel', 'Ein Satz', 'Hält den Fokus'], ['Schritte', 'Klein und prüfbar', 'Zeigt Fortschritt'], ['Rückblick', 'Mit den Betroffenen', 'Findet Lücken früh']],
  },
  code: { lang: 'yaml', body: 'plan:\n  goal: one sentence everyone can repeat\n  steps: [collect, decide, do, review]\n  review: every two weeks' },
  math: '\\text{progress} = \\frac{\\text{steps done}}{\\text{steps planned}} \\times 100\\,\\%',
}

const WORDS = {
  en: {
    intro: (s: string) => `Here is a structured overview of **${s}**: the key points, a comparison, a short example and the formula behind it.`,
    points: 'Key points', glance: 'At a glance', head: ['Aspect', 'What it means', 'Why it matters'], example: 'Example', formula: 'The formula',
    note: '_This answer comes from Kontor’s demo model, which runs on this machine and knows no facts. Connect a real provider under Admin Settings → Models for real answers._',
  },
  de: {
    intro: (s: string) => `Hier ist ein strukturierter Überblick über **${s}**: die wichtigsten Punkte, ein Vergleich, ein kurzes Beispiel und die Formel dahinter.`,
    points: 'Die wichtigsten Punkte', glance: 'Auf einen Blick', head: ['Aspekt', 'Bedeutung', 'Warum es zählt'], example: 'Beispiel', formula: 'Die Formel',
    note: '_Diese Antwort stammt vom Demo-Modell von Kontor, das auf diesem Rechner läuft und keine Fakten kennt. Verbinden Sie unter Admin-Einstellungen → Modelle einen echten Anbieter für echte Antworten._',
  },
}

/** A full markdown answer about the message's subject. */
export function composeAnswer(message: string): string {
  const language = languageOf(message)
  const w = WORDS[language]
  const subject = subjectOf(message) || (language === 'de' ? 'Ihre Frage' : 'your question')
  const theme = THEMES.find((t) => t.match.test(message)) ?? GENERAL
  return [
    `## ${titleOf(message, language)}`,
    w.intro(subject),
    `### ${w.points}`,
    theme[language].points.map((p, i) => `${i + 1}. ${p}`).join('\n'),
    `### ${w.glance}`,
    [`| ${w.head.join(' | ')} |`, '|---|---|---|', ...theme[language].rows.map((r) => `| ${r.join(' | ')} |`)].join('\n'),
    `### ${w.example}`,
    `\`\`\`${theme.code.lang}\n${theme.code.body}\n\`\`\``,
    `### ${w.formula}`,
    `$$\n${theme.math}\n$$`,
    w.note,
  ].join('\n\n')
}
