export {
  createLinkhubServer,
  defaultHost,
  startServer,
  type LinkhubServer,
  type LinkhubServerOptions,
  type ListenOptions,
  type RunningServer,
  type ServerAddress,
  type TlsOptions,
} from "./linkhub-server.js";
export { createRoutes, recordedServices, routedServices } from "./routes.js";
export {
  createReflectionRoutes,
  type ReflectionOptions,
  type ReflectionVersion,
} from "./reflection-service.js";
export { createStore, type Store } from "./store.js";
export { createRecorder, type Recorder } from "./recorder.js";
export {
  startServerProcess,
  testTlsFiles,
  type ServerProcess,
  type ServerProcessOptions,
} from "./server-process.js";
export { LinkService } from "./gen/linkhub/v1/links_pb.js";
export { ExportService } from "./gen/linkhub/v1/exports_pb.js";
export { Operations } from "./gen/google/longrunning/operations_pb.js";
export { PageThemeService } from "./gen/linkhub/v1/themes_pb.js";
export { TestControlService } from "./gen/linkhub/v1/control_pb.js";
