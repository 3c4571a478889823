import type { Config } from '../../lib/config'

/** The mail page exists in development and in the demo; in production it does not (404). */
export const mailPageEnabled = (config: Pick<Config, 'env'>) => config.env !== 'production'
