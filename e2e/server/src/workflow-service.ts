import { clone, create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import { randomUUID } from "node:crypto";
import { invalidArgumentError, notFoundError } from "./errors.js";
import {
  CreateStepRequestSchema,
  StepSchema,
  WorkflowService,
  type Step,
} from "./gen/linkhub/v1/workflows_pb.js";
import type { Store } from "./store.js";

/**
 * Creates the `linkhub.v1.WorkflowService` implementation over `store`.
 *
 * A step needs an existing link and exactly one action; an `open_link`
 * action must name an existing link. Steps are numbered per link from 1.
 */
export function createWorkflowService(
  store: Store,
): ServiceImpl<typeof WorkflowService> {
  function requireLink(id: string): void {
    if (!store.links.has(id)) {
      throw notFoundError("link", id);
    }
  }

  function stepsOf(linkId: string): Step[] {
    return [...store.steps.values()].filter((step) => step.linkId === linkId);
  }

  return {
    createStep(req) {
      requireLink(req.linkId);
      if (req.action.case === undefined) {
        throw invalidArgumentError(
          "action",
          "action is not set: set exactly one of send_email, open_link or wait",
        );
      }
      if (req.action.case === "openLink") {
        requireLink(req.action.value.linkId);
      }
      // A copy, so that the stored step shares nothing with the request.
      const { action } = clone(CreateStepRequestSchema, req);
      const id = randomUUID();
      const step = create(StepSchema, {
        id,
        linkId: req.linkId,
        position: stepsOf(req.linkId).length + 1,
        action,
      });
      store.steps.set(id, step);
      return { step };
    },

    listSteps(req) {
      requireLink(req.linkId);
      return { steps: stepsOf(req.linkId) };
    },

    ping() {
      return { serverTime: new Date().toISOString() };
    },
  };
}
