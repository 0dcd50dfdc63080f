/**
 * The Handlebars runtime (`handlebars/runtime.js`, CommonJS): the package's
 * own declaration of it exports nothing; render.ts gives it its type.
 */
declare module "handlebars/runtime.js" {
  const runtime: unknown;
  export default runtime;
}
