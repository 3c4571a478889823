export * from './organizations'
export * from './auth'
export * from './system'
export * from './invites'
