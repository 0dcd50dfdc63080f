export {
  createLinkhubServer,
  defaultHost,
  startServer,
  type LinkhubServer,
  type ListenOptions,
  type RunningServer,
  type ServerAddress,
} from "./linkhub-server.js";
export { createRoutes, recordedServices } from "./routes.js";
export { createStore, type Store } from "./store.js";
export { createRecorder, type Recorder } from "./recorder.js";
