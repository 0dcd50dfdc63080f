import type { DescService } from "@bufbuild/protobuf";
import type { ConnectRouter } from "@connectrpc/connect";
import { createExportService } from "./export-service.js";
import { Operations } from "./gen/google/longrunning/operations_pb.js";
import { TestControlService } from "./gen/linkhub/v1/control_pb.js";
import { ExportService } from "./gen/linkhub/v1/exports_pb.js";
import { LinkService } from "./gen/linkhub/v1/links_pb.js";
import { SampleService } from "./gen/linkhub/v1/samples_pb.js";
import { PageThemeService } from "./gen/linkhub/v1/themes_pb.js";
import { WorkflowService } from "./gen/linkhub/v1/workflows_pb.js";
import type { Holds } from "./holds.js";
import { createLinkService } from "./link-service.js";
import { createOperationsService } from "./operations-service.js";
import { createPageThemeService } from "./page-theme-service.js";
import type { Recorder } from "./recorder.js";
import { createSampleService } from "./sample-service.js";
import type { Store } from "./store.js";
import { createTestControlService } from "./test-control-service.js";
import { createWorkflowService } from "./workflow-service.js";

/**
 * The services of the test API, by fully-qualified name, whose requests are
 * recorded: all but `linkhub.v1.TestControlService` (GetOperation's name
 * included, as `google.longrunning.Operations/GetOperation`).
 */
export const recordedServices: readonly string[] = [
  LinkService.typeName,
  PageThemeService.typeName,
  WorkflowService.typeName,
  SampleService.typeName,
  ExportService.typeName,
  Operations.typeName,
];

/** Every service createRoutes() routes, as reflection lists them. */
export const routedServices: readonly DescService[] = [
  LinkService,
  PageThemeService,
  WorkflowService,
  SampleService,
  ExportService,
  Operations,
  TestControlService,
];

/**
 * Creates the routes of every `linkhub.v1` service and of
 * `google.longrunning.Operations`, over one store, one
 * recorder and, for HoldNext, the holds.
 */
export function createRoutes(
  store: Store,
  recorder: Recorder,
  holds?: Holds,
): (router: ConnectRouter) => void {
  return (router) => {
    router.service(LinkService, createLinkService(store));
    router.service(PageThemeService, createPageThemeService(store));
    router.service(WorkflowService, createWorkflowService(store));
    router.service(SampleService, createSampleService());
    router.service(ExportService, createExportService(store));
    router.service(Operations, createOperationsService(store));
    router.service(
      TestControlService,
      createTestControlService(store, recorder, holds),
    );
  };
}
