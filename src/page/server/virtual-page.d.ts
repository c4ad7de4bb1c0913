// The built page, made a module by the build (tsup.config.ts) for the Worker's page handler.
declare module 'virtual:movie-log-page' {
  const page: { html: string; assets: Record<string, string> }
  export default page
}
