import { defineConfig } from '@playwright/test'

const port = Number(process.env.E2E_PORT ?? 3210)
// The servers render with React's production build, as a deployment does (the browser's bundle is
// built for production too); Kontor's own mode stays 'test' (tests/support/e2e-server.ts).
const SERVER_NODE_ENV = 'production'

export default defineConfig({
  // End-to-end tests of the screens (e2e/) and of the security suite (security/).
  testDir: '.',
  testMatch: ['e2e/**/*.e2e.ts', 'security/**/*.e2e.ts'],
  fullyParallel: true,
  // Two browsers at a time on 2 cores: three kept the machine at a load of about 13 and took as
  // long (14 minutes for the 134 tests either way), each test half as slow again.
  workers: 2,
  retries: 0,
  // On 2 cores Chromium needs about half a second for a
  // fresh page and a page of Kontor about one second more; a test that signs up and walks a few
  // screens takes 10–30 s. The budgets leave room for that twice over; waits are for conditions.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: `../test-results/e2e-${port}.json` }]],
  outputDir: `../test-results/artifacts-${port}`,
  use: {
    baseURL: `http://localhost:${port}`,
    locale: 'en-US',
    // A trace (screencast and DOM snapshots of every action) costs Chromium and the runner about
    // 40% more CPU on every test, passed or not; a failure keeps its screenshot and error context,
    // and E2E_TRACE=1 records traces again (kept for failed tests) when one is needed.
    trace: process.env.E2E_TRACE ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  webServer: [
    {
      command: `${process.env.BUN_BIN ?? '../node_modules/.bin/bun'} support/e2e-server.ts`,
      cwd: new URL('.', import.meta.url).pathname,
      url: `http://localhost:${port}/api/health`,
      reuseExistingServer: false,
      // The server removes its database and files on SIGTERM (without it, Playwright kills the process at once).
      gracefulShutdown: { signal: 'SIGTERM', timeout: 5000 },
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { E2E_PORT: String(port), NODE_ENV: SERVER_NODE_ENV },
    },
    // Cloud mode (subscriptions, seats, trial) for tests that `test.use({ baseURL })` it: tests/e2e/support/cloud.ts.
    {
      command: `${process.env.BUN_BIN ?? '../node_modules/.bin/bun'} support/e2e-cloud-server.ts`,
      cwd: new URL('.', import.meta.url).pathname,
      url: `http://localhost:${port + 3}/api/health`,
      reuseExistingServer: false,
      // The server removes its database and files on SIGTERM (without it, Playwright kills the process at once).
      gracefulShutdown: { signal: 'SIGTERM', timeout: 5000 },
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { E2E_PORT: String(port), NODE_ENV: SERVER_NODE_ENV },
    },
  ],
})
