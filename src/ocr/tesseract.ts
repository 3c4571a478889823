import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import type { PageReader, TextRecognition } from '../lib/ports'
// The language data ship as npm packages: read from disk (or, in the single binary, from the
// binary itself), never downloaded. Importing a file gives its path; nothing is read at start.
import deuData from '@tesseract.js-data/deu/4.0.0_best_int/deu.traineddata.gz' with { type: 'file' }
import engData from '@tesseract.js-data/eng/4.0.0_best_int/eng.traineddata.gz' with { type: 'file' }

/** Pages are drawn at 300 dpi, as scanners do, and at most this many pixels (a poster-sized page is drawn smaller). */
const DPI = 300
const MAX_PAGE_PIXELS = 30_000_000

/**
 * OCR with tesseract.js (English and German together) in a worker thread, so the server keeps
 * answering while a page is read; PDF pages are drawn with pdf.js on @napi-rs/canvas. Both are
 * imported when the first file needs them, and each file's engine ends with it.
 */
export function tesseractRecognition(): TextRecognition {
  return {
    async open(): Promise<PageReader> {
      // tesseract.js reports a worker thread that cannot load its engine to no one, and the process
      // ends: make sure the engine is there first (the single binary carries it inside).
      if (!process.env.KONTOR_OCR_WORKER && !existsSync(join(dirname(require.resolve('tesseract.js-core/package.json')), 'tesseract-core-relaxedsimd.wasm'))) {
        throw new Error('the tesseract.js-core package is incomplete')
      }
      const { createWorker, OEM } = await import('tesseract.js')
      // `cacheMethod: 'none'`: the unpacked data is neither looked for nor written in the working directory.
      const worker = await withLanguageDir((langPath) =>
        createWorker(['eng', 'deu'], OEM.LSTM_ONLY, {
          langPath,
          cacheMethod: 'none',
          gzip: true,
          // The single binary holds the worker thread's script itself (src/cli/compile.ts).
          ...(process.env.KONTOR_OCR_WORKER && { workerPath: process.env.KONTOR_OCR_WORKER }),
          logger: () => {},
          errorHandler: () => {},
        }),
      )
      // tesseract.js listens to its thread's errors the browser's way (`onerror`), which a Node
      // worker thread never calls: an error or an exit of the thread would end the process, or
      // leave a read waiting for ever. Both end the read that is running, and every later one.
      const thread = (worker as unknown as { worker: { on(event: 'error' | 'exit', listener: (value: unknown) => void): void } }).worker
      let ended: Error | null = null
      let endReading: (error: Error) => void = () => {}
      const end = (error: Error) => {
        ended ??= error
        endReading(ended)
      }
      thread.on('error', (error) => end(error instanceof Error ? error : new Error(String(error))))
      thread.on('exit', (code) => end(new Error(`the OCR engine ended (exit code ${String(code)})`)))
      const read = async (image: Uint8Array) => {
        if (ended) throw ended
        const stopped = new Promise<never>((_, reject) => (endReading = reject))
        const result = await Promise.race([worker.recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength)), stopped])
        return result.data.text
      }
      return {
        image: read,
        async pdfPage(pdf, number) {
          const { renderPageAsImage } = await import('unpdf')
          const page = await pdf.getPage(number)
          const { width, height } = page.getViewport({ scale: 1 })
          page.cleanup()
          const scale = Math.min(DPI / 72, Math.sqrt(MAX_PAGE_PIXELS / Math.max(1, width * height)))
          const png = await renderPageAsImage(pdf, number, { canvasImport: () => import('@napi-rs/canvas'), scale })
          return read(new Uint8Array(png))
        },
        close: async () => {
          await worker.terminate()
        },
      }
    },
  }
}

/**
 * Runs `use` with a directory holding both languages' data, as tesseract.js reads them
 * (`<langPath>/<code>.traineddata.gz`): the packages keep each language in a folder of its own,
 * and the single binary keeps them inside itself. The engine reads them while it starts (into its
 * own memory), so the directory is removed as soon as `use` has settled: none is left behind,
 * whether the process ends normally, is killed, or runs under a test runner.
 */
export async function withLanguageDir<T>(use: (path: string) => Promise<T>): Promise<T> {
  const path = mkdtempSync(join(tmpdir(), 'kontor-ocr-'))
  try {
    // A bundle names the files relative to its own folder (src/cli/bundle.ts), not to the working directory.
    for (const [code, file] of [['eng', engData], ['deu', deuData]] as const) {
      writeFileSync(join(path, `${code}.traineddata.gz`), new Uint8Array(await Bun.file(resolve(import.meta.dir, file)).arrayBuffer()))
    }
    return await use(path)
  } finally {
    rmSync(path, { recursive: true, force: true })
  }
}
