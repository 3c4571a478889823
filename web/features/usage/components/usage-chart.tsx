import { useEffect, useRef, useState } from 'react'
import type { UsageRow } from '../api'

/** uPlot's stylesheet, copied into the build by web/build.ts (versioned: build files are cached for good). */
const loadChart = () =>
  Promise.all([import('uplot'), import('uplot/package.json')]).then(([m, pkg]) => ({ uPlot: m.default, stylesheet: `/build/uplot-${pkg.version}/uPlot.min.css` }))

const colour = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim()

/**
 * Bars of one value per day, drawn by uPlot (about 20 KB compressed, loaded with import() on the
 * usage pages only). The canvas is hidden from screen readers: the table beside it holds the numbers.
 */
export function UsageChart(props: { days: UsageRow[]; value: (row: UsageRow) => number; format: (n: number) => string; label: string }) {
  const box = useRef<HTMLDivElement>(null)
  const [stylesheet, setStylesheet] = useState<string>()
  const { days, value, format, label } = props

  useEffect(() => {
    const el = box.current
    if (!el) return
    let chart: { destroy(): void; setSize(size: { width: number; height: number }): void } | undefined
    let observer: ResizeObserver | undefined
    let gone = false
    void loadChart().then(({ uPlot, stylesheet }) => {
      if (gone) return
      setStylesheet(stylesheet)
      const text = colour('--muted-foreground')
      const grid = colour('--border')
      const bar = colour('--primary')
      const xs = days.map((d) => Date.parse(`${d.key}T00:00:00Z`) / 1000)
      const ys = days.map(value)
      const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } }
      chart = new uPlot(
        {
          width: el.clientWidth,
          height: 220,
          tzDate: (ts: number) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
          legend: { show: false },
          cursor: { show: false },
          scales: { x: { time: true }, y: { range: (_u: unknown, _min: number, max: number) => [0, max > 0 ? max * 1.1 : 1] } },
          series: [{}, { label, stroke: bar, fill: bar, width: 0, paths: uPlot.paths.bars!({ size: [0.7, 40] }), points: { show: false } }],
          axes: [axis, { ...axis, size: 64, values: (_u: unknown, ticks: number[]) => ticks.map(format) }],
        },
        [xs, ys],
        el,
      )
      observer = new ResizeObserver(() => chart?.setSize({ width: el.clientWidth, height: 220 }))
      observer.observe(el)
    })
    return () => {
      gone = true
      observer?.disconnect()
      chart?.destroy()
    }
  }, [days, value, format, label])

  return (
    <>
      {stylesheet && <link rel="stylesheet" href={stylesheet} precedence="uplot" />}
      <div ref={box} aria-hidden data-testid="usage-chart" className="min-h-[220px] w-full overflow-hidden" />
    </>
  )
}
