declare module 'oidc-provider' {
  const Provider: any
  export default Provider
}
